import EasyBake
import EasyBakeTestSupport
import EasyBakeTesting
import Foundation
import Testing

// The code of the "Models and updates" article, line for line (`shownCode`
// checks it).

@Suite("The Models and updates article")
struct ModelsArticleTests {
    struct Member: Dough {
        let id: Int
        let name: String
        let email: String?
        static var bakingRecipe: Recipe? { get throws { try recipe.get() } }
        static let recipe = Result {
            try Recipe(mapping: ["id": "member_id", "name": "name", "email": "contact.email"])
        }
    }

    @Test("the article shows the code these tests run")
    func shownCode() throws {
        let check = try DocumentationExamples.checkSwiftListings(
            in: try DocumentationExamples.article("EasyBake", "ModelsAndUpdates"), runBy: #filePath)
        #expect(check.listings == 2)
        #expect(check.notRun == [])
    }

    @Test("update, follow and compare")
    func update() async throws {
        let ada = try Baker().bake(
            Member.self, from: ["member_id": 1, "name": "Ada", "contact": ["email": "ada@example.com"]])
        let updates = Member.updates(of: 1)  // from now on
        let renamed = try ada.updated(with: ["name": "Ada Lovelace"])
        let changes = try ada.difference(to: renamed)  // [name: "Ada" (string) → "Ada Lovelace" (string)]
        let cleared = try renamed.updated(with: ["contact": ["email": .null]])  // null clears: cleared.email == nil
        #expect(renamed == ada && !renamed.hasSameContents(as: ada))
        #expect(changes.map(\.description) == [#"name: "Ada" (string) → "Ada Lovelace" (string)"#])
        #expect(cleared.email == nil && cleared.name == "Ada Lovelace")
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next()?.name == "Ada Lovelace")
        #expect(await iterator.next()?.email == nil)
        #expect(try ada.updated(with: ["name": "Ada"]).hasSameContents(as: ada))
        #expect(throws: EasyBakeError.self) { try ada.updated(with: ["member_id": 2]) }
    }

    @Test("a factory with overrides")
    func factory() throws {
        let members = try ModelFactory(
            Member.self, defaults: ["member_id": 1, "name": "Ada", "contact": ["email": "ada@example.com"]])
        let grace = try members.make(["member_id": 2, "name": "Grace", "contact.email": .null])
        #expect(grace.id == 2 && grace.name == "Grace" && grace.email == nil)
    }
}
