import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Foundation
import Testing

/// The "Streaming large payloads" article's examples, line for line
/// (`shownCode` checks it), on the shipped users fixture.
@Suite("The Streaming large payloads article")
struct StreamingArticleTests {
    struct User: Bakeable {
        let id: Int
        let name: String
        static let bakingRecipe: Recipe? = try? Recipe(mapping: ["id": "user_id", "name": "full_name"])
    }

    let usersPath = TestPaths.fixture("json/users.json").path

    @Test("the article shows the code these tests run")
    func shownCode() throws {
        let check = try DocumentationExamples.checkSwiftListings(
            in: try DocumentationExamples.article("EasyBake", "StreamingLargePayloads"), runBy: #filePath)
        #expect(check.listings == 4)
        #expect(check.notRun == [])
    }

    @Test("bakeEach on every core gives the records in order")
    func everyCore() throws {
        var names: [String] = []
        func print(_ name: String) { names.append(name) }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let everyCore = try JSONIngredientSource(.file(usersPath))
        try Baker().bakeEach(User.self, from: everyCore, each: "users[*]", jobs: cores) { result in
            print(try result.get().name)
        }
        #expect(names == ["Ada Lovelace", "Grace Hopper", "Katherine Johnson"])
        // The sequence the call without a body returns gives the same.
        var iterated: [String] = []
        for result in try Baker().bakeEach(
            User.self, from: try JSONIngredientSource(.file(usersPath)), each: "users[*]", jobs: cores)
        {
            iterated.append(try result.get().name)
        }
        #expect(iterated == names)
    }

    @Test("bakeEach as a Sequence of results and as an AsyncSequence of models")
    func records() async throws {
        var names: [String] = []
        func print(_ name: String) { names.append(name) }
        func print(_ error: EasyBakeError) { Issue.record("\(error)") }
        let source = try JSONIngredientSource(.file(usersPath))  // Fixtures/json/users.json
        for result in try Baker().bakeEach(User.self, from: source, each: "users[*]") {
            switch result {
            case .success(let user): print(user.name)
            case .failure(let error): print(error)  // names the record (users[41].id), its line and column
            }
        }
        #expect(names == ["Ada Lovelace", "Grace Hopper", "Katherine Johnson"])

        var ids: [Int] = []
        func print(_ id: Int) { ids.append(id) }
        let again = try JSONIngredientSource(.file(usersPath))
        for try await user in try Baker().bakeEach(User.self, from: again, each: "users[*]").models {
            print(user.id)
        }
        #expect(ids == [101, 102, 103])
    }

    @Test("a few paths of a large file in one pass")
    func header() throws {
        var header = try JSONIngredientSource(.file(usersPath))
        let found = try PathMatcher(["meta.source", "users[0].full_name"]).resolve(from: &header)
        let source = found["meta.source"]  // "accounts-api"
        #expect(source == "accounts-api")
        #expect(found["users[0].full_name"] == "Ada Lovelace")
        #expect(found.stoppedEarly)
    }
}
