import Foundation
import Testing
import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport

/// Strings with escapes stay ranges of the input in a JSON index, and are
/// decoded when they are read: every read gives the decoded text, as the
/// event source and `JSONDecoder` give it.
@Suite("JSON strings kept escaped in the index")
struct JSONEscapedStringTests {
    static func index(_ text: String) throws -> IngredientIndex {
        var index = IngredientIndex()
        try JSONFormat().readIndex(.text(text), into: &index)
        return index
    }

    /// The escaped-string bits of a kind byte: wide (0x10) and escaped (0x40).
    static func isEscaped(_ entry: IngredientIndex.StoredEntry) -> Bool { entry.kindByte & 0x50 == 0x50 }
    /// Bytes in the arena (0x80).
    static func isInArena(_ entry: IngredientIndex.StoredEntry) -> Bool { entry.kindByte & 0x80 != 0 }

    @Test("every escape reads back decoded, from an entry of the input's bytes, not the arena")
    func everyEscape() throws {
        let raw = #"q\"b\\s\/b\bf\fn\nr\rt\t \u00e9\u4E2D\ud83d\ude00 end"#
        let text = #"{"k\u00e9y": ""# + raw + #"", "plain": "x"}"#
        let index = try Self.index(text)
        let entries = index.storedEntries
        #expect(entries.map(Self.isEscaped) == [false, true, true, false, false])
        #expect(!entries.contains(where: Self.isInArena))
        let value = "q\"b\\s/b\u{8}f\u{C}n\nr\rt\t é中😀 end"
        #expect(index.string(at: 1) == "kéy")
        #expect(index.string(at: 2) == value)
        #expect(index.withUTF8(at: 2) { Array($0) } == Array(value.utf8))
        #expect(index.scalar(at: 2) == .string(value))
        #expect(entries[2].length == raw.utf8.count, "the escaped length, between the quotes")
        // Where the string begins: its opening quote, as for every string.
        #expect(index.sourceOffset(at: 1) == 1)
        #expect(index.sourceOffset(at: 2) == Array(text.utf8).firstIndex(of: UInt8(ascii: "q"))! - 1)
        // A key is found by its decoded bytes; its escaped ones, of another
        // length, or of its own, are not it.
        #expect(Array("kéy".utf8).withUnsafeBytes { index.string(at: 1, equals: $0) })
        #expect(!Array(#"k\u00e9y"#.utf8).withUnsafeBytes { index.string(at: 1, equals: $0) })
        #expect(!Array("kéz".utf8).withUnsafeBytes { index.string(at: 1, equals: $0) })
    }

    struct Model: Decodable, Equatable {
        let name: String
        let when: Date
        let note: String?
        enum CodingKeys: String, CodingKey {
            case name = "nämé"
            case when
            case note
        }
    }

    @Test("a model bakes from escaped keys and values, a date and empty text among them, as JSONDecoder decodes it")
    func baking() throws {
        let text = #"{"n\u00e4m\u00e9": "Zo\u00eb \"Z\"", "when": "2024\u002D01-02T03:04:05Z", "note": "\u0020\t"}"#
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let expected = try decoder.decode(Model.self, from: Data(text.utf8))
        let baked = try Baker().bake(Model.self, from: .text(text), format: JSONFormat())
        #expect(baked == expected)
        // Empty text read as nil: the escaped blank is blank once decoded.
        let blank = try Baker(options: .init(emptyTextAsNil: true)).bake(
            Model.self, from: .text(text), format: JSONFormat())
        #expect(blank.note == nil)
        #expect(blank.name == "Zoë \"Z\"")
    }

    @Test("a tree read from escaped keys and values holds them decoded, and finds its keys")
    func tree() throws {
        let text = #"{"\u0061": 1, "b\nc": ["\u00e9", "\ud834\udd1e"], "\u0061\u0062": {"\"": null}}"#
        let tree = try JSONFormat().read(.text(text))
        #expect(tree["a"] == .integer(1))
        #expect(tree["b\nc"]?[0] == .string("é"))
        #expect(tree["b\nc"]?[1] == .string("𝄞"))
        #expect(tree["ab"]?["\""] == .null)
        #expect(tree.dictionaryValue?.keys == ["a", "b\nc", "ab"])
    }

    @Test("a member is picked by its escaped key, whose value only is kept")
    func picking() throws {
        let text = #"[{"n\u0061me": 1, "x": "\u0079", "\u0069\u0064": 2}]"#
        let matcher = try PathMatcher(["name", "id"])
        // The byte walk picks (records this small are built whole over the
        // structural pass); both read the keys decoded.
        for scanning in JSONByteScanning.allCases {
            var source = try JSONIngredientSource(.text(text))
            source.byteScanning = scanning
            #expect(try source.next() == .beginArray)
            let first = try #require(try source.next())
            var index = IngredientIndex()
            try source.readValue(startingWith: first, into: &index, keeping: matcher)
            let picks = scanning == .word || JSONStructuralPass.level == 0
            #expect(index.elementCount(at: 0) == (picks ? 2 : 3), "\(scanning)")
            let record = try Ingredients(index: index)
            #expect(record["name"] == .integer(1))
            #expect(record["id"] == .integer(2))
            #expect((record["x"] == nil) == picks)
        }
    }

    @Test(
        "text that was never checked decodes within its bounds: a cut escape as it stands, a lone surrogate as U+FFFD")
    func uncheckedText() {
        func decoded(_ text: String) -> [UInt8] {
            Array(text.utf8).withUnsafeBytes { raw in
                var room = [UInt8](repeating: 0, count: raw.count)
                let count = room.withUnsafeMutableBytes { EscapedText.decode(raw, into: $0.baseAddress!) }
                return Array(room[..<count])
            }
        }
        #expect(decoded(#"a\"#) == Array(#"a\"#.utf8))
        #expect(decoded(#"a\u12"#) == Array(#"a\u12"#.utf8))
        #expect(decoded(#"\u12x4b"#) == Array(#"\u12x4b"#.utf8))
        #expect(decoded(#"\ud800x"#) == Array("\u{FFFD}x".utf8))
        #expect(decoded(#"\udc00"#) == Array("\u{FFFD}".utf8))
        #expect(decoded(#"\ud800\u0041"#) == Array("\u{FFFD}A".utf8))
        #expect(decoded(#"\ud83d\ude00!"#) == Array("😀!".utf8))
        #expect(decoded(#"\x\n"#) == Array("\\x\n".utf8))
        // The comparison of a key agrees with the decoding, byte for byte.
        let texts = [#"a\"#, #"a\u12"#, #"\ud800x"#, #"\x\n"#, #"k\u00e9y"#, #"\ud83d\ude00!"#, #"\/\t"#]
        for text in texts {
            let bytes = decoded(text)
            for candidate in [bytes, Array(bytes.dropLast()), bytes + [0x41], Array(text.utf8)] {
                let equal = Array(text.utf8).withUnsafeBytes { raw in
                    candidate.withUnsafeBytes { EscapedText.decoded(raw, equals: $0) }
                }
                #expect(equal == (candidate == bytes), "\(text) against \(candidate)")
            }
        }
    }

    /// Text of `scalars` with each written one of the ways JSON allows,
    /// chosen by `generator`.
    static func escaped(_ scalars: [Unicode.Scalar], _ generator: inout some RandomNumberGenerator) -> String {
        var text = ""
        for scalar in scalars {
            let short: [Unicode.Scalar: String] = [
                "\"": #"\""#, "\\": #"\\"#, "/": #"\/"#, "\u{8}": #"\b"#, "\u{C}": #"\f"#, "\n": #"\n"#,
                "\r": #"\r"#, "\t": #"\t"#,
            ]
            let mustEscape = scalar == "\"" || scalar == "\\" || scalar.value < 0x20
            switch Int.random(in: 0..<3, using: &generator) {
            case 0 where !mustEscape:
                text.unicodeScalars.append(scalar)
            case 1 where short[scalar] != nil:
                text += short[scalar]!
            default:
                let units = String(scalar).utf16.map {
                    String($0, radix: 16, uppercase: Bool.random(using: &generator))
                }
                text += units.map { #"\u"# + String(repeating: "0", count: 4 - $0.count) + $0 }.joined()
            }
        }
        return text
    }

    @Test("random text, escaped at random, reads back as it was: from the index, the events and JSONDecoder")
    func randomText() throws {
        var generator = SeededGenerator(seed: 20_261_128)
        let pools: [ClosedRange<UInt32>] = [
            0x00...0x7F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFF, 0x10000...0x10FFFF,
        ]
        for round in 0..<300 {
            let scalars = (0..<Int.random(in: 0..<40, using: &generator)).map { _ in
                let pool = pools.randomElement(using: &generator)!
                return Unicode.Scalar(UInt32.random(in: pool, using: &generator))!
            }
            let original = String(String.UnicodeScalarView(scalars))
            let key = Self.escaped(scalars, &generator)
            let value = Self.escaped(scalars, &generator)
            let text = "{\"\(key)\": [\"\(value)\"]}"
            let index = try Self.index(text)
            #expect(index.string(at: 1) == original, "round \(round): \(text)")
            #expect(index.string(at: 3) == original, "round \(round): \(text)")
            #expect(Array(original.utf8).withUnsafeBytes { index.string(at: 1, equals: $0) }, "round \(round)")
            let decoded = try JSONDecoder().decode([String: [String]].self, from: Data(text.utf8))
            #expect(decoded == [original: [original]], "round \(round): \(text)")
            var source = try JSONIngredientSource(.text(text))
            let events = try collectEvents(&source)
            #expect(
                events == [
                    .beginDictionary, .key(original), .beginArray, .scalar(.string(original)), .endArray,
                    .endDictionary,
                ],
                "round \(round): \(text)")
        }
    }
}
