import EasyBake
import EasyBakeTestSupport
import Testing

/// A nested model given a plain value is a type mismatch, with or without a
/// recipe — never a model of nils (issue 19, item 2).
@Suite("Nested models given plain values")
struct NestedPlainValueTests {
    struct N: Decodable, Equatable { let a: String? }
    struct S: Decodable, Equatable { let n: N? }

    static let recipe = try! Recipe(mapping: ["n": "n"], nested: ["n": Recipe(mapping: ["a": "x"])])

    @Test(
        "a string, a number, a bool or an array where a recipe reads keys",
        arguments: [
            Ingredients.string("hello"), 42, 2.5, true, ["x", "y"],
        ])
    func withRecipe(_ value: Ingredients) {
        let error = #expect(throws: EasyBakeError.self) {
            _ = try Baker().bake(S.self, from: ["n": value], recipe: Self.recipe)
        }
        #expect(error?.code == .typeMismatch)
        #expect(error?.baking?.expected == "a dictionary")
        #expect(error?.baking?.property == "n")
        #expect(error?.path?.description == "n")
    }

    struct Typed: Bakeable, Equatable {
        let a: String?
        static var bakingRecipe: Recipe? { get throws { try Recipe(mapping: ["a": "x"]) } }
    }

    struct HoldsTyped: Decodable, Equatable { let t: Typed }

    @Test("the same through a type's own recipe")
    func typeRecipe() {
        let error = #expect(throws: EasyBakeError.self) { _ = try Baker().bake(HoldsTyped.self, from: ["t": "hello"]) }
        #expect(error?.code == .typeMismatch)
        #expect(
            error?.message.contains("expected a dictionary, found \"hello\" (string)") == true,
            "\(String(describing: error))")
    }

    @Test("a dictionary still bakes, and null or missing still gives nil")
    func stillBakes() throws {
        #expect(try Baker().bake(S.self, from: ["n": ["x": "1"]], recipe: Self.recipe) == S(n: N(a: "1")))
        #expect(try Baker().bake(S.self, from: ["n": .null], recipe: Self.recipe) == S(n: nil))
        #expect(try Baker().bake(S.self, from: [:], recipe: Self.recipe) == S(n: nil))
    }

    struct Category: Decodable, Equatable {
        let name: String
        let domain: String?
    }

    struct Item: Decodable, Equatable { let category: [Category] }

    @Test("a recipe that maps #text reads a bare value as its text, as XML writes an element without attributes")
    func text() throws {
        let recipe = try Recipe(
            mapping: ["category": "category"],
            nested: ["category": Recipe(mapping: ["name": "#text", "domain": "@domain"])])
        // <category>Media</category> <category domain="x">News</category>
        let item: Ingredients = ["category": ["Media", ["@domain": "x", "#text": "News"]]]
        #expect(
            try Baker().bake(Item.self, from: item, recipe: recipe)
                == Item(category: [
                    Category(name: "Media", domain: nil), Category(name: "News", domain: "x"),
                ]))
    }
}
