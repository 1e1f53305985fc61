import EasyBake
import EasyBakeTestSupport
import Foundation
import Testing

// The code of the "Transformers and coercions" article, line for line
// (`shownCode` checks it), and the article's claims.

@Suite("The Transformers and coercions article")
struct TransformersArticleTests {
    static let article = try! DocumentationExamples.article("EasyBake", "TransformersAndCoercions")

    @Test("the article shows the code these tests run")
    func shownCode() throws {
        let check = try DocumentationExamples.checkSwiftListings(in: Self.article, runBy: #filePath)
        #expect(check.listings == 2)
        #expect(check.notRun == [])
    }

    @Test("a registered transformer, a factory and an instance")
    func custom() throws {
        var registry = TransformerRegistry.builtIn  // the built-ins, and these:
        registry.register(
            ClosureTransformer { value in value.map { .string("\($0.stringValue ?? "")!") } }, named: "shout")
        registry.registerFactory(named: "prefix") { argument throws(EasyBakeError) in
            guard let prefix = argument.stringValue else {
                throw EasyBakeError(
                    .invalidRecipe, "the prefix factory takes a string, found \(argument.briefDescription)")
            }
            return ClosureTransformer { value in value?.stringValue.map { .string(prefix + $0) } }
        }
        let recipe = try Recipe(
            mapping: ["greeting": "greeting", "code": "code", "cents": "price"],
            transformers: [
                "greeting": .spec(["trim", "shout"]),
                "code": .spec(["prefix": "EB-"]),
                "cents": .instance(
                    ClosureTransformer { value in
                        guard let price = value?.doubleValue else { return nil }
                        // A price no Int64 of cents holds is an error, not a trap.
                        guard let cents = Int64(exactly: (price * 100).rounded()) else {
                            throw EasyBakeError(.numberOutOfRange, "\(price) is too large a price")
                        }
                        return .integer(cents)
                    }),
            ],
            registry: registry)
        let processed = try recipe.process(["greeting": " hello ", "code": "42", "price": 1.25])
        #expect(processed["greeting"] == "hello!")
        #expect(processed["code"] == "EB-42")
        #expect(processed["cents"] == 125)
        let huge = #expect(throws: EasyBakeError.self) { _ = try recipe.process(["price": 1e300]) }
        #expect(huge?.code == .numberOutOfRange)
        #expect(throws: EasyBakeError.self) {
            try Recipe(mapping: ["code": "code"], transformers: ["code": .spec(["prefix": 1])], registry: registry)
        }
    }

    @Test("the table's transformers")
    func table() throws {
        let registry = TransformerRegistry.builtIn
        #expect(try registry.resolve("rfc822").transform("Sat, 07 Sep 2002 00:00:01 GMT") == "2002-09-07T00:00:01Z")
        #expect(try registry.resolve("iso8601").transform("2024-03-01") == "2024-03-01T00:00:00Z")
        #expect(try registry.resolve("unixMilliseconds").transform("1000") == "1970-01-01T00:00:01Z")
        #expect(try registry.resolve(["date": "dd.MM.yyyy"]).transform("07.09.2002") == "2002-09-07T00:00:00Z")
        #expect(try registry.resolve(["url": "https://base/"]).transform("a/b") == "https://base/a/b")
        #expect(try registry.resolve(["split": ";"]).transform("a; b") == ["a", "b"])
        #expect(try registry.resolve("split").transform("a, b") == ["a", "b"])
        #expect(try registry.resolve(["lookup": ["A": "admin"]]).transform("A") == "admin")
        #expect(try registry.resolve("base64").transform("-_8") == "+/8=")
        #expect(try registry.resolve("iso8601").transform(nil) == nil)
        #expect(throws: EasyBakeError.self) { try registry.resolve("uuid").transform("nope") }
    }

    @Test("lossy arrays drop and report")
    func lossy() throws {
        struct Order: Decodable { let id: Int; let quantities: [Int] }
        let lossy = Baker(options: .init(lossyArrays: true))
        let result = try lossy.bakeReporting(Order.self, from: ["id": "7", "quantities": [1, "two", 3]])
        // result.value.quantities == [1, 3]; result.warnings names quantities[1]
        #expect(result.value.id == 7)
        #expect(result.value.quantities == [1, 3])
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.path?.description == "quantities[1]")
    }

    @Test("coercions the table lists")
    func coercions() throws {
        struct Sample: Decodable {
            let text: String
            let int: Int
            let flag: Bool
            let yes: Bool
            let date: Date
            let when: Date
            let exact: Decimal
            let one: [String]
            let none: String?
        }
        let sample = try Baker().bake(
            Sample.self,
            from: [
                "text": 42, "int": "42", "flag": 1, "yes": "yes", "date": "2002-09-07T00:00:01Z", "when": 0,
                "exact": .exactNumber("12345678901234567890.12"), "one": "lone",
            ])
        #expect(sample.text == "42" && sample.int == 42 && sample.flag && sample.yes)
        #expect(sample.date == Date(timeIntervalSince1970: 1_031_356_801))
        #expect(sample.when == Date(timeIntervalSince1970: 0))
        #expect(sample.exact == Decimal(string: "12345678901234567890.12"))
        #expect(sample.one == ["lone"] && sample.none == nil)
        struct Small: Decodable { let n: Int8 }
        let error = #expect(throws: EasyBakeError.self) { try Baker().bake(Small.self, from: ["n": 300]) }
        #expect(error?.code == .numberOutOfRange)
    }
}
