/// A position in a text payload: 1-based line and column, the byte offset,
/// and the text of the line for rendering an excerpt.
public struct SourceLocation: Sendable, Hashable {
    /// The name of the input (a file path, `<stdin>`), when known.
    public var sourceName: String?
    /// The line, counting from 1.
    public var line: Int
    /// The column in characters (Unicode scalars), counting from 1.
    public var column: Int
    /// The offset in bytes from the start of the input, when known.
    public var byteOffset: Int?
    /// The text of the line, without its line break, for an excerpt.
    public var lineText: String?

    /// A location at `line` and `column` (both from 1), optionally with the
    /// input's name, the byte offset and the line's text for an excerpt.
    public init(sourceName: String? = nil, line: Int, column: Int, byteOffset: Int? = nil, lineText: String? = nil) {
        self.sourceName = sourceName
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.lineText = lineText
    }

    /// Computes the location of `offset` in UTF-8 `bytes` by scanning them
    /// from the start — the lazy way: sources call this only when reporting.
    ///
    /// Lines end at `\n`, `\r\n` or a lone `\r`; columns count Unicode scalars.
    package static func locate(
        offset: Int, in bytes: UnsafeRawBufferPointer, sourceName: String? = nil
    ) -> SourceLocation {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        var i = 0
        while i < end {
            let byte = bytes[i]
            // A "\r" directly followed by "\n" is one break, counted at the "\n".
            if byte == UInt8(ascii: "\n")
                || (byte == UInt8(ascii: "\r") && (i + 1 == bytes.count || bytes[i + 1] != UInt8(ascii: "\n")))
            {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        // Columns count scalars: every byte that is not a UTF-8 continuation byte.
        var column = 1
        for j in lineStart..<end where bytes[j] & 0xC0 != 0x80 { column += 1 }
        var lineEnd = lineStart
        while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n"), bytes[lineEnd] != UInt8(ascii: "\r"),
            lineEnd - lineStart < 400
        {
            lineEnd += 1
        }
        let lineText = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[lineStart..<lineEnd]), as: UTF8.self)
        return SourceLocation(
            sourceName: sourceName, line: line, column: column, byteOffset: offset, lineText: lineText)
    }
}

extension SourceLocation: CustomStringConvertible {
    /// `name:line:column`, as compilers print it.
    public var description: String {
        "\(sourceName ?? "<input>"):\(line):\(column)"
    }
}
