import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import EasyBakeTesting
import EasyBakeYAML
import Foundation
import Testing

// The code of the "YAML and fixtures" article, line for line (`shownCode`
// checks it), its fixture file and its rendered error; its commands run in
// easybakeTests' DocumentationCommandTests. Paths go through TestPaths so
// that the tests run from any directory.

let membersPath = TestPaths.fixture("yaml/members.yaml").path

struct Member: Decodable {
    let id: Int
    let name: String
    let email: String?
    let city: String
    static let recipe = try! Recipe(mapping: [
        "id": "member_id", "name": "name", "email": "email", "city": "address.town",
    ])
}

@Test func membersFromFixtures() throws {
    let fixtures = try Fixtures(yaml: .file(membersPath))  // Fixtures/yaml/members.yaml
    let grace = try fixtures.make(Member.self, "grace", recipe: Member.recipe)
    #expect(grace.email == nil && grace.city == "Arlington")  // email from .defaults
    let moved = try fixtures.make(Member.self, "ada", ["address.town": "Paris", "email": .null], recipe: Member.recipe)
    #expect(moved.city == "Paris" && moved.email == nil)
    #expect(try fixtures.makeAll(Member.self, recipe: Member.recipe).map(\.id) == [1, 2])
}

@Suite("The YAML and fixtures article")
struct YAMLArticleTests {
    static let article = try! DocumentationExamples.article("EasyBakeYAML", "YAMLAndFixtures")

    @Test("the article shows the code these tests run")
    func shownCode() throws {
        let check = try DocumentationExamples.checkSwiftListings(in: Self.article, runBy: #filePath)
        #expect(check.listings == 5)
        #expect(check.notRun == [])
    }

    @Test("the article shows the shipped fixture file")
    func fixtureFile() throws {
        let shown = try #require(DocumentationExamples.listings(in: Self.article, language: "yaml").first)
        let file = try String(contentsOfFile: membersPath, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).drop { $0.hasPrefix("#") }.joined(separator: "\n")
        #expect(shown.text + "\n" == file)
    }

    @Test("the fixture error the article shows")
    func fixtureError() throws {
        let text =
            try String(contentsOfFile: membersPath, encoding: .utf8)
            + "\nbob:\n  <<: *defaults\n  member_id: two\n  name: Bob\n"
        let fixtures = try Fixtures(yaml: .text(text, name: "Fixtures/yaml/members.yaml"))
        let error = try #require(yamlCapture { try fixtures.make(Member.self, "bob", recipe: Member.recipe) })
        let rendered = error.description.split(separator: "\n").prefix(2).joined(separator: "\n")
        let shown = try #require(DocumentationExamples.listings(in: Self.article, language: "").first)
        #expect(rendered == shown.text)
    }

    @Test("a consumer of the events learns each node's tag")
    func currentTag() throws {
        var source = try YAMLIngredientSource(.text("bucket: !Ref Logs\nname: !Sub '${AWS::StackName}-logs'\n"))
        var references: [String] = []
        while let event = try source.next() {
            if case .scalar(.string(let name)) = event, source.currentTag == "!Ref" { references.append(name) }
        }
        // references == ["Logs"]
        #expect(references == ["Logs"])
    }

    @Test("reading, schemas, tags, merge keys and documents")
    func claims() throws {
        let config = try YAMLFormat().read(.text("name: EasyBake\nports: [80, 443]\n"))
        let every = try YAMLFormat().readDocuments(.text("a: 1\n---\na: 2\n"))  // one tree per document
        #expect(config == ["name": "EasyBake", "ports": [80, 443]])
        #expect(every == [["a": 1], ["a": 2]])
        let core = try YAMLFormat().read(.text("a: yes\nb: NO\nc: true\n"))  // ["a": "yes", "b": "NO", "c": true]
        let old = try YAMLFormat(options: .init(schema: .yaml11)).read(.text("a: yes\nb: NO\n"))
        // old == ["a": true, "b": false]
        let tagged = try YAMLFormat().read(.text("bucket: !Ref MyBucket\n"))  // ["bucket": "MyBucket"]
        let wrapped = try YAMLFormat(options: .init(unknownTags: .wrap)).read(.text("bucket: !Ref MyBucket\n"))
        // wrapped == ["bucket": ["!Ref": "MyBucket"]]
        let merged = try YAMLFormat().read(.text("a: &a {k: 1, x: a}\nb: &b {k: 2, y: b}\nc: {<<: [*a, *b], x: own}\n"))
        // merged["c"] == ["x": "own", "k": 1, "y": "b"]
        #expect(core == ["a": "yes", "b": "NO", "c": true])
        #expect(old == ["a": true, "b": false])
        #expect(tagged == ["bucket": "MyBucket"])
        #expect(wrapped == ["bucket": ["!Ref": "MyBucket"]])
        #expect(merged["c"] == ["x": "own", "k": 1, "y": "b"])
        #expect(throws: EasyBakeError.self) { try YAMLFormat().read(.text("a: 1\na: 2\n")) }
        #expect(try YAMLFormat().read(.text("1: a\n")) == ["1": "a"])
    }

    @Test("a stream of documents: all, one, or an error that says how many")
    func documents() throws {
        let stream = "name: web\n---\nname: db\n"
        let all = try YAMLFormat(options: .init(documents: .all)).read(.text(stream))
        // all == [["name": "web"], ["name": "db"]]
        let second = try YAMLFormat(options: .init(documents: .document(1))).read(.text(stream))  // ["name": "db"]
        // YAMLFormat().read(.text(stream)) throws: the YAML stream holds 2 documents where one is expected …
        #expect(all == [["name": "web"], ["name": "db"]])
        #expect(second == ["name": "db"])
        let error = try #require(yamlCapture { try YAMLFormat().read(.text(stream)) })
        #expect(error.code == .multipleDocuments)
        #expect(error.message.hasPrefix("the YAML stream holds 2 documents where one is expected"))
    }

    @Test("convert and bake on the YAML users fixture agree with the JSON one")
    func commandLineFixtures() throws {
        let yamlTree = try YAMLFormat().read(.file(TestPaths.fixture("yaml/users.yaml").path))
        let json = try JSONFormat().write(yamlTree)
        let jsonTree = try JSONFormat().read(.bytes(json))
        #expect(jsonTree == (try JSONFormat().read(.file(TestPaths.fixture("json/users.json").path))))
    }
}
