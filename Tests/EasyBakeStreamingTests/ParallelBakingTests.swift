import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import EasyBakeYAML
import Testing

/// Several jobs bake what one bakes: the same models and the same errors,
/// in input order, over many batches.
@Suite("Baking records on several jobs")
struct ParallelBakingTests {
    struct User: Decodable, Equatable, Sendable {
        let id: Int
        let name: String
        let tags: [String]
    }

    static func describe(_ result: Result<User, EasyBakeError>) -> String {
        switch result {
        case .success(let user): "\(user)"
        case .failure(let error):
            "\(error.code) \(error.message) at \(error.path?.description ?? "") \(error.location?.line ?? 0):\(error.location?.column ?? 0)"
        }
    }

    /// `count` users, every 37th without a name and every 101st with a
    /// string id that does not coerce.
    static func users(_ count: Int) -> [String] {
        (0..<count).map { i in
            let id = i % 101 == 100 ? #""x\#(i)""# : "\(i)"
            let name = i % 37 == 36 ? "" : #""name": "user \#(i)", "#
            return #"{"id": \#(id), \#(name)"tags": ["a\#(i % 5)", "b"], "extra": {"deep": [1, 2, 3]}}"#
        }
    }

    static func expectSame(
        _ make: () throws -> any IngredientSource, each: String, recipe: Recipe? = nil,
        materialization: Baker.RecordMaterialization = .automatic, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let sequential = Array(try Baker().bakeEach(
            User.self, from: AnyIngredientSource(try make()), each: each, recipe: recipe, materialization: materialization))
        #expect(sequential.count > 0, sourceLocation: sourceLocation)
        for jobs in [1, 2, 4] {
            let parallel = Array(try Baker().bakeEach(
                User.self, from: AnyIngredientSource(try make()), each: each, recipe: recipe,
                materialization: materialization, jobs: jobs))
            #expect(parallel.map(describe) == sequential.map(describe), "jobs \(jobs)", sourceLocation: sourceLocation)
        }
    }

    @Test("a JSON array of a thousand records, with failing records among them")
    func jsonArray() throws {
        let json = #"{"users": ["# + Self.users(1_000).joined(separator: ",\n") + "]}"
        try Self.expectSame({ try JSONIngredientSource(.text(json)) }, each: "users[*]")
        let recipe = try Recipe(mapping: ["id": "id", "name": "name", "tags": "tags"])
        try Self.expectSame({ try JSONIngredientSource(.text(json)) }, each: "users[*]", recipe: recipe)
        try Self.expectSame({ try JSONIngredientSource(.text(json)) }, each: "users[*]", recipe: recipe, materialization: .recipePaths)
    }

    @Test("JSON Lines with a malformed line: it fails alone, in its place")
    func jsonLines() throws {
        var lines = Self.users(700)
        lines[333] = #"{"id": 333, "name": "broken" "#
        let text = lines.joined(separator: "\n") + "\n"
        try Self.expectSame({ try JSONLinesIngredientSource(.text(text)) }, each: "[*]")
    }

    @Test("a malformed document ends the stream after its error, as it does for one job")
    func sourceError() throws {
        let json = #"{"users": ["# + Self.users(300).joined(separator: ",") + #", {"id": 1, "name": "x", "tags": [}]}"#
        try Self.expectSame({ try JSONIngredientSource(.text(json)) }, each: "users[*]")
        let results = Array(try Baker().bakeEach(User.self, from: try JSONIngredientSource(.text(json)), each: "users[*]", jobs: 2))
        #expect(results.count == 301)
        #expect(results.last.map(Self.describe)?.hasPrefix("syntax") == true)
    }

    @Test("every document of a YAML stream")
    func yamlDocuments() throws {
        let yaml = Self.users(400).map { "--- " + $0 }.joined(separator: "\n")
        var options = YAMLReadingOptions()
        options.documents = .all
        try Self.expectSame({ try YAMLIngredientSource(.text(yaml), options: options) }, each: "[*]")
    }
}
