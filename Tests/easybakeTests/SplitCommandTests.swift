import EasyBakeTestSupport
import Foundation
import Testing

/// `--split I/N` and `--byte-range START-END`: the worked example of the
/// splitting article, run as processes side by side (issue 15, item 4).
@Suite("The easybake command on shares of a file")
struct SplitCommandTests {
    /// The shipped users, repeated to `copies` times their number, as JSON
    /// Lines and as a pretty-printed JSON array.
    static func files(copies: Int) throws -> (jsonLines: String, array: String) {
        let lines = try String(contentsOf: TestPaths.fixture("jsonl/users.jsonl"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let records = (0..<copies).flatMap { _ in lines }
        let directory = TestFiles.directory
        let jsonLines = directory.appendingPathComponent("users-\(UUID()).jsonl")
        try Data((records.joined(separator: "\n") + "\n").utf8).write(to: jsonLines)
        let array = directory.appendingPathComponent("users-\(UUID()).json")
        try Data(("[\n  " + records.joined(separator: ",\n  ") + "\n]\n").utf8).write(to: array)
        return (jsonLines.path, array.path)
    }

    /// The records of a JSON Lines file as a YAML stream, one document per
    /// record (each converted by the command), with a directive and a
    /// `...` among them as streams may have.
    static func stream(of jsonLines: String) throws -> String {
        let records = try String(contentsOfFile: jsonLines, encoding: .utf8).split(separator: "\n")
        var text = "# users, one per document\n"
        var converted: [Substring: String] = [:]
        for (index, record) in records.enumerated() {
            if converted[record] == nil {
                let yaml = try Command.run(["convert", "--format", "json", "--to", "yaml", "-"], input: String(record))
                #expect(yaml.status == 0, "\(yaml.standardError)")
                converted[record] = yaml.standardOutput
            }
            text += index % 7 == 3 ? "...\n%YAML 1.2\n---\n" : "---\n"
            text += converted[record] ?? ""
        }
        let file = TestFiles.directory.appendingPathComponent("users-\(UUID()).yaml")
        try Data(text.utf8).write(to: file)
        return file.path
    }

    /// Runs the command once per share, all at once, each writing its own
    /// part; returns the parts in share order.
    static func bakeInParallel(_ file: String, shares: Int) throws -> [String] {
        let directory = TestFiles.directory
        var running: [(Process, URL)] = []
        for share in 0..<shares {
            let part = directory.appendingPathComponent("part-\(share)-\(UUID()).jsonl")
            _ = FileManager.default.createFile(atPath: part.path, contents: nil)
            let process = Process()
            process.executableURL = Command.executable
            process.arguments = [
                "bake", "--recipe", "Fixtures/recipes/users.json", "--each", "[*]", "--split", "\(share)/\(shares)",
                file,
            ]
            process.currentDirectoryURL = TestPaths.packageRoot
            process.standardOutput = try FileHandle(forWritingTo: part)
            process.standardError = FileHandle.nullDevice
            try process.run()
            running.append((process, part))
        }
        var parts: [String] = []
        for (process, part) in running {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            parts.append(try String(contentsOf: part, encoding: .utf8))
            try? FileManager.default.removeItem(at: part)
        }
        return parts
    }

    @Test(
        "four processes, each baking its share of JSON Lines, a JSON array or a YAML stream, write together what one process writes for the whole file"
    )
    func parallelProcesses() throws {
        let (jsonLines, array) = try Self.files(copies: 40)
        defer {
            try? FileManager.default.removeItem(atPath: jsonLines)
            try? FileManager.default.removeItem(atPath: array)
        }
        let whole = try Command.run(["bake", "--recipe", "Fixtures/recipes/users.json", "--each", "[*]", jsonLines])
        #expect(whole.status == 0, "\(whole.standardError)")
        #expect(whole.lines.count == 120)
        let stream = try Self.stream(of: jsonLines)
        defer { try? FileManager.default.removeItem(atPath: stream) }
        for file in [jsonLines, array, stream] {
            let parts = try Self.bakeInParallel(file, shares: 4)
            #expect(parts.allSatisfy { !$0.isEmpty })
            #expect(parts.joined() == whole.standardOutput, "\(file)")
        }
    }

    @Test("a byte range reads the records that begin in it; wrong uses say why")
    func byteRanges() throws {
        let users = "Fixtures/jsonl/users.jsonl"
        let middle = try Command.run(["get", "--byte-range", "394-395", "[*].user_id", users])
        #expect(middle.lines == ["[102]"])
        let none = try Command.run(["get", "--byte-range", "395-692", "[*]", users])
        #expect(none.lines == ["[]"])

        let piped = try Command.run(["get", "--split", "0/2", "--format", "jsonl", "[*]", "-"], input: "{}\n")
        #expect(piped.status == 1)
        #expect(piped.standardError.contains("for standard input give --byte-range"))
        let xml = try Command.run(["get", "--split", "0/2", "[*]", "Fixtures/xml/feed.rss"])
        #expect(
            xml.standardError.contains(
                "read a share of JSON Lines, of a top-level JSON array or of a YAML stream; the input is xml"))
        let oneDocument = try Command.run([
            "get", "--split", "0/2", "--document", "1", "[*]", "Fixtures/yaml/user-documents.yaml",
        ])
        #expect(oneDocument.status == 1)
        #expect(oneDocument.standardError.contains("reads its documents as --documents all does"))
        let object = try Command.run(["get", "--split", "1/2", "[*]", "Fixtures/json/users.json"])
        #expect(object.standardError.contains("a byte range reads the elements of a top-level array, found '{'"))
        #expect(object.standardError.contains("users.json:1:1"))
        let both = try Command.run(["get", "--split", "0/2", "--byte-range", "0-10", "[*]", users])
        #expect(both.standardError.contains("choose either --byte-range or --split"))
        for bad in [["--split", "2/2"], ["--split", "x"], ["--byte-range", "10-5"], ["--byte-range", "-3"]] {
            let result = try Command.run(["get"] + bad + ["[*]", users])
            #expect(result.status != 0, "\(bad)")
            #expect(result.standardError.contains(bad[0]), "\(bad): \(result.standardError)")
        }
    }
}
