import EasyBakeJSON
import EasyBakeMacros
import EasyBakeTestSupport
import EasyBakeXML
import EasyBakeYAML
import Foundation
import Testing

// Models baked both ways: through the initializer `@Bakeable` generates,
// and through `Decodable` by twins with the same properties and recipes.
// The roads must agree on every value, warning and error.

@Bakeable
struct GeneratedItem: Codable, Equatable {
    var sku: String
    var quantity: Int
    var price: Double?
    var shipped: Bool
}

@Bakeable
struct GeneratedModel: Codable, Equatable {
    @Ingredient("meta.ident") var id: Int
    var name: String
    var nickname: String?
    var score: Double
    var count64: Int64
    var flags: [Bool]
    @Lossy var tags: [String]?
    var created: Date?
    var updated: Date
    var link: URL?
    var item: GeneratedItem
    @Lossy var items: [GeneratedItem]
    var extra: GeneratedItem?
    var moreItems: [GeneratedItem]?
    @Default(7) var level: Int
    var `default`: Bool?
    var retries = 3
    let kind: String = "model"

    // `kind` is left out: it keeps its initial value on both roads.
    enum CodingKeys: String, CodingKey {
        case id, name, nickname, score, count64, flags, tags, created, updated, link, item, items, extra, moreItems
        case level, `default`, retries
    }
}

@Bakeable
struct GeneratedDocument: Codable, Equatable {
    var model: GeneratedModel
}

struct DecodableItem: Codable, Equatable {
    var sku: String
    var quantity: Int
    var price: Double?
    var shipped: Bool
}

struct DecodableModel: Codable, Equatable, Bakeable {
    var id: Int
    var name: String
    var nickname: String?
    var score: Double
    var count64: Int64
    var flags: [Bool]
    var tags: [String]?
    var created: Date?
    var updated: Date
    var link: URL?
    var item: DecodableItem
    var items: [DecodableItem]
    var extra: DecodableItem?
    var moreItems: [DecodableItem]?
    var level: Int
    var `default`: Bool?
    var retries = 3
    let kind: String = "model"

    // `kind` is left out: it keeps its initial value on both roads.
    enum CodingKeys: String, CodingKey {
        case id, name, nickname, score, count64, flags, tags, created, updated, link, item, items, extra, moreItems
        case level, `default`, retries
    }

    static var bakingRecipe: Recipe? { get throws { try GeneratedModel.bakingRecipe } }
}

struct DecodableDocument: Codable, Equatable {
    var model: DecodableModel
}

@Suite("The generated baking initializer and Decodable agree")
struct BakingInitializerPropertyTests {
    static let formats: [(name: String, format: any IngredientFormat)] = [
        ("json", JSONFormat()), ("yaml", YAMLFormat()), ("xml", XMLFormat()),
    ]

    static let options: [Baker.Options] = [
        Baker.Options(),
        Baker.Options(lossyArrays: true),
        Baker.Options(missingValues: .emptyValue),
        Baker.Options(implicitKeyMatching: false, emptyTextAsNil: true),
    ]

    @Test("random payloads bake to the same models, warnings and errors", arguments: 0..<3)
    func randomPayloads(formatIndex: Int) throws {
        let (name, format) = Self.formats[formatIndex]
        var random = SeededGenerator(seed: 0xBA6E + UInt64(formatIndex))
        var baked = 0
        var failed = 0
        for round in 0..<300 {
            let tree: Ingredients = ["model": Self.model(&random)]
            let bytes = try format.write(tree)
            let options = Self.options[round % Self.options.count]
            let generated = Result {
                try Baker(options: options).bakeReporting(GeneratedDocument.self, from: .bytes(bytes), format: format)
            }
            let decodable = Result {
                try Baker(options: options).bakeReporting(DecodableDocument.self, from: .bytes(bytes), format: format)
            }
            let context = "\(name), round \(round): \(String(decoding: bytes, as: UTF8.self))"
            switch (generated, decodable) {
            case (.success(let fast), .success(let slow)):
                baked += 1
                #expect(try Self.json(fast.value) == Self.json(slow.value), "\(context)")
                #expect(fast.warnings.map(Self.describe) == slow.warnings.map(Self.describe), "\(context)")
            case (.failure(let fast), .failure(let slow)):
                failed += 1
                #expect(Self.describe(fast) == Self.describe(slow), "\(context)")
            default:
                Issue.record("one road baked and the other failed: \(generated) against \(decodable); \(context)")
            }
        }
        // Both outcomes must be exercised, or the comparison says little.
        #expect(baked > 25, "\(name): \(baked) baked")
        #expect(failed > 25, "\(name): \(failed) failed")
    }

    /// What an error says, with the twins' names made the same.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? EasyBakeError else { return "\(type(of: error)): \(error)" }
        let text =
            "\(error.code) \(error.path.map { "\($0)" } ?? "-") \(error.location.map { "\($0)" } ?? "-") \(error.message)"
        return withoutGuessedMisspelling(text.replacingOccurrences(of: "Decodable", with: "Generated"))
    }

    /// `text` without the guess that a recipe key the model had not reached
    /// when it failed is misspelt. Only the `Decodable` road guesses: a
    /// generated initializer names its keys, so its road knows the key is a
    /// property.
    static func withoutGuessedMisspelling(_ text: String) -> String {
        text.replacingOccurrences(
            of: #"; recipe "[^"]*" maps "[^"]*", which is no property: did you mean "[^"]*"\?"#, with: "",
            options: .regularExpression)
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    // MARK: Payloads

    /// A record that is mostly right: each member is now and then missing,
    /// null, of another type or of a coercible form.
    static func model(_ random: inout SeededGenerator) -> Ingredients {
        var members: [(String, Ingredients)] = []
        func add(_ key: String, _ value: @autoclosure () -> Ingredients) {
            switch Int.random(in: 0..<40, using: &random) {
            case 0: return
            case 1: members.append((key, .null))
            case 2: members.append((key, .string("oops")))
            case 3: members.append((key, ["nested": 1]))
            case 4: members.append((key, .string("")))
            default: members.append((key, value()))
            }
        }
        add(
            "meta",
            [
                "ident": Int.random(in: 0..<3, using: &random) == 0
                    ? .string("42") : .integer(Int64.random(in: -999...999, using: &random))
            ])
        add("name", .string(["Ann", "Bo", "Çelik", "李"].randomElement(using: &random)!))
        add("nickname", .string("nick"))
        add(
            "score",
            Bool.random(using: &random) ? .float(Double(Int.random(in: 0..<10_000, using: &random)) / 100) : .integer(5)
        )
        add("count64", .integer(Int64.random(in: Int64.min...Int64.max, using: &random)))
        // XML writes no element for an empty array: mostly one or two.
        add(
            "flags",
            .array(
                IngredientArray(
                    (0..<Int.random(in: 1..<3, using: &random)).map { _ in
                        Int.random(in: 0..<15, using: &random) == 0
                            ? .string("yes") : .bool(Bool.random(using: &random))
                    })))
        add(
            "tags",
            .array(IngredientArray((0..<Int.random(in: 0..<3, using: &random)).map { index in .string("t\(index)") })))
        add("created", .string("2024-05-06T07:08:09Z"))
        add(
            "updated",
            Int.random(in: 0..<6, using: &random) > 0 ? .string("2023-01-02T03:04:05.250Z") : .integer(1_700_000_000))
        add("link", .string("https://example.com/a?b=c"))
        add("item", item(&random))
        add("items", .array(IngredientArray((0..<Int.random(in: 0..<4, using: &random)).map { _ in item(&random) })))
        add("extra", item(&random))
        add("moreItems", .array(IngredientArray([item(&random)])))
        add("level", .integer(Int64.random(in: 0..<10, using: &random)))
        add("default", .bool(true))
        add("retries", .integer(2))
        if Int.random(in: 0..<20, using: &random) == 0 { members.append(("name", .string("again"))) }
        members.shuffle(using: &random)
        return .dictionary(IngredientDictionary(members))
    }

    static func item(_ random: inout SeededGenerator) -> Ingredients {
        var members: [(String, Ingredients)] = [
            ("sku", .string("S-\(Int.random(in: 0..<100, using: &random))")),
            (
                "quantity",
                Int.random(in: 0..<12, using: &random) == 0
                    ? .string("x") : .integer(Int64.random(in: 0..<5, using: &random))
            ),
            ("price", Int.random(in: 0..<6, using: &random) == 0 ? .null : .float(9.5)),
            ("shipped", .bool(Bool.random(using: &random))),
        ]
        if Int.random(in: 0..<10, using: &random) == 0 { members.removeFirst() }
        if Int.random(in: 0..<10, using: &random) == 0 { members.append(("Quantity", .integer(1))) }
        return .dictionary(IngredientDictionary(members))
    }
}
