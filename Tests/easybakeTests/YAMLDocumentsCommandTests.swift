import EasyBakeTestSupport
import Foundation
import Testing

/// A YAML stream of several documents through every command: refused by
/// default with the count and the way to choose, read with --documents all
/// or --document N, and a syntax error in a later document always reported.
@Suite("The easybake command on YAML streams of several documents")
struct YAMLDocumentsCommandTests {
    static let twoDocuments =
        "kind: Service\nmetadata: {name: web}\n---\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 3}\n"
    static let brokenSecond = "kind: Service\n---\nkind: [unclosed\n"
    static let userDocuments = "Fixtures/yaml/user-documents.yaml"

    static func file(_ text: String) throws -> String {
        let url = TestFiles.directory.appendingPathComponent("\(UUID())-stream.yaml")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Every command, reading `file` with `options` in front of it.
    static func everyCommand(_ file: String, _ options: [String] = [], each: String? = nil) -> [[String]] {
        let records = each.map { ["--each", $0] } ?? []
        return [
            ["bake", "--recipe", "Fixtures/recipes/users.json"] + records + options + [file],
            ["get", each == nil ? "kind" : "[0].kind"] + options + [file],
            ["convert", "--to", "json"] + options + [file],
            ["paths"] + records + options + [file],
            ["scaffold", "--name", "Manifest"] + records + options + [file],
        ]
    }

    /// Standard error from its first error on: a warning may come before it
    /// (the recipe finding none of its paths in a record read before).
    static func error(in standardError: String) -> Substring {
        guard let start = standardError.range(of: "error: ") else { return "" }
        return standardError[start.lowerBound...]
    }

    @Test("by default every command refuses two documents, saying how many and how to choose")
    func refusedByDefault() throws {
        let file = try Self.file(Self.twoDocuments)
        for var arguments in Self.everyCommand(file) + Self.everyCommand(file, each: "[*]") {
            // `bake` bakes each record as the library bakes it: the first
            // document's first value, "Service", is no record a recipe can
            // read by key. With --keep-going its error is printed and the
            // run goes on, to the second document.
            let bakesRecords = arguments.first == "bake" && arguments.contains("--each")
            if bakesRecords { arguments.insert("--keep-going", at: 1) }
            let result = try Command.run(arguments)
            var firstError = Self.error(in: result.standardError)
            if bakesRecords {
                #expect(
                    firstError.hasPrefix(
                        #"error: type mismatch: User: expected a dictionary, found "Service" (string)"#),
                    "\(result.standardError)")
                firstError = Self.error(in: String(firstError.dropFirst()))
            }
            #expect(result.status == 1, "\(arguments)")
            if arguments.contains("--each") {
                // Read as one document, `[*]` gives the first document's
                // values as records, which stream out before the second
                // document is found; nothing of the second is read.
                #expect(
                    !result.standardOutput.contains("Deployment") && !result.standardOutput.contains("3"),
                    "\(arguments)")
            } else {
                #expect(result.standardOutput == "", "\(arguments)")
            }
            #expect(
                firstError.hasPrefix(
                    "error: multiple documents: the YAML stream holds 2 documents where one is expected"),
                "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains("--documents all"), "\(arguments)")
            #expect(result.standardError.contains("--document N"), "\(arguments)")
            #expect(result.standardError.contains("-stream.yaml:3:1"), "\(arguments)")
        }
    }

    @Test("with --documents all every command reads the documents as an array; [*] gives them as records")
    func allDocuments() throws {
        let file = try Self.file(Self.twoDocuments)
        let convert = try Command.run(["convert", "--to", "jsonl", "--documents", "all", file])
        #expect(
            convert.lines == [
                #"{"kind":"Service","metadata":{"name":"web"}}"#,
                #"{"kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":3}}"#,
            ])
        let get = try Command.run(["get", "[1].spec.replicas", "--documents", "all", file])
        #expect(get.lines == ["3"])
        let paths = try Command.run(["paths", "--each", "[*]", "--output", "json", "--documents", "all", file])
        let survey = try #require(try Command.json(paths.standardOutput) as? [String: Any])
        #expect(survey["records"] as? Int == 2)
        let scaffold = try Command.run(["scaffold", "--name", "Manifest", "--each", "[*]", "--documents", "all", file])
        #expect(scaffold.status == 0, "\(scaffold.standardError)")
        #expect(scaffold.standardOutput.contains("let spec: Spec?"))
        #expect(
            scaffold.standardOutput.contains(
                "YAMLIngredientSource(.file(\"\(URL(fileURLWithPath: file).lastPathComponent)\"), options: YAMLReadingOptions(documents: .all))"
            ))
        let bake = try Command.run([
            "bake", "--recipe", "Fixtures/recipes/users.json", "--each", "[*]", "--documents", "all",
            Self.userDocuments,
        ])
        let fromJSON = try Command.run([
            "bake", "--recipe", "Fixtures/recipes/users.json", "--each", "users[*]", "Fixtures/json/users.json",
        ])
        #expect(bake.status == 0, "\(bake.standardError)")
        #expect(bake.lines.count == 3)
        #expect(bake.standardOutput == fromJSON.standardOutput)
    }

    @Test("convert --to yaml writes a stream read as records back as a stream: a document per record")
    func streamToStream() throws {
        let file = try Self.file(Self.twoDocuments)
        let yaml = try Command.run(["convert", "--to", "yaml", "--documents", "all", file])
        #expect(yaml.status == 0, "\(yaml.standardError)")
        #expect(yaml.lines.filter { $0 == "---" }.count == 1, "\(yaml.standardOutput)")
        let again = try Command.run([
            "convert", "--to", "jsonl", "--documents", "all", try Self.file(yaml.standardOutput),
        ])
        let before = try Command.run(["convert", "--to", "jsonl", "--documents", "all", file])
        #expect(again.lines == before.lines)
        #expect(again.lines.count == 2)
        // JSON Lines too: a document per line.
        let lines = TestFiles.directory.appendingPathComponent("\(UUID()).jsonl")
        try Data(before.standardOutput.utf8).write(to: lines)
        let fromLines = try Command.run(["convert", "--to", "yaml", lines.path])
        #expect(fromLines.standardOutput == yaml.standardOutput)
        // One document that is an array stays one document.
        let array = try Command.run(["convert", "--to", "yaml", try Self.file("- 1\n- 2\n")])
        #expect(array.lines == ["- 1", "- 2"])
    }

    @Test("--document N reads one document, counting from 0, in every command")
    func oneDocument() throws {
        let file = try Self.file(Self.twoDocuments)
        #expect(try Command.run(["get", "kind", "--document", "1", file]).lines == [#""Deployment""#])
        #expect(
            try Command.run(["convert", "--to", "json", "--document", "0", file]).lines == [
                #"{"kind":"Service","metadata":{"name":"web"}}"#
            ])
        let paths = try Command.run(["paths", "--output", "json", "--document", "1", file])
        #expect(paths.standardOutput.contains("spec.replicas"))
        let scaffold = try Command.run(["scaffold", "--name", "Deployment", "--document", "1", file])
        #expect(scaffold.standardOutput.contains("YAMLFormat(options: YAMLReadingOptions(documents: .document(1)))"))
        let bake = try Command.run([
            "bake", "--recipe", "Fixtures/recipes/users.json", "--document", "2", Self.userDocuments,
        ])
        #expect(bake.status == 0, "\(bake.standardError)")
        #expect(bake.standardOutput.hasPrefix(#"{"id":103,"#))
        let missing = try Command.run(["get", "kind", "--document", "2", file])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("the YAML stream holds 2 documents; there is no document 2"))
        let both = try Command.run(["get", "kind", "--document", "1", "--documents", "all", file])
        #expect(both.status == 1)
        #expect(both.standardError.contains("not both"))
        let json = try Command.run(["get", "users", "--documents", "all", "Fixtures/json/users.json"])
        #expect(json.status == 1)
        #expect(json.standardError.contains("the input is json"))
    }

    @Test("a syntax error in a later document fails every command, with its line and column")
    func syntaxErrorInLaterDocument() throws {
        let file = try Self.file(Self.brokenSecond)
        let commands =
            Self.everyCommand(file) + Self.everyCommand(file, ["--documents", "all"], each: "[*]")
            + Self.everyCommand(file, ["--document", "0"])
        for arguments in commands {
            let result = try Command.run(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(
                Self.error(in: result.standardError).hasPrefix(
                    "error: syntax: expected ',' or ']' in the flow sequence that begins at line 3, column 7, found"),
                "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains("-stream.yaml:4:1"), "\(arguments)")
        }
    }
}
