import Foundation
import Testing
import EasyBakeTestSupport

@Suite("The easybake command streams")
struct StreamingCommandTests {
    @Test("get returns once its path is found: what follows is never read")
    func getStopsEarly() throws {
        let payload = #"{"meta": {"count": 2}, "users": [{"name": "Ada"}, {{{ this part is never read"#
        let found = try Command.run(["get", "--format", "json", "meta.count", "-"], input: payload)
        #expect(found.status == 0, "\(found.standardError)")
        #expect(found.lines == ["2"])
        // A path that needs every element reads to the end, and meets the error.
        let every = try Command.run(["get", "--format", "json", "users[*].name", "-"], input: payload)
        #expect(every.status != 0)
        #expect(every.standardError.contains("<stdin>:1:"), "\(every.standardError)")
    }

    @Test("get says where a missing path's search ended, and rejects trailing garbage it did read")
    func getErrors() throws {
        let missing = try Command.run(["get", "users[5].name", "Fixtures/json/users.json"])
        #expect(missing.status != 0)
        #expect(missing.standardError.contains("no value at users[5].name"))
        #expect(missing.standardError.contains("Fixtures/json/users.json:"))
        let trailing = try Command.run(["get", "--format", "json", "a[-1]", "-"], input: "{\"a\": [1, 2]} 3")
        #expect(trailing.status != 0)
        #expect(trailing.standardError.contains("expected the end of the input"), "\(trailing.standardError)")
    }

    @Test("bake --each prints the records before a malformed one, then the error with its position")
    func bakeStopsAtMalformed() throws {
        let recipe = TestFiles.directory.appendingPathComponent("streaming-recipe-\(getpid()).json")
        try Data(#"{"name": "R", "mapping": {"id": "id"}}"#.utf8).write(to: recipe)
        defer { try? FileManager.default.removeItem(at: recipe) }
        let payload = "{\"items\": [{\"id\": 1},\n {\"id\": 2},\n {\"id\": 3} {\"id\": 4}]}"
        let result = try Command.run(
            ["bake", "--recipe", recipe.path, "--each", "items[*]", "--format", "json", "-"], input: payload)
        #expect(result.status != 0)
        #expect(result.lines == [#"{"id":1}"#, #"{"id":2}"#, #"{"id":3}"#])
        #expect(result.standardError.contains("<stdin>:3:"), "\(result.standardError)")
    }

    @Test("a record that fails to process names its path and the line of the value")
    func bakeRecordError() throws {
        let recipe = TestFiles.directory.appendingPathComponent("streaming-recipe2-\(getpid()).json")
        try Data(#"{"name": "R", "mapping": {"when": {"path": "at", "transformer": "iso8601"}}}"#.utf8).write(
            to: recipe)
        defer { try? FileManager.default.removeItem(at: recipe) }
        let payload = "{\"items\": [{\"at\": \"2024-01-01\"},\n {\"at\": \"soon\"}]}"
        let result = try Command.run(
            ["bake", "--recipe", recipe.path, "--each", "items[*]", "--format", "json", "-"], input: payload)
        #expect(result.status != 0)
        #expect(result.lines.count == 1)
        #expect(result.standardError.contains("items[1].at"), "\(result.standardError)")
        #expect(result.standardError.contains("<stdin>:2:"), "\(result.standardError)")
    }

    @Test("bake --jobs prints what one job prints, in the same order, up to the same error")
    func bakeJobs() throws {
        let recipe = TestFiles.directory.appendingPathComponent("streaming-recipe3-\(getpid()).json")
        try Data(#"{"name": "R", "mapping": {"id": "id", "when": {"path": "at", "transformer": "iso8601"}}}"#.utf8)
            .write(to: recipe)
        defer { try? FileManager.default.removeItem(at: recipe) }
        let records = (0..<500).map { i in #"{"id": \#(i), "at": "\#(i == 400 ? "soon" : "2024-01-01")"}"# }
        let malformed = "{\"items\": [" + records.prefix(300).joined(separator: ",\n") + ",\n{\"id\": 300, \"at\": ]}"
        for payload in [records.prefix(399), records[...]].map({ "{\"items\": [" + $0.joined(separator: ",\n") + "]}" })
            + [malformed]
        {
            let one = try Command.run(
                ["bake", "--recipe", recipe.path, "--each", "items[*]", "--format", "json", "--jobs", "1", "-"],
                input: payload)
            let three = try Command.run(
                ["bake", "--recipe", recipe.path, "--each", "items[*]", "--format", "json", "--jobs", "3", "-"],
                input: payload)
            #expect(three.status == one.status)
            #expect(three.lines == one.lines)
            #expect(three.standardError == one.standardError)
            #expect(
                one.lines.count == min(payload.components(separatedBy: "\n").count, payload == malformed ? 300 : 400))
        }
    }

    @Test("convert to XML and back keeps empty arrays, strings and dictionaries")
    func convertKeepsEmpties() throws {
        let json = #"{"data": [], "meta": {}, "title": "", "n": null}"#
        let xml = try Command.run(["convert", "--to", "xml", "--format", "json", "-"], input: json)
        #expect(xml.status == 0, "\(xml.standardError)")
        #expect(xml.standardOutput.contains(#"<data easybake:empty="array"/>"#))
        let back = try Command.run(["convert", "--to", "json", "--format", "xml", "-"], input: xml.standardOutput)
        #expect(back.status == 0, "\(back.standardError)")
        #expect(back.lines == [#"{"root":{"data":[],"meta":{},"title":"","n":null}}"#])
    }
}
