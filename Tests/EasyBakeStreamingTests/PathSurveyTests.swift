import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import EasyBakeXML
import EasyBakeYAML
import Foundation
import Testing

/// `PathSurvey`: the shape of a payload, path by path, from its events.
@Suite("Path survey")
struct PathSurveyTests {
    static func survey(json: String, maximumPaths: Int = 10_000) throws -> PathSurvey {
        var survey = PathSurvey(maximumPaths: maximumPaths)
        var source = try JSONIngredientSource(.text(json))
        try survey.add(from: &source)
        return survey
    }

    static func entry(_ survey: PathSurvey, _ path: String) -> PathSurvey.Entry? {
        survey.entries.first { $0.path.description == path }
    }

    static func kinds(_ entry: PathSurvey.Entry?) -> [String] {
        entry?.kinds.map { "\($0.kind) \($0.count)" } ?? []
    }

    @Test("keys that look like ids are one map's values at [*], not a path each; names stay paths")
    func idKeys() throws {
        var json = #"{"events": {"#
        for id in 0..<500 {
            if id > 0 { json += "," }
            json += #""\#(138_586_341 + id)": {"name": "e\#(id)", "price": 19.99}"#
        }
        json +=
            #"}, "owners": {"0d6f2a9c-8d4e-4c47-9d0a-3c1e7b2f9a11": 1, "5f8d0b3e9c1a2f4b6d7e8a90": 2, "name": "x"}}"#
        let survey = try Self.survey(json: json, maximumPaths: 50)
        #expect(
            survey.entries.map(\.path.description) == [
                "", "events", "events[*]", "events[*].name", "events[*].price", "owners", "owners[*]", "owners.name",
            ])
        #expect(Self.entry(survey, "events")?.idKeys == 500)
        #expect(Self.entry(survey, "events[*]")?.count == 500)
        #expect(Self.entry(survey, "events[*].price")?.fractionDigits == 2)
        #expect(Self.entry(survey, "owners")?.idKeys == 2)
        #expect(Self.kinds(Self.entry(survey, "owners[*]")) == ["integer 2"])
        #expect(survey.unrecordedValues == 0)

        var ungrouped = PathSurvey(maximumPaths: 50, groupsIDKeys: false)
        var source = try JSONIngredientSource(.text(json))
        try ungrouped.add(from: &source)
        #expect(ungrouped.unrecordedValues > 0)
        #expect(ungrouped.entries.contains { $0.path.description == "events.138586341" })
    }

    @Test("a dictionary of many keys whose values share a shape is a map too; one of many fields is not")
    func slugKeys() throws {
        var recipes = #"{"recipes": {"#
        for n in 0..<150 {
            if n > 0 { recipes += "," }
            let extra = n % 3 == 0 ? #", "note": "n\#(n)""# : ""
            recipes += #""bread-no-\#(n)": {"name": "Bread \#(n)", "minutes": \#(n)\#(extra)}"#
        }
        recipes += #"}, "meta": {"v": 1}}"#
        let survey = try Self.survey(json: recipes, maximumPaths: 5_000)
        #expect(
            survey.entries.map(\.path.description) == [
                "", "recipes", "recipes[*]", "recipes[*].name", "recipes[*].minutes", "recipes[*].note", "meta",
                "meta.v",
            ])
        #expect(Self.entry(survey, "recipes")?.idKeys == 150)
        #expect(Self.entry(survey, "recipes[*]")?.count == 150)
        #expect(Self.entry(survey, "recipes[*].minutes")?.count == 150)
        #expect(Self.entry(survey, "recipes[*].note")?.missing == 100)
        // A wide record of fields of every kind stays a record.
        let wide =
            "{" + (0..<100).map { #""field\#($0)": \#($0 % 2 == 0 ? "\($0)" : #""s""#)"# }.joined(separator: ",") + "}"
        let record = try Self.survey(json: wide)
        #expect(record.entries.count == 101)
        #expect(Self.entry(record, "")?.idKeys == 0)
    }

    @Test(
        "what looks like an id",
        arguments: [
            ("138586341", true), ("0", true), ("0d6f2a9c-8d4e-4c47-9d0a-3c1e7b2f9a11", true),
            ("5f8d0b3e9c1a2f4b6d7e8a90", true),
            ("name", false), ("user_id", false), ("deadbeefdeadbeef", false), ("v2", false), ("2024-01-01", false),
            ("", false),
            ("0d6f2a9c-8d4e-4c47-9d0a-3c1e7b2f9a1z", false),
        ])
    func idKeyShapes(key: String, isID: Bool) {
        #expect(PathSurvey.isIDKey(key) == isID, "\(key)")
    }

    @Test("indexes generalise to [*]; kinds, counts, missing keys and the first example per path")
    func json() throws {
        let survey = try Self.survey(
            json: """
                {"users": [
                  {"id": 1, "name": "Ada", "email": null, "tags": ["a", "b"], "address": {"town": "London"}},
                  {"id": "2", "name": "Grace", "email": "g@example.com", "tags": []},
                  {"id": 3.5, "name": "Kate", "tags": ["c"], "address": {"town": "Paris", "zip": "75001"}}
                ]}
                """)
        #expect(
            survey.entries.map(\.path.description) == [
                "", "users", "users[*]", "users[*].id", "users[*].name", "users[*].email", "users[*].tags",
                "users[*].tags[*]", "users[*].address", "users[*].address.town", "users[*].address.zip",
            ])
        #expect(Self.kinds(Self.entry(survey, "users[*]")) == ["dictionary 3"])
        #expect(Self.kinds(Self.entry(survey, "users[*].id")) == ["integer 1", "float 1", "integer-like string 1"])
        #expect(Self.entry(survey, "users[*].id")?.example == 1)
        #expect(Self.kinds(Self.entry(survey, "users[*].email")) == ["null 1", "string 1"])
        #expect(Self.entry(survey, "users[*].email")?.missing == 1)
        #expect(Self.entry(survey, "users[*].email")?.example == "g@example.com")
        #expect(Self.entry(survey, "users[*].tags")?.longestArray == 2)
        #expect(Self.entry(survey, "users[*].tags[*]")?.count == 3)
        #expect(Self.entry(survey, "users[*].address")?.missing == 1)
        // Missing is counted against the dictionaries at the parent path.
        #expect(Self.entry(survey, "users[*].address.zip")?.missing == 1)
        #expect(Self.entry(survey, "users[*].address.town")?.missing == 0)
        #expect(survey.documents == 1)
        #expect(survey.unrecordedValues == 0)
    }

    @Test(
        "strings are told apart by what they look like",
        arguments: [
            ("2024-03-01", "date-like string"), ("2024-03-01T12:30:05+02:00", "date-like string"),
            ("2024-03-01 12:30", "date-like string"), ("Sat, 07 Sep 2002 00:00:01 GMT", "date-like string"),
            ("07 Sep 2002 00:00 +0100", "date-like string"), ("2024-03-0", "string"),
            ("Sat, 07 Sept 2002 00:00 GMT", "string"),
            ("https://example.com/a?b=c", "URL-like string"), ("ftp://x.org", "URL-like string"),
            ("https://", "string"),
            ("see https://example.com", "string"), ("mailto:a@b.c", "string"),
            ("42", "integer-like string"), ("-7", "integer-like string"), ("007", "string"),
            ("0", "integer-like string"),
            ("4.5", "float-like string"), ("1e9", "float-like string"), ("-0.25E-3", "float-like string"),
            ("1.", "string"),
            ("12345678901234567890", "string"), ("12345678901234567890.12", "float-like string"),
            ("true", "bool-like string"), ("False", "string"), ("", "string"),
        ])
    func stringShapes(text: String, kind: String) throws {
        var survey = PathSurvey()
        survey.add(.string(text))
        #expect(survey.entries[0].kinds.map(\.kind.description) == [kind])
    }

    @Test("date-like strings note their style when all share one")
    func dateStyles() throws {
        var survey = PathSurvey()
        survey.add([
            "a": ["2024-03-01", "2024-03-02T10:00:00Z"], "b": ["Sat, 07 Sep 2002 00:00:01 GMT"],
            "c": ["2024-03-01", "Sat, 07 Sep 2002 00:00:01 GMT"],
        ])
        #expect(Self.entry(survey, "a[*]")?.dateStyle == .iso8601)
        #expect(Self.entry(survey, "b[*]")?.dateStyle == .rfc822)
        #expect(Self.entry(survey, "c[*]")?.dateStyle == nil)
    }

    // Not XML: in its tree a lone element is a single value and a repeated
    // one an array, where the stream sees one repeated key (see xmlCollect).
    @Test("a survey of the events equals a survey of the tree they build")
    func eventsAgreeWithTree() throws {
        let files = ["json/users.json", "yaml/users.yaml", "yaml/members.yaml", "yaml/user-records.yaml"]
        for file in files {
            let url = TestPaths.fixture(file)
            var streamed = PathSurvey()
            var source = try Self.source(url)
            try streamed.add(from: &source)
            var fromTree = PathSurvey()
            var again = try Self.source(url)
            fromTree.add(try Ingredients(reading: &again))
            #expect(streamed.entries.map(\.path) == fromTree.entries.map(\.path), "\(file)")
            #expect(streamed.entries.map(\.count) == fromTree.entries.map(\.count), "\(file)")
            #expect(streamed.entries.map(\.missing) == fromTree.entries.map(\.missing), "\(file)")
        }
    }

    @Test("records surveyed from their events equal records surveyed from their trees")
    func recordsFromEvents() throws {
        let url = TestPaths.fixture("json/users.json")
        var fromEvents = PathSurvey()
        var reader = try RecordReader(source: try Self.source(url), each: "users[*]")
        var indexes: [Int] = []
        while let read = try reader.nextRecord(reading: { (first, source) throws(EasyBakeError) in
            try fromEvents.add(startingWith: first, from: &source)
        }) {
            indexes.append(read.index)
            #expect(read.path.description == "users[\(read.index)]")
        }
        var fromTrees = PathSurvey()
        var trees = try RecordReader(source: try Self.source(url), each: "users[*]")
        while let record = try trees.next() { fromTrees.add(record.ingredients) }
        #expect(indexes == [0, 1, 2])
        #expect(fromEvents.documents == 3)
        #expect(fromEvents.entries == fromTrees.entries)
    }

    static func source(_ url: URL) throws -> AnyIngredientSource {
        switch url.pathExtension {
        case "json": AnyIngredientSource(try JSONIngredientSource(.file(url.path)))
        case "yaml": AnyIngredientSource(try YAMLIngredientSource(.file(url.path)))
        default: AnyIngredientSource(try XMLIngredientSource(.file(url.path)))
        }
    }

    @Test("XML: an element that repeats within its parent is an array, its values at [*]")
    func xmlCollect() throws {
        var survey = PathSurvey()
        var source = try XMLIngredientSource(
            .text(
                """
                <feed><entry id="1"><tag>a</tag><tag>b</tag></entry><entry id="2"><tag>c</tag></entry><entry/></feed>
                """))
        try survey.add(from: &source)
        #expect(
            survey.entries.map(\.path.description) == [
                "", "feed", "feed.entry", "feed.entry[*]", "feed.entry[*].@id", "feed.entry[*].tag",
                "feed.entry[*].tag[*]",
            ])
        #expect(Self.kinds(Self.entry(survey, "feed.entry")) == ["array 1"])
        #expect(Self.kinds(Self.entry(survey, "feed.entry[*]")) == ["null 1", "dictionary 2"])
        #expect(Self.kinds(Self.entry(survey, "feed.entry[*].@id")) == ["integer-like string 2"])
        // In the second entry `tag` is a lone value: `tag[*]` finds it too.
        #expect(Self.entry(survey, "feed.entry[*].tag")?.count == 2)
        #expect(Self.entry(survey, "feed.entry[*].tag[*]")?.count == 3)
    }

    @Test("JSON: a repeated key counts once, as the tree keeps only the first")
    func duplicateKeys() throws {
        let survey = try Self.survey(json: #"{"a": 1, "a": "x", "b": [{"c": 1, "c": 2}]}"#)
        #expect(Self.kinds(Self.entry(survey, "a")) == ["integer 1"])
        #expect(Self.kinds(Self.entry(survey, "b[*].c")) == ["integer 1"])
    }

    @Test("YAML: each document counts at the root")
    func documents() throws {
        var survey = PathSurvey()
        var source = try YAMLIngredientSource(.text("a: 1\n---\na: x\nb: true\n"), options: .init(documents: .each))
        try survey.add(from: &source)
        #expect(survey.documents == 2)
        #expect(Self.kinds(Self.entry(survey, "a")) == ["integer 1", "string 1"])
        #expect(Self.entry(survey, "b")?.missing == 1)
    }

    @Test("past maximumPaths new paths are skipped and counted, so keys that are data cannot grow it")
    func maximumPaths() throws {
        let keys = (0..<500).map { "\"id\($0)\": {\"name\": \"n\", \"tags\": [1, 2]}" }.joined(separator: ", ")
        let survey = try Self.survey(json: "{\"items\": {\(keys)}, \"after\": 1}", maximumPaths: 50)
        #expect(survey.entries.count == 50)
        // Each skipped key's value is one unrecorded value, skipped unread.
        // The root, items, then four paths per id: ids 0 to 11 fit in 50.
        #expect(survey.unrecordedValues == 500 - 12 + 1)
        #expect(Self.entry(survey, "after") == nil)
        #expect(Self.entry(survey, "items.id0.tags[*]")?.count == 2)
    }

    @Test("long examples are cut; containers and nulls are never examples")
    func examples() throws {
        let long = String(repeating: "é", count: 100)
        var survey = PathSurvey()
        survey.add(["a": [.null, .string(long)], "b": [["c": 1]]])
        let example = Self.entry(survey, "a[*]")?.example?.stringValue
        #expect(example?.count == 60)
        #expect(example?.hasSuffix("…") == true)
        #expect(Self.entry(survey, "b[*]")?.example == nil)
    }

    @Test("malformed input throws with its location; what was read stays surveyed")
    func malformed() throws {
        var survey = PathSurvey()
        var source = try JSONIngredientSource(.text("{\"a\": 1,\n \"b\": tru}"))
        let error = #expect(throws: EasyBakeError.self) { try survey.add(from: &source) }
        #expect(error?.code == .syntax)
        #expect(error?.location?.line == 2)
        #expect(Self.kinds(Self.entry(survey, "a")) == ["integer 1"])
    }
}
