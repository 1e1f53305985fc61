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
        guard let excerpt = input(bytes: bytes, filePath: filePath) else {
            return SourceLocation(sourceName: sourceName, line: line + 1, column: column + 1)
        }
        return location(line: line, column: column, in: excerpt.buffer, sourceName: sourceName)
    }

    /// The location of libyaml's 0-based mark in `buffer`, the input.
    static func location(line: Int, column: Int, in buffer: UnsafeRawBufferPointer, sourceName: String)
        -> SourceLocation
    {
        // libyaml's marks are 0-based; every read below stays before
        // `buffer.count`.
        assert(line >= 0 && column >= 0, "a mark before the input")
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
        if currentLine < line {
            // libyaml ends the stream on a line of its own, past an input
            // without a final line break: the end of the input is where it is.
            return SourceLocation.locate(offset: buffer.count, in: buffer, sourceName: sourceName)
        }
        var scalars = 0
        while scalars < column, offset < buffer.count, buffer[offset] != UInt8(ascii: "\n") {
            offset += 1
            while offset < buffer.count, buffer[offset] & 0xC0 == 0x80 { offset += 1 }
            scalars += 1
        }
        assert(offset <= buffer.count, "a mark located past the input")
        var located = SourceLocation.locate(offset: offset, in: buffer, sourceName: sourceName)
        // libyaml's own count wins where the two could differ (Unicode line
        // breaks); the excerpt stays.
        located.line = line + 1
        located.column = column + 1
        return located
    }

    /// The input again, to point into: in memory, or the file mapped anew;
    /// `nil` for standard input, which was read once.
    func inputAgain() -> LoadedBytes? {
        Self.input(bytes: bytes, filePath: filePath)
    }

    static func input(bytes: LoadedBytes?, filePath: String?) -> LoadedBytes? {
        bytes ?? filePath.flatMap { path in try? LoadedBytes(mapping: path) }
    }

    /// What stands at the current mark, as the JSON reader's errors name
    /// it (``YAMLSyntaxMessage/describe(at:in:)``); `nil` when the input
    /// cannot be looked at again.
    func foundAtMark() -> String? {
        guard let input = inputAgain() else { return nil }
        let location = Self.location(line: markLine, column: markColumn, in: input.buffer, sourceName: sourceName)
        return YAMLSyntaxMessage.describe(at: location.byteOffset ?? input.buffer.count, in: input.buffer)
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
                let file = try? LoadedBytes(mapping: filePath)
            {
                error = EasyBakeError.inputTooLarge(
                    options.limits.maximumInputBytes, in: file.buffer, sourceName: sourceName)
            }
            return error
        }
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? ""
        let input = inputAgain()
        switch state.error {
        case YAML_MEMORY_ERROR:
            return EasyBakeError(.io, "libyaml ran out of memory")
        case YAML_READER_ERROR:
            // A byte range's offsets count from the range; the input's from its start.
            let offset = startOffset + state.problem_offset
            let located =
                input.map { SourceLocation.locate(offset: offset, in: $0.buffer, sourceName: sourceName) }
                ?? SourceLocation(sourceName: sourceName, line: 1, column: 1, byteOffset: offset)
            let message = YAMLSyntaxMessage.encoding(problem: problem, value: Int(state.problem_value), offset: offset)
            return EasyBakeError(.unsupportedEncoding, message, location: located)
        default:
            // libyaml's marks are 0-based and, in a byte range, count lines
            // from the range; its context mark is where the construct the
            // problem is in began.
            let context = state.context.map { String(cString: $0) }
            let message = YAMLSyntaxMessage(
                problem: problem, context: context, line: startLine + state.context_mark.line + 1,
                column: state.context_mark.column + 1)
            let mark = message.pointsAtContext ? state.context_mark : state.problem_mark
            guard let input else {
                return EasyBakeError.syntax(
                    message.text(input: nil, problem: 0, pointed: 0),
                    at: location(line: startLine + mark.line, column: mark.column))
            }
            let buffer = input.buffer
            let location = Self.location(
                line: startLine + mark.line, column: mark.column, in: buffer, sourceName: sourceName)
            let problemOffset = Self.location(
                line: startLine + state.problem_mark.line, column: state.problem_mark.column, in: buffer,
                sourceName: sourceName
            ).byteOffset
            return EasyBakeError.syntax(
                message.text(
                    input: buffer, problem: problemOffset ?? buffer.count, pointed: location.byteOffset ?? buffer.count),
                at: location)
        }
    }
}
