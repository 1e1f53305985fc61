import EasyBake
import EasyBakeJSON
import Foundation
import Testing

/// The model-less bake (issue 31, item 1): `ProcessedIngredients` is baked by
/// the baker's own reader and rules on every road, and `Recipe.process` is a
/// thin call of it.
@Suite("ProcessedIngredients: a recipe's properties, baked with no model")
struct ProcessedIngredientsTests {
    static let recipe = try! Recipe(
        name: "User",
        mapping: ["id": "user_id", "name": "full_name", "city": "address.town", "role": "role", "seen": "seen_at"],
        transformers: ["id": "number", "name": "trim", "role": .spec(["lookup": ["A": "admin"]])],
        defaults: ["city": "Unknown", "unmapped": "never printed"])

    static let payload =
        #"{"users": [{"user_id": "7", "full_name": " Ada ", "role": "A", "seen_at": null}, {"user_id": 8, "address": {"town": "Paris"}}]}"#

    @Test("properties in the recipe's order: defaults applied, null kept, a missing one without default left out")
    func values() throws {
        let tree = try JSONFormat().read(.text(Self.payload))
        let first = try Baker().bake(
            ProcessedIngredients.self, from: try #require(tree["users"]?[0]), recipe: Self.recipe)
        #expect(Array(first.ingredients.keys) == ["id", "name", "city", "role", "seen"])
        #expect(first.ingredients["id"] == 7)
        #expect(first.ingredients["name"] == "Ada")
        #expect(first.ingredients["city"] == "Unknown")
        #expect(first.ingredients["role"] == "admin")
        #expect(first.ingredients["seen"] == .null)
        #expect(first.foundAnyPath)
        // A default of a key the recipe does not map is no property of it:
        // left out, and no unknown-key error either.
        #expect(first.ingredients["unmapped"] == nil)
        let second = try Baker().bake(
            ProcessedIngredients.self, from: try #require(tree["users"]?[1]), recipe: Self.recipe)
        #expect(Array(second.ingredients.keys) == ["id", "city"])
        #expect(second.ingredients["city"] == "Paris")
        #expect(try Self.recipe.process(try #require(tree["users"]?[0])) == first.ingredients)
    }

    @Test("every road of the baker makes the same values: a tree, a payload's bytes, bakeEach")
    func roads() throws {
        let tree = try JSONFormat().read(.text(Self.payload))
        let fromTrees = try (0..<2).map { i in
            try Baker().bake(ProcessedIngredients.self, from: try #require(tree["users"]?[i]), recipe: Self.recipe)
                .ingredients
        }
        let streamed = try Baker().bakeEach(
            ProcessedIngredients.self, from: try JSONIngredientSource(.text(Self.payload)), each: "users[*]",
            recipe: Self.recipe
        ).map { try $0.get().ingredients }
        #expect(streamed == fromTrees)
        let record = #"{"user_id": "7", "full_name": " Ada ", "role": "A", "seen_at": null}"#
        let fromBytes = try Baker().bake(
            ProcessedIngredients.self, from: .text(record), format: JSONFormat(), recipe: Self.recipe)
        #expect(fromBytes.ingredients == fromTrees[0])
    }

    @Test("a value the recipe cannot read by key is the baker's type mismatch, naming the recipe")
    func notADictionary() throws {
        let error = #expect(throws: EasyBakeError.self) {
            _ = try Baker().bake(ProcessedIngredients.self, from: ["a", "b"], recipe: Self.recipe)
        }
        #expect(error?.code == .typeMismatch)
        #expect(error?.message == #"User: expected a dictionary, found [2 elements] (array)"#)
        #expect(error?.baking?.modelType == "User")
        let processing = #expect(throws: EasyBakeError.self) { _ = try Self.recipe.process("Ada") }
        #expect(processing?.message == #"User: expected a dictionary, found "Ada" (string)"#)
    }

    @Test("a recipe that finds none of its paths says so")
    func foundNothing() throws {
        let processed = try Baker().bake(ProcessedIngredients.self, from: ["users": []], recipe: Self.recipe)
        #expect(!processed.foundAnyPath)
        #expect(processed.ingredients == ["city": "Unknown"])
    }

    static let orderRecipe = try! Recipe(
        name: "Order",
        mapping: ["id": "id", "customer": "customer"],
        nested: [
            "customer": try! Recipe(
                name: "Customer", mapping: ["tier": "tier"], transformers: ["tier": .spec(["lookup": ["G": "gold"]])])
        ],
        lossy: ["customer"])

    @Test(
        "a nested recipe reads a dictionary, an array element by element, null as null; a plain value fails where baking fails"
    )
    func nested() throws {
        let one = try Self.orderRecipe.process(["id": 1, "customer": ["tier": "G"]])
        #expect(one["customer"] == ["tier": "gold"])
        let none = try Self.orderRecipe.process(["id": 1, "customer": .null])
        #expect(none["customer"] == .null)
        let nestedArrays = try Self.orderRecipe.process(["id": 1, "customer": [[["tier": "G"]], .null]])
        #expect(nestedArrays["customer"] == [[["tier": "gold"]], .null])
        let plain = #expect(throws: EasyBakeError.self) {
            _ = try Self.orderRecipe.process(["id": 4, "customer": "Ada"])
        }
        #expect(plain?.code == .typeMismatch)
        #expect(plain?.path?.description == "customer")
        #expect(plain?.message == #"Order.customer: expected a dictionary, found "Ada" (string)"#)
    }

    @Test("a lossy property drops the elements its nested recipe fails on, each with a warning")
    func lossy() throws {
        let result = try Baker().bakeReporting(
            ProcessedIngredients.self, from: ["id": 1, "customer": [["tier": "G"], ["tier": "X"], ["tier": "G"]]],
            recipe: Self.orderRecipe)
        #expect(result.value.ingredients["customer"] == [["tier": "gold"], ["tier": "gold"]])
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.message.hasPrefix("dropped array element: ") == true, "\(result.warnings)")
        #expect(result.warnings.first?.path?.description == "customer[1].tier")
        // Without lossy, the element fails the value.
        let strict = try Recipe(
            name: "Order", mapping: ["customer": "customer"], nested: ["customer": Self.orderRecipe.nested["customer"]!]
        )
        let error = #expect(throws: EasyBakeError.self) {
            _ = try strict.process(["customer": [["tier": "G"], ["tier": "X"]]])
        }
        #expect(error?.code == .transformFailed)
        #expect(error?.path?.description == "customer[1].tier")
    }

    @Test("#key reads the key the value stands under")
    func ownKey() throws {
        let recipe = try Recipe(mapping: ["id": "#key", "title": "name"])
        #expect(try recipe.process(["name": "Opera"], ownKey: "138586341") == ["id": "138586341", "title": "Opera"])
    }

    @Test("it needs the baker and a recipe")
    func misuse() throws {
        let noRecipe = #expect(throws: EasyBakeError.self) {
            _ = try Baker().bake(ProcessedIngredients.self, from: ["a": 1])
        }
        #expect(noRecipe?.code == .invalidRecipe)
        let foreign = #expect(throws: EasyBakeError.self) {
            _ = try JSONDecoder().decode(ProcessedIngredients.self, from: Data(#"{"a": 1}"#.utf8))
        }
        #expect(foreign?.code == .unsupported)
    }
}
