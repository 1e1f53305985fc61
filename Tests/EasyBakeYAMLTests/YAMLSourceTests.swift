import Foundation
import Testing
import EasyBake
import EasyBakeJSON
import EasyBakeYAML
import EasyBakeTestSupport

func yaml(_ text: String, limits: IngredientLimits = .default) throws(EasyBakeError) -> Ingredients {
    try YAMLFormat(limits: limits).read(.text(text, name: "test.yaml"))
}

@Suite("YAML source")
struct YAMLSourceTests {
    @Test("plain scalars resolve by the YAML 1.2 core schema", arguments: [
        ("~", Ingredients.null), ("null", .null), ("", .null), ("true", true), ("False", false), ("yes", "yes"), ("on", "on"),
        ("12", 12), ("-7", -7), ("+3", 3), ("007", 7), ("0x1F", 31), ("0o17", 15), ("1.5", 1.5), ("1e3", 1000.0),
        (".5", 0.5), ("1.", 1.0), (".inf", .float(.infinity)), ("-.inf", .float(-.infinity)), ("12abc", "12abc"),
        ("123456789012345678901234", .exactNumber("123456789012345678901234")), ("hello world", "hello world"),
    ] as [(String, Ingredients)])
    func coreSchema(_ text: String, _ expected: Ingredients) throws {
        #expect(try yaml("value: \(text)")["value"] == expected)
    }

    @Test("quoted and block scalars stay strings; tags are honoured")
    func stringsAndTags() throws {
        let tree = try yaml("""
            a: "12"
            b: 'true'
            c: |
              line one
              line two
            d: !!str 42
            e: !!float 3
            f: !!int "17"
            g: !!null ""
            """)
        #expect(tree == ["a": "12", "b": "true", "c": "line one\nline two\n", "d": "42", "e": 3.0, "f": 17, "g": .null])
        #expect(throws: EasyBakeError.self) { try yaml("x: !!int twelve") }
    }

    @Test("nested mappings and sequences, block and flow")
    func structure() throws {
        let tree = try yaml("""
            users:
              - name: Ada
                tags: [math, poetry]
                address: {city: London, zip: null}
              - name: Grace
                tags: []
            """)
        #expect(tree == ["users": [["name": "Ada", "tags": ["math", "poetry"], "address": ["city": "London", "zip": .null]],
                                   ["name": "Grace", "tags": []]]])
    }

    @Test("aliases replay their anchored node")
    func aliases() throws {
        let tree = try yaml("""
            base: &base {host: example.com, port: 80}
            copy: *base
            list: [&x 1, *x, *x]
            """)
        #expect(tree["copy"] == ["host": "example.com", "port": 80])
        #expect(tree["list"] == [1, 1, 1])
    }

    @Test("an alias bomb fails fast with a limit error")
    func billionLaughs() throws {
        var text = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...9 {
            let refs = Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ")
            text += "a\(level): &a\(level) [\(refs)]\n"
        }
        let error = #expect(throws: EasyBakeError.self) { try yaml(text) }
        #expect(error?.code == .limitExceeded)
    }

    @Test("deep nesting gives a limit error, not a crash")
    func deep() throws {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = #expect(throws: EasyBakeError.self) { try yaml(text) }
        #expect(error?.code == .limitExceeded)
    }

    @Test("malformed YAML names line and column")
    func errors() throws {
        let error = #expect(throws: EasyBakeError.self) { try yaml("a: 1\nb: [1, 2\nc: 3\n") }
        #expect(error?.code == .syntax)
        #expect(error?.location?.line ?? 0 >= 2)
        #expect(error?.location?.sourceName == "test.yaml")
        let tab = #expect(throws: EasyBakeError.self) { try yaml("a:\n\t- b") }
        #expect(tab?.location?.line == 2)
    }

    @Test("duplicate keys are rejected by default")
    func duplicates() throws {
        let error = #expect(throws: EasyBakeError.self) { try yaml("a: 1\nb: 2\na: 3") }
        #expect(error?.code == .duplicateKey)
        #expect(try YAMLFormat(duplicateKeyPolicy: .lastWins).read(.text("a: 1\na: 3"))["a"] == 3)
    }

    @Test("streams of documents read one by one; read() wants one")
    func documents() throws {
        let text = "---\nid: 1\n---\nid: 2\n...\n"
        #expect(try YAMLFormat().readDocuments(.text(text)) == [["id": 1], ["id": 2]])
        #expect(throws: EasyBakeError.self) { try YAMLFormat().read(.text(text)) }
        #expect(try YAMLFormat().read(.text("")) == .null)
    }

    @Test("YAML recipe files load like JSON ones")
    func recipeFile() throws {
        let formats = FormatRegistry()
        formats.register(YAMLFormat())
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("recipe-\(UUID()).yaml")
        try Data("""
            name: User
            mapping:
              id: user_id
              joined: {path: joined, transformer: {date: yyyy-MM-dd}}
            """.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let recipes = try RecipeFile.load(.file(url.path), formats: formats)
        #expect(recipes.first?.name == "User")
        #expect(recipes.first?.properties == ["id", "joined"])
    }
}

@Suite("YAML writer")
struct YAMLWriterTests {
    @Test("random trees survive writing and reading back")
    func roundTrip() throws {
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<300 {
            let tree = YAMLRandomTree.make(depth: 4, using: &generator)
            let text = String(decoding: try YAMLFormat().write(tree), as: UTF8.self)
            #expect(try yaml(text) == tree, "\(text)")
        }
    }

    @Test("strings that would read as other types are quoted")
    func quoting() throws {
        let tree: Ingredients = ["a": "true", "b": "12", "c": "", "d": "x: y", "e": "plain text", "f": "null", "g": "- item"]
        let text = String(decoding: try YAMLFormat().write(tree), as: UTF8.self)
        #expect(text.contains("e: plain text\n"))
        #expect(text.contains("a: \"true\"\n"))
        #expect(try yaml(text) == tree)
    }
}

enum YAMLRandomTree {
    static func make(depth: Int, using generator: inout SeededGenerator) -> Ingredients {
        switch Int.random(in: 0..<(depth > 0 ? 8 : 5), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .integer(Int64.random(in: -1_000_000...1_000_000, using: &generator))
        case 3: return .float(Double(Int.random(in: -1000...1000, using: &generator)) / 8)
        case 4: return .string(text(using: &generator))
        case 5, 6:
            return .array(IngredientArray((0..<Int.random(in: 0...3, using: &generator)).map { _ in make(depth: depth - 1, using: &generator) }))
        default:
            var entries = ContiguousArray<IngredientDictionary.Element>()
            var seen = Set<String>()
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                let key = text(using: &generator)
                if seen.insert(key).inserted { entries.append((key, make(depth: depth - 1, using: &generator))) }
            }
            return .dictionary(IngredientDictionary(uniqueEntries: entries))
        }
    }

    static func text(using generator: inout SeededGenerator) -> String {
        let pieces = ["a", "b", " ", ":", "#", "-", "\"", "'", "true", "1", "é", "😀", "\n", "\t", "[", "{", "null", "~", "x"]
        return (0..<Int.random(in: 0...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }
}
