import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import EasyBakeYAML
import Foundation
import Testing

/// Inputs the YAML fuzz target found (`Fixtures/regressions/yaml/`): each
/// reads or fails with an error, and what reads writes back to the same tree.
/// The target's seeds (`Fuzz/Seeds/yaml/`) are held to the same.
@Suite("YAML fuzz regressions")
struct YAMLRegressionTests {
    @Test(
        "each regression input and fuzz seed keeps the fuzz target's properties",
        arguments: TestPaths.fuzzInputs("yaml"))
    func regression(file: URL) {
        #expect(regressionFailure(file, format: YAMLFormat()) == nil, "\(file.lastPathComponent)")
    }

    struct Probe: Decodable {
        var id: Int?
        var name: String?
        var items: [[String: Int]]?
    }

    /// Inputs of the path and recipe-file target (`Fixtures/regressions/recipe/`);
    /// as in the target, the first byte picks what the rest is: `0` a path,
    /// `1` a JSON recipe file, `2` a YAML one.
    @Test(
        "each path or recipe-file regression input and seed parses or fails with an error",
        arguments: TestPaths.fuzzInputs("recipe"))
    func recipeRegression(file: URL) throws {
        let bytes = Array(try Data(contentsOf: file))
        let mode = try #require(bytes.first)
        let rest = Array(bytes.dropFirst())
        let tree: Ingredients = ["items": [["id": 1], ["id": 2]], "a": ["b": [["c": "d"]]]]
        switch mode % 3 {
        case 0:
            let text = String(decoding: rest, as: UTF8.self)
            guard let path = try? IngredientPath(parsing: text) else { return }
            // A path's description parses back to the same path.
            #expect(try IngredientPath(parsing: path.description) == path)
            _ = tree.resolve(path)
        default:
            let format: any IngredientFormat = mode % 3 == 1 ? JSONFormat() : YAMLFormat()
            do {
                for recipe in try RecipeFile.load(.bytes(rest, name: "recipe"), format: format, box: RecipeBox()) {
                    _ = try? Baker(options: .init(lossyArrays: true)).bake(Probe.self, from: tree, recipe: recipe)
                }
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
    }
}
