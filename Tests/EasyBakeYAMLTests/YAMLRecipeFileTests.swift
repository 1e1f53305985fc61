import Foundation
import Testing
import EasyBake
import EasyBakeYAML
import EasyBakeTestSupport

@Suite("YAML recipe files")
struct YAMLRecipeFileTests {
    @Test("YAML recipe files load like JSON ones")
    func recipeFile() throws {
        let formats = FormatRegistry([YAMLFormat()])
        let url = TestFiles.directory.appendingPathComponent("recipe-\(UUID()).yaml")
        try Data(
            """
            name: User
            mapping:
              id: user_id
              joined: {path: joined, transformer: {date: yyyy-MM-dd}}
            """.utf8
        ).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let recipes = try RecipeFile.load(.file(url.path), formats: formats)
        #expect(recipes.first?.name == "User")
        #expect(recipes.first?.properties == ["id", "joined"])
    }
}
