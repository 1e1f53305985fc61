#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the documents of a YAML stream begin: how one worker of a
/// distributed job finds its share of a large stream by byte range.
///
/// YAML 1.2 forbids a line that begins with `---` or `...` (followed by a
/// space, a tab, a line break or the end) inside a document's content — in
/// a plain, quoted or block scalar alike — so such a line is always a
/// document marker, and a stream splits at them without being parsed:
/// - a `---` line begins a document, unless directives (`%YAML`, `%TAG`)
///   come before it, which belong to its document;
/// - so a directive line that follows a `...` line (or the stream's start)
///   begins one, with the `---` that ends its directives;
/// - the stream's start begins one.
///
/// Content after a `...` line that has no `---` of its own (a bare
/// document, which libyaml does not accept there) stays with the document
/// before it, so a share fails on it as reading the whole stream does.
/// A document belongs to the range it begins in, so the ranges of a
/// partition of the stream read every document exactly once, in order.
/// The comment and blank lines before a `---` go with the document before
/// it, where they read as nothing. A line that merely looks like a
/// directive inside a document's content (a `%` at column 0 in a scalar)
/// only joins the documents beside it into one share, never splits one.
struct YAMLDocumentRange {
    /// The bytes of the documents that begin in the range.
    let bytes: Range<Int>

    /// The documents of `buffer` that begin in `range`.
    init(_ range: Range<Int>, in buffer: UnsafeRawBufferPointer) {
        // A range that begins before the input (a caller's first share,
        // computed) reads from its start, as JSON's byte ranges do; the
        // scans below read bytes at the offsets they are given.
        let start = Self.boundary(atOrAfter: max(range.lowerBound, 0), in: buffer)
        let end = Self.boundary(atOrAfter: max(range.upperBound, start), in: buffer)
        bytes = start..<end
    }

    /// The first document boundary at or after `offset` (the end of the
    /// buffer when there is none).
    static func boundary(atOrAfter offset: Int, in buffer: UnsafeRawBufferPointer) -> Int {
        assert(offset >= 0, "a boundary looked for before the input")
        let count = buffer.count
        var line = min(offset, count)
        if line == 0 { return 0 }
        if !isLineStart(line, in: buffer) { line = nextLine(after: line, in: buffer) }
        while line < count {
            switch buffer[line] {
            case UInt8(ascii: "-"):
                if isMarker("---", at: line, in: buffer), !follows(directive: true, line, in: buffer) { return line }
            case UInt8(ascii: "%"):
                if follows(directive: false, line, in: buffer) { return line }
            default:
                break
            }
            line = nextLine(after: line, in: buffer)
        }
        return count
    }

    /// Whether `offset` begins a line: the first byte, or one after a line
    /// break (not between the `\r` and `\n` of one).
    static func isLineStart(_ offset: Int, in buffer: UnsafeRawBufferPointer) -> Bool {
        if offset == 0 { return true }
        let before = buffer[offset - 1]
        if before == UInt8(ascii: "\n") { return true }
        return before == UInt8(ascii: "\r") && (offset == buffer.count || buffer[offset] != UInt8(ascii: "\n"))
    }

    /// The start of the line after the one `offset` is in (the buffer's end
    /// for the last line).
    static func nextLine(after offset: Int, in buffer: UnsafeRawBufferPointer) -> Int {
        var position = offset
        let count = buffer.count
        while position < count {
            let byte = buffer[position]
            position += 1
            if byte == UInt8(ascii: "\n") { return position }
            if byte == UInt8(ascii: "\r") {
                if position < count, buffer[position] == UInt8(ascii: "\n") { position += 1 }
                return position
            }
        }
        return count
    }

    /// The start of the line before the one that begins at `line`, `nil` for
    /// the first line.
    static func previousLine(before line: Int, in buffer: UnsafeRawBufferPointer) -> Int? {
        guard line > 0 else { return nil }
        var position = line - 1
        // Past the previous line's break (`\n`, `\r` or `\r\n`).
        if buffer[position] == UInt8(ascii: "\n"), position > 0, buffer[position - 1] == UInt8(ascii: "\r") {
            position -= 1
        }
        while position > 0, !isLineStart(position, in: buffer) { position -= 1 }
        return position
    }

    /// Whether the line at `line` is the marker `marker` (`---` or `...`):
    /// the three characters, then a space, a tab, a line break or the end.
    static func isMarker(_ marker: StaticString, at line: Int, in buffer: UnsafeRawBufferPointer) -> Bool {
        let count = buffer.count
        guard line + 3 <= count else { return false }
        let text = marker.utf8Start
        for index in 0..<3 where buffer[line + index] != text[index] { return false }
        guard line + 3 < count else { return true }
        let after = buffer[line + 3]
        return after == UInt8(ascii: " ") || after == UInt8(ascii: "\t") || after == UInt8(ascii: "\n")
            || after == UInt8(ascii: "\r")
    }

    /// Whether the nearest line before `line` that is neither blank nor a
    /// comment is a directive (`%YAML 1.2`, with `directive`; the `---` at
    /// `line` then ends its directives) or a document end marker `...`
    /// (without `directive`; the directive at `line` then begins a
    /// document). With no such line, `line` is among the stream's first.
    static func follows(directive: Bool, _ line: Int, in buffer: UnsafeRawBufferPointer) -> Bool {
        var current = line
        while let previous = previousLine(before: current, in: buffer) {
            var first = previous
            while first < current, buffer[first] == UInt8(ascii: " ") || buffer[first] == UInt8(ascii: "\t") {
                first += 1
            }
            if first < current {
                let byte = buffer[first]
                if byte != UInt8(ascii: "#"), byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r") {
                    guard previous == first else { return false }
                    return directive ? byte == UInt8(ascii: "%") : isMarker("...", at: previous, in: buffer)
                }
            }
            current = previous
        }
        return !directive
    }

    /// How many lines come before `offset`, counted as libyaml counts them
    /// (`\n`, `\r` and `\r\n` each end one): what a mark in a range's bytes
    /// adds to its line to be a line of the whole stream.
    static func lines(before offset: Int, in buffer: UnsafeRawBufferPointer) -> Int {
        // memchr reads `offset` bytes: the offset must be in the buffer.
        assert(offset <= buffer.count, "lines counted past the input")
        guard offset > 0, let base = buffer.baseAddress else { return 0 }
        var lines = 0
        var position = 0
        let hasReturn = memchr(base, Int32(UInt8(ascii: "\r")), offset) != nil
        if !hasReturn {
            // The common case: only `\n` ends lines, found at memchr's speed.
            while position < offset, let found = memchr(base + position, Int32(UInt8(ascii: "\n")), offset - position) {
                lines += 1
                position = UnsafeRawPointer(found) - base + 1
            }
            return lines
        }
        while position < offset {
            let next = nextLine(after: position, in: buffer)
            if next > offset || (next == buffer.count && !isLineStart(next, in: buffer)) { break }
            lines += 1
            position = next
        }
        return lines
    }
}
