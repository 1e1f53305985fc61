import Foundation
import Testing
import EasyBakeTestSupport

/// Runs the built `easybake` executable, as a user does.
struct CommandResult {
    let status: Int32
    let standardOutput: String
    let standardError: String

    var lines: [String] { standardOutput.split(separator: "\n").map(String.init) }
}

enum Command {
    /// The executable, built beside the test bundle.
    static let executable: URL = {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        // On macOS the tests run from inside an .xctest bundle.
        while directory.path != "/"
            && !FileManager.default.fileExists(atPath: directory.appendingPathComponent("easybake").path)
        {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("easybake")
    }()

    /// Runs the command with `arguments`, `input` on standard input, and
    /// `environment` over the test's own.
    static func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws
        -> CommandResult
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.currentDirectoryURL = TestPaths.packageRoot
        let output = Pipe(), error = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        // Read before waiting, so a full pipe cannot block the child.
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus,
            standardOutput: String(decoding: out, as: UTF8.self),
            standardError: String(decoding: err, as: UTF8.self))
    }

    static func json(_ line: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])
    }
}

@Suite("The easybake command")
struct CommandTests {
    @Test("bake prints one JSON line per record, as the README shows")
    func bakeEach() throws {
        let result = try Command.run([
            "bake", "--recipe", "Fixtures/recipes/users.json", "--each", "users[*]", "Fixtures/json/users.json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.lines.count == 3)
        let first = try #require(try Command.json(result.lines[0]) as? [String: Any])
        #expect(first["id"] as? Int == 101)
        #expect(first["unreadMessages"] as? Int == 12)
        #expect(first["isAdmin"] as? Bool == true)
        #expect(first["joined"] as? String == "1843-07-10T00:00:00Z")
        #expect(first["lastSeen"] as? String == "2025-11-20T08:00:00Z")
        #expect(first["role"] as? String == "admin")
        #expect(first["tags"] as? [String] == ["math", "poetry"])
        #expect(first["deviceKinds"] as? [String] == ["phone", "laptop"])
        let third = try #require(try Command.json(result.lines[2]) as? [String: Any])
        // A decimal with more digits than a Double holds is printed exactly.
        #expect(result.lines[2].contains("12345678901234567890.12"))
        #expect(third["postcode"] is NSNull)
        #expect(third["email"] == nil)
    }

    @Test("get prints the value at a path; --raw prints text bare")
    func get() throws {
        let city = try Command.run(["get", "users[0].address.town", "Fixtures/json/users.json"])
        #expect(city.status == 0)
        #expect(city.standardOutput == "\"London\"\n")
        let raw = try Command.run(["get", "--raw", "meta[\"content.type\"]", "Fixtures/json/users.json"])
        #expect(raw.standardOutput == "application/json\n")
        let names = try Command.run(["get", "users[*].user_id", "Fixtures/json/users.json"])
        #expect(names.standardOutput == "[101,102,103]\n")
    }

    @Test("a missing path fails with its location on stderr")
    func missingPath() throws {
        let result = try Command.run(["get", "users[0].address.planet", "Fixtures/json/users.json"])
        #expect(result.status != 0)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("users[0].address.planet"))
        #expect(result.standardError.contains("Fixtures/json/users.json:"))
    }

    @Test("convert reads standard input with --format")
    func convertStandardInput() throws {
        let result = try Command.run(
            ["convert", "--to", "json", "--sorted-keys", "--format", "json", "-"],
            input: #"{"b": [1, 2.5, "x"], "a": null}"#)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == #"{"a":null,"b":[1,2.5,"x"]}"# + "\n")
    }

    @Test("malformed input exits non-zero with line and column")
    func malformed() throws {
        let result = try Command.run(
            ["convert", "--to", "json", "--format", "json", "-"], input: "{\n  \"a\": [1, 2,]\n}")
        #expect(result.status == 1)
        #expect(result.standardError.contains("<stdin>:2:"))
    }

    @Test("an unknown extension asks for --format")
    func unknownFormat() throws {
        let result = try Command.run(["get", "a", "Package.swift"])
        #expect(result.status != 0)
        #expect(result.standardError.contains("--format"))
    }

    @Test("a recipe error names the property and path with a position")
    func transformError() throws {
        let recipe = TestFiles.directory.appendingPathComponent(
            "easybake-test-recipe-\(UUID()).json")
        try Data(#"{"mapping": {"seen": {"path": "when", "transformer": "iso8601"}}}"#.utf8).write(to: recipe)
        defer { try? FileManager.default.removeItem(at: recipe) }
        let result = try Command.run(
            ["bake", "--recipe", recipe.path, "--each", "[*]", "--format", "json", "-"],
            input: "[\n  {\"when\": \"2024-01-01\"},\n  {\"when\": \"yesterday\"}\n]")
        #expect(result.status == 1)
        #expect(result.lines.count == 1)  // the first record was printed before the failure
        #expect(result.standardError.contains("[1].when"))
        #expect(result.standardError.contains("<stdin>:3:"))
    }

    @Test("[*] over a dictionary keyed by ids reads every value: get, bake --each and paths")
    func everyValueOfADictionary() throws {
        let catalog = #"{"events": {"138586341": {"name": "Opera"}, "138586345": {"name": "Ballet"}}}"#
        let names = try Command.run(["get", "--format", "json", "events[*].name", "-"], input: catalog)
        #expect(names.status == 0, "\(names.standardError)")
        #expect(names.standardOutput == "[\"Opera\",\"Ballet\"]\n")
        let records = try Command.run(["get", "--format", "json", "events[*]", "-"], input: catalog)
        #expect(records.standardOutput == "[{\"name\":\"Opera\"},{\"name\":\"Ballet\"}]\n")
        let lone = try Command.run(
            ["get", "--format", "xml", "rss.channel.item[*].title", "-"],
            input: "<rss><channel><item><title>A</title><link>x</link></item></channel></rss>")
        #expect(lone.standardOutput == "[\"A\"]\n")
        let file = TestFiles.directory.appendingPathComponent("easybake-catalog-\(UUID()).json")
        try Data(catalog.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let paths = try Command.run(["paths", "--each", "events[*]", file.path])
        #expect(paths.status == 0, "\(paths.standardError)")
        #expect(
            paths.lines.contains { $0.hasPrefix("name ") && $0.contains(" 2 ") && $0.contains("\"Opera\"") },
            "\(paths.lines)")
        let recipe = TestFiles.directory.appendingPathComponent(
            "easybake-event-recipe-\(UUID()).json")
        try Data(#"{"mapping": {"title": "name"}}"#.utf8).write(to: recipe)
        defer { try? FileManager.default.removeItem(at: recipe) }
        let baked = try Command.run(["bake", "--recipe", recipe.path, "--each", "events[*]", file.path])
        #expect(baked.status == 0, "\(baked.standardError)")
        #expect(baked.lines == [#"{"title":"Opera"}"#, #"{"title":"Ballet"}"#])
        // `#key` names each record's own key, with one job and with several.
        try Data(##"{"mapping": {"id": "#key", "title": "name"}, "transformers": {"id": "number"}}"##.utf8).write(
            to: recipe)
        for jobs in ["1", "2"] {
            let keyed = try Command.run([
                "bake", "--recipe", recipe.path, "--each", "events[*]", "--jobs", jobs, file.path,
            ])
            #expect(keyed.status == 0, "\(keyed.standardError)")
            #expect(
                keyed.lines == [#"{"id":138586341,"title":"Opera"}"#, #"{"id":138586345,"title":"Ballet"}"#], "\(jobs)")
        }
    }

    @Test("a record path or a path that matches nothing fails, saying what the payload has instead")
    func misspeltPaths() throws {
        let bake = try Command.run([
            "bake", "--recipe", "Fixtures/recipes/users.json", "--each", "user[*]", "Fixtures/json/users.json",
        ])
        #expect(bake.status == 1)
        #expect(bake.standardOutput.isEmpty)
        #expect(
            bake.standardError.contains(
                "the record path user[*] matches nothing: no value at user; did you mean users[*]?"))
        #expect(bake.standardError.contains("users.json:1:1"))
        let get = try Command.run(["get", "users[0].fullname", "Fixtures/json/users.json"])
        #expect(get.status == 1)
        #expect(get.standardError.contains("did you mean users[0].full_name?"))
        let empty = try Command.run(
            ["bake", "--recipe", "Fixtures/recipes/users.json", "--each", "users[*]", "--format", "json", "-"],
            input: #"{"users": []}"#)
        #expect(empty.status == 0)
        #expect(empty.standardOutput.isEmpty)
        // A recipe none of whose paths a record has warns, once, and still prints what it made.
        let whole = try Command.run(["bake", "--recipe", "Fixtures/recipes/users.json", "Fixtures/json/users.json"])
        #expect(whole.status == 0)
        #expect(
            whole.standardError.contains(
                #"warning: recipe "User" found none of its paths (user_id, full_name, email, unread-messages, …) in the payload; are they paths of records, for --each?"#
            ))
        for jobs in ["1", "2"] {
            let records = try Command.run(
                [
                    "bake", "--recipe", "Fixtures/recipes/users.json", "--each", "[*]", "--jobs", jobs, "--format",
                    "json", "-",
                ],
                input: #"[{"other": 1}, {"other": 2}]"#)
            #expect(records.status == 0)
            #expect(records.lines.count == 2)
            #expect(records.standardError.components(separatedBy: "found none of its paths").count == 2, "\(jobs)")
        }
        let fine = try Command.run([
            "bake", "--recipe", "Fixtures/recipes/users.json", "--each", "users[*]", "Fixtures/json/users.json",
        ])
        #expect(!fine.standardError.contains("warning"))
    }

    @Test("XML feeds are read by extension; repeated elements are arrays")
    func xmlInput() throws {
        let result = try Command.run(
            ["get", "--format", "xml", "rss.channel.item[*].title", "-"],
            input: "<rss><channel><item><title>A</title></item><item><title>B</title></item></channel></rss>")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "[\"A\",\"B\"]\n")
        let bad = try Command.run(["convert", "--to", "json", "--format", "xml", "-"], input: "<a>\n<b></a>")
        #expect(bad.status == 1)
        #expect(bad.standardError.contains("<stdin>:2:"))
    }
}
