import EasyBake
import EasyBakeTestSupport
import Testing

/// Lossy arrays of models with a nested recipe: elements that fail are
/// dropped with a warning each, and the keys they never got to ask for are
/// no reason to call the recipe wrong (issue 19, item 7).
@Suite("Lossy arrays and the recipe check")
struct LossyRecipeKeyTests {
    struct Line: Decodable, Equatable {
        let sku: String
        let price: Double
    }

    struct Order: Decodable, Equatable { let lines: [Line] }

    static let recipe = try! Recipe(
        name: "Order", mapping: ["lines": "items"],
        nested: ["lines": Recipe(name: "Line", mapping: ["sku": "code", "price": "price"])])

    @Test("every element failing gives an empty array and a warning each, not an unknown recipe key")
    func allFail() throws {
        let payload: Ingredients = ["items": [["code": ["not", "text"], "price": 1], ["code": ["x"], "price": 2]]]
        let result = try Baker(options: .init(lossyArrays: true)).bakeReporting(
            Order.self, from: payload, recipe: Self.recipe)
        #expect(result.value == Order(lines: []))
        #expect(result.warnings.count == 2)
        #expect(result.warnings.allSatisfy { $0.message.hasPrefix("dropped array element") })
        #expect(!result.warnings.contains { $0.code == .unknownRecipeKey })
    }

    @Test("a mistyped key is still found when an element bakes")
    func typoStillFound() throws {
        let typo = try Recipe(
            name: "Order", mapping: ["lines": "items"],
            nested: ["lines": Recipe(name: "Line", mapping: ["sku": "code", "price": "price", "prcie": "price"])])
        let payload: Ingredients = ["items": [["code": ["bad"], "price": 1], ["code": "A-1", "price": 2]]]
        let error = #expect(throws: EasyBakeError.self) {
            _ = try Baker(options: .init(lossyArrays: true)).bakeReporting(Order.self, from: payload, recipe: typo)
        }
        #expect(error?.code == .unknownRecipeKey)
        #expect(error?.message.contains("\"prcie\" (did you mean \"price\"?)") == true, "\(String(describing: error))")
    }
}
