import EasyBake
import EasyBakeTestSupport
import Testing

/// Decompose places `[-1]` beside `[0]`, and refuses parallel `[*]` paths it
/// cannot line up (issue 19, item 4).
@Suite("Decomposing first, last and parallel paths")
struct DecomposePlacementTests {
    struct Ends: Dough {
        let id: Int
        let first: String
        let last: String
        static let bakingRecipe: Recipe? = try? Recipe(
            name: "Ends", mapping: ["id": "id", "first": "items[0].name", "last": "items[-1].name"])
    }

    @Test(
        "[0] and [-1] decompose to two elements that bake back to the same model",
        arguments: [
            ["a", "b", "c"], ["only"], ["x", "y"],
        ])
    func firstAndLast(_ names: [String]) throws {
        let payload: Ingredients = ["id": 1, "items": .array(IngredientArray(names.map { ["name": .string($0)] }))]
        let ends = try Baker().bake(Ends.self, from: payload)
        #expect(ends.first == names.first && ends.last == names.last)
        let back = try Baker().bake(Ends.self, from: try Baker().decompose(ends))
        #expect(back == ends && back.hasSameContents(as: ends))
        let same = try ends.updated(with: [:])
        #expect(same.first == ends.first && same.last == ends.last)
    }

    struct Listing: Dough {
        let id: Int
        let names: [String]
        let last: String?
        static let bakingRecipe: Recipe? = try? Recipe(
            name: "Listing", mapping: ["id": "id", "names": "users[*].name", "last": "users[-1].name"])
    }

    @Test("[-1] beside [*] is the last of the elements [*] placed")
    func lastOfEvery() throws {
        let listing = try Baker().bake(Listing.self, from: ["id": 1, "users": [["name": "a"], ["name": "b"]]])
        #expect(try Baker().decompose(listing) == ["id": 1, "users": [["name": "a"], ["name": "b"]]])
    }

    struct Contacts: Dough {
        let id: Int
        let names: [String]
        let emails: [String]
        static let bakingRecipe: Recipe? = try? Recipe(
            name: "Contacts", mapping: ["id": "id", "names": "users[*].name", "emails": "users[*].email"])
    }

    @Test("parallel [*] paths of different lengths are refused, not misaligned")
    func parallel() throws {
        let gap: Ingredients = [
            "id": 1, "users": [["name": "a", "email": "a@x"], ["name": "b"], ["name": "c", "email": "c@x"]],
        ]
        let contacts = try Baker().bake(Contacts.self, from: gap)
        #expect(contacts.emails == ["a@x", "c@x"])
        let error = #expect(throws: EasyBakeError.self) { _ = try Baker().decompose(contacts) }
        #expect(error?.code == .unsupported)
        #expect(error?.message.contains("users[*]") == true)
        #expect(throws: EasyBakeError.self) { _ = try contacts.updated(with: ["id": 1]) }
        // Lengths that agree line up.
        let full = try Baker().bake(
            Contacts.self, from: ["id": 2, "users": [["name": "a", "email": "a@x"], ["name": "b", "email": "b@x"]]])
        #expect(try Baker().bake(Contacts.self, from: try Baker().decompose(full)) == full)
    }
}
