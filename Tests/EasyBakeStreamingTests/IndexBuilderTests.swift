import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import EasyBakeXML
import EasyBakeYAML
import Foundation
import Testing

/// An index assembled from events holds what a tree assembled from the same
/// events holds: every format, every duplicate key policy, the same errors.
@Suite("Index from events")
struct IndexBuilderTests {
    /// The tree of a source's value built both ways: through the tree
    /// builder, and through the index builder and then the index.
    static func bothWays(
        _ events: [IngredientEvent], policy: DuplicateKeyPolicy
    ) -> (tree: Swift.Result<Ingredients, EasyBakeError>, viaIndex: Swift.Result<Ingredients, EasyBakeError>) {
        func run(_ body: () throws(EasyBakeError) -> Ingredients) -> Swift.Result<Ingredients, EasyBakeError> {
            do { return .success(try body()) } catch { return .failure(error) }
        }
        let tree = run { () throws(EasyBakeError) in
            var source = EventListSource(events)
            guard let tree = try Ingredients.read(from: &source, duplicateKeys: policy) else {
                throw EasyBakeError(.syntax, "empty")
            }
            return tree
        }
        let viaIndex = run { () throws(EasyBakeError) in
            var source = EventListSource(events)
            var index = IngredientIndex()
            guard try index.read(from: &source, duplicateKeys: policy) else { throw EasyBakeError(.syntax, "empty") }
            return try Ingredients(index: index)
        }
        return (tree, viaIndex)
    }

    /// Random events of a tree whose dictionaries repeat keys often.
    static func events(depth: Int, using random: inout SeededGenerator, into events: inout [IngredientEvent]) {
        switch depth > 0 ? Int.random(in: 0..<4, using: &random) : 3 {
        case 0:
            events.append(.beginArray)
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                Self.events(depth: depth - 1, using: &random, into: &events)
            }
            events.append(.endArray)
        case 1, 2:
            events.append(.beginDictionary)
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                events.append(.key(["a", "b", "c", "é"].randomElement(using: &random)!))
                Self.events(depth: depth - 1, using: &random, into: &events)
            }
            events.append(.endDictionary)
        default:
            let scalars: [Ingredients] = [
                .null, true, false, 0, -7, .integer(.max), 2.5, .float(-0.0),
                .exactNumber("123456789012345678901234567890"),
                .exactNumber("1e400"), "", "text", "naïve \u{1F600}",
            ]
            events.append(.scalar(scalars.randomElement(using: &random)!))
        }
    }

    @Test("random trees with repeated keys, under every duplicate key policy", arguments: DuplicateKeyPolicy.allCases)
    func policies(_ policy: DuplicateKeyPolicy) {
        var random = SeededGenerator(seed: 0x1DE7 + UInt64(DuplicateKeyPolicy.allCases.firstIndex(of: policy)!))
        var repeats = 0
        for _ in 0..<400 {
            var events: [IngredientEvent] = []
            Self.events(depth: 4, using: &random, into: &events)
            let (tree, viaIndex) = Self.bothWays(events, policy: policy)
            switch (tree, viaIndex) {
            case (.success(let expected), .success(let actual)):
                #expect(actual == expected, "\(events)")
            case (.failure(let expected), .failure(let actual)):
                repeats += 1
                #expect(actual.code == expected.code && actual.message == expected.message, "\(events)")
            default:
                Issue.record("\(events): tree \(tree), index \(viaIndex)")
            }
        }
        if policy == .reject { #expect(repeats > 50) }
    }

    @Test("out-of-order events fail as they fail the tree builder")
    func malformed() {
        let cases: [[IngredientEvent]] = [
            [.beginDictionary, .scalar(1)], [.beginDictionary, .key("a"), .key("b")], [.key("a")],
            [.beginArray, .endDictionary], [.beginDictionary, .key("a"), .endDictionary], [.endArray],
            [.beginDictionary, .key("a"), .scalar(1), .beginArray],
        ]
        for events in cases {
            let (tree, viaIndex) = Self.bothWays(events, policy: .firstWins)
            guard case .failure(let expected) = tree, case .failure(let actual) = viaIndex else {
                Issue.record("\(events): tree \(tree), index \(viaIndex)")
                continue
            }
            #expect(actual.code == expected.code && actual.message == expected.message, "\(events)")
        }
    }

    @Test("the node limit is the tree's")
    func nodeLimit() throws {
        var limits = IngredientLimits.default
        limits.maximumNodes = 3
        let input = IngredientInput.text(#"[1, [2]]"#)
        var source = try JSONIngredientSource(input, options: .init(limits: limits))
        var index = IngredientIndex()
        let error = #expect(throws: EasyBakeError.self) { _ = try index.read(from: &source) }
        #expect(error?.code == .limitExceeded)
        var again = try JSONIngredientSource(input, options: .init(limits: limits))
        let treeError = #expect(throws: EasyBakeError.self) { _ = try Ingredients(reading: &again) }
        #expect(error?.message == treeError?.message)
    }

    @Test("random payloads in every format", arguments: 0..<3)
    func formats(formatIndex: Int) throws {
        let (name, format, _) = StreamingPropertyTests.formats[formatIndex]
        var random = SeededGenerator(seed: 0x1DE8_0000 + UInt64(formatIndex))
        var checked = 0
        for _ in 0..<200 {
            guard let (input, tree) = try StreamingPropertyTests.payload(formatIndex, using: &random) else { continue }
            var source = try format.makeSource(for: input)
            var index = IngredientIndex()
            #expect(try index.read(from: &source))
            #expect(try Ingredients(index: index) == tree, "\(name)")
            checked += 1
        }
        #expect(checked > 100)
    }

    @Test(
        "the shipped fixtures",
        arguments: [
            "json/users.json", "xml/atom.xml", "xml/feed.rss", "yaml/members.yaml", "yaml/users.yaml",
            "yaml/user-records.yaml",
        ])
    func fixtures(_ path: String) throws {
        let format: any IngredientFormat =
            path.hasPrefix("json")
            ? JSONFormat() : path.hasPrefix("xml") ? XMLFormat() as any IngredientFormat : YAMLFormat()
        let input = IngredientInput.file(TestPaths.fixture(path).path)
        var index = IngredientIndex()
        try format.readIndex(input, into: &index)
        #expect(try Ingredients(index: index) == (try format.read(input)))
    }

    @Test(
        "a format's index of a single value agrees with its tree: the same value, or the same error",
        arguments: [
            ("a: 1\n---\nb: 2\n", "yaml"), ("", "yaml"), ("<a/><b/>", "xml"), ("[1] [2]", "json"), ("", "json"),
            ("{\"a\": 1, \"a\": 2}", "json"),
        ])
    func singleValue(_ text: String, _ name: String) {
        let format: any IngredientFormat =
            name == "json" ? JSONFormat() : name == "xml" ? XMLFormat() as any IngredientFormat : YAMLFormat()
        let input = IngredientInput.text(text)
        var index = IngredientIndex()
        let viaIndex = Swift.Result { () throws(EasyBakeError) -> Ingredients in
            try format.readIndex(input, into: &index)
            return try Ingredients(index: index)
        }
        let tree = Swift.Result { () throws(EasyBakeError) -> Ingredients in try format.read(input) }
        switch (viaIndex, tree) {
        case (.success(let actual), .success(let expected)):
            #expect(actual == expected)
        case (.failure(let actual), .failure(let expected)):
            #expect(actual.message == expected.message)
            #expect(actual.location?.line == expected.location?.line)
        default:
            Issue.record("index \(viaIndex), tree \(tree)")
        }
    }

    @Test("a value too long for an index entry reads back whole", arguments: ["json", "xml", "yaml"])
    func longValues(_ name: String) throws {
        // Past the 20 bits of an entry's length (the entry is wide).
        let long = String(repeating: "abcdefgh", count: 140_000)
        let text: String
        let format: any IngredientFormat
        switch name {
        case "json": (text, format) = ("{\"a\": {\"b\": \"\(long)\"}, \"c\": 1}", JSONFormat())
        case "xml": (text, format) = ("<a><b>\(long)</b><c>1</c></a>", XMLFormat())
        default: (text, format) = ("a:\n  b: \(long)\nc: 1\n", YAMLFormat())
        }
        var index = IngredientIndex()
        try format.readIndex(.text(text), into: &index)
        let tree = try Ingredients(index: index)
        #expect(try tree.resolve("a.b") == .string(long))
        #expect(try format.read(.text(text)) == tree)
    }

    @Test("a tree's index")
    func treeIndex() throws {
        let tree: Ingredients = [
            "id": 7, "name": "Ada", "tags": ["a", 1, 2.5, .null, true], "nested": ["deep": [:]], "empty": [],
        ]
        let index = IngredientIndex(tree)
        #expect(index.count == 18)
        #expect(try Ingredients(index: index) == tree)
        #expect(try Ingredients(index: index, at: index.count - 1) == [])
    }
}
