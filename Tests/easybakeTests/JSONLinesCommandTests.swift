import EasyBakeTestSupport
import Foundation
import Testing

/// Every command on JSON Lines: `[*]` is every line.
@Suite("The easybake command on JSON Lines")
struct JSONLinesCommandTests {
    static let usersJSONL = "Fixtures/jsonl/users.jsonl"

    /// Writes `text` to a temporary file with `name`'s extension.
    static func file(_ text: String, named name: String) throws -> String {
        let url = TestFiles.directory.appendingPathComponent("\(UUID())-\(name)")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test("bake --each '[*]' bakes every line as the JSON array's records bake")
    func bake() throws {
        let lines = try Command.run([
            "bake", "--recipe", "Fixtures/recipes/users.json", "--each", "[*]", Self.usersJSONL,
        ])
        let array = try Command.run([
            "bake", "--recipe", "Fixtures/recipes/users.json", "--each", "users[*]", "Fixtures/json/users.json",
        ])
        #expect(lines.status == 0, "\(lines.standardError)")
        #expect(lines.lines.count == 3)
        #expect(lines.standardOutput == array.standardOutput)
    }

    @Test("get reads one line's value; --format jsonl reads standard input")
    func get() throws {
        let name = try Command.run(["get", "--raw", "[1].full_name", Self.usersJSONL])
        #expect(name.lines == ["Grace Hopper"])
        let piped = try Command.run(
            ["get", "[1].id", "--format", "jsonl", "-"], input: "{\"id\": 1}\n\n{\"id\": 2}\r\n")
        #expect(piped.lines == ["2"])
        let ndjson = try Self.file("{\"id\": 1}\n{\"id\": 2}", named: "cellphones.ndjson")
        #expect(try Command.run(["get", "[0]", ndjson]).lines == ["{\"id\":1}"])
    }

    @Test("paths and scaffold survey every line as a record")
    func pathsAndScaffold() throws {
        let paths = try Command.run(["paths", "--each", "[*]", "--output", "json", Self.usersJSONL])
        #expect(paths.status == 0, "\(paths.standardError)")
        let survey = try #require(try Command.json(paths.standardOutput) as? [String: Any])
        #expect(survey["records"] as? Int == 3)
        let scaffold = try Command.run(["scaffold", "--name", "User", "--each", "[*]", Self.usersJSONL])
        #expect(scaffold.status == 0, "\(scaffold.standardError)")
        #expect(scaffold.standardOutput.contains("struct User: Codable, Hashable, Sendable {"))
        #expect(scaffold.standardOutput.contains("JSONLinesIngredientSource(.file(\"users.jsonl\"))"))
        #expect(scaffold.standardOutput.contains("let fullName: String"))
    }

    @Test("convert reads JSON Lines as an array, and --to jsonl writes one compact value per line")
    func convert() throws {
        let json = try Command.run(["convert", "--to", "json", Self.usersJSONL])
        #expect(json.status == 0)
        #expect(json.lines.count == 1)
        #expect(json.standardOutput.hasPrefix("[{\"user_id\":101,"))
        let back = try Command.run(["convert", "--to", "jsonl", "--format", "json", "-"], input: json.standardOutput)
        #expect(
            back.standardOutput
                == (try String(contentsOfFile: TestPaths.fixture("jsonl/users.jsonl").path, encoding: .utf8)))
        let yaml = try Command.run(
            ["convert", "--to", "jsonl", "--pretty", "--format", "yaml", "-"], input: "- a: 1\n  b: [x]\n- 2\n")
        #expect(yaml.lines == ["{\"a\":1,\"b\":[\"x\"]}", "2"])
        let notArray = try Command.run(["convert", "--to", "jsonl", "Fixtures/json/users.json"])
        #expect(notArray.status == 1)
        #expect(notArray.standardError.contains("must be an array, found a dictionary"))
    }

    @Test("a malformed line fails the command with its line and column")
    func malformedLine() throws {
        let file = try Self.file("{\"id\": 1}\n{\"id\": 2,}\n{\"id\": 3}\n", named: "broken.jsonl")
        for arguments in [
            ["convert", "--to", "json", file], ["get", "[2].id", file], ["paths", "--each", "[*]", file],
        ] {
            let result = try Command.run(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.standardError.contains("broken.jsonl:2:10"), "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains("expected a string key after ','"), "\(arguments)")
        }
    }
}
