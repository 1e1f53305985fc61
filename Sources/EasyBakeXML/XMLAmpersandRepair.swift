import EasyBake

/// The half of a lenient reading (``XMLReadingOptions/lenientReferences``)
/// that happens before libxml2 sees the bytes: an `&` that starts no
/// reference — a URL's `?a=1&b=2` in a feed — is rewritten `&amp;`, and
/// reported as a warning at its line and column.
///
/// libxml2 stops at such an `&` (a fatal error that no callback can
/// repair), so the bytes are mended on their way in. Only where XML text
/// can hold a reference: in content and in attribute values; never in
/// comments, CDATA sections, processing instructions or the document type
/// declaration, where an `&` is either allowed as it is or left for
/// libxml2 to refuse. A reference (`&name;`, `&#38;`, `&#x26;`) is left as
/// written: whether its name is declared is for the entity hook to say.
///
/// Each rewrite adds four bytes (`amp;`) that libxml2 counts in its
/// columns; ``originalColumn(line:column:)`` takes them out again, so that
/// every location reported names the input as written.
///
/// The rewrite works on bytes, so it runs on UTF-8 and the other
/// ASCII-compatible encodings only (the reader does not make one for
/// UTF-16). Columns count UTF-8 characters, as libxml2's do.
struct XMLAmpersandRepair {
    private enum State: Equatable {
        case content
        /// Inside a start tag; `quote` is the quote of the attribute value
        /// being read, or 0 between attributes.
        case startTag(quote: UInt8)
        case endTag
        case comment
        case cdata
        case processingInstruction
        /// Inside `<!DOCTYPE …>` (or another `<!` declaration): `depth` is
        /// 1 inside the internal subset's brackets.
        case declaration(quote: UInt8, depth: Int)
        case declarationComment(depth: Int)
        case declarationProcessingInstruction(depth: Int)
    }

    /// What the bytes after an `&` make of it.
    private enum Reference {
        case reference
        case bare
        /// The input ends before it is known: wait for the next bytes.
        case needsMore
    }

    /// An `&` whose name runs this long without a `;` is left to libxml2
    /// (which refuses names over 50,000 bytes): the wait for its end is
    /// bounded.
    private static let longestReference = 1024

    let sourceName: String
    private var state = State.content
    /// Bytes not yet decided (an `&` or `<` whose meaning the next bytes
    /// tell), read again at the front of the next call.
    private var pending: [UInt8] = []
    /// The last two bytes passed, for the terminators `-->`, `]]>` and `?>`.
    private var previous: (UInt8, UInt8) = (0, 0)
    /// The position of the next byte in the input as written.
    private var line = 1
    private var column = 1
    private var afterCarriageReturn = false
    private var atStart = true
    /// How many `amp;` went into the current line so far.
    private var insertedOnLine = 0
    /// One warning per rewritten `&`.
    private(set) var warnings: [EasyBakeError] = []
    /// Each rewritten `&` as libxml2 sees it: its line and its column in the
    /// rewritten text, in input order.
    private(set) var insertions: [(line: Int, column: Int)] = []
    /// Where each `amp;` begins in the rewritten text, in input order: what
    /// turns an offset libxml2 was fed into one of the input as written.
    private(set) var insertionOffsets: [Int] = []
    /// The bytes written so far.
    private var emitted = 0

    init(sourceName: String) { self.sourceName = sourceName }

    /// Mends the next bytes of the input into `out`; `final` when they are
    /// the last (an `&` at the very end is then bare).
    mutating func repair(_ input: UnsafeRawBufferPointer, final: Bool, into out: inout XMLTextBuffer) {
        var bytes = pending
        pending = []
        bytes.append(contentsOf: input)
        bytes.withUnsafeBufferPointer { buffer in scan(buffer, final: final, into: &out) }
    }

    /// The offset in the input as written of `offset` in the rewritten
    /// text (a byte the rewrite kept).
    func originalOffset(_ offset: Int) -> Int {
        var low = 0
        var high = insertionOffsets.count
        while low < high {
            let middle = (low + high) / 2
            if insertionOffsets[middle] < offset { low = middle + 1 } else { high = middle }
        }
        return offset - 4 * low
    }

    /// The column libxml2 reports on `line` (counting the `amp;`s it was
    /// given) as a column of the input as written.
    func originalColumn(line: Int, column: Int) -> Int {
        guard !insertions.isEmpty else { return column }
        // The first insertion on the line: insertions are in input order.
        var low = 0
        var high = insertions.count
        while low < high {
            let middle = (low + high) / 2
            if insertions[middle].line < line { low = middle + 1 } else { high = middle }
        }
        var result = column
        var index = low
        while index < insertions.count, insertions[index].line == line, insertions[index].column < column {
            // A column inside the inserted `amp;` counts as just after the `&`.
            result -= min(4, column - insertions[index].column - 1)
            index += 1
        }
        return result
    }

    /// `nil` when libxml2's text of `line` is the input's; else the line as
    /// written, or `.some(nil)` when its start was not at hand when it was
    /// rewritten.
    func rewrittenLine(_ line: Int) -> String?? {
        guard let last = insertions.last, last.line >= line,
            let index = insertions.firstIndex(where: { $0.line == line })
        else { return nil }
        // One warning per insertion, in the same order.
        return .some(warnings[index].location?.lineText)
    }

    // MARK: Scanning

    private mutating func scan(_ b: UnsafeBufferPointer<UInt8>, final: Bool, into out: inout XMLTextBuffer) {
        let n = b.count
        var i = 0
        /// The first byte not yet written to `out`.
        var written = 0
        /// Where the current line starts in `b`, when it starts there.
        var lineStart: Int? = column == 1 ? 0 : nil
        if atStart, n >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF {
            // libxml2 does not count a byte order mark in its columns.
            i = 3
            lineStart = 3
        }
        if n > 0 { atStart = false }

        func pass(_ byte: UInt8) {
            previous = (previous.1, byte)
            if byte == 0x0A {
                if !afterCarriageReturn { line += 1; insertedOnLine = 0 }
                column = 1
                afterCarriageReturn = false
                lineStart = i + 1
            } else if byte == 0x0D {
                line += 1
                insertedOnLine = 0
                column = 1
                afterCarriageReturn = true
                lineStart = i + 1
            } else {
                afterCarriageReturn = false
                if byte & 0xC0 != 0x80 { column += 1 }
            }
            i += 1
        }
        func hasPrefix(_ text: StaticString) -> Bool? {
            let count = text.utf8CodeUnitCount
            for k in 0..<count {
                guard i + k < n else { return final ? false : nil }
                if b[i + k] != text.utf8Start[k] { return false }
            }
            return true
        }
        func enter(_ next: State, passing count: Int) {
            for _ in 0..<count { pass(b[i]) }
            state = next
            previous = (0, 0)
        }

        scanning: while i < n {
            let byte = b[i]
            switch state {
            case .content, .startTag:
                let inValue = if case .startTag(let quote) = state { quote != 0 } else { state == .content }
                if byte == UInt8(ascii: "&"), inValue {
                    switch reference(b, at: i, final: final) {
                    case .reference:
                        pass(byte)
                    case .needsMore:
                        break scanning
                    case .bare:
                        note(b, at: i, lineStart: lineStart)
                        out.append(b.baseAddress! + written, count: i + 1 - written)
                        emitted += i + 1 - written
                        insertionOffsets.append(emitted)
                        Self.amp.withUnsafeBufferPointer { out.append($0.baseAddress!, count: 4) }
                        emitted += 4
                        pass(byte)
                        written = i
                    }
                    continue
                }
                switch state {
                case .content:
                    guard byte == UInt8(ascii: "<") else { pass(byte); continue }
                    guard i + 1 < n else {
                        if final { pass(byte); continue }
                        break scanning
                    }
                    switch b[i + 1] {
                    case UInt8(ascii: "?"): enter(.processingInstruction, passing: 2)
                    case UInt8(ascii: "/"): enter(.endTag, passing: 2)
                    case UInt8(ascii: "!"):
                        guard let comment = hasPrefix("<!--"), let cdata = hasPrefix("<![CDATA[") else {
                            break scanning
                        }
                        if comment {
                            enter(.comment, passing: 4)
                        } else if cdata {
                            enter(.cdata, passing: 9)
                        } else {
                            enter(.declaration(quote: 0, depth: 0), passing: 2)
                        }
                    default: enter(.startTag(quote: 0), passing: 1)
                    }
                case .startTag(let quote):
                    if quote != 0 {
                        if byte == quote { state = .startTag(quote: 0) }
                    } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                        state = .startTag(quote: byte)
                    } else if byte == UInt8(ascii: ">") {
                        state = .content
                    }
                    pass(byte)
                default:
                    pass(byte)
                }
            case .endTag:
                if byte == UInt8(ascii: ">") { state = .content }
                pass(byte)
            case .comment:
                if byte == UInt8(ascii: ">"), previous == (UInt8(ascii: "-"), UInt8(ascii: "-")) { state = .content }
                pass(byte)
            case .cdata:
                if byte == UInt8(ascii: ">"), previous == (UInt8(ascii: "]"), UInt8(ascii: "]")) { state = .content }
                pass(byte)
            case .processingInstruction:
                if byte == UInt8(ascii: ">"), previous.1 == UInt8(ascii: "?") { state = .content }
                pass(byte)
            case .declaration(let quote, let depth):
                if quote != 0 {
                    if byte == quote { state = .declaration(quote: 0, depth: depth) }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    state = .declaration(quote: byte, depth: depth)
                } else if byte == UInt8(ascii: "[") {
                    state = .declaration(quote: 0, depth: depth + 1)
                } else if byte == UInt8(ascii: "]") {
                    state = .declaration(quote: 0, depth: max(0, depth - 1))
                } else if byte == UInt8(ascii: ">"), depth == 0 {
                    state = .content
                } else if byte == UInt8(ascii: "<"), depth > 0 {
                    // A comment or processing instruction of the internal
                    // subset may hold quotes and brackets of its own.
                    guard let comment = hasPrefix("<!--"), let instruction = hasPrefix("<?") else { break scanning }
                    if comment {
                        enter(.declarationComment(depth: depth), passing: 4)
                        continue
                    } else if instruction {
                        enter(.declarationProcessingInstruction(depth: depth), passing: 2)
                        continue
                    }
                }
                pass(byte)
            case .declarationComment(let depth):
                if byte == UInt8(ascii: ">"), previous == (UInt8(ascii: "-"), UInt8(ascii: "-")) {
                    state = .declaration(quote: 0, depth: depth)
                }
                pass(byte)
            case .declarationProcessingInstruction(let depth):
                if byte == UInt8(ascii: ">"), previous.1 == UInt8(ascii: "?") {
                    state = .declaration(quote: 0, depth: depth)
                }
                pass(byte)
            }
        }
        if i > written {
            out.append(b.baseAddress! + written, count: i - written)
            emitted += i - written
        }
        if i < n { pending = Array(b[i...]) }
    }

    private static let amp: [UInt8] = Array("amp;".utf8)

    /// What the `&` at `start` begins.
    private func reference(_ b: UnsafeBufferPointer<UInt8>, at start: Int, final: Bool) -> Reference {
        let n = b.count
        let undecided: Reference = final ? .bare : .needsMore
        var j = start + 1
        guard j < n else { return undecided }
        if b[j] == UInt8(ascii: "#") {
            j += 1
            guard j < n else { return undecided }
            let hex = b[j] == UInt8(ascii: "x")
            if hex { j += 1 }
            let digits = j
            while j < n, Self.isDigit(b[j], hex: hex) {
                j += 1
                if j - start > Self.longestReference { return .reference }
            }
            guard j < n else { return undecided }
            return j > digits && b[j] == UInt8(ascii: ";") ? .reference : .bare
        }
        guard Self.isNameStart(b[j]) else { return .bare }
        j += 1
        while j < n,
            Self.isNameStart(b[j]) || Self.isDigit(b[j], hex: false) || b[j] == UInt8(ascii: "-")
                || b[j] == UInt8(ascii: ".")
        {
            j += 1
            if j - start > Self.longestReference { return .reference }
        }
        guard j < n else { return undecided }
        return b[j] == UInt8(ascii: ";") ? .reference : .bare
    }

    /// A letter, `_`, `:` or any non-ASCII byte: what can start an XML
    /// name, near enough (libxml2 judges the name itself).
    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    private static func isDigit(_ byte: UInt8, hex: Bool) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            || hex && (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "f")
    }

    /// Records the rewrite of the bare `&` at `start`, at the current
    /// position.
    private mutating func note(_ b: UnsafeBufferPointer<UInt8>, at start: Int, lineStart: Int?) {
        // What follows the `&`, for the message: up to the next space or tag.
        var end = start + 1
        while end < b.count, end - start < 24, b[end] > 0x20, b[end] != UInt8(ascii: "<") { end += 1 }
        while end < b.count, end > start + 1, b[end] & 0xC0 == 0x80 { end -= 1 }
        let found = String(decoding: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self)
        var location = SourceLocation(sourceName: sourceName, line: line, column: column)
        if let lineStart {
            var lineEnd = start
            while lineEnd < b.count, b[lineEnd] != 0x0A, b[lineEnd] != 0x0D, lineEnd - lineStart < 400 { lineEnd += 1 }
            location.lineText = String(decoding: UnsafeBufferPointer(rebasing: b[lineStart..<lineEnd]), as: UTF8.self)
        }
        warnings.append(
            EasyBakeError(
                .syntax,
                "a bare \"&\" is read as text: expected a reference such as \"&amp;\" or \"&#38;\", found \(found.debugDescription)",
                location: location))
        insertions.append((line, column + 4 * insertedOnLine))
        insertedOnLine += 1
    }
}
