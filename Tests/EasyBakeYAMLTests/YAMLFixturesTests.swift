import Foundation
import Testing
import EasyBake
import EasyBakeJSON
import EasyBakeTesting
import EasyBakeTestSupport
import EasyBakeYAML

/// The user model of the shipped recipe file `Fixtures/recipes/users.json`.
struct FixtureUser: Decodable, Equatable {
    let id: Int
    let name: String
    let email: String?
    let unreadMessages: Int
    let isAdmin: Bool
    let joined: Date
    let lastSeen: Date
    let homepage: URL?
    let balance: Decimal
    let role: String
    let tags: [String]
    let city: String
    let postcode: String?
    let deviceKinds: [String]

    static let recipe: Recipe = {
        let formats = FormatRegistry([JSONFormat()])
        return try! RecipeFile.load(.file(TestPaths.fixture("recipes/users.json").path), formats: formats)[0]
    }()
}

@Suite("YAML fixtures")
struct YAMLFixturesTests {
    static let recordsFile = TestPaths.fixture("yaml/user-records.yaml").path

    @Test("the shipped fixture records bake, sharing defaults through a merge key")
    func shippedRecords() throws {
        let fixtures = try Fixtures(yaml: .file(Self.recordsFile))
        #expect(fixtures.names == ["ada", "grace", "katherine"])
        let users = try fixtures.makeAll(FixtureUser.self, recipe: FixtureUser.recipe)
        #expect(users.map(\.id) == [101, 102, 103])
        let ada = users[0]
        #expect(ada.unreadMessages == 12)
        #expect(ada.isAdmin)
        #expect(ada.role == "admin")
        #expect(ada.tags == ["math", "poetry"])
        #expect(ada.deviceKinds == ["phone", "laptop"])
        // Grace takes email, role, is_admin and devices from .defaults …
        let grace = users[1]
        #expect(grace.email == nil)
        #expect(grace.role == "user")
        #expect(!grace.isAdmin)
        #expect(grace.deviceKinds == [])
        #expect(grace.unreadMessages == 0)
        // … and her own keys win over the merged ones.
        #expect(grace.city == "Arlington")
        #expect(grace.balance == Decimal(string: "98765.25"))
        #expect(users[2].unreadMessages == 3)
    }

    @Test("overrides per test, null clearing a field")
    func overrides() throws {
        let fixtures = try Fixtures(yaml: .file(Self.recordsFile))
        let ada = try fixtures.make(
            FixtureUser.self, "ada", ["email": .null, "address.town": "Paris", "devices[1].kind": "tablet"],
            recipe: FixtureUser.recipe)
        #expect(ada.email == nil)
        #expect(ada.city == "Paris")
        #expect(ada.deviceKinds == ["phone", "tablet"])
        #expect(ada.postcode == "SW1Y 4JH")
    }

    @Test("the YAML users payload is the JSON users fixture, and bakes the same users")
    func payloadMatchesJSON() throws {
        let yamlTree = try YAMLFormat().read(.file(TestPaths.fixture("yaml/users.yaml").path))
        let jsonTree = try JSONFormat().read(.file(TestPaths.fixture("json/users.json").path))
        #expect(yamlTree == jsonTree)
        for index in 0..<3 {
            let path = "users[\(index)]"
            let a = try Baker().bake(
                FixtureUser.self, from: #require(try yamlTree.resolve(path)), recipe: FixtureUser.recipe)
            let b = try Baker().bake(
                FixtureUser.self, from: #require(try jsonTree.resolve(path)), recipe: FixtureUser.recipe)
            #expect(a == b)
        }
    }

    @Test("a baking error names the fixture file, the record, the path, the line and column")
    func locatedError() throws {
        let text = """
            .defaults: &defaults
              unread-messages: 0
            ada:
              <<: *defaults
              user_id: many
              full_name: Ada
            """
        let fixtures = try Fixtures(yaml: .text(text, name: "Fixtures/yaml/broken.yaml"))
        let error = try #require(yamlCapture { try fixtures.make(FixtureUser.self, "ada", recipe: FixtureUser.recipe) })
        #expect(error.path?.description == "ada.user_id")
        #expect(error.message.hasPrefix(#"fixture "ada" in broken.yaml: "#))
        #expect(error.location?.line == 5)
        #expect(error.location?.column == 12)
        #expect(error.description.contains("--> Fixtures/yaml/broken.yaml:5:12"))
    }

    @Test("fixture files are found by extension through a format registry")
    func byExtension() throws {
        let formats = FormatRegistry([YAMLFormat()])
        let fixtures = try Fixtures(reading: .file(Self.recordsFile), formats: formats)
        #expect(fixtures.name == "user-records.yaml")
        #expect(try fixtures.ingredients("grace")["role"] == "U")  // merged from .defaults
        #expect(try fixtures.ingredients(".defaults")["role"] == "U")
    }

    @Test("a record name that repeats is an error with its line")
    func duplicateRecord() {
        let error = yamlCapture { try Fixtures(yaml: .text("ada: {a: 1}\nada: {a: 2}\n", name: "dup.yaml")) }
        #expect(error?.code == .duplicateKey)
        #expect(error?.location?.line == 2)
    }
}

/// The EasyBakeError `body` throws, or nil.
func yamlCapture<T>(_ body: () throws -> T) -> EasyBakeError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error as? EasyBakeError
    }
}
