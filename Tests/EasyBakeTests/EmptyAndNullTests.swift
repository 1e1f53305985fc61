import EasyBake
import EasyBakeTestSupport
import Foundation
import Testing

/// Empty text and null where users expect nil or a default (issue 19, item 11).
@Suite("Empty text as nil, defaults for null")
struct EmptyAndNullTests {
    struct Track: Decodable, Equatable {
        let length: Int?
        let released: Date?
        let link: URL?
        let explicit: Bool?
        let title: String?
    }

    static let empty: Ingredients = ["length": "", "released": " ", "link": "", "explicit": "", "title": ""]

    @Test("empty text into an optional number, date, URL or Bool fails by default")
    func strict() {
        let error = #expect(throws: EasyBakeError.self) { _ = try Baker().bake(Track.self, from: Self.empty) }
        #expect(error?.baking?.property == "length")
    }

    @Test("the baker's emptyTextAsNil reads empty text as nil for every optional")
    func bakerOption() throws {
        let track = try Baker(options: .init(emptyTextAsNil: true)).bake(Track.self, from: Self.empty)
        #expect(track == Track(length: nil, released: nil, link: nil, explicit: nil, title: nil))
        // Text that is not empty still coerces, and still fails when it cannot.
        let full = try Baker(options: .init(emptyTextAsNil: true)).bake(
            Track.self, from: ["length": "215", "title": "A"])
        #expect(full.length == 215 && full.title == "A")
        #expect(throws: EasyBakeError.self) {
            _ = try Baker(options: .init(emptyTextAsNil: true)).bake(Track.self, from: ["length": "long"])
        }
    }

    @Test("a recipe reads empty text as nil for the properties it names, and a recipe file says so per entry")
    func recipeOption() throws {
        let recipe = try Recipe(mapping: ["length": "length"], emptyAsNil: ["length", "released", "link", "explicit"])
        let track = try Baker().bake(Track.self, from: Self.empty, recipe: recipe)
        #expect(track.length == nil && track.released == nil && track.title == "")
        let only = try Recipe(mapping: ["length": "length"], emptyAsNil: ["length"])
        let error = #expect(throws: EasyBakeError.self) {
            _ = try Baker().bake(Track.self, from: Self.empty, recipe: only)
        }
        #expect(error?.baking?.property == "released")
        let file: Ingredients = ["mapping": ["length": ["path": "length", "emptyAsNil": true]]]
        let fromFile = try #require(try RecipeFile.recipes(in: file).first)
        #expect(fromFile.emptyAsNil == ["length"])
        let bad: Ingredients = ["mapping": ["length": ["path": "length", "emptyAsNil": "yes"]]]
        #expect(throws: EasyBakeError.self) { _ = try RecipeFile.recipes(in: bad) }
    }

    @Test("empty text in an array of optionals, with the baker's option")
    func elements() throws {
        struct Lengths: Decodable, Equatable { let values: [Int?] }
        let lengths = try Baker(options: .init(emptyTextAsNil: true)).bake(
            Lengths.self, from: ["values": [1, "", "3", .null]])
        #expect(lengths.values == [1, nil, 3, nil])
    }

    struct Member: Decodable, Equatable {
        let name: String
        let role: String
        let joined: Date
    }

    @Test("with defaultsForNull, a recipe's default stands in for null as for a missing value")
    func defaultForNull() throws {
        let recipe = try Recipe(
            mapping: ["name": "name", "joined": "joined"], transformers: ["joined": "unixSeconds"],
            defaults: ["role": "member", "joined": 0], defaultsForNull: true)
        let member = try Baker().bake(
            Member.self, from: ["name": "Ada", "role": .null, "joined": .null], recipe: recipe)
        #expect(member == Member(name: "Ada", role: "member", joined: Date(timeIntervalSince1970: 0)))
        #expect(try recipe.process(["name": "Ada", "joined": .null])["joined"] == 0)
        // A value that is there wins over the default.
        let given = try Baker().bake(
            Member.self, from: ["name": "Ada", "role": "admin", "joined": 86_400], recipe: recipe)
        #expect(given.role == "admin" && given.joined == Date(timeIntervalSince1970: 86_400))
        // Without it, null is no value: a non-optional property fails.
        let plain = try Recipe(mapping: ["name": "name"], defaults: ["role": "member"])
        #expect(throws: EasyBakeError.self) {
            _ = try Baker().bake(Member.self, from: ["name": "Ada", "role": .null, "joined": 0], recipe: plain)
        }
        let file: Ingredients = ["mapping": ["name": "name"], "defaults": ["role": "member"], "defaultsForNull": true]
        #expect(try #require(try RecipeFile.recipes(in: file).first).defaultsForNull)
    }
}
