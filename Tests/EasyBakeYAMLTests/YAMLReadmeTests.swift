import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import EasyBakeYAML
import Foundation
import Testing

// The README's YAML section, so that its examples keep compiling and working.
// Paths go through TestPaths so that the tests run from any directory.

struct Member: Decodable {
    let id: Int
    let name: String
    let email: String?
    let city: String
    static let recipe = try! Recipe(mapping: ["id": "member_id", "name": "name", "email": "email", "city": "address.town"])
}

@Suite("README YAML section")
struct YAMLReadmeTests {
    static let members = TestPaths.fixture("yaml/members.yaml").path

    @Test("the fixtures example test, as the README shows it")
    func membersFromFixtures() throws {
        let fixtures = try Fixtures(yaml: .file(Self.members))
        let grace = try fixtures.make(Member.self, "grace", recipe: Member.recipe)
        #expect(grace.email == nil && grace.city == "Arlington")           // email from .defaults
        let moved = try fixtures.make(Member.self, "ada", ["address.town": "Paris", "email": .null], recipe: Member.recipe)
        #expect(moved.city == "Paris" && moved.email == nil)
        #expect(try fixtures.makeAll(Member.self, recipe: Member.recipe).map(\.id) == [1, 2])
    }

    @Test("the fixture error the README shows")
    func fixtureError() throws {
        let text = try String(contentsOfFile: Self.members, encoding: .utf8) + "\nbob:\n  <<: *defaults\n  member_id: two\n  name: Bob\n"
        let fixtures = try Fixtures(yaml: .text(text, name: "Fixtures/yaml/members.yaml"))
        let error = try #require(yamlCapture { try fixtures.make(Member.self, "bob", recipe: Member.recipe) })
        let rendered = error.description.split(separator: "\n").prefix(2).joined(separator: "\n")
        #expect(rendered == """
            error: type mismatch: fixture "bob" in members.yaml: Member.id: expected Int, found "two" (string)
             --> Fixtures/yaml/members.yaml:20:14
            """)
    }

    @Test("the README's schema, tag and merge-key claims")
    func claims() throws {
        #expect(try YAMLFormat().read(.text("a: yes\nb: NO\nc: true\n")) == ["a": "yes", "b": "NO", "c": true])
        #expect(try YAMLFormat(options: .init(schema: .yaml11)).read(.text("a: yes\nb: NO\n")) == ["a": true, "b": false])
        #expect(try YAMLFormat().read(.text("bucket: !Ref MyBucket\n")) == ["bucket": ["!Ref": "MyBucket"]])
        let merged = try YAMLFormat().read(.text("a: &a {k: 1, x: a}\nb: &b {k: 2, y: b}\nc: {<<: [*a, *b], x: own}\n"))
        #expect(merged["c"] == ["x": "own", "k": 1, "y": "b"])
        let documents = try YAMLFormat().readDocuments(.text("a: 1\n---\na: 2\n"))
        #expect(documents == [["a": 1], ["a": 2]])
    }

    @Test("convert and bake on the YAML users fixture agree with the JSON one")
    func commandLineFixtures() throws {
        let yamlTree = try YAMLFormat().read(.file(TestPaths.fixture("yaml/users.yaml").path))
        let json = try JSONFormat().write(yamlTree)
        let jsonTree = try JSONFormat().read(.bytes(json))
        #expect(jsonTree == (try JSONFormat().read(.file(TestPaths.fixture("json/users.json").path))))
    }
}
