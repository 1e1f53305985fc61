import EasyBake
import EasyBakeTestSupport
import Foundation
import Testing

/// ``PathMatcher/Picking`` is the public road a format takes to keep only
/// what a matcher's paths reach as it writes the index (JSON's byte walk
/// takes it too): resolving the paths on what it kept must give what they
/// give on the whole value, and what no path needs must be left out.
@Suite("Picking what paths reach while writing the index")
struct PathPickingTests {
    static let document: Ingredients = [
        "users": [
            ["name": "Ada", "email": "ada@example.com", "tags": ["math", "engines"], "age": 36],
            ["name": "Grace", "email": "grace@example.com", "tags": ["cobol"], "age": 85],
            ["name": "Linus", "email": .null, "tags": [], "age": 54],
        ],
        "meta": ["count": 3, "source": ["name": "census", "year": 1843]],
        "lone": ["name": "only"],
        "empty": [:],
        "note": "kept when asked",
    ]

    /// Writes `value` through `writer`, picking in `state`: the loop a
    /// format that indexes its input directly runs (here over a tree).
    static func write(
        _ value: Ingredients, with writer: IngredientIndex.UncheckedWriter, picking: PathMatcher.Picking,
        in state: PathMatcher.Picking.State
    ) throws {
        switch value {
        case .dictionary(let members):
            writer.beginDictionary(at: 0)
            let inner = picking.state(ofContainerIn: state, isDictionary: true)
            var kept = 0
            for (key, member) in members {
                try Array(key.utf8).withUnsafeBytes { try writer.string(decoded: $0, at: 0) }
                guard let memberState = picking.state(ofMember: writer.lastString, ofDictionaryIn: inner) else {
                    writer.removeLastString()
                    continue
                }
                try write(member, with: writer, picking: picking, in: memberState)
                kept += 1
            }
            try writer.endContainer(elements: kept)
        case .array(let elements):
            writer.beginArray(at: 0)
            let inner = picking.state(ofContainerIn: state, isDictionary: false)
            for (offset, element) in elements.enumerated() {
                try write(
                    element, with: writer, picking: picking, in: picking.state(ofElement: offset, ofArrayIn: inner))
            }
            try writer.endContainer(elements: elements.count)
        case .string(let text):
            try Array(text.utf8).withUnsafeBytes { try writer.string(decoded: $0, at: 0) }
        case .bool(let flag):
            writer.bool(flag, at: 0)
        case .null:
            writer.null(at: 0)
        default:
            try writer.number(value, at: 0)
        }
    }

    /// The document as a format picks it for `paths`.
    static func picked(_ paths: [String]) throws -> (Ingredients, PathMatcher) {
        let matcher = try PathMatcher(paths)
        let picking = try #require(matcher.picking(for: []))
        let root = try #require(picking.root)
        var index = IngredientIndex()
        let writer = index.beginUncheckedWriting()
        try write(document, with: writer, picking: picking, in: root)
        return (try Ingredients(index: index), matcher)
    }

    @Test(
        "what the paths reach is what they reach in the whole document",
        arguments: [
            ["users[*].name", "meta.count"],
            ["users[1].tags[0]", "users[-1].age", "note"],
            ["users[*].tags[*]", "meta.source.year", "missing.key"],
            ["users", "lone[0].name", "empty"],
            ["meta[*]", "users[0]"],
            ["users[*].email", "users[2].tags[0]"],
        ])
    func sameResolution(_ paths: [String]) throws {
        let (picked, matcher) = try Self.picked(paths)
        for path in matcher.paths {
            #expect(picked.resolve(path) == Self.document.resolve(path), "\(path)")
        }
    }

    @Test("members no path needs are left out; elements keep their places")
    func leftOut() throws {
        let (picked, _) = try Self.picked(["users[1].name", "meta.count"])
        guard case .dictionary(let top) = picked else {
            Issue.record("not a dictionary: \(picked)")
            return
        }
        #expect(top.map { $0.key }.sorted() == ["meta", "users"])
        let usersValue = try #require(try picked.resolve("users"))
        guard case .array(let users) = usersValue else {
            Issue.record("users is not an array")
            return
        }
        // Every element keeps its place; the one the path names is picked,
        // the others are kept whole.
        #expect(users.count == 3)
        #expect(users[1] == ["name": "Grace"])
        #expect(users[0] == Self.document.resolve(try IngredientPath(parsing: "users[0]")))
        #expect(try picked.resolve("meta") == ["count": 3])
    }

    @Test("the whole value when a path ends at the root; none when there are no paths")
    func rootStates() throws {
        let (picked, _) = try Self.picked([""])
        #expect(picked == Self.document)
        #expect(try PathMatcher([String]()).picking(for: [])?.root == nil)
    }

    @Test("a format whose dictionaries are elements is not offered picking")
    func elementsAreNotPicked() throws {
        let matcher = try PathMatcher(["item[*].title"])
        #expect(matcher.picking(for: .dictionariesAreElements) == nil)
        #expect(matcher.picking(for: []) != nil)
    }

    @Test("the Writing a format article shows the picking loop as this test has it")
    func article() throws {
        let article = try DocumentationExamples.article("EasyBake", "WritingAFormat")
        let loop = try #require(
            DocumentationExamples.listings(in: article, language: "swift").first {
                $0.text.contains("picking.state(ofMember:")
            })
        let test = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        #expect(DocumentationExamples.missingLines(of: loop.text, in: test) == [])
    }
}
