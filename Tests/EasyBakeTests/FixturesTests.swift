import Foundation
import Testing
import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import EasyBakeTesting

/// A small model for fixture tests.
private struct Member: Decodable, Equatable {
    let id: Int
    let name: String
    let email: String?
    let city: String
    static let recipe = try! Recipe(mapping: [
        "id": "member_id", "name": "name", "email": "email", "city": "address.town",
    ])
}

@Suite("Fixtures")
struct FixturesTests {
    static let records: Ingredients = [
        ".template": ["address": ["town": "London"]],
        "ada": ["member_id": 1, "name": "Ada", "email": "ada@example.com", "address": ["town": "London"]],
        "grace": ["member_id": 2, "name": "Grace", "email": .null, "address": ["town": "Arlington"]],
    ]

    @Test("make bakes one record by name; templates are not records")
    func makeOne() throws {
        let fixtures = try Fixtures(Self.records, name: "members")
        #expect(fixtures.names == ["ada", "grace"])
        let ada = try fixtures.make(Member.self, "ada", recipe: Member.recipe)
        #expect(ada == Member(id: 1, name: "Ada", email: "ada@example.com", city: "London"))
        #expect(try fixtures.ingredients(".template") == ["address": ["town": "London"]])
    }

    @Test("overrides set values by path, and null clears a field")
    func overrides() throws {
        let fixtures = try Fixtures(Self.records)
        let moved = try fixtures.make(
            Member.self, "ada", ["address.town": "Paris", "email": .null, "name": "Augusta"],
            recipe: Member.recipe)
        #expect(moved == Member(id: 1, name: "Augusta", email: nil, city: "Paris"))
        // The file's record is untouched by an override.
        #expect(try fixtures.make(Member.self, "ada", recipe: Member.recipe).city == "London")
    }

    @Test("makeAll bakes every record in file order; makeAllByName by name")
    func makeAll() throws {
        let fixtures = try Fixtures(Self.records)
        #expect(try fixtures.makeAll(Member.self, recipe: Member.recipe).map(\.id) == [1, 2])
        #expect(try fixtures.makeAllByName(Member.self, recipe: Member.recipe)["grace"]?.city == "Arlington")
    }

    @Test("factory gives a ModelFactory over one record")
    func factory() throws {
        let fixtures = try Fixtures(Self.records)
        let members = try fixtures.factory(Member.self, "grace", recipe: Member.recipe)
        let many = try members.make(count: 2) { [(path: "member_id", value: .integer(Int64(10 + $0)))] }
        #expect(many.map(\.id) == [10, 11])
        #expect(many.allSatisfy { $0.city == "Arlington" })
    }

    @Test("an unknown record names the file and lists the records")
    func unknownRecord() throws {
        let fixtures = try Fixtures(Self.records, name: "members.json")
        let error = try #require(captureError { try fixtures.make(Member.self, "bob", recipe: Member.recipe) })
        #expect(error.code == .valueNotFound)
        #expect(error.message == #"fixture file members.json has no record "bob" (records: "ada", "grace")"#)
    }

    @Test("a bad override path names the file and the record")
    func badOverride() throws {
        let fixtures = try Fixtures(Self.records, name: "members.json")
        let error = try #require(captureError { try fixtures.make(Member.self, "ada", ["address..town": "x"]) })
        #expect(error.code == .invalidPath)
        #expect(error.message.hasPrefix(#"override of fixture "ada" in members.json: "#))
    }

    @Test("a file that is not a dictionary of records is rejected")
    func notADictionary() {
        let error = captureError { try Fixtures([1, 2], name: "list.json") }
        #expect(error?.code == .typeMismatch)
        #expect(error?.message == "fixture file list.json must be a dictionary of record names to records, found array")
    }

    @Test("a baking error names the file, the record, the path and the line")
    func locatedError() throws {
        let text = """
            {
              "ada": {"member_id": 1, "name": "Ada", "address": {"town": "London"}},
              "bad": {
                "member_id": "one",
                "name": "Bad",
                "address": {"town": "Nowhere"}
              }
            }
            """
        let fixtures = try Fixtures(reading: .text(text, name: "Fixtures/json/members.json"), format: JSONFormat())
        #expect(fixtures.name == "members.json")
        let error = try #require(captureError { try fixtures.make(Member.self, "bad", recipe: Member.recipe) })
        #expect(error.code == .typeMismatch)
        #expect(error.path?.description == "bad.member_id")
        #expect(error.message.hasPrefix(#"fixture "bad" in members.json: "#))
        #expect(error.location?.sourceName == "Fixtures/json/members.json")
        #expect(error.location?.line == 4)
        #expect(error.location?.column == 18)

        // An overridden value is not in the file: the error points at the record.
        let overridden = try #require(
            captureError {
                try fixtures.make(Member.self, "ada", ["member_id": "x"], recipe: Member.recipe)
            })
        #expect(overridden.path?.description == "ada.member_id")
        #expect(overridden.location?.line == 2)
        #expect(overridden.location?.column == 10)
    }

    @Test("the test helpers are a product of their own, as the EasyBakeTesting catalog tells a test target to use it")
    func ownProduct() throws {
        let manifest = try DocumentationExamples.text(of: "Package.swift")
        #expect(manifest.contains(#".library(name: "EasyBakeTesting", targets: ["EasyBakeTesting"])"#))
        let page = try DocumentationExamples.article("EasyBakeTesting", "EasyBakeTesting")
        let fragment = try #require(
            DocumentationExamples.listings(in: page).isEmpty
                ? page.range(of: #".product(name: "EasyBakeTesting", package: "EasyBake")"#) : nil)
        #expect(!fragment.isEmpty)
    }
}
