import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Foundation
import Testing

// The code of the "Paths and recipes" article, line for line (`shownCode`
// checks it), and its recipe file, read from the article.

@Suite("The Paths and recipes article")
struct PathsAndRecipesArticleTests {
    static let article = try! DocumentationExamples.article("EasyBake", "PathsAndRecipes")

    @Test("the article shows the code these tests run")
    func shownCode() throws {
        let check = try DocumentationExamples.checkSwiftListings(in: Self.article, runBy: #filePath)
        #expect(check.listings == 4)
        #expect(check.notRun == [])
    }

    @Test("paths: last element, every element, null and missing")
    func paths() throws {
        let tree: Ingredients = ["users": [["name": "Ada"], ["name": "Grace", "email": .null]]]
        let last = try tree.resolve("users[-1].name")  // "Grace"
        let names = try tree.resolve("users[*].name")  // ["Ada", "Grace"]
        let email = try tree.resolve("users[1].email")  // .null: present and null
        let phone = try tree.resolve("users[1].phone")  // nil: missing
        #expect(last == "Grace")
        #expect(names == ["Ada", "Grace"])
        #expect(email == .null)
        #expect(phone == nil)
        let dotted: Ingredients = ["a.b": 1]
        #expect(try dotted.resolve(#"["a.b"]"#) == 1)
        #expect(try Ingredients.string("lone").resolve("[0]") == "lone")
        let error = #expect(throws: EasyBakeError.self) { try tree.resolve("users[") }
        #expect(error?.code == .invalidPath)
        #expect(error?.location?.column == 7)
    }

    @Test("a recipe with a transformer and a default")
    func recipe() throws {
        let recipe = try Recipe(
            name: "User",
            mapping: ["id": "user_id", "name": "full_name", "city": "address.town", "tags": "tags[*].label"],
            transformers: ["name": "trim"],
            defaults: ["city": "Unknown"]
        )
        let processed = try recipe.process([
            "user_id": 1, "full_name": " Ada ", "tags": [["label": "x"], ["label": "y"]],
        ])
        #expect(processed["name"] == "Ada")
        #expect(processed["city"] == "Unknown")
        #expect(processed["tags"] == ["x", "y"])
    }

    struct Member: Decodable, Equatable {
        let id: Int
        let name: String
        let email: String?
    }

    @Test("the recipe checks the model: an unknown key is an error, or a warning")
    func recipeChecksTheModel() throws {
        let memberTree: Ingredients = ["member_id": 7, "full_name": "Ada", "mail": "ada@example.com"]
        let misspelt = try Recipe(name: "Member", mapping: ["id": "member_id", "name": "full_name", "emial": "mail"])
        let tolerant = Baker(options: .init(unknownRecipeKeys: .warning))
        let baked = try tolerant.bakeReporting(Member.self, from: memberTree, recipe: misspelt)
        #expect(baked.value == Member(id: 7, name: "Ada", email: nil))
        let message =
            #"recipe "Member" names a key that is not a property of Member: "emial" (did you mean "email"?); Member's properties: id, name, email"#
        #expect(baked.warnings.map(\.message) == [message])
        let error = #expect(throws: EasyBakeError.self) {
            try Baker().bake(Member.self, from: memberTree, recipe: misspelt)
        }
        #expect(error?.code == .unknownRecipeKey)
        #expect(error?.message == message)
        // The article quotes the message.
        #expect(Self.article.replacingOccurrences(of: "\n", with: " ").contains("`" + message + "`"))
    }

    @Test("a recipe reports every problem at once")
    func everyProblem() throws {
        let error = #expect(throws: EasyBakeError.self) {
            try Recipe(mapping: ["a": "x[0]", "b": "x.y", "c": "bad["], transformers: ["d": "trim", "a": "nope"])
        }
        #expect(error?.code == .invalidRecipe)
        #expect(error?.problems.count == 4)
    }

    @Test("the article's recipe file reads and bakes")
    func recipeFile() throws {
        let shown = try #require(DocumentationExamples.listings(in: Self.article, language: "json").first)
        let recipes = try RecipeFile.recipes(in: try JSONFormat().read(.text(shown.text)))
        let recipe = try #require(recipes.first)
        #expect(recipe.name == "User")
        struct Address: Decodable { let city: String }
        struct User: Decodable {
            let id: Int
            let name: String
            let unreadMessages: Int
            let joined: Date
            let role: String
            let tags: [String]
            let address: Address
        }
        let user = try Baker().bake(
            User.self,
            from: [
                "user_id": 1, "full_name": " Ada ", "joined": "1843-07-10", "role": "A",
                "tags": " math, poetry ", "profile": ["address": ["town": "London"]],
            ], recipe: recipe)
        #expect(user.name == "Ada")
        #expect(user.unreadMessages == 0)
        #expect(user.role == "admin")
        #expect(user.tags == ["math", "poetry"])
        #expect(user.address.city == "London")
    }

    @Test("a recipe box loads the shipped recipe file")
    func box() throws {
        let recipeFilePath = TestPaths.fixture("recipes/users.json").path
        let box = RecipeBox()
        try box.load(.file(recipeFilePath), format: JSONFormat())  // Fixtures/recipes/users.json
        let users = try box.recipe(named: "User")
        #expect(users.entry(for: "city")?.path.description == "address.town")
        #expect(throws: EasyBakeError.self) { try box.add(users) }
    }
}
