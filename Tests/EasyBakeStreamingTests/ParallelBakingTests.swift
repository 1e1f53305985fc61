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
        materialization: Baker.RecordMaterialization = .automatic,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let sequential = Array(
            try Baker().bakeEach(
                User.self, from: AnyIngredientSource(try make()), each: each, recipe: recipe,
                materialization: materialization))
        #expect(sequential.count > 0, sourceLocation: sourceLocation)
        for jobs in [1, 2, 4] {
            let parallel = Array(
                try Baker().bakeEach(
                    User.self, from: AnyIngredientSource(try make()), each: each, recipe: recipe,
                    materialization: materialization, jobs: jobs))
            #expect(parallel.map(describe) == sequential.map(describe), "jobs \(jobs)", sourceLocation: sourceLocation)
            var handedOut: [String] = []
            try Baker().bakeEach(
                User.self, from: AnyIngredientSource(try make()), each: each, recipe: recipe,
                materialization: materialization, jobs: jobs
            ) { handedOut.append(describe($0)) }
            #expect(handedOut == sequential.map(describe), "jobs \(jobs), body", sourceLocation: sourceLocation)
        }
    }

    @Test("a JSON array of a thousand records, with failing records among them")
    func jsonArray() throws {
        let json = #"{"users": ["# + Self.users(1_000).joined(separator: ",\n") + "]}"
        try Self.expectSame({ try JSONIngredientSource(.text(json)) }, each: "users[*]")
        let recipe = try Recipe(mapping: ["id": "id", "name": "name", "tags": "tags"])
        try Self.expectSame({ try JSONIngredientSource(.text(json)) }, each: "users[*]", recipe: recipe)
        try Self.expectSame(
            { try JSONIngredientSource(.text(json)) }, each: "users[*]", recipe: recipe, materialization: .recipePaths)
    }

    @Test("records left for the jobs to read: damage anywhere ends the stream where one job ends it")
    func damagedRecordsLeftUnread() throws {
        // Four jobs or more find where each record ends by counting brackets
        // and leave the reading to the job that bakes it (`expectSame` runs
        // four); a record damaged so
        // that the count goes wrong must still fail as it does in place,
        // and nothing read past it may be handed out.
        let valid = #"{"users": ["# + Self.users(300).joined(separator: ",\n") + "]}"
        let damage = ["\"", "\\", "{", "}", "[", "]", ",", ":", "\u{1}", "x", "\"\\"]
        var random = SeededGenerator(seed: 0xDA4A)
        var failedEarly = 0
        for round in 0..<60 {
            var bytes = Array(valid.utf8)
            for _ in 0...(round % 3) {
                let at = Int.random(in: 12..<(bytes.count - 2), using: &random)
                bytes.replaceSubrange(at...at, with: Array(damage.randomElement(using: &random)!.utf8))
            }
            for scanning in JSONByteScanning.allCases {
                try Self.expectSame(
                    {
                        var source = try JSONIngredientSource(.bytes(bytes))
                        source.byteScanning = scanning
                        return source
                    }, each: "users[*]")
            }
            let results = Array(
                try Baker().bakeEach(User.self, from: try JSONIngredientSource(.bytes(bytes)), each: "users[*]"))
            if results.count < 300 { failedEarly += 1 }
        }
        #expect(failedEarly > 30)
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
        let results = Array(
            try Baker().bakeEach(User.self, from: try JSONIngredientSource(.text(json)), each: "users[*]", jobs: 2))
        #expect(results.count == 301)
        #expect(results.last.map(Self.describe)?.hasPrefix("syntax") == true)
    }

    /// A model that is not `Sendable`: the body API makes and hands out each
    /// model on one thread.
    final class Account: Decodable {
        let id: Int
        var seenBy = 0
        enum CodingKeys: CodingKey { case id }
    }

    @Test("the body takes results in input order, one call at a time, and models need not be Sendable")
    func bodyOrder() throws {
        let json = #"{"users": ["# + Self.users(2_000).joined(separator: ",") + "]}"
        var ids: [Int] = []
        var calls = 0
        try Baker().bakeEach(Account.self, from: try JSONIngredientSource(.text(json)), each: "users[*]", jobs: 4) {
            result in
            calls += 1
            if case .success(let account) = result {
                account.seenBy += 1
                ids.append(account.id)
            }
        }
        #expect(calls == 2_000)
        #expect(ids == (0..<2_000).filter { $0 % 101 != 100 })
    }

    struct Stop: Error {}

    @Test("an error of the body stops the bake and is thrown; nothing is handed out after it")
    func bodyError() throws {
        let json = #"{"users": ["# + Self.users(3_000).joined(separator: ",") + "]}"
        for jobs in [1, 2, 4] {
            var handedOut = 0
            #expect(throws: Stop.self) {
                try Baker().bakeEach(
                    User.self, from: try JSONIngredientSource(.text(json)), each: "users[*]", jobs: jobs
                ) { _ in
                    handedOut += 1
                    if handedOut == 500 { throw Stop() }
                }
            }
            #expect(handedOut == 500, "jobs \(jobs)")
        }
    }

    @Test("records iterated in part: the jobs stop when the records go, and a new bake starts afresh")
    func abandonedIteration() throws {
        let json = #"{"users": ["# + Self.users(5_000).joined(separator: ",") + "]}"
        for _ in 0..<20 {
            var taken = 0
            for result in try Baker().bakeEach(
                User.self, from: try JSONIngredientSource(.text(json)), each: "users[*]", jobs: 3)
            {
                _ = result
                taken += 1
                if taken == 200 { break }
            }
            #expect(taken == 200)
        }
    }

    @Test("every document of a YAML stream")
    func yamlDocuments() throws {
        let yaml = Self.users(400).map { "--- " + $0 }.joined(separator: "\n")
        var options = YAMLReadingOptions()
        options.documents = .all
        try Self.expectSame({ try YAMLIngredientSource(.text(yaml), options: options) }, each: "[*]")
    }
}
