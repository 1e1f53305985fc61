import EasyBake
import EasyBakeTestSupport
import Foundation
import Testing
@testable import easybake

/// An array property whose elements need a transformer gets it per element,
/// and the scaffolded recipe processes its own sample (issue 19, item 5).
@Suite("Scaffold: transformers of array elements")
struct ScaffoldArrayTransformerTests {
    static let sample = """
        {"items": [
          {"id": 1, "links": ["https://a.example/1", "https://a.example/2"], "seen": ["2024-03-01T10:00:00Z"]},
          {"id": 2, "links": ["https://b.example/"], "seen": []}
        ]}
        """

    @Test("the recipe names {\"each\": …} for an array, and processes every record of the sample")
    func eachElement() throws {
        let file = TestFiles.directory.appendingPathComponent("scaffold-\(UUID().uuidString).json")
        try Data(Self.sample.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let survey = try PathsSurveying.survey(
            Payload(path: file.path, format: "json"), each: "items[*]", maximumPaths: 1000)
        let result = try ModelScaffold.make(
            from: survey,
            request: .init(name: "Item", each: "items[*]", inputName: file.lastPathComponent, formatName: "json"))
        #expect(result.recipeJSON.contains(#""transformer": {"each": "url"}"#), "\(result.recipeJSON)")
        #expect(result.recipeJSON.contains(#""transformer": {"each": "iso8601"}"#), "\(result.recipeJSON)")
        let recipe = try #require(
            try RecipeFile.recipes(in: try JSONFormatFromRegistry.read(.text(result.recipeJSON))).first)
        let records = try #require(try JSONFormatFromRegistry.read(.text(Self.sample))["items"]?.arrayValue)
        for record in records { _ = try recipe.process(record) }
        let first = try recipe.process(records[0])
        #expect(first["links"] == ["https://a.example/1", "https://a.example/2"])
        #expect(first["seen"] == ["2024-03-01T10:00:00Z"])
    }

    @Test("an each transformer maps elements, takes a lone value as itself, and names a failing element")
    func eachTransformer() throws {
        let each = try TransformerRegistry.builtIn.resolve(["each": "url"])
        #expect(try each.transform(["https://a", " https://b "]) == ["https://a", "https://b"])
        #expect(try each.transform("https://a") == "https://a")
        #expect(try each.transform(nil) == nil)
        let error = #expect(throws: EasyBakeError.self) { _ = try each.transform(["https://a", 42]) }
        #expect(error?.message.hasPrefix("element 1:") == true, "\(String(describing: error))")
    }
}

/// The JSON format as the command registers it.
enum JSONFormatFromRegistry {
    static func read(_ input: IngredientInput) throws -> Ingredients {
        try #require(Formats.all.format(named: "json")).read(input)
    }
}
