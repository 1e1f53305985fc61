import EasyBake
import EasyBakeTestSupport
import EasyBakeYAML
import Foundation
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
        let text = try written([
            "name": "Ann", "tags": ["a", "b"], "address": ["zip": 12345], "empty": [:], "none": [],
        ])
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
        // `n` is a YAML 1.1 boolean: quoted as a key too.
        #expect(try written(["v": true, "n": .null, "i": 7, "f": 2.5]) == "v: true\n\"n\": null\ni: 7\nf: 2.5\n")
    }

    /// Plain scalars YAML 1.1's implicit types (or YAML 1.2's core schema)
    /// make something other than a string, generated from the type
    /// definitions: booleans, nulls, integers (binary, octal, hexadecimal,
    /// underscored, sexagesimal), floats, timestamps, the merge key and the
    /// value key.
    static let yaml11Forms: [String] = {
        var forms = [
            "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false", "False",
            "FALSE",
            "on", "On", "ON", "off", "Off", "OFF", "~", "null", "Null", "NULL", "", "<<", "=",
        ]
        let numbers = [
            "0b1010", "0b1_0", "017", "0_7", "0", "0x1F", "0xdead_beef", "1_000", "12", "1:20", "12:30:00", "190:20:30",
            "1.5", "1_0.5", "1.", "1.5e+3", "1.0E-2", "190:20:30.15", ".inf", ".Inf", ".INF", "1e3",
        ]
        for sign in ["", "-", "+"] { forms += numbers.map { sign + $0 } }
        // YAML 1.2's octal is unsigned.
        forms += [
            "0o17", ".5", ".5_0", ".nan", ".NaN", ".NAN", "2024-01-01", "2001-12-14t21:59:43.10-05:00",
            "2001-12-14 21:59:43.10 -5",
            "2001-12-15T02:59:43.1Z", "2001-12-14 21:59:43.10", "2002-1-1 1:00:00", "2002-12-14\t21:59:43 +05:30",
        ]
        return forms
    }()

    /// Strings no reader makes anything else: written plain.
    static let plainForms = [
        "plain", "x1", "2024-01", "12:60", "0o8", "_1", "yes!", "Nope", "1e", "0b", "0x", "0b2", "1:2:3a",
        "2024-01-01x", "infinity", "nan", "-x", "1.5.x", "2001-12-14T21", "onion", "nullable", "1_000x",
    ]

    @Test("strings a YAML 1.1 reader would read as another type are quoted, as values and as keys")
    func yaml11Quoting() throws {
        #expect(Set(Self.yaml11Forms).count == Self.yaml11Forms.count)
        for form in Self.yaml11Forms {
            let escaped = form.replacingOccurrences(of: "\t", with: "\\t")
            #expect(try written(["v": .string(form)]) == "v: \"\(escaped)\"\n", "\(form.debugDescription)")
            #expect(try written([form: "v"]) == "\"\(escaped)\": v\n", "\(form.debugDescription)")
        }
        for form in Self.plainForms {
            #expect(try written(["v": .string(form)]) == "v: \(form)\n", "\(form.debugDescription)")
            #expect(try written([form: "v"]) == "\(form): v\n", "\(form.debugDescription)")
        }
    }

    @Test(
        "round trip: strings of YAML 1.1's types, as keys and values, read back as the same strings under either schema"
    )
    func yaml11RoundTrip() throws {
        let tree = Self.yaml11Tree
        let text = try written(tree)
        for schema in YAMLReadingOptions.Schema.allCases {
            #expect(try YAMLFormat(options: .init(schema: schema)).read(.text(text)) == tree, "\(schema)")
        }
        #expect(try written(tree, WritingOptions(sortedKeys: true, indentWidth: 4)).contains("\"2024-01-01\""))
    }

    /// Each form as a value, and as a key.
    static var yaml11Tree: Ingredients {
        let forms = yaml11Forms + plainForms
        let values = IngredientDictionary(
            forms.enumerated().map { (key: "k\($0.offset)", value: Ingredients.string($0.element)) })
        let keys = IngredientDictionary(forms.map { (key: $0, value: Ingredients.string("v")) })
        return .dictionary(
            IngredientDictionary([(key: "values", value: .dictionary(values)), (key: "keys", value: .dictionary(keys))])
        )
    }

    /// Runs PyYAML's `safe_load` on `text` and answers its value as JSON;
    /// `nil` when python3 or PyYAML is missing.
    static func pyYAML(_ text: String) throws -> Any? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import sys, json, yaml; "
                + "print(json.dumps(yaml.safe_load(sys.stdin.read()), default=lambda o: '<' + type(o).__name__ + '>'))",
        ]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return try JSONSerialization.jsonObject(with: data)
    }

    static let hasPyYAML = (try? pyYAML("a: 1")).flatMap { $0 as? [String: Any] } != nil

    @Test(
        "PyYAML, a YAML 1.1 reader, reads the written strings back as the same strings",
        .enabled(if: hasPyYAML, "python3 with PyYAML"))
    func pyYAMLReadsStrings() throws {
        let text = try written(Self.yaml11Tree)
        let read = try #require(try Self.pyYAML(text) as? [String: [String: String]], "\(text)")
        let forms = Self.yaml11Forms + Self.plainForms
        #expect(
            read["values"] == Dictionary(uniqueKeysWithValues: forms.enumerated().map { ("k\($0.offset)", $0.element) })
        )
        #expect(read["keys"] == Dictionary(uniqueKeysWithValues: forms.map { ($0, "v") }))
        // And the check can fail: unquoted, PyYAML makes them other types.
        let unquoted = try #require(try Self.pyYAML("a: yes\nb: 2024-01-01\nc: 12:30:00\nno: x\n") as? [String: Any])
        #expect(unquoted["a"] as? Bool == true)
        #expect(unquoted["b"] as? String == "<date>")
        #expect(unquoted["c"] as? Int == 45_000)
        #expect(unquoted["no"] == nil && unquoted["false"] as? String == "x")
    }

    @Test("special strings and keys survive")
    func specials() throws {
        let tree: Ingredients = [
            "a: b": "c: d", "- x": "# not a comment", "<<": "merge-looking key", "": "empty key",
            "multi": "line one\nline two\n", "trailing": "ends with space ", "tab": "a\tb", "quote": "it's \"quoted\"",
            "unicode": "ça va — 🎉", "control": "bell\u{07}", "lead": " leading space", "colon": "ends with:",
            "exact": .exactNumber("123456789012345678901234567890"),
            "indented block": "  starts indented\nthen not", "blank lines": "\n\nx\n\n", "cr": "a\r\nb",
            "nel": "a\u{85}b",
            "big": 1e300, "tiny": .float(.leastNonzeroMagnitude), "negative zero": -0.0,
        ]
        #expect(try yaml(written(tree)) == tree)
    }

    @Test("several values are written as several documents")
    func documents() throws {
        struct Values: IngredientSource {
            var events: [IngredientEvent] = [.scalar(1), .beginArray, .scalar("x"), .endArray]
            var location: EasyBake.SourceLocation { EasyBake.SourceLocation(line: 1, column: 1) }
            mutating func next() throws(EasyBakeError) -> IngredientEvent? {
                events.isEmpty ? nil : events.removeFirst()
            }
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
            return .array(
                IngredientArray((0..<Int.random(in: 0..<5, using: &g)).map { _ in randomTree(&g, depth: depth + 1) }))
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
