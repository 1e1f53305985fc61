import EasyBake
@_spi(Fuzzing) import EasyBakeJSON
import EasyBakeTestSupport
import Testing

/// The skip and the build over JSON's structure check a string whose
/// special bytes are only UTF-8 text in C (`easybake_plain_string`) and
/// leave every other special string to the byte walk. The byte walk is the
/// reference: a string it reads without an escape or an error is plain, any
/// other is not, at every level of the pass, wherever the string stands in
/// a block and before the input's end; and the index, skip and search
/// agree with it, entry for entry or error for error.
@Suite("JSON strings checked in C over the structural pass")
struct JSONStructuralStringTests {
    /// Strings the byte walk reads: UTF-8 of every length, at its bounds.
    static let valid: [[UInt8]] = [
        [0xC3, 0xA9],  // é
        [0xC2, 0x80],  // U+0080
        [0xDF, 0xBF],  // U+07FF
        [0xE0, 0xA0, 0x80],  // U+0800
        [0xE2, 0x82, 0xAC],  // €
        [0xED, 0x9F, 0xBF],  // U+D7FF, below the surrogates
        [0xEE, 0x80, 0x80],  // U+E000, above them
        [0xEF, 0xBF, 0xBF],  // U+FFFF
        [0xF0, 0x90, 0x80, 0x80],  // U+10000
        [0xF0, 0x9F, 0x99, 0x82],  // 🙂
        [0xF3, 0xBF, 0xBF, 0xBF],
        [0xF4, 0x8F, 0xBF, 0xBF],  // U+10FFFF
        Array("José Müller".utf8),
        Array("Zürich – 東京 🙂 and ünïcödé text, longer than sixteen bytes \u{7F}".utf8),
    ]

    /// Strings the byte walk refuses, each for one reason.
    static let invalid: [[UInt8]] = [
        [0xC0, 0x80], [0xC1, 0xBF],  // overlong two-byte forms
        [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF],  // overlong three-byte forms
        [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],  // overlong four-byte forms
        [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],  // surrogates
        [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
        [0xF5, 0x80, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFF],  // no lead
        [0x80], [0xBF], [0xC3, 0xA9, 0xA9],  // lone continuations
        [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x99],  // cut short by the closing quote
        [0xE2, 0x41, 0xAC], [0xE2, 0x82, 0x41], [0xF0, 0x9F, 0x41, 0x82], [0xF0, 0x9F, 0x99, 0xC3],  // no continuation
        [0xC3, 0xA9, 0x01],  // a control character among UTF-8
        [0x09],  // a raw tab
    ]

    /// Strings the byte walk reads and decodes: never plain.
    static let escaped: [[UInt8]] = [
        Array("é\\n".utf8), Array("\\u00e9 é".utf8), Array("\\\\".utf8), Array("a\\\"é".utf8),
    ]

    /// Whether the byte walk reads `bytes` as a string without an error,
    /// and what it says if not.
    static func byteWalk(_ bytes: [UInt8]) -> String {
        JSONStructuralSkipTests.outcome(bytes, level: nil) { (source) throws(EasyBakeError) in
            "\(String(describing: try source.next()))"
        }
    }

    /// `content` between `prefix` and `suffix` ASCII bytes, quoted.
    static func quoted(_ content: [UInt8], prefix: Int, suffix: Int) -> [UInt8] {
        [UInt8(ascii: "\"")] + Array(repeating: UInt8(ascii: "a"), count: prefix) + content
            + Array(repeating: UInt8(ascii: "z"), count: suffix) + [UInt8(ascii: "\"")]
    }

    /// Each string, with up to 19 ASCII bytes before it (so that its
    /// sequences cross 8- and 16-byte steps) and 0 to 17 bytes of input
    /// after its closing quote (so that its reads meet the input's end):
    /// plain at every level exactly when the byte walk reads it without an
    /// escape, and plain for the valid ones only.
    @Test("plain at every level exactly when the byte walk reads it without escapes")
    func plainAsTheByteWalk() {
        var plain = 0
        var refused = 0
        for content in Self.valid + Self.invalid + Self.escaped {
            for prefix in 0..<20 {
                let suffix = (prefix * 7) % 5
                let string = Self.quoted(content, prefix: prefix, suffix: suffix)
                let reference = Self.byteWalk(string)
                let walkReads = reference.hasPrefix("Optional(")
                let isPlain = walkReads && !content.contains(UInt8(ascii: "\\"))
                #expect(walkReads == !Self.invalid.contains(content), "\(content) \(reference)")
                if isPlain { plain += 1 } else { refused += 1 }
                for after in [0, 1, 7, 15, 17] {
                    let input = string + Array(repeating: UInt8(ascii: " "), count: after)
                    for level in JSONStructuralPass.machineLevels {
                        #expect(
                            JSONStructuralPass.isPlainString(input, open: 0, close: string.count - 1, level: level)
                                == isPlain, "level \(level) prefix \(prefix) after \(after) \(content)")
                    }
                }
            }
        }
        #expect(plain == Self.valid.count * 20)
        #expect(refused == (Self.invalid.count + Self.escaped.count) * 20)
    }

    /// Each string at every offset of a 64-byte block, as a value, a key
    /// and an element, and last before the input's end: the index, the
    /// skip and the search over the structure give the byte walk's entries
    /// or its error, message, line and column, at every level.
    @Test("strings at every offset of a block: the same entries or error")
    func stringsAtEveryOffset() {
        var failed = 0
        var built = 0
        for content in Self.valid + Self.invalid + Self.escaped {
            for pad in 0..<66 {
                let spaces = Array(repeating: UInt8(ascii: " "), count: pad)
                let value = Self.quoted(content, prefix: pad % 19, suffix: pad % 3)
                let key = Self.quoted(content, prefix: (pad * 5) % 23, suffix: 0)
                let document =
                    Array("[".utf8) + spaces + value + Array(", 1, {".utf8) + key + Array(": ".utf8) + value
                    + Array("}, ".utf8) + value + Array("]".utf8)
                let ending = Array("{\"n\":".utf8) + spaces + value + Array("}".utf8)
                for bytes in [document, ending] {
                    let reference = JSONStructuralIndexTests.indexed(bytes, level: nil)
                    if reference.hasPrefix("syntax") { failed += 1 } else { built += 1 }
                    for level in JSONStructuralPass.machineLevels {
                        #expect(
                            JSONStructuralIndexTests.indexed(bytes, level: level) == reference,
                            "level \(level) pad \(pad) \(content)")
                    }
                }
                #expect(JSONStructuralDifferential.disagreements(in: document) == [], "pad \(pad) \(content)")
            }
        }
        #expect(failed == Self.invalid.count * 66 * 2)
        #expect(built == (Self.valid.count + Self.escaped.count) * 66 * 2)
    }

    /// A string longer than an entry's 20 bits of length has its length in
    /// its extra, where the check in C finds its closing quote: a fault
    /// just before the quote is found there, and a plain one built alike.
    @Test("strings too long for an entry: checked up to their own quote")
    func wideStrings() {
        let accented = Array(String(repeating: "é", count: 600_000).utf8)
        for tail: [UInt8] in [[], [0xC3], [0xED, 0xA0, 0x80], [0x01], [0xF0, 0x9F, 0x99, 0x82]] {
            let content = accented + tail
            let bytes = Array("{\"".utf8) + content + Array("\": [\"".utf8) + content + Array("\", 1]}".utf8)
            let reference = JSONStructuralIndexTests.indexed(bytes, level: nil)
            #expect(reference.hasPrefix("syntax") == (tail.count == 1 || tail.first == 0xED), "\(tail)")
            for level in JSONStructuralPass.machineLevels {
                #expect(JSONStructuralIndexTests.indexed(bytes, level: level) == reference, "level \(level) \(tail)")
            }
        }
    }

    /// A string left open at the input's end, cut inside a sequence or
    /// after one, at every offset of a block.
    @Test("strings cut short by the input's end: the same error")
    func stringsCutByTheEnd() {
        let cuts: [[UInt8]] = [[0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x99], [0xC3, 0xA9], [0xF0, 0x9F, 0x99, 0x82]]
        for cut in cuts {
            for pad in 0..<66 {
                let bytes =
                    Array("[\"é\", ".utf8) + Array(repeating: UInt8(ascii: " "), count: pad) + Array("\"ab".utf8) + cut
                let reference = JSONStructuralIndexTests.indexed(bytes, level: nil)
                #expect(reference.hasPrefix("syntax 1:"), "\(reference)")
                for level in JSONStructuralPass.machineLevels {
                    #expect(JSONStructuralIndexTests.indexed(bytes, level: level) == reference, "level \(level)")
                }
                #expect(JSONStructuralDifferential.disagreements(in: bytes) == [], "pad \(pad) \(cut)")
            }
        }
    }
}
