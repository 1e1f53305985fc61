import EasyBakeTestSupport
import Foundation
import Testing

/// The command's errors a user can act on (issue 27): `--keep-going`,
/// a directory given as the input, a recipe reading a dictionary both by key
/// and by `[*]`.
@Suite("Errors a user can act on, on the command line")
struct ActionableErrorCommandTests {
    /// A JSON Lines dump whose first line is a header and whose fourth line
    /// does not bake either.
    static let dump = """
        {"id": "id", "price": "price"}
        {"id": 1, "price": "1.50"}
        {"id": 2, "price": "2.25"}
        {"id": 3, "price": "n/a"}
        {"id": 4, "price": "4"}
        """
    static let recipe = #"{"mapping": {"id": "id", "price": "price"}, "transformers": {"price": "number"}}"#

    @Test(
        "bake --keep-going prints each failing record's error, bakes the rest, and fails at the end with the count",
        arguments: ["1", "3"])
    func keepGoing(jobs: String) throws {
        let dump = try JSONLinesCommandTests.file(Self.dump, named: "dump.jsonl")
        let recipe = try JSONLinesCommandTests.file(Self.recipe, named: "price.json")
        let stopped = try Command.run(["bake", "--recipe", recipe, "--each", "[*]", "--jobs", jobs, dump])
        #expect(stopped.status != 0)
        #expect(stopped.lines.isEmpty, "without --keep-going the header stops the run: \(stopped.standardOutput)")

        let result = try Command.run([
            "bake", "--recipe", recipe, "--each", "[*]", "--jobs", jobs, "--keep-going", dump,
        ])
        #expect(result.status != 0)
        #expect(
            result.lines == [#"{"id":1,"price":1.5}"#, #"{"id":2,"price":2.25}"#, #"{"id":4,"price":4}"#],
            "\(result.standardOutput)")
        let errors = result.standardError.components(separatedBy: "\nerror: ").count
        #expect(errors == 3, "two records' errors and the count: \(result.standardError)")
        #expect(
            result.standardError.hasPrefix(
                "error: transform failed: property \"price\" at price: expected a number, found \"price\" (string)"),
            "\(result.standardError)")
        #expect(result.standardError.contains(" --> \(dump):1:"), "each error has its line: \(result.standardError)")
        #expect(result.standardError.contains(" --> \(dump):4:"), "\(result.standardError)")
        #expect(result.standardError.contains("2 of 5 records did not bake (--keep-going)"), "\(result.standardError)")
    }

    @Test("--keep-going needs --each")
    func keepGoingWithoutEach() throws {
        let recipe = try JSONLinesCommandTests.file(Self.recipe, named: "price.json")
        let result = try Command.run(
            ["bake", "--recipe", recipe, "--keep-going", "--format", "json", "-"], input: #"{"id": 1, "price": 2}"#)
        #expect(result.status != 0)
        #expect(
            result.standardError.contains("--keep-going goes on past the records of --each"), "\(result.standardError)")
    }

    @Test("a directory is said to be one, not an unknown format")
    func directory() throws {
        let result = try Command.run(["convert", "--to", "json", "Fixtures"])
        #expect(result.status != 0)
        #expect(
            result.standardError.hasPrefix(#"error: i/o: "Fixtures" is a directory; give a file of it"#),
            "\(result.standardError)")
        #expect(!result.standardError.contains("unknown format"))
    }

    @Test("bake reads one dictionary both by key and by [*], streaming")
    func keyAndEveryElement() throws {
        let recipe = try JSONLinesCommandTests.file(
            #"{"mapping": {"first": "events.x.name", "all": "events[*].name"}}"#, named: "events.json")
        let result = try Command.run(
            ["bake", "--recipe", recipe, "--format", "json", "-"],
            input: #"{"events": {"x": {"name": "Opera", "seats": 3}, "y": {"name": "Ballet"}}, "other": [1, 2]}"#)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.lines == [#"{"first":"Opera","all":["Opera","Ballet"]}"#])
    }
}
