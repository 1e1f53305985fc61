import Foundation
import Testing
import EasyBakeTestSupport

/// `easybake bake` applies the whole recipe, nested recipes included, and
/// fails where the library fails (issue 19, item 6).
@Suite("Nested recipes in processing and in the command")
struct NestedRecipeCommandTests {
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

    static func write(_ text: String, _ name: String) throws -> URL {
        let file = TestFiles.directory.appendingPathComponent("\(UUID())-\(name)")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test("the command prints nested values transformed, and fails on an invalid lookup")
    func command() throws {
        let recipe = try Self.write(Self.recipeFile, "order.recipe.json")
        let good = try Self.write(
            #"{"orders": [{"id": 1, "customer": {"since": "01.02.2020", "tier": "G"}}]}"#, "good.json")
        let bad = try Self.write(
            #"{"orders": [{"id": 1, "customer": {"since": "01.02.2020", "tier": "X"}}]}"#, "bad.json")
        defer { for file in [recipe, good, bad] { try? FileManager.default.removeItem(at: file) } }
        let ok = try Command.run(["bake", "--recipe", recipe.path, "--each", "orders[*]", good.path])
        #expect(ok.status == 0, "\(ok.standardError)")
        #expect(ok.lines == [#"{"id":1,"customer":{"since":"2020-02-01T00:00:00Z","tier":"gold"}}"#])
        let failed = try Command.run(["bake", "--recipe", recipe.path, "--each", "orders[*]", bad.path])
        #expect(failed.status == 1)
        #expect(failed.standardError.contains("customer.tier"), "\(failed.standardError)")
    }
}
