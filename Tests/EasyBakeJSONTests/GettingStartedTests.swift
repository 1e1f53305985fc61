import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Foundation
import Testing

// The code of the "Getting started" article and of the README's example,
// line for line: `shownCode` checks that both show exactly what these tests
// run, and the other tests run it.

@Suite("Getting started (article and README)")
struct GettingStartedTests {
    struct User: Dough {  // Codable + Identifiable, equal by id
        let id: Int
        let name: String
        let unreadMessages: Int  // filled from "unread_messages" by implicit matching
        let joined: Date
        let homepage: URL?
        let city: String

        // Made once; a mistake in it fails every bake that needs it, naming it.
        static var bakingRecipe: Recipe? { get throws { try recipe.get() } }
        static let recipe = Result {
            try Recipe(
                name: "User",
                mapping: [
                    "id": "user_id", "name": "full_name", "joined": "joined", "homepage": "homepage",
                    "city": "address.town",
                ],
                transformers: ["joined": .spec(["date": "yyyy-MM-dd"])]
            )
        }
    }

    static let article = try! DocumentationExamples.article("EasyBake", "GettingStarted")

    @Test("the article and the README show the code these tests run")
    func shownCode() throws {
        let check = try DocumentationExamples.checkSwiftListings(in: Self.article, runBy: #filePath)
        #expect(check.listings == 4)
        #expect(check.notRun == [])
        let readme = DocumentationExamples.listings(
            in: try DocumentationExamples.text(of: "README.md"), language: "swift")
        let example = try #require(readme.first { $0.text.hasPrefix("import EasyBake") })
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        #expect(DocumentationExamples.missingLines(of: example.text, in: source) == [], "README")
    }

    @Test("bake, update and decompose as shown")
    func bakeUpdateDecompose() throws {
        let json =
            #"{"user_id": 7, "full_name": "Ada", "unread_messages": "12", "joined": "1843-07-10", "address": {"town": "London"}}"#
        let tree = try JSONFormat().read(.text(json))
        let user = try Baker().bake(User.self, from: tree)  // uses User.bakingRecipe
        let same = try Baker().bake(User.self, from: .text(json), format: JSONFormat())  // no tree
        #expect(same.hasSameContents(as: user))
        #expect(user.unreadMessages == 12)
        #expect(user.city == "London")
        #expect(user.homepage == nil)

        // Update: a new value with the same id; posts a notification if anything changed.
        let read = try user.updated(with: ["unread_messages": 0])
        #expect(read.id == 7)
        #expect(read.unreadMessages == 0)

        // Decompose: the model back into ingredients shaped as the recipe says, then JSON.
        let payload = try JSONFormat().write(try Baker().decompose(read), options: .init(prettyPrinted: true))
        let back = try Baker().bake(User.self, from: try JSONFormat().read(.bytes(payload)))
        #expect(back.hasSameContents(as: read))
        let shown = try #require(DocumentationExamples.listings(in: Self.article, language: "json").first)
        #expect(String(decoding: payload, as: UTF8.self) == shown.text)
    }

    @Test("a baking error from a document shows the line and column, as shown")
    func locatedError() throws {
        let text =
            "{\n  \"user_id\": 7,\n  \"full_name\": \"Ada\",\n  \"unread_messages\": \"many\",\n  \"joined\": \"1843-07-10\",\n  \"address\": {\"town\": \"London\"}\n}"
        let document = try Document(reading: .text(text, name: "users.json"), format: JSONFormat())
        let error = #expect(throws: EasyBakeError.self) { try Baker().bake(User.self, from: document) }
        #expect(error?.code == .typeMismatch)
        #expect(error?.location?.line == 4)
        #expect(error?.location?.column == 22)
        let shown = try #require(DocumentationExamples.listings(in: Self.article, language: "").first)
        #expect(error?.description == shown.text)
    }
}
