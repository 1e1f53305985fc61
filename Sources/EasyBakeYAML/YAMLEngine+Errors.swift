internal import CYAML
import EasyBake

// Locations and errors: where libyaml stands, and its problems as
// EasyBakeErrors with line and column.
extension YAMLEngine {
    func currentLocation() -> SourceLocation {
        location(line: markLine, column: markColumn)
    }

    func currentMark() -> SourceMark {
        let (line, column, bytes, filePath, sourceName) = (markLine, markColumn, bytes, filePath, sourceName)
        return SourceMark {
            Self.location(line: line, column: column, bytes: bytes, filePath: filePath, sourceName: sourceName)
        }
    }

    func location(line: Int, column: Int) -> SourceLocation {
        Self.location(line: line, column: column, bytes: bytes, filePath: filePath, sourceName: sourceName)
    }

    /// The 1-based location of libyaml's 0-based mark, with the line's text
    /// when the input can be looked at again.
    static func location(
        line: Int, column: Int, bytes: LoadedBytes?, filePath: String?, sourceName: String
    ) -> SourceLocation {
        let excerpt: LoadedBytes? = bytes ?? filePath.flatMap { path in try? LoadedBytes(mapping: path) }
        guard let excerpt else { return SourceLocation(sourceName: sourceName, line: line + 1, column: column + 1) }
        let buffer = excerpt.buffer
        var offset = 0
        var currentLine = 0
        while currentLine < line, offset < buffer.count {
            let byte = buffer[offset]
            offset += 1
            if byte == UInt8(ascii: "\n") {
                currentLine += 1
            } else if byte == UInt8(ascii: "\r") {
                if offset < buffer.count, buffer[offset] == UInt8(ascii: "\n") { offset += 1 }
                currentLine += 1
            }
        }
        var scalars = 0
        while scalars < column, offset < buffer.count, buffer[offset] != UInt8(ascii: "\n") {
            offset += 1
            while offset < buffer.count, buffer[offset] & 0xC0 == 0x80 { offset += 1 }
            scalars += 1
        }
        var located = SourceLocation.locate(offset: offset, in: buffer, sourceName: sourceName)
        // libyaml's own count wins where the two could differ (Unicode line
        // breaks); the excerpt stays.
        located.line = line + 1
        located.column = column + 1
        return located
    }

    /// The error of a stream of several documents read as one.
    func multipleDocumentsError() -> EasyBakeError {
        let mark = secondDocumentMark ?? (markLine, markColumn)
        return EasyBakeError(
            .multipleDocuments,
            "the YAML stream holds \(documentCount) documents where one is expected (the second begins here); "
                + "read every document as an array with YAMLReadingOptions(documents: .all) (easybake: --documents all), "
                + "or one of them with documents: .document(N), counting from 0 (easybake: --document N)",
            location: location(line: mark.line, column: mark.column))
    }

    func parserError() -> EasyBakeError {
        if var error = chunks?.error {
            // The reader cannot tell where the limit was passed; a file can
            // be looked at again to say so.
            if error.code == .limitExceeded, error.location == nil, let filePath,
               let file = try? LoadedBytes(mapping: filePath) {
                error.location = SourceLocation.locate(
                    offset: options.limits.maximumInputBytes, in: file.buffer, sourceName: sourceName)
            }
            return error
        }
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? "malformed YAML"
        switch state.error {
        case YAML_MEMORY_ERROR:
            return EasyBakeError(.io, "libyaml ran out of memory")
        case YAML_READER_ERROR:
            let offset = startOffset + state.problem_offset
            var message = problem
            if state.problem_value != -1 {
                let hex = String(UInt8(truncatingIfNeeded: state.problem_value), radix: 16, uppercase: true)
                message += " (byte 0x\(hex.count == 1 ? "0" + hex : hex))"
            }
            let located = bytes.map { SourceLocation.locate(offset: offset, in: $0.buffer, sourceName: sourceName) }
                ?? SourceLocation(sourceName: sourceName, line: 1, column: 1, byteOffset: offset)
            return EasyBakeError(.unsupportedEncoding, "\(message) at byte \(offset)", location: located)
        default:
            var message = problem
            if let context = state.context.map({ String(cString: $0) }) {
                message = "\(context) (line \(startLine + state.context_mark.line + 1), column \(state.context_mark.column + 1)): \(problem)"
            }
            return EasyBakeError.syntax(message, at: location(line: startLine + state.problem_mark.line, column: state.problem_mark.column))
        }
    }
}
