import EasyBakeJSON
import EasyBakeMacros
import Foundation
import Testing

@Bakeable
struct MacroUser: Decodable, Equatable {
    @Ingredient("profile.name") var name: String
    @Ingredient("joined_at", transformer: "iso8601") var joined: Date
    @Default(3) var level: Int
    @Ingredient("tags[0]") var firstTag: String
    var email: String
}

/// The same model with the recipe written by hand.
struct HandUser: Decodable, Equatable {
    var name: String
    var joined: Date
    var level: Int
    var firstTag: String
    var email: String

    static let recipe = try! Recipe(
        name: "HandUser",
        mapping: ["name": "profile.name", "joined": "joined_at", "firstTag": "tags[0]"],
        transformers: ["joined": "iso8601"],
        defaults: ["level": 3])
}

@Suite("@Bakeable at run time")
struct BakeableRuntimeTests {
    let payload = """
        {"profile": {"name": "Ann"}, "joined_at": "2024-05-06T07:08:09Z", "tags": ["admin", "ops"], "EMAIL": "ann@example.com"}
        """

    @Test("a @Bakeable struct bakes as the same model with a hand-written recipe")
    func bakesLikeAHandWrittenRecipe() throws {
        let generated = try Baker().bake(MacroUser.self, from: .text(payload), format: .json)
        let manual = try Baker().bake(HandUser.self, from: .text(payload), format: .json, recipe: HandUser.recipe)
        #expect(generated.name == "Ann")
        #expect(generated.level == 3)
        #expect(generated.email == "ann@example.com")
        #expect(
            HandUser(
                name: generated.name, joined: generated.joined, level: generated.level, firstTag: generated.firstTag,
                email: generated.email) == manual)
        let recipe = try #require(try MacroUser.bakingRecipe)
        #expect(recipe.name == "MacroUser")
        #expect(recipe.properties == ["name", "joined", "firstTag"])
        #expect(recipe.entry(for: "joined")?.transformerName == HandUser.recipe.entry(for: "joined")?.transformerName)
    }

    @Test("@Lossy drops the elements of its array that do not bake, and only those")
    func lossyProperty() throws {
        let payload =
            #"{"items": [{"sku": "a"}, {"sku": 7}, {"sku": "c"}, {}], "codes": [1, "x", 3], "strict": [1, 2]}"#
        let result = try Baker().bakeReporting(LossyFeed.self, from: .text(payload), format: .json)
        #expect(result.value.items.map(\.sku) == ["a", "7", "c"])
        #expect(result.value.codes == [1, 3])
        #expect(result.warnings.map { $0.path?.description } == ["items[3].sku", "codes[1]"])
        let error = #expect(throws: EasyBakeError.self) {
            try Baker().bake(LossyFeed.self, from: .text(#"{"items": [], "strict": [1, "x"]}"#), format: .json)
        }
        #expect(error?.path?.description == "strict[1]")
    }

    @Test("a nested struct whose properties name the types nested beside it bakes through its initializer")
    func nestedSiblingTypes() throws {
        let payload =
            #"{"features": [{"properties": {"name": "a"}, "tags": [{"label": "x"}]}, {"properties": {"name": "b"}}]}"#
        let collection = try Baker().bake(FeatureSet.self, from: .text(payload), format: .json)
        #expect(collection.features.map(\.properties.name) == ["a", "b"])
        #expect(collection.features.map { $0.tags?.map(\.label) } == [["x"], nil])
        #expect(FeatureSet.Feature.bakingKeys == ["properties", "tags"])
    }

    @Test("an unknown transformer name is reported where the model is baked")
    func unknownTransformerIsABakingError() {
        #expect(throws: EasyBakeError.self) {
            try Baker().bake(Misnamed.self, from: .text(#"{"when": "x"}"#), format: .json)
        }
    }
}

@Bakeable
struct Misnamed: Decodable {
    @Ingredient("when", transformer: "no-such-transformer") var when: String
}

/// Transformers named by the built-in references rather than by strings.
@Bakeable
struct Event: Decodable, Equatable {
    @Ingredient("starts", transformer: .iso8601) var starts: Date
    @Ingredient("day", transformer: .date("dd.MM.yyyy")) var day: Date
    @Ingredient("site", transformer: .url) var site: URL
}

@Suite("Built-in transformer references")
struct TransformerReferenceTests {
    @Test("a reference bakes as the name it stands for")
    func referencesMatchNames() throws {
        let payload = #"{"starts": "2024-05-06T07:08:09Z", "day": "24.12.2025", "site": " https://example.com/x "}"#
        let event = try Baker().bake(Event.self, from: .text(payload), format: .json)
        #expect(event.starts == Date(timeIntervalSince1970: 1_714_979_289))
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        #expect(
            utc.dateComponents([.year, .month, .day], from: event.day) == DateComponents(year: 2025, month: 12, day: 24)
        )
        #expect(event.site == URL(string: "https://example.com/x"))
        let named = try Recipe(
            mapping: ["starts": "starts", "day": "day", "site": "site"],
            transformers: ["starts": "iso8601", "day": .spec(["date": "dd.MM.yyyy"]), "site": "url"])
        struct Plain: Decodable, Equatable { var starts: Date; var day: Date; var site: URL }
        let plain = try Baker().bake(Plain.self, from: .text(payload), format: .json, recipe: named)
        #expect(Plain(starts: event.starts, day: event.day, site: event.site) == plain)
    }
}

/// A generic struct: its recipe is made on every read, since a generic type
/// cannot store a static.
@Bakeable
struct Page<Item: Codable & Equatable>: Codable, Equatable {
    @Ingredient("data.items") var items: [Item]
    @Default(1) var page: Int
}

@Suite("@Bakeable on a generic struct")
struct GenericBakeableTests {
    @Test("a generic struct bakes its recipe and its items")
    func genericPage() throws {
        let page = try Baker().bake(
            Page<Order>.self,
            from: .text(#"{"data": {"items": [{"sku": "A", "quantity": 2, "placedAt": "2024-05-06T07:08:09Z"}]}}"#),
            format: .json)
        #expect(page.page == 1)
        #expect(page.items.map(\.sku) == ["A"])
        #expect(try Page<Order>.bakingRecipe?.name == "Page")
    }
}

@Bakeable
struct LossyLine: Decodable {
    var sku: String
}

@Bakeable
struct LossyFeed: Decodable {
    @Lossy var items: [LossyLine]
    @Lossy var codes: [Int]?
    var strict: [Int]
}

/// `Feature`'s generated initializer sits in `extension FeatureSet.Feature`,
/// which does not see `Properties` and `Tag`: it names no type.
@Bakeable
struct FeatureSet: Decodable {
    @Bakeable
    struct Feature: Decodable {
        var properties: Properties
        var tags: [Tag]?
    }

    @Bakeable
    struct Properties: Decodable {
        var name: String
    }

    @Bakeable
    struct Tag: Decodable {
        var label: String
    }

    var features: [Feature]
}

/// A podcast episode written with the feed transformers as `@Ingredient`
/// arguments: the built-ins by name, as the compiler checks them (issue 28).
@Bakeable
struct MacroEpisode: Decodable, Equatable {
    @Ingredient("itunes:duration", transformer: .duration) var seconds: Int
    @Ingredient("media:tags", transformer: .pairs(default: 1)) var tags: [String: Int]
    @Ingredient("itunes:keywords", transformer: .split) var keywords: [String]
    @Ingredient("categories", transformer: .split(";")) var categories: [String]
    @Ingredient("georss:point", transformer: .geoPoint) var place: Place

    struct Place: Decodable, Equatable { var latitude: Double; var longitude: Double }
}

@Suite("@Bakeable with the feed transformers")
struct BakeableFeedTransformerTests {
    @Test("duration, pairs, split and geoPoint work as @Ingredient transformers, straight from the bytes")
    func feedTransformers() throws {
        let json = #"""
            {"itunes:duration": "1:02:03", "media:tags": "news: 5, reuters", "itunes:keywords": "a, b",
             "categories": "x;y", "georss:point": "45.256 -71.92"}
            """#
        let episode = try Baker().bake(MacroEpisode.self, from: .text(json), format: JSONFormat())
        #expect(
            episode
                == MacroEpisode(
                    seconds: 3_723, tags: ["news": 5, "reuters": 1], keywords: ["a", "b"], categories: ["x", "y"],
                    place: .init(latitude: 45.256, longitude: -71.92)))
    }
}

@Bakeable
struct Parcel: Decodable {
    var item: String
    var items: [String]
}

@Suite("A missing property's misspelling hint")
struct MisspellingHintTests {
    @Test("a recipe key the generated model names is no misspelling, though the model failed before reading it")
    func knownPropertyIsNoMisspelling() throws {
        let recipe = try Recipe(name: "Parcel", orderedMapping: [("items", "list")])
        #expect {
            try Baker().bake(
                Parcel.self, from: .bytes(Array(#"{"list": ["a"]}"#.utf8)), format: JSONFormat(), recipe: recipe)
        } throws: { error in
            let error = error as! EasyBakeError
            return error.code == .valueNotFound && error.baking?.property == "item"
                && !error.message.contains("did you mean")
        }
    }

    @Test("a recipe key that is no property of the generated model is named as the likely misspelling")
    func unknownKeyIsNamed() throws {
        let recipe = try Recipe(name: "Parcel", orderedMapping: [("itme", "thing"), ("items", "list")])
        #expect {
            try Baker().bake(
                Parcel.self, from: .bytes(Array(#"{"thing": "x", "list": []}"#.utf8)), format: JSONFormat(),
                recipe: recipe)
        } throws: { error in
            let error = error as! EasyBakeError
            return error.code == .valueNotFound
                && error.message.hasSuffix(#"recipe "Parcel" maps "itme", which is no property: did you mean "item"?"#)
        }
    }
}
