import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import EasyBakeXML
import EasyBakeYAML
import Testing

/// Every source keeps the one `IngredientSource` contract: skipping, picking
/// keys and indexing leave it where reading its events one by one would
/// (`checkIngredientSource`, at every position of each input).
@Suite("The IngredientSource contract")
struct IngredientSourceContractTests {
    static let json = #"{"a": 1, "b": [true, {"c": null, "d": "x"}, []], "e": {}, "f": {"g": [1.5, "y"]}, "h": "z"}"#

    static func expectKept(_ name: String, _ make: () throws(EasyBakeError) -> any IngredientSource) throws {
        let failures = try checkIngredientSource(make)
        #expect(failures.isEmpty, "\(name):\n\(failures.prefix(8).joined(separator: "\n"))")
    }

    @Test("JSON and JSON Lines")
    func jsonSources() throws {
        try Self.expectKept("json") { () throws(EasyBakeError) in try JSONIngredientSource(.text(Self.json)) }
        try Self.expectKept("json array") { () throws(EasyBakeError) in
            try JSONIngredientSource(.text("[1, [2, {\"k\": 3}], {}]"))
        }
        try Self.expectKept("json scalar") { () throws(EasyBakeError) in try JSONIngredientSource(.text("\"only\"")) }
        try Self.expectKept("json lines") { () throws(EasyBakeError) in
            try JSONLinesIngredientSource(.text("{\"a\": [1, 2]}\n\n7\n{\"b\": {\"c\": true}}\n"))
        }
        // An escaped key in the middle of an object, and a wanted key that
        // is not ASCII, leave the raw key bytes for the events (the `.slow`
        // answer of the scanner that both sources' nextWantedKey share).
        let keys = #"{"a": 1, "\u0062": [2], "d": {"é": 3, "f": {"g": 4}}}"#
        try Self.expectKept("json, escaped and non-ASCII keys") { () throws(EasyBakeError) in
            try JSONIngredientSource(.text(keys))
        }
        try Self.expectKept("json lines, escaped and non-ASCII keys") { () throws(EasyBakeError) in
            try JSONLinesIngredientSource(.text(keys + "\n" + keys + "\n"))
        }
        // Byte ranges: an array that ends before the input does.
        let array = #"[1, [2, 3], {"k": [4]}, "five", {"six": {}}, 7]"#
        for range in [0..<4, 3..<25, 5..<40, 40..<60] {
            try Self.expectKept("json array, bytes \(range)") { () throws(EasyBakeError) in
                try JSONIngredientSource(.text(array), byteRange: range)
            }
            try Self.expectKept("json lines, bytes \(range)") { () throws(EasyBakeError) in
                try JSONLinesIngredientSource(
                    .text("1\n[2, 3]\n{\"k\": [4]}\n\"five\"\n{\"six\": {}}\n7\n"), byteRange: range)
            }
        }
    }

    @Test("XML")
    func xmlSource() throws {
        let xml = #"<r v="1"><a>x</a><b><c/><c>y</c></b><d w="2">t</d><e/></r>"#
        try Self.expectKept("xml") { () throws(EasyBakeError) in try XMLIngredientSource(.text(xml)) }
    }

    @Test("YAML")
    func yamlSource() throws {
        let yaml = "base: &b {x: 1, y: [2, 3]}\nuse:\n  <<: *b\n  z: 4\nlist:\n  - *b\n  - [a, {k: v}]\nempty: {}\n"
        try Self.expectKept("yaml") { () throws(EasyBakeError) in try YAMLIngredientSource(.text(yaml)) }
    }

    @Test("a tree's own source")
    func treeSource() throws {
        let tree = try JSONFormat().read(.text(Self.json))
        try Self.expectKept("tree") { () throws(EasyBakeError) in IngredientTreeSource(tree) }
        try Self.expectKept("tree, sorted") { () throws(EasyBakeError) in IngredientTreeSource(tree, sortingKeys: true)
        }
    }

    @Test("an index's events")
    func indexSource() throws {
        var index = IngredientIndex()
        try JSONFormat().readIndex(.text(Self.json), into: &index)
        try Self.expectKept("index") { () throws(EasyBakeError) in IndexedIngredientSource(index: index) }
    }

    @Test("every writer writes the whole source: YAML each value as a document, the others refuse a second value")
    func writers() throws {
        func twoValues() throws -> YAMLIngredientSource {
            try YAMLIngredientSource(.text("[1, 2]\n---\n[3]\n"), options: YAMLReadingOptions(documents: .each))
        }
        var yamlSource = try twoValues()
        let yaml = String(decoding: try YAMLFormat().write(&yamlSource, options: WritingOptions()), as: UTF8.self)
        #expect(try YAMLFormat(options: YAMLReadingOptions(documents: .all)).read(.text(yaml)) == [[1, 2], [3]])
        for format in [JSONFormat(), JSONLinesFormat(), XMLFormat()] as [any IngredientFormat] {
            var source = try twoValues()
            let error = #expect(throws: EasyBakeError.self, "\(format.name)") {
                try format.write(&source, options: WritingOptions())
            }
            #expect(error?.code == .unsupported, "\(format.name)")
            #expect(
                error?.message.hasPrefix("\(format.name) holds one value") == true,
                "\(format.name): \(error?.message ?? "")")
            // One value writes as before.
            var one = IngredientTreeSource([[1, 2]])
            #expect(throws: Never.self, "\(format.name)") { _ = try format.write(&one, options: WritingOptions()) }
        }
    }
}
