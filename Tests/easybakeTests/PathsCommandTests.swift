import EasyBakeTestSupport
import Foundation
import Testing

@Suite("easybake paths")
struct PathsCommandTests {
    @Test("prints each distinct path with kinds, counts and an example, in aligned columns")
    func table() throws {
        let input =
            #"{"users": [{"id": 1, "email": null, "joined": "2024-03-01"}, {"id": "2", "email": "g@x.org", "site": "https://x.org"}]}"#
        let result = try Command.run(["paths", "--input-format", "json", "-"], input: input)
        #expect(result.status == 0, "\(result.standardError)")
        Snapshot.expect(result.standardOutput, matches: "paths-table.txt")
    }

    @Test("a dictionary keyed by ids lists as one map, events[*], with its count, not a line per id")
    func idKeyedDictionary() throws {
        var input = #"{"events": {"#
        for id in 0..<300 {
            if id > 0 { input += "," }
            input += #""\#(138_586_341 + id)": {"name": "e\#(id)"}"#
        }
        input += "}}"
        let result = try Command.run(["paths", "--input-format", "json", "-"], input: input)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 5)  // the header, (root), events, events[*], events[*].name
        #expect(lines.contains { $0.hasPrefix("events ") && $0.contains("keyed by 300 ids, at [*]") })
        #expect(lines.contains { $0.hasPrefix("events[*] ") && $0.contains("300") })
        let json = try Command.run(["paths", "--output", "json", "--input-format", "json", "-"], input: input)
        let object = try #require(try Command.json(json.standardOutput) as? [String: Any])
        let paths = try #require(object["paths"] as? [[String: Any]])
        #expect(paths.first { $0["path"] as? String == "events" }?["idKeys"] as? Int == 300)
    }

    @Test("get and paths hint at the path EasyBake writes for jq's '.' and JSONPath's '$'")
    func foreignPathHabits() throws {
        let jq = try Command.run(["get", ".users[0].name", "Fixtures/json/users.json"])
        #expect(jq.status != 0)
        #expect(jq.standardError.contains("paths have no leading '.' as jq's do: try users[0].name"))
        let jsonPath = try Command.run(["get", "$.users[0].name", "Fixtures/json/users.json"])
        #expect(jsonPath.status != 0)
        #expect(
            jsonPath.standardError.contains(
                "no value at $.users[0].name; ingredient paths have no JSONPath '$' root: try users[0].name"))
        let each = try Command.run(["paths", "--each", "$.users[*]", "Fixtures/json/users.json"])
        #expect(each.status != 0)
        #expect(each.standardError.contains("try users[*]"))
    }

    @Test("--format json prints the same for tools")
    func json() throws {
        let result = try Command.run([
            "paths", "--output", "json", "--each", "rss.channel.item[*]", "Fixtures/xml/feed.rss",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(try Command.json(result.standardOutput) as? [String: Any])
        #expect(object["records"] as? Int == 3)
        let paths = try #require(object["paths"] as? [[String: Any]])
        let pubDate = try #require(paths.first { $0["path"] as? String == "pubDate" })
        #expect(pubDate["kinds"] as? [String: Int] == ["date-like string": 3])
        #expect(pubDate["dateStyle"] as? String == "rfc822")
        #expect(pubDate["count"] as? Int == 3)
        let creator = try #require(paths.first { $0["path"] as? String == "dc:creator" })
        #expect(creator["missing"] as? Int == 1)
        #expect(creator["example"] as? String == "Ada Baker")
    }

    @Test(
        "works on every shipped fixture",
        arguments: [
            ["Fixtures/json/users.json"], ["--each", "users[*]", "Fixtures/json/users.json"],
            ["Fixtures/xml/feed.rss"], ["--each", "rss.channel.item[*]", "Fixtures/xml/feed.rss"],
            ["Fixtures/xml/atom.xml"], ["--each", "feed.entry[*]", "Fixtures/xml/atom.xml"],
            ["Fixtures/yaml/users.yaml"], ["Fixtures/yaml/members.yaml"], ["Fixtures/yaml/user-records.yaml"],
        ])
    func fixtures(arguments: [String]) throws {
        let result = try Command.run(["paths"] + arguments)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.lines.first?.hasPrefix("PATH") == true)
        #expect(result.lines.count > 5)
        #expect(result.standardError.isEmpty)
    }

    @Test("no records at --each, and malformed input, are errors with their place")
    func errors() throws {
        let missing = try Command.run(["paths", "--each", "people[*]", "Fixtures/json/users.json"])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("the record path people[*] matches nothing: no value at people"))
        let empty = try Command.run(
            ["paths", "--each", "users[*]", "--input-format", "json", "-"], input: #"{"users": []}"#)
        #expect(empty.status == 1)
        #expect(empty.standardError.contains("no records at users[*]"))
        let malformed = try Command.run(["paths", "--input-format", "json", "-"], input: "{\"a\": [1,\n 2,,]}")
        #expect(malformed.status == 1)
        #expect(malformed.standardError.contains(":2:"))
    }

    @Test("--maximum-paths bounds the listing and says what was left out")
    func maximumPaths() throws {
        let input = "{" + (0..<30).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + "}"
        let result = try Command.run(["paths", "--maximum-paths", "10", "--input-format", "json", "-"], input: input)
        #expect(result.status == 0)
        #expect(result.lines.count == 1 + 10 + 1)
        #expect(
            result.lines.last
                == "note: more than 10 distinct paths; 21 values at further paths are not listed (raise --maximum-paths)"
        )
    }
}
