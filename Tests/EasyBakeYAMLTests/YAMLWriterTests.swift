import EasyBake
import EasyBakeTestSupport
import EasyBakeYAML
import Testing

@Suite("Writing YAML")
struct YAMLWriterTests {
    func written(_ tree: Ingredients, _ options: WritingOptions = .init()) throws -> String {
        String(decoding: try YAMLFormat().write(tree, options: options), as: UTF8.self)
    }

    @Test("the format registers as yaml with .yaml and .yml")
    func registration() throws {
        let registry = FormatRegistry([YAMLFormat()])
        #expect(registry.format(named: "yaml")?.name == "yaml")
        #expect(registry.format(forExtension: "yml")?.name == "yaml")
        #expect(try registry.format(forPath: "config.YAML").name == "yaml")
    }

    @Test("block style, key order kept")
    func blockStyle() throws {
        let text = try written(["name": "Ann", "tags": ["a", "b"], "address": ["zip": 12345], "empty": [:], "none": []])
        #expect(text == "name: Ann\ntags:\n- a\n- b\naddress:\n  zip: 12345\nempty: {}\nnone: []\n")
    }

    @Test("strings that would read as another type are quoted")
    func quoting() throws {
        let strings: [String] = ["true", "False", "123", "-1.5", "0x1F", "null", "~", "", "yes", "off", ".inf", "1e3"]
        for string in strings {
            let text = try written(["v": .string(string)])
            #expect(text.contains("\""), "\(string.debugDescription) was written as \(text)")
            #expect(try yaml(text) == ["v": .string(string)])
        }
        #expect(try written(["v": "plain words"]) == "v: plain words\n")
        #expect(try written(["v": true, "n": .null, "i": 7, "f": 2.5]) == "v: true\nn: null\ni: 7\nf: 2.5\n")
    }

    @Test("special strings and keys survive")
    func specials() throws {
        let tree: Ingredients = [
            "a: b": "c: d", "- x": "# not a comment", "<<": "merge-looking key", "": "empty key",
            "multi": "line one\nline two\n", "trailing": "ends with space ", "tab": "a\tb", "quote": "it's \"quoted\"",
            "unicode": "ça va — 🎉", "control": "bell\u{07}", "lead": " leading space", "colon": "ends with:",
            "exact": .exactNumber("123456789012345678901234567890"),
            "indented block": "  starts indented\nthen not", "blank lines": "\n\nx\n\n", "cr": "a\r\nb", "nel": "a\u{85}b",
            "big": 1e300, "tiny": .float(.leastNonzeroMagnitude), "negative zero": -0.0,
        ]
        #expect(try yaml(written(tree)) == tree)
    }

    @Test("several values are written as several documents")
    func documents() throws {
        struct Values: IngredientSource {
            var events: [IngredientEvent] = [.scalar(1), .beginArray, .scalar("x"), .endArray]
            var location: EasyBake.SourceLocation { EasyBake.SourceLocation(line: 1, column: 1) }
            mutating func next() throws(EasyBakeError) -> IngredientEvent? { events.isEmpty ? nil : events.removeFirst() }
        }
        var source = Values()
        let text = String(decoding: try YAMLFormat().write(&source, options: .init()), as: UTF8.self)
        #expect(try YAMLFormat().readDocuments(.text(text)) == [1, ["x"]])
    }

    @Test("sorted keys")
    func sortedKeys() throws {
        let text = try written(["b": 1, "a": ["d": 1, "c": 2]], WritingOptions(sortedKeys: true))
        #expect(text == "a:\n  c: 2\n  d: 1\nb: 1\n")
    }

    @Test("round trip: random trees read back equal", arguments: 0..<200)
    func roundTrip(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let tree = randomTree(&generator, depth: 0)
        let text = try written(tree)
        let back = try yaml(text)
        #expect(back == tree, "seed \(seed):\n\(text)")
    }

    func randomTree(_ g: inout SeededGenerator, depth: Int) -> Ingredients {
        let kind = depth >= 4 ? Int.random(in: 0..<6, using: &g) : Int.random(in: 0..<8, using: &g)
        switch kind {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &g))
        case 2: return .integer(Int64.random(in: .min ... .max, using: &g) >> Int64.random(in: 0..<63, using: &g))
        case 3:
            let value = Double.random(in: -1e6...1e6, using: &g) * [1, 1e-12, 1e20][Int.random(in: 0..<3, using: &g)]
            return .float(value)
        case 4, 5: return .string(randomString(&g))
        case 6:
            return .array(IngredientArray((0..<Int.random(in: 0..<5, using: &g)).map { _ in randomTree(&g, depth: depth + 1) }))
        default:
            var entries: [(String, Ingredients)] = []
            var seen = Set<String>()
            for _ in 0..<Int.random(in: 0..<5, using: &g) {
                let key = randomString(&g)
                if seen.insert(key).inserted { entries.append((key, randomTree(&g, depth: depth + 1))) }
            }
            return .dictionary(IngredientDictionary(entries.map { (key: $0.0, value: $0.1) }))
        }
    }

    func randomString(_ g: inout SeededGenerator) -> String {
        let pieces = [
            "a", "Z", " ", "1", "0", ".", "-", ":", "#", "'", "\"", "\n", "\t", "\\", "[", "{", "&", "*", "!", "|", ">",
            "%", "@", "`", "?", ",", "é", "中", "🎉", "true", "null", "~", "<<", "yes", "0x", "e5", "---", "...",
        ]
        return (0..<Int.random(in: 0..<7, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
    }
}
