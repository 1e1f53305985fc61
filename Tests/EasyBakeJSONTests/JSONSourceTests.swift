import Foundation
import Testing
import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport

func parse(_ text: String, limits: IngredientLimits = .default, duplicates: DuplicateKeyPolicy = .firstWins)
    throws(EasyBakeError) -> Ingredients
{
    try JSONFormat(options: .init(duplicateKeys: duplicates, limits: limits)).read(.text(text))
}

func parse(bytes: [UInt8]) throws(EasyBakeError) -> Ingredients {
    try JSONFormat().read(.bytes(bytes))
}

func parseError(_ text: String, limits: IngredientLimits = .default) -> EasyBakeError? {
    do {
        _ = try parse(text, limits: limits)
        return nil
    } catch {
        return error
    }
}

@Suite("JSON source: grammar")
struct JSONGrammarTests {
    @Test(
        "values parse into the tree",
        arguments: [
            ("null", Ingredients.null), ("true", true), ("false", false), ("0", 0), ("-0", 0), ("12", 12),
            ("-3.5", -3.5), ("1e2", 100.0), ("1E-2", 0.01), ("\"a\\u00e9\\n\"", "aé\n"), ("[]", []), ("{}", [:]),
            (" [1, [2, {\"a\": null}]] ", [1, [2, ["a": .null]]]), ("\"\\ud83d\\ude00\"", "😀"), ("\"\\/\"", "/"),
        ] as [(String, Ingredients)])
    func accepts(_ text: String, _ expected: Ingredients) throws {
        #expect(try parse(text) == expected)
    }

    @Test(
        "strict RFC 8259: these are rejected",
        arguments: [
            "", " ", "[1,]", "{\"a\":1,}", "[01]", "[1.]", "[.5]", "[1e]", "[+1]", "// c\n1", "/* c */ 1", "[1] x",
            "{a:1}", "{'a':1}", "[\"\\x41\"]", "[\"\\ud800\"]", "[\"\\udc00\"]", "[\"a\tb\"]", "[\"\u{01}\"]", "tru",
            "nul",
            "[NaN]", "[Infinity]", "[-]", "{\"a\" 1}", "{\"a\":}", "[1 2]", "\"abc", "[", "{", "{\"a\"", "[1,", "1 2",
        ])
    func rejects(_ text: String) {
        let error = parseError(text)
        #expect(error?.code == .syntax, "\(text.debugDescription) → \(String(describing: error))")
        #expect(error?.location?.line != nil)
    }

    @Test("errors name the line, the column and what was expected")
    func positions() throws {
        let error = try #require(parseError("{\n  \"name\": \"Ada\",\n  \"age\": 36,\n}"))
        #expect(error.location?.line == 4)
        #expect(error.location?.column == 1)
        #expect(error.message.contains("expected a string key"))
        let colon = try #require(parseError("{\"a\" 1}"))
        #expect(colon.location?.column == 6)
        #expect(colon.message.contains("expected ':'"))
        #expect(colon.description.contains("^"))
    }

    @Test("a truncated file gives an error at its end")
    func truncated() throws {
        let text = "{\"users\": [{\"id\": 1}, {\"id\": 2"
        let error = try #require(parseError(text))
        #expect(error.code == .syntax)
        #expect(error.location?.byteOffset == text.utf8.count)
        #expect(error.message.contains("end of the input"))
    }

    @Test(
        "invalid UTF-8 is rejected with its position",
        arguments: [
            [0x22, 0xFF, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22],
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x5B, 0x22, 0x61, 0x80, 0x22, 0x5D],
        ] as [[UInt8]])
    func invalidUTF8(_ bytes: [UInt8]) {
        let error = #expect(throws: EasyBakeError.self) { try parse(bytes: bytes) }
        #expect(error?.message.contains("UTF-8") == true)
        #expect(error?.location?.line == 1)
    }

    @Test("valid multi-byte UTF-8 is kept")
    func validUTF8() throws {
        #expect(try parse("[\"ä€😀\", \"日本\"]") == ["ä€😀", "日本"])
    }

    @Test("an escaped NUL is kept")
    func escapedNul() throws {
        let value = try parse("\"a\\u0000b\"")
        #expect(value.stringValue?.unicodeScalars.count == 3)
        #expect(value.stringValue?.unicodeScalars.dropFirst().first == "\u{0}")
    }
}

@Suite("JSON source: numbers")
struct JSONNumberTests {
    @Test("1e400 and 1e-400 keep their exact text")
    func outOfRange() throws {
        #expect(try parse("1e400") == .exactNumber("1e400"))
        #expect(try parse("-1e-400") == .exactNumber("-1e-400"))
    }

    @Test("integers beyond 64 bits are kept exactly")
    func bigIntegers() throws {
        #expect(try parse("9223372036854775807") == .integer(.max))
        #expect(try parse("9223372036854775808") == .exactNumber("9223372036854775808"))
        #expect(try parse("-123456789012345678901234567890") == .exactNumber("-123456789012345678901234567890"))
    }

    @Test("a number of 100,000 digits is read, and one past the limit is refused")
    func hugeNumber() throws {
        let digits = "1" + String(repeating: "7", count: 99_999)
        #expect(try parse(digits) == .exactNumber(digits))
        var limits = IngredientLimits.default
        limits.maximumNumberLength = 1000
        #expect(parseError(digits, limits: limits)?.code == .limitExceeded)
    }
}

@Suite("JSON source: limits and depth")
struct JSONDepthTests {
    @Test("100,000 nested arrays give a limit error with a position, not a crash")
    func deepDefault() throws {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = try #require(parseError(text))
        #expect(error.code == .limitExceeded)
        #expect(error.location?.column == 513)
    }

    @Test("with the limit raised, 200,000 levels parse, write and free without recursion")
    func deepRaised() throws {
        var limits = IngredientLimits.default
        limits.maximumDepth = 300_000
        let text = String(repeating: "[", count: 200_000) + "7" + String(repeating: "]", count: 200_000)
        let tree = try parse(text, limits: limits)
        let written = try JSONFormat().write(tree)
        #expect(written.count == text.utf8.count)
        #expect(try parse(String(decoding: written, as: UTF8.self), limits: limits) == tree)
    }

    @Test("strings longer than the limit are refused")
    func longString() {
        var limits = IngredientLimits.default
        limits.maximumStringBytes = 10
        #expect(parseError("\"01234567890\"", limits: limits)?.code == .limitExceeded)
        #expect(parseError("\"0123456789\"", limits: limits) == nil)
    }
}

@Suite("JSON source: encodings")
struct JSONEncodingTests {
    static let text = "{\"name\": \"Zoë 😀\", \"n\": [1, 2]}"
    static let expected: Ingredients = ["name": "Zoë 😀", "n": [1, 2]]

    static func encode(_ text: String, _ encoding: String.Encoding, bom: [UInt8]) -> [UInt8] {
        bom + Array(text.data(using: encoding)!)
    }

    @Test("a UTF-8 byte order mark is skipped")
    func utf8BOM() throws {
        #expect(try parse(bytes: [0xEF, 0xBB, 0xBF] + Array(Self.text.utf8)) == Self.expected)
    }

    @Test(
        "UTF-16 and UTF-32, with and without a BOM, are transcoded",
        arguments: [
            (String.Encoding.utf16BigEndian, [UInt8]()), (.utf16LittleEndian, []), (.utf16BigEndian, [0xFE, 0xFF]),
            (.utf16LittleEndian, [0xFF, 0xFE]), (.utf32BigEndian, []), (.utf32LittleEndian, []),
            (.utf32BigEndian, [0, 0, 0xFE, 0xFF]), (.utf32LittleEndian, [0xFF, 0xFE, 0, 0]),
        ] as [(String.Encoding, [UInt8])])
    func wideEncodings(_ encoding: String.Encoding, _ bom: [UInt8]) throws {
        #expect(try parse(bytes: Self.encode(Self.text, encoding, bom: bom)) == Self.expected)
    }

    @Test("malformed UTF-16 is an unsupported-encoding error, not 'unexpected character'")
    func malformedUTF16() {
        // A lone high surrogate (D800) in UTF-16LE.
        let bytes: [UInt8] = [0x22, 0x00, 0x00, 0xD8, 0x22, 0x00]
        let error = #expect(throws: EasyBakeError.self) { try parse(bytes: bytes) }
        #expect(error?.code == .unsupportedEncoding)
    }
}

@Suite("JSON source: duplicate keys")
struct JSONDuplicateKeyTests {
    let text = "{\"a\": 1, \"b\": 2, \"a\": 3}"

    @Test("first wins by default, in the tree, in paths and in baking")
    func firstWins() throws {
        struct Model: Decodable { let a: Int }
        let tree = try parse(text)
        #expect(tree["a"] == 1)
        #expect(try tree.resolve("a") == 1)
        #expect(try Baker().bake(Model.self, from: tree).a == 1)
    }

    @Test("last wins and reject are available")
    func otherPolicies() throws {
        #expect(try parse(text, duplicates: .lastWins)["a"] == 3)
        let error = #expect(throws: EasyBakeError.self) { try parse(text, duplicates: .reject) }
        #expect(error?.code == .duplicateKey)
    }
}

@Suite("JSON source: skipping and events")
struct JSONSkipTests {
    @Test("skipValue skips exactly one value, on many generated documents")
    func skipMatchesRead() throws {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<200 {
            let elements = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                RandomTree.make(depth: 4, using: &generator)
            }
            let text = String(decoding: try JSONFormat().write(.array(IngredientArray(elements))), as: UTF8.self)
            let skip = Int.random(in: 0..<elements.count, using: &generator)
            var source = try JSONIngredientSource(.text(text))
            _ = try source.next()  // [
            var kept: [Ingredients] = []
            for index in 0..<elements.count {
                if index == skip {
                    try source.skipValue()
                } else {
                    kept.append(try #require(try Ingredients.read(from: &source)))
                }
            }
            #expect(try source.next() == .endArray)
            #expect(try source.next() == nil)
            var expected = elements
            expected.remove(at: skip)
            #expect(kept == expected)
        }
    }

    @Test("skipping still rejects malformed input")
    func skipValidates() throws {
        var source = try JSONIngredientSource(.text("[{\"a\": [1, 2,]}, 3]"))
        _ = try source.next()
        #expect(throws: EasyBakeError.self) { try source.skipValue() }
    }

    @Test("events follow the documented order")
    func events() throws {
        var source = try JSONIngredientSource(.text("{\"id\": 7, \"tags\": [\"a\"]}"))
        let events = try collectEvents(&source)
        #expect(
            events == [
                .beginDictionary, .key("id"), .scalar(7), .key("tags"), .beginArray, .scalar("a"), .endArray,
                .endDictionary,
            ])
    }
}

@Suite("JSON writer")
struct JSONWriterTests {
    @Test("random trees survive compact, pretty and sorted writing")
    func roundTrip() throws {
        var generator = SeededGenerator(seed: 99)
        for _ in 0..<300 {
            let tree = RandomTree.make(depth: 5, using: &generator)
            for options in [
                WritingOptions(), WritingOptions(prettyPrinted: true),
                WritingOptions(prettyPrinted: true, sortedKeys: true, indentWidth: 4),
            ] {
                let bytes = try JSONFormat().write(tree, options: options)
                #expect(try parse(bytes: bytes) == tree, "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
    }

    @Test("layout: compact, pretty, sorted; floats stay floats")
    func layout() throws {
        let tree: Ingredients = ["b": [1, 2.0, "x\"\n\u{1}"], "a": [:], "c": []]
        #expect(
            String(decoding: try JSONFormat().write(tree), as: UTF8.self)
                == #"{"b":[1,2.0,"x\"\n\u0001"],"a":{},"c":[]}"#)
        let pretty = String(
            decoding: try JSONFormat().write(tree, options: .init(prettyPrinted: true, sortedKeys: true)), as: UTF8.self
        )
        #expect(
            pretty == "{\n  \"a\": {},\n  \"b\": [\n    1,\n    2.0,\n    \"x\\\"\\n\\u0001\"\n  ],\n  \"c\": []\n}")
    }

    @Test("non-finite numbers cannot be written")
    func nonFinite() {
        let error = #expect(throws: EasyBakeError.self) { try JSONFormat().write([Ingredients.float(.nan)]) }
        #expect(error?.code == .invalidValue)
    }

    @Test("exact numbers are written as their text")
    func exactNumbers() throws {
        let tree: Ingredients = [.exactNumber("1e400"), .exactNumber("123456789012345678901234567890")]
        #expect(
            String(decoding: try JSONFormat().write(tree), as: UTF8.self) == "[1e400,123456789012345678901234567890]")
    }
}

@Suite("JSON source: volume")
struct JSONVolumeTests {
    @Test("a million small objects parse into a tree")
    func millionObjects() throws {
        var text = "["
        text.reserveCapacity(14_000_000)
        for index in 0..<1_000_000 {
            if index > 0 { text += "," }
            text += "{\"a\":\(index),\"b\":\"x\"}"
        }
        text += "]"
        let tree = try parse(text)
        #expect(tree.arrayValue?.count == 1_000_000)
        #expect(tree[999_999]?["a"] == 999_999)
    }
}

/// Random trees for round-trip properties.
enum RandomTree {
    static func make(depth: Int, using generator: inout SeededGenerator) -> Ingredients {
        let kind = Int.random(in: 0..<(depth > 0 ? 9 : 6), using: &generator)
        switch kind {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .integer(Int64.random(in: .min ... .max, using: &generator))
        case 3:
            let value = Double.random(in: -1e6...1e6, using: &generator)
            return .float(Bool.random(using: &generator) ? value : value.rounded())
        case 4: return .string(text(using: &generator))
        case 5: return .exactNumber("1234567890123456789012345\(Int.random(in: 0...9, using: &generator))")
        case 6, 7:
            return .array(
                IngredientArray(
                    (0..<Int.random(in: 0...4, using: &generator)).map { _ in make(depth: depth - 1, using: &generator)
                    }))
        default:
            var entries = ContiguousArray<IngredientDictionary.Element>()
            var seen = Set<String>()
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                let key = text(using: &generator)
                if seen.insert(key).inserted { entries.append((key, make(depth: depth - 1, using: &generator))) }
            }
            return .dictionary(IngredientDictionary(uniqueEntries: entries))
        }
    }

    static func text(using generator: inout SeededGenerator) -> String {
        let alphabet: [Character] = ["a", "b", "Z", " ", "\"", "\\", "\n", "\t", "é", "😀", "\u{0}", "\u{1F}", "/", "日"]
        return String(
            (0..<Int.random(in: 0...8, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
    }
}

@Suite("Writing as String and Data")
struct WritingTextTests {
    @Test("writeString and writeData give the bytes write gives, as text and as Data")
    func textAndData() throws {
        let tree: Ingredients = ["id": 7, "name": "Zoë", "tags": ["a", "b"]]
        let bytes = try JSONFormat().write(tree, options: .init(prettyPrinted: true))
        let text = try JSONFormat().writeString(tree, options: .init(prettyPrinted: true))
        #expect(Array(text.utf8) == bytes)
        #expect(try JSONFormat().writeData(tree) == Data(try JSONFormat().write(tree)))
        #expect(try JSONFormat().writeString(["id": 7]) == #"{"id":7}"#)
    }

    @Test("a writer whose output is not UTF-8 is an error for writeString, not repaired text")
    func notUTF8() {
        struct Latin1: IngredientFormat {
            var name: String { "latin1" }
            var fileExtensions: [String] { [] }
            func makeSource(for input: IngredientInput) throws(EasyBakeError) -> any IngredientSource {
                throw EasyBakeError(.unsupported, "no reader")
            }
            func write(_ source: inout some IngredientSource, options: WritingOptions) throws(EasyBakeError) -> [UInt8]
            {
                [0x5A, 0x6F, 0xEB]  // "Zoë" in Latin-1
            }
        }
        #expect { _ = try Latin1().writeString("Zoë") } throws: { ($0 as? EasyBakeError)?.code == .unsupported }
        #expect((try? Latin1().writeData("Zoë")) == Data([0x5A, 0x6F, 0xEB]))
    }
}
