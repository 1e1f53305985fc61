import EasyBake
import EasyBakeTestSupport
import EasyBakeTesting
import Testing

/// Updates and factory overrides may name a property the recipe maps
/// elsewhere (issue 19, item 13).
@Suite("Updates and overrides by property name")
struct PropertyNameUpdateTests {
    struct Member: Dough {
        let id: Int
        let name: String
        let email: String?
        static let bakingRecipe: Recipe? = try? Recipe(
            name: "Member", mapping: ["id": "member_id", "name": "name", "email": "contact.email"])
    }

    static let payload: Ingredients = ["member_id": 7, "name": "Ada", "contact": ["email": "ada@example.com"]]

    @Test("updated(with:) by a mapped property's name sets its path")
    func updateByPropertyName() throws {
        let ada = try Baker().bake(Member.self, from: Self.payload)
        let moved = try ada.updated(with: ["email": "ada@example.org"])
        #expect(moved.email == "ada@example.org")
        #expect(moved.id == 7 && moved.name == "Ada")
        // By its payload path, as before.
        #expect(try ada.updated(with: ["contact": ["email": "a@b.c"]]).email == "a@b.c")
        // A key the payload has wins over a property of that name.
        #expect(try ada.updated(with: ["name": "Augusta"]).name == "Augusta")
    }

    @Test("a factory override by a mapped property's name sets its path")
    func factoryByPropertyName() throws {
        let members = try ModelFactory(Member.self, defaults: Self.payload)
        let five = try members.make(["id": 5])
        #expect(five.id == 5)
        #expect(try members.make(["email": .null]).email == nil)
        #expect(
            try members.make(count: 2) { [(path: "id", value: Ingredients.integer(Int64($0 + 10)))] }.map(\.id) == [
                10, 11,
            ])
        // A negative count makes none, and does not trap.
        #expect(try members.make(count: -1) { _ in [] }.isEmpty)
        // Payload paths keep working.
        #expect(try members.make(["member_id": 9]).id == 9)
    }
}
