import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import EasyBakeXML
import EasyBakeYAML
import Testing

/// A record path that matches nothing is an error, not an empty stream;
/// one that reaches its records' parent and finds none is zero records
/// (issue 27, item 4).
@Suite("Record paths that match nothing")
struct RecordPathMatchingTests {
    struct User: Decodable, Sendable { let name: String? }

    static func bakeEach(_ text: String, format: some IngredientFormat, each: String) throws -> [Result<
        User, EasyBakeError
    >] {
        Array(
            try Baker().bakeEach(
                User.self, from: AnyIngredientSource(try format.makeSource(for: .text(text))), each: each))
    }

    @Test(
        "a key that is not in the payload fails the stream, naming the step where the path breaks",
        arguments: [
            (#"{"users": [{"name": "Ada"}]}"#, "user[*]", "user"),
            (#"{"data": {"users": [{"name": "Ada"}]}}"#, "data.user[*]", "data.user"),
            (#"{"data": {"users": [{"name": "Ada"}]}}"#, "date.users[*]", "date"),
            (#"{"a": [{"b": [1]}, {"b": [2]}]}"#, "a[*].c[*]", "a[*].c"),
            ("7", "users[*]", "users"),
        ])
    func missing(text: String, each: String, broken: String) throws {
        for jobs in [1, 2] {
            let results = Array(
                try Baker().bakeEach(
                    User.self, from: AnyIngredientSource(try JSONFormat().makeSource(for: .text(text))), each: each,
                    jobs: jobs))
            guard results.count == 1, case .failure(let error) = results[0] else {
                Issue.record("\(each): \(results.count) results, no error")
                continue
            }
            #expect(error.code == .valueNotFound)
            #expect(error.path?.description == broken)
            #expect(error.message.contains("the record path \(each) matches nothing: no value at \(broken)"))
        }
    }

    @Test(
        "reaching the records' parent is zero records, empty, null or not",
        arguments: [
            #"{"users": []}"#, #"{"users": {}}"#, #"{"users": null}"#, #"{"a": [{"c": []}, {"b": 1}]}"#,
        ])
    func empty(text: String) throws {
        let each = text.contains("\"a\"") ? "a[*].c[*]" : "users[*]"
        #expect(try Self.bakeEach(text, format: JSONFormat(), each: each).isEmpty, "\(text)")
    }

    @Test("in XML a feed with no items is empty, a misspelt element before them is an error")
    func xml() throws {
        let feed = "<rss><channel><title>t</title></channel></rss>"
        #expect(try Self.bakeEach(feed, format: XMLFormat(), each: "rss.channel.item[*]").isEmpty)
        let typo = try Self.bakeEach(feed, format: XMLFormat(), each: "rss.chanel.item[*]")
        guard case .failure(let error)? = typo.first else { Issue.record("no error"); return }
        #expect(error.path?.description == "rss.chanel")
    }

    @Test("YAML streams of documents: a path one document has is no error")
    func yamlDocuments() throws {
        let stream = "---\nother: 1\n---\nusers:\n  - name: Ada\n"
        let all = YAMLFormat(options: YAMLReadingOptions(documents: .all))
        let results = try Self.bakeEach(stream, format: all, each: "[*].users[*]")
        #expect(results.count == 1)
        #expect(try results.first?.get().name == "Ada")
        let none = try Self.bakeEach("---\na: 1\n---\nb: 2\n", format: all, each: "[*].users[*]")
        guard case .failure(let error)? = none.first else { Issue.record("no error"); return }
        #expect(error.path?.description == "[*].users")
    }

    @Test("the command says which key the payload has instead")
    func suggestion() throws {
        let document = try Document(
            reading: .text(#"{"users": [{"full_name": "Ada"}], "meta": {}}"#), format: JSONFormat())
        func suggestion(_ path: String) throws -> String? {
            document.suggestion(for: try IngredientPath(parsing: path))?.description
        }
        #expect(try suggestion("user[*]") == "users[*]")
        #expect(try suggestion("users[0].fullname") == "users[0].full_name")
        #expect(try suggestion("users[0].xyz") == nil)
        #expect(try suggestion("users[*]") == nil)
    }

    @Test("a recipe that finds none of its paths in what it bakes warns, in bakeReporting")
    func recipeFindsNothing() throws {
        struct Person: Decodable { let name: String?; let age: Int? }
        let recipe = try Recipe(name: "Person", mapping: ["name": "full_name", "age": "years"])
        let wrongLevel = try Baker().bakeReporting(
            Person.self, from: .text(#"{"people": [{"full_name": "Ada"}]}"#), format: JSONFormat(), recipe: recipe)
        #expect(wrongLevel.value.name == nil)
        #expect(wrongLevel.warnings.count == 1)
        #expect(wrongLevel.warnings.first?.code == .valueNotFound)
        #expect(
            wrongLevel.warnings.first?.message.contains(#"recipe "Person" found none of its paths (full_name, years)"#)
                == true)
        let right = try Baker().bakeReporting(
            Person.self, from: .text(#"{"full_name": "Ada"}"#), format: JSONFormat(), recipe: recipe)
        #expect(right.value.name == "Ada")
        #expect(right.warnings.isEmpty)
    }
}
