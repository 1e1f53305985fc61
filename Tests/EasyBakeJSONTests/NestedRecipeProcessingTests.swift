import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Testing

/// `Recipe.process` applies nested recipes as baking does (issue 19, item 6).
@Suite("Nested recipes in processing")
struct NestedRecipeProcessingTests {
    static let recipeFile = """
        {
          "name": "Order",
          "mapping": {"id": "id", "customer": "customer"},
          "nested": {
            "customer": {
              "name": "Customer",
              "mapping": {
                "since": {"path": "since", "transformer": {"date": "dd.MM.yyyy"}},
                "tier": {"path": "tier", "transformer": {"lookup": {"G": "gold", "S": "silver"}}}
              }
            }
          }
        }
        """

    @Test("processing applies a nested recipe to a dictionary and to each element of an array")
    func process() throws {
        let recipe = try #require(
            try RecipeFile.load(.text(NestedRecipeProcessingTests.recipeFile), format: JSONFormat()).first)
        let one = try recipe.process(["id": 1, "customer": ["since": "01.02.2020", "tier": "G"]])
        #expect(one["customer"] == ["since": "2020-02-01T00:00:00Z", "tier": "gold"])
        let many = try recipe.process(["id": 2, "customer": [["since": "01.02.2020", "tier": "S"], ["tier": "G"]]])
        #expect(many["customer"] == [["since": "2020-02-01T00:00:00Z", "tier": "silver"], ["tier": "gold"]])
        let error = #expect(throws: EasyBakeError.self) {
            _ = try recipe.process(["id": 3, "customer": [["tier": "G"], ["tier": "X"]]])
        }
        #expect(error?.code == .transformFailed)
        #expect(error?.path?.description == "customer[1].tier")
        let plain = #expect(throws: EasyBakeError.self) { _ = try recipe.process(["id": 4, "customer": "Ada"]) }
        #expect(plain?.code == .typeMismatch)
    }

}
