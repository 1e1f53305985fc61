import EasyBakeTestSupport
import Foundation
import Testing

/// `easybake schema --recipe R`: the columns of what `bake` prints, for an
/// engine that needs them before it reads the records (issue 32, item 2).
@Suite("The easybake schema command")
struct SchemaCommandTests {
    /// The schema's fields as `name: type` lines, a type as its JSON text.
    static func fields(_ output: String) throws -> [String] {
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let fields = try #require(schema["fields"] as? [[String: Any]])
        return try fields.map { field in
            let type = try #require(field["type"])
            let text =
                type is String
                ? type as! String
                : String(
                    decoding: try JSONSerialization.data(withJSONObject: type, options: [.sortedKeys]), as: UTF8.self)
            return "\(field["name"]!): \(text)"
        }
    }

    @Test(
        "the shipped users recipe: types from transformers and defaults, unknown values as json, in the recipe's order")
    func usersRecipe() throws {
        let result = try Command.run(["schema", "--recipe", "Fixtures/recipes/users.json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            try Self.fields(result.standardOutput) == [
                "id: json", "name: json", "email: json", "unreadMessages: number", "isAdmin: boolean",
                "joined: timestamp",
                "lastSeen: timestamp", "homepage: json", "balance: number", "role: string",
                #"tags: {"array":"string"}"#,
                "city: json", "postcode: json", #"deviceKinds: {"array":"json"}"#,
            ])
        #expect(result.standardOutput.contains(#""derivation":"transformer unixSeconds""#))
        #expect(
            result.standardOutput.hasPrefix(#"{"recipe":"User","fields":[{"name":"id","path":"user_id","type":"json""#))
    }

    @Test("nested recipes are structs, each, lists, lookups and defaults say their types")
    func derivedTypes() throws {
        let recipe = """
            {"recipes": [
              {"name": "Order", "mapping": {
                 "id": {"path": "id", "transformer": "string"},
                 "total": {"path": "total", "default": 0},
                 "paid": {"path": "paid", "default": false},
                 "codes": {"path": "codes", "transformer": {"each": "number"}},
                 "label": {"path": "label", "transformer": ["number", "string"]},
                 "state": {"path": "s", "transformer": {"lookup": {"o": 1, "c": 2}}},
                 "mixed": {"path": "m", "transformer": {"lookup": {"o": 1, "c": "closed"}}},
                 "notes": {"path": "notes", "default": ["none"]},
                 "lines": "lines[*]",
                 "customer": "customer"},
               "nested": {"lines": "Line", "customer": {"mapping": {"name": "name", "since": {"path": "since", "transformer": "iso8601"}}}}},
              {"name": "Line", "mapping": {"sku": {"path": "sku", "transformer": "uppercase"}, "qty": {"path": "qty", "transformer": "number"}}}
            ]}
            """
        let file = TestFiles.directory.appendingPathComponent("orders-\(UUID()).json")
        try Data(recipe.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try Command.run(["schema", "--recipe", file.path, "--recipe-name", "Order"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            try Self.fields(result.standardOutput) == [
                "id: string", "total: number", "paid: boolean", #"codes: {"array":"number"}"#, "label: string",
                "state: number",
                "mixed: json", #"notes: {"array":"string"}"#,
                #"lines: {"array":{"struct":[{"derivation":"transformer uppercase","name":"sku","path":"sku","type":"string"},{"derivation":"transformer number","name":"qty","path":"qty","type":"number"}]}}"#,
                #"customer: {"struct":[{"derivation":"unknown: no transformer, nested recipe or default","name":"name","path":"name","type":"json"},{"derivation":"transformer iso8601","name":"since","path":"since","type":"timestamp"}]}"#,
            ])
        let several = try Command.run(["schema", "--recipe", file.path])
        #expect(several.status == 1)
        #expect(several.standardError.contains("holds 2 recipes; choose one with --recipe-name (Order, Line)"))
        let unknown = try Command.run(["schema", "--recipe", file.path, "--recipe-name", "Nope"])
        #expect(unknown.standardError.contains(#"no recipe named "Nope""#))
    }

    @Test("every field bake prints is in the schema, in its order")
    func schemaMatchesBake() throws {
        let schema = try Command.run(["schema", "--recipe", "Fixtures/recipes/users.json"])
        let names = try Self.fields(schema.standardOutput).map { String($0.prefix { $0 != ":" }) }
        let baked = try Command.run([
            "bake", "--recipe", "Fixtures/recipes/users.json", "--each", "[*]", "Fixtures/jsonl/users.jsonl",
        ])
        #expect(baked.lines.count == 3)
        for line in baked.lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(object.keys).isSubset(of: Set(names)))
            // The line's keys come in the schema's order.
            let order = names.filter { object[$0] != nil }
            let positions = order.map { line.range(of: "\"\($0)\":")!.lowerBound }
            #expect(positions == positions.sorted())
        }
    }
}
