import Foundation
import Testing
import EasyBake
import EasyBakeJSON

// The README's quick start, verbatim, so that it keeps compiling and working.

struct ReadmeUser: Dough {
    let id: Int
    let name: String
    let unreadMessages: Int
    let joined: Date
    let homepage: URL?
    let city: String

    static let bakingRecipe: Recipe? = try? Recipe(
        name: "User",
        mapping: ["id": "user_id", "name": "full_name", "joined": "joined", "homepage": "homepage", "city": "address.town"],
        transformers: ["joined": .spec(["date": "yyyy-MM-dd"])]
    )
}

@Suite("README quick start")
struct ReadmeTests {
    @Test("bake, update and decompose as the README shows")
    func quickStart() throws {
        let json = #"{"user_id": 7, "full_name": "Ada", "unread_messages": "12", "joined": "1843-07-10", "address": {"town": "London"}}"#
        let tree = try JSONFormat().read(.text(json))
        let user = try Baker().bake(ReadmeUser.self, from: tree)
        #expect(user.unreadMessages == 12)
        #expect(user.city == "London")
        #expect(user.homepage == nil)

        let read = try user.updated(with: ["unread_messages": 0])
        #expect(read.id == 7)
        #expect(read.unreadMessages == 0)

        let payload = try JSONFormat().write(try Baker().decompose(read), options: .init(prettyPrinted: true))
        let back = try Baker().bake(ReadmeUser.self, from: try JSONFormat().read(.bytes(payload)))
        #expect(back.hasSameContents(as: read))
        #expect(String(decoding: payload, as: UTF8.self).contains("\"user_id\" : 7") || String(decoding: payload, as: UTF8.self).contains("\"user_id\": 7"))
    }

    @Test("a baking error from a document shows the line and column")
    func locatedError() throws {
        let text = "{\n  \"user_id\": 7,\n  \"full_name\": \"Ada\",\n  \"unread_messages\": \"many\",\n  \"joined\": \"1843-07-10\",\n  \"address\": {\"town\": \"London\"}\n}"
        let document = try Document(reading: .text(text, name: "users.json"), format: JSONFormat())
        let error = #expect(throws: EasyBakeError.self) { try Baker().bake(ReadmeUser.self, from: document) }
        #expect(error?.code == .typeMismatch)
        #expect(error?.location?.line == 4)
        #expect(error?.location?.column == 22)
        #expect(error?.description.contains("users.json:4:22") == true)
    }
}
