import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Foundation
import Testing

/// The README's "Streaming large payloads" examples, on the shipped users
/// fixture, so that they keep compiling and working.
@Suite("README streaming examples")
struct ReadmeStreamingTests {
    struct User: Bakeable {
        let id: Int
        let name: String
        static let bakingRecipe: Recipe? = try? Recipe(mapping: ["id": "user_id", "name": "full_name"])
    }

    static let path = TestPaths.fixture("json/users.json").path

    @Test("bakeEach as a Sequence of results and as an AsyncSequence of models")
    func records() async throws {
        var names: [String] = []
        let source = try JSONIngredientSource(input: .file(Self.path))
        for result in try Baker().bakeEach(User.self, from: source, each: "users[*]") {
            switch result {
            case .success(let user): names.append(user.name)
            case .failure(let error): Issue.record("\(error)")
            }
        }
        #expect(names == ["Ada Lovelace", "Grace Hopper", "Katherine Johnson"])

        var ids: [Int] = []
        let again = try JSONIngredientSource(input: .file(Self.path))
        for try await user in try Baker().bakeEach(User.self, from: again, each: "users[*]").models { ids.append(user.id) }
        #expect(ids == [101, 102, 103])
    }

    @Test("a few paths of a large file in one pass")
    func header() throws {
        var header = try JSONIngredientSource(input: .file(Self.path))
        let found = try PathMatcher(["meta.source", "users[0].full_name"]).resolve(from: &header)
        #expect(found["meta.source"] == "accounts-api")
        #expect(found["users[0].full_name"] == "Ada Lovelace")
        #expect(found.stoppedEarly)
    }
}
