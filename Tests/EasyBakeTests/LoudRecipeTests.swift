import EasyBake
import EasyBakeTestSupport
import Testing

/// The documented way to give a model its recipe keeps the recipe's error,
/// so a mistake fails the bakes that need it, naming the model (issue 19,
/// item 10).
@Suite("A type's recipe that cannot be made")
struct LoudRecipeTests {
    struct Broken: Bakeable, Equatable {
        let name: String
        static var bakingRecipe: Recipe? { get throws { try recipe.get() } }
        // "nmae[" does not parse: the recipe cannot be made.
        static let recipe = Result { try Recipe(mapping: ["name": "nmae["]) }
    }

    struct Holder: Decodable, Equatable { let broken: Broken }

    @Test("baking the type, or a model holding it, fails with the recipe's problem and the type's name")
    func loud() {
        let direct = #expect(throws: EasyBakeError.self) { _ = try Baker().bake(Broken.self, from: ["name": "x"]) }
        #expect(direct?.code == .invalidRecipe)
        #expect(direct?.message.hasPrefix("Broken.bakingRecipe:") == true, "\(String(describing: direct))")
        #expect(direct?.problems.isEmpty == false)
        let nested = #expect(throws: EasyBakeError.self) {
            _ = try Baker().bake(Holder.self, from: ["broken": ["name": "x"]])
        }
        #expect(nested?.code == .invalidRecipe)
        #expect(nested?.baking?.property == "broken")
    }
}
