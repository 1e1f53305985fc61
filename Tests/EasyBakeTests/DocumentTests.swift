import Testing
import EasyBake

@Suite("Documents: errors found while baking point at the input")
struct DocumentTests {
    static let text = """
        {
          key: users
          [
            {
              key: name
              "Ann"
              key: age
              "forty"
            }
          ]
        }
        """

    struct Roster: Decodable {
        struct Member: Decodable {
            let name: String
            let age: Int
        }
        let users: [Member]
    }

    func document() throws -> Document {
        try Document(reading: .text(Self.text, name: "team.lines"), format: LineFormat())
    }

    @Test("a baking error gets the line and column of the offending value")
    func bakingErrorLocation() throws {
        let error = try #require(captureError { try Baker().bake(Roster.self, from: try document()) })
        #expect(error.code == .typeMismatch)
        #expect(error.path?.description == "users[0].age")
        #expect(error.location?.sourceName == "team.lines")
        #expect(error.location?.line == 8)
        #expect(error.location?.column == 7)
        let rendered = error.description
        #expect(rendered.contains("--> team.lines:8:7"), "\(rendered)")
        #expect(rendered.contains("8 |       \"forty\""), "\(rendered)")
        #expect(rendered.contains("model: Roster, property: users[0].age"), "\(rendered)")
    }

    @Test("locations of present paths, and of the deepest present ancestor of missing ones")
    func locations() throws {
        let document = try document()
        #expect(document.location(of: try IngredientPath(parsing: "users[0].name"))?.line == 6)
        #expect(document.location(of: try IngredientPath(parsing: "users[0]"))?.line == 4)
        #expect(document.location(of: try IngredientPath(parsing: "users[0].missing"))?.line == 4)
        #expect(document.location(of: try IngredientPath(parsing: "users[5].name"))?.line == 3)
        #expect(document.location(of: .root)?.line == 1)
    }

    @Test("a document finds its format by extension in a registry")
    func formatByExtension() throws {
        let registry = FormatRegistry([LineFormat()])
        #expect(registry.names == ["lines"])
        #expect(registry.format(forExtension: "LINES")?.name == "lines")
        let document = try Document(reading: .text(Self.text, name: "team.lines"), formats: registry)
        #expect(document.tree["users"]?[0]?["name"] == "Ann")
        let error = try #require(captureError { try Document(reading: .text("1", name: "x.csv"), formats: registry) })
        #expect(error.code == .unknownFormat)
        #expect(error.message.contains("\"csv\""))
    }

    @Test("read errors carry the source's location")
    func readErrors() throws {
        let error = try #require(
            captureError {
                try Document(reading: .text("[\n  1\n  ?\n]", name: "bad.lines"), format: LineFormat())
            })
        #expect(error.code == .syntax)
        #expect(error.location?.line == 3)
        #expect(error.location?.sourceName == "bad.lines")
    }

    @Test("an error that already has a location, or no path, is left alone")
    func locatingLeavesOthersAlone() throws {
        let document = try document()
        let located = EasyBakeError(
            .invalidValue, "x", location: SourceLocation(line: 99, column: 1), path: [.key("users")])
        #expect(document.locating(located).location?.line == 99)
        let pathless = EasyBakeError(.invalidValue, "x")
        #expect(document.locating(pathless).location == nil)
    }
}
