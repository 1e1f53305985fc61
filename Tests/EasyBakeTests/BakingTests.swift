import Testing
import Foundation
import EasyBake

/// A model with one property, to bake each coercion in isolation.
struct Box<Value: Decodable>: Decodable {
    let value: Value
}

struct OptionalBox<Value: Decodable>: Decodable {
    let value: Value?
}

func bake<Value: Decodable>(_ type: Value.Type, _ value: Ingredients) throws -> Value {
    try Baker().bake(Box<Value>.self, from: ["value": value]).value
}

func bakeFailure<Value: Decodable>(_ type: Value.Type, _ value: Ingredients) -> EasyBakeError? {
    captureError { try Baker().bake(Box<Value>.self, from: ["value": value]) }
}

@Suite("Baking: coercions")
struct CoercionTests {
    @Test(
        "Int from integers, whole floats and numeric strings",
        arguments: [
            (Ingredients.integer(42), 42), ("42", 42), (" -7 ", -7), (42.0, 42), ("1e3", 1000),
            (.exactNumber("1e2"), 100),
        ])
    func int(value: Ingredients, expected: Int) throws {
        #expect(try bake(Int.self, value) == expected)
    }

    @Test(
        "String from strings, numbers and bools",
        arguments: [
            (Ingredients.string("x"), "x"), (42, "42"), (2.5, "2.5"), (true, "true"), (.exactNumber("1e400"), "1e400"),
        ])
    func string(value: Ingredients, expected: String) throws {
        #expect(try bake(String.self, value) == expected)
    }

    @Test(
        "Bool from bools, 0/1 and words",
        arguments: [
            (Ingredients.bool(true), true), (0, false), (1, true), ("true", true), ("false", false), ("yes", true),
            ("off", false), ("1", true), ("0", false), (1.0, true),
        ])
    func bool(value: Ingredients, expected: Bool) throws {
        #expect(try bake(Bool.self, value) == expected)
    }

    @Test(
        "Date from ISO 8601 strings and Unix times",
        arguments: [
            (Ingredients.string("2002-09-07T00:00:01Z"), 1_031_356_801.0), ("2002-09-07T02:00:01+02:00", 1_031_356_801),
            (1_031_356_801, 1_031_356_801), (1.5, 1.5), ("1970-01-01", 0),
        ])
    func date(value: Ingredients, seconds: Double) throws {
        #expect(try bake(Date.self, value) == Date(timeIntervalSince1970: seconds))
    }

    @Test("URL, UUID and Data from strings")
    func foundationTypes() throws {
        #expect(try bake(URL.self, "https://example.com/a?b=1") == URL(string: "https://example.com/a?b=1"))
        #expect(try bake(URL.self, "relative/path").relativeString == "relative/path")
        #expect(
            try bake(UUID.self, "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
                == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(try bake(Data.self, "aGVsbG8=") == Data("hello".utf8))
    }

    @Test(
        "Decimal from numbers and numeric strings, exactly",
        arguments: [
            (Ingredients.integer(42), "42"), ("12.50", "12.5"), (0.1, "0.1"), (" 3.25 ", "3.25"),
            (.exactNumber("123456789012345678901234567890"), "123456789012345678901234567890"),
            (.exactNumber("0.12345678901234567890123456789"), "0.12345678901234567890123456789"),
            ("-99999999999999999999.5", "-99999999999999999999.5"),
        ])
    func decimal(value: Ingredients, expected: String) throws {
        let decimal = try bake(Decimal.self, value)
        #expect(decimal == Decimal(string: expected, locale: Locale(identifier: "en_US_POSIX")))
        #expect(decimal.description == expected)
    }

    @Test("Double and Float from numbers and numeric strings")
    func floatingPoint() throws {
        #expect(try bake(Double.self, 3) == 3.0)
        #expect(try bake(Double.self, "2.5") == 2.5)
        #expect(try bake(Double.self, .exactNumber("3.14159265358979323846")) == 3.141592653589793)
        #expect(try bake(Float.self, 0.5) == 0.5)
        #expect(try bake(Double.self, .exactNumber("123456789012345678901234567890")) == 1.2345678901234568e29)
    }

    @Test(
        "other integer widths check their range",
        arguments: [
            (Ingredients.integer(127), true), (128, false), (-129, false), ("-128", true),
        ])
    func int8(value: Ingredients, fits: Bool) throws {
        if fits {
            #expect(try Int64(bake(Int8.self, value)) == Int64(value.doubleValue ?? Double(value.stringValue!)!))
        } else {
            #expect(bakeFailure(Int8.self, value)?.code == .numberOutOfRange)
        }
    }

    @Test("unsigned integers refuse negatives; UInt64 takes the top of its range")
    func unsigned() throws {
        #expect(bakeFailure(UInt.self, -1)?.code == .numberOutOfRange)
        #expect(try bake(UInt64.self, .exactNumber("18446744073709551615")) == .max)
        #expect(bakeFailure(UInt64.self, .exactNumber("18446744073709551616"))?.code == .numberOutOfRange)
    }

    @Test("a big integer asked for as Int is numberOutOfRange, and the same value bakes exactly into Decimal")
    func intOverflow() throws {
        let big = Ingredients.exactNumber("9223372036854775808")
        let error = try #require(bakeFailure(Int.self, big))
        #expect(error.code == .numberOutOfRange)
        #expect(error.baking?.expected == "Int")
        #expect(error.baking?.found == "9223372036854775808 (number)")
        #expect(try bake(Decimal.self, big).description == "9223372036854775808")
        #expect(bakeFailure(Int.self, .exactNumber("-92233720368547758090"))?.code == .numberOutOfRange)
        #expect(bakeFailure(Int.self, "99999999999999999999")?.code == .numberOutOfRange)
    }

    @Test("1e400 asked for as Double is numberOutOfRange, never infinity; so is underflow")
    func doubleOverflow() throws {
        for literal in ["1e400", "-1e400", "1e-400"] {
            let error = try #require(bakeFailure(Double.self, .exactNumber(literal)), "\(literal)")
            #expect(error.code == .numberOutOfRange)
            #expect(error.baking?.expected == "Double")
        }
        #expect(bakeFailure(Float.self, 1e300)?.code == .numberOutOfRange)
        #expect(bakeFailure(Date.self, .exactNumber("1e400"))?.code == .numberOutOfRange)
    }

    @Test(
        "values that cannot be coerced are type mismatches or invalid values",
        arguments: [
            (Ingredients.string("abc"), "Int", EasyBakeError.Code.typeMismatch),
            (4.5, "Int", .typeMismatch),
            (true, "Int", .typeMismatch),
            (Ingredients.array(["a"]), "String", .typeMismatch),
            (Ingredients.dictionary(IngredientDictionary(["k": 1])), "String", .typeMismatch),
            (2, "Bool", .typeMismatch),
            ("maybe", "Bool", .typeMismatch),
            ("yesterday", "Date", .invalidValue),
            (true, "Date", .typeMismatch),
            (42, "URL", .typeMismatch),
            ("", "URL", .invalidValue),
            ("abc", "Decimal", .typeMismatch),
            ("not-a-uuid", "UUID", .invalidValue),
            ("%%%", "Data", .invalidValue),
            ("x", "Double", .typeMismatch),
        ])
    func failures(value: Ingredients, type: String, code: EasyBakeError.Code) throws {
        let error: EasyBakeError? =
            switch type {
            case "Int": bakeFailure(Int.self, value)
            case "String": bakeFailure(String.self, value)
            case "Bool": bakeFailure(Bool.self, value)
            case "Date": bakeFailure(Date.self, value)
            case "URL": bakeFailure(URL.self, value)
            case "Decimal": bakeFailure(Decimal.self, value)
            case "UUID": bakeFailure(UUID.self, value)
            case "Data": bakeFailure(Data.self, value)
            default: bakeFailure(Double.self, value)
            }
        let failure = try #require(error, "\(value) as \(type)")
        #expect(failure.code == code)
        #expect(failure.baking?.modelType == "Box<\(type)>")
        #expect(failure.baking?.property == "value")
        #expect(failure.baking?.expected?.hasPrefix(type) == true, "\(failure.baking?.expected ?? "-")")
        #expect(failure.baking?.found == value.briefDescription)
        #expect(failure.path?.description == "value")
        #expect(failure.message.contains("Box<\(type)>.value"))
    }

    @Test("null or missing becomes nil for optionals and valueNotFound otherwise")
    func nullAndMissing() throws {
        #expect(try Baker().bake(OptionalBox<Int>.self, from: ["value": .null]).value == nil)
        #expect(try Baker().bake(OptionalBox<Int>.self, from: [:]).value == nil)
        #expect(try Baker().bake(OptionalBox<Int>.self, from: ["value": "5"]).value == 5)
        #expect(
            captureError { try Baker().bake(OptionalBox<Int>.self, from: ["value": "five"]) }?.code == .typeMismatch)
        let null = try #require(bakeFailure(Int.self, .null))
        #expect(null.code == .valueNotFound)
        #expect(null.path?.description == "value")
        let missing = try #require(captureError { try Baker().bake(Box<String>.self, from: ["other": 1]) })
        #expect(missing.code == .valueNotFound)
        #expect(missing.baking?.property == "value")
        #expect(missing.baking?.found == "nothing")
    }

    @Test("a single value where an array is wanted becomes a one-element array")
    func singleValueAsArray() throws {
        #expect(try bake([String].self, "a") == ["a"])
        #expect(try bake([Int].self, "5") == [5])
        #expect(try bake([Box<Int>].self, ["value": 1]).map(\.value) == [1])
        #expect(try bake([Int].self, [1, "2", 3.0]) == [1, 2, 3])
        // An array's element is no lone value: `[[Int]]` does not take a flat array (issue 27).
        #expect(bakeFailure([[Int]].self, [[1], 2])?.code == .typeMismatch)
        #expect(bakeFailure([Int].self, .null)?.code == .valueNotFound)
    }

    @Test("dictionaries decode from dictionaries, coercing values")
    func dictionaries() throws {
        #expect(try bake([String: Int].self, ["a": 1, "b": "2"]) == ["a": 1, "b": 2])
        #expect(try bake([String: [String]].self, ["x": "one", "y": ["a", "b"]]) == ["x": ["one"], "y": ["a", "b"]])
        let error = try #require(bakeFailure([String: Int].self, ["a": 1, "b": "two"]))
        #expect(error.code == .typeMismatch)
        #expect(error.path?.description == "value.b")
        #expect(error.baking?.property == "value.b")
        #expect(bakeFailure([String: Int].self, [1, 2])?.code == .typeMismatch)
    }

    enum Role: String, Decodable { case admin, member }
    enum Level: Int, Decodable { case low = 1, high = 2 }

    @Test("enums decode from their raw values, coerced like any value")
    func enums() throws {
        #expect(try bake(Role.self, "admin") == .admin)
        #expect(try bake(Level.self, "2") == .high)
        #expect(try bake(Level.self, 1) == .low)
        #expect(try bake([Role].self, "member") == [.member])
    }

    @Test("an unknown raw value is an error with the property, path and value found")
    func unknownRawValue() throws {
        let error = try #require(bakeFailure(Role.self, "guest"))
        #expect(error.code == .invalidValue)
        #expect(error.baking?.property == "value")
        #expect(error.path?.description == "value")
        #expect(error.baking?.found == #""guest" (string)"#)
        #expect(error.baking?.expected?.contains("Role") == true)
    }
}

// MARK: - Models

struct Address: Decodable, Equatable {
    let city: String
    let zip: String?
}

struct User: Decodable, Equatable {
    let name: String
    let unreadMessages: Int
    let address: Address
    let tags: [String]
}

struct Order: Decodable, Equatable {
    struct Line: Decodable, Equatable {
        let sku: String
        let count: Int
    }
    let id: Int
    let lines: [Line]
}

struct Place: Bakeable, Equatable {
    let town: String
    static let bakingRecipe: Recipe? = try? Recipe(mapping: ["town": "town_name"])
}

struct Trip: Decodable, Equatable {
    let from: Place
    let stops: [Place]
}

@Suite("Baking: models, recipes and implicit matching")
struct ModelBakingTests {
    @Test(
        "implicit matching fills every property without a recipe",
        arguments: ["unread_messages", "unread-messages", "UnreadMessages", "unreadMessages", "UNREAD_MESSAGES"])
    func implicitMatching(key: String) throws {
        var entries = IngredientDictionary()
        entries["NAME"] = "ann"
        entries[key] = 3
        entries["address"] = ["City": "Oslo"]
        entries["tags"] = ["a"]
        let tree = Ingredients.dictionary(entries)
        let user = try Baker().bake(User.self, from: tree)
        #expect(user == User(name: "ann", unreadMessages: 3, address: Address(city: "Oslo", zip: nil), tags: ["a"]))
    }

    @Test("an exact key wins over an implicit match; implicit matching can be switched off")
    func exactKeyWins() throws {
        let tree: Ingredients = ["value": 1]
        #expect(try Baker().bake(Box<Int>.self, from: ["Value": 9, "value": 1]).value == 1)
        #expect(try Baker().bake(Box<Int>.self, from: tree).value == 1)
        let off = Baker(options: .init(implicitKeyMatching: false))
        #expect(captureError { try off.bake(Box<Int>.self, from: ["VALUE": 1]) }?.code == .valueNotFound)
    }

    @Test("an explicit recipe entry always wins over implicit matching")
    func explicitRecipeWins() throws {
        let recipe = try Recipe(mapping: ["unreadMessages": "stats.count", "address": "profile.address"])
        let tree: Ingredients = [
            "name": "ann", "unreadMessages": 1, "unread_messages": 2, "stats": ["count": 5],
            "address": ["city": "Wrong"], "profile": ["address": ["city": "Right", "zip": 123]], "tags": "solo",
        ]
        let user = try Baker().bake(User.self, from: tree, recipe: recipe)
        #expect(user.unreadMessages == 5)
        #expect(user.address == Address(city: "Right", zip: "123"))
        #expect(user.tags == ["solo"])
    }

    @Test("nested models and arrays of models through nested recipes")
    func nestedRecipes() throws {
        let line = try Recipe(mapping: ["sku": "code", "count": "qty"])
        let order = try Recipe(mapping: ["id": "order.id", "lines": "order.items"], nested: ["lines": line])
        let tree: Ingredients = [
            "order": ["id": "17", "items": [["code": "A", "qty": 1], ["code": "B", "qty": "2"]]]
        ]
        let baked = try Baker().bake(Order.self, from: tree, recipe: order)
        #expect(baked == Order(id: 17, lines: [.init(sku: "A", count: 1), .init(sku: "B", count: 2)]))
    }

    @Test("arrays of models at the root, with a recipe applied to each element")
    func rootArray() throws {
        let line = try Recipe(mapping: ["sku": "code", "count": "qty"])
        let lines = try Baker().bake(
            [Order.Line].self, from: [["code": "A", "qty": 1], ["code": "B", "qty": 2]], recipe: line)
        #expect(lines.map(\.sku) == ["A", "B"])
    }

    @Test("an array-rooted recipe bakes a model from an array")
    func arrayRootedRecipe() throws {
        let recipe = try Recipe(mapping: ["sku": "[0]", "count": "[1]"])
        #expect(recipe.rootIsArray)
        let line = try Baker().bake(Order.Line.self, from: ["X", "4"], recipe: recipe)
        #expect(line == Order.Line(sku: "X", count: 4))
        let error = try #require(captureError { try Baker().bake(Order.Line.self, from: ["sku": "X"], recipe: recipe) })
        #expect(error.code == .typeMismatch)
    }

    @Test("Bakeable types bring their recipe wherever they appear; an explicit recipe replaces it")
    func bakeableRecipes() throws {
        let tree: Ingredients = [
            "from": ["town_name": "Oslo"], "stops": [["town_name": "Bergen"], ["town_name": "Trondheim"]],
        ]
        let trip = try Baker().bake(Trip.self, from: tree)
        #expect(trip == Trip(from: Place(town: "Oslo"), stops: [Place(town: "Bergen"), Place(town: "Trondheim")]))
        #expect(try Baker().bake(Place.self, from: ["town_name": "Oslo"]).town == "Oslo")
        let explicit = try Recipe(mapping: ["town": "name"])
        #expect(
            try Baker().bake(Place.self, from: ["name": "Rome", "town_name": "Oslo"], recipe: explicit).town == "Rome")
    }

    @Test("recipe defaults fill missing paths, not present nulls")
    func defaults() throws {
        let recipe = try Recipe(mapping: ["value": "deep.value"], defaults: ["value": 7])
        #expect(try Baker().bake(Box<Int>.self, from: [:], recipe: recipe).value == 7)
        #expect(try Baker().bake(Box<Int>.self, from: ["deep": ["value": 3]], recipe: recipe).value == 3)
        #expect(try Baker().bake(OptionalBox<Int>.self, from: ["deep": ["value": .null]], recipe: recipe).value == nil)
        let unmapped = try Recipe(mapping: [:], defaults: ["value": "d"])
        #expect(try Baker().bake(Box<String>.self, from: [:], recipe: unmapped).value == "d")
    }

    @Test("transformers run before decoding: an RFC 822 string becomes a Date")
    func transformersInBaking() throws {
        let recipe = try Recipe(mapping: ["value": "pubDate"], transformers: ["value": "rfc822"])
        let date = try Baker().bake(Box<Date>.self, from: ["pubDate": "Sat, 07 Sep 2002 00:00:01 GMT"], recipe: recipe)
            .value
        #expect(date == Date(timeIntervalSince1970: 1_031_356_801))
        let error = try #require(
            captureError {
                try Baker().bake(Box<Date>.self, from: ["pubDate": "soon"], recipe: recipe)
            })
        #expect(error.code == .transformFailed)
        #expect(error.baking?.property == "value")
        #expect(error.baking?.modelType == "Box<Date>")
        #expect(error.path?.description == "pubDate")
    }

    @Test("a failure deep inside names model, property, full ingredient path, expected type and value found")
    func errorContext() throws {
        let line = try Recipe(mapping: ["sku": "code", "count": "qty"])
        let order = try Recipe(mapping: ["id": "order.id", "lines": "order.items"], nested: ["lines": line])
        let tree: Ingredients = [
            "order": ["id": 1, "items": [["code": "A", "qty": 1], ["code": "B", "qty": "many"]]]
        ]
        let error = try #require(captureError { try Baker().bake(Order.self, from: tree, recipe: order) })
        #expect(error.code == .typeMismatch)
        #expect(error.baking?.modelType == "Order")
        #expect(error.baking?.property == "lines[1].count")
        #expect(error.path?.description == "order.items[1].qty")
        #expect(error.baking?.expected == "Int")
        #expect(error.baking?.found == #""many" (string)"#)
        let text = error.description
        #expect(text.contains("Order.lines[1].count: expected Int, found \"many\" (string)"), "\(text)")
        #expect(text.contains("path: order.items[1].qty"), "\(text)")
    }

    @Test("implicit matching reports the key actually found in the path")
    func implicitPathInError() throws {
        let error = try #require(
            captureError {
                try Baker().bake(
                    User.self, from: ["name": "a", "unread_messages": "x", "address": ["city": "c"], "tags": []])
            })
        #expect(error.path?.description == "unread_messages")
        #expect(error.baking?.property == "unreadMessages")
    }
}

@Suite("Baking: lossy arrays and missing values")
struct LenientBakingTests {
    @Test("lossy arrays drop a bad element with a warning instead of failing")
    func lossyArrays() throws {
        let strict = captureError { try Baker().bake(Box<[Int]>.self, from: ["value": [1, "x", 3]]) }
        #expect(strict?.code == .typeMismatch)
        #expect(strict?.path?.description == "value[1]")

        let baker = Baker(options: .init(lossyArrays: true))
        let result = try baker.bakeReporting(Box<[Int]>.self, from: ["value": [1, "x", 3, 4.5]])
        #expect(result.value.value == [1, 3])
        #expect(result.warnings.count == 2)
        #expect(result.warnings.map { $0.path?.description } == ["value[1]", "value[3]"])
        #expect(result.warnings.allSatisfy { $0.message.hasPrefix("dropped array element") })
    }

    @Test("lossy arrays of models drop only the bad model")
    func lossyModels() throws {
        let baker = Baker(options: .init(lossyArrays: true))
        let result = try baker.bakeReporting(
            [Order.Line].self, from: [["sku": "A", "count": 1], ["sku": "B"], ["sku": "C", "count": "3"]])
        #expect(result.value == [.init(sku: "A", count: 1), .init(sku: "C", count: 3)])
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.code == .valueNotFound)
        #expect(result.warnings.first?.baking?.property == "[1].count")
    }

    @Test("without problems there are no warnings")
    func noWarnings() throws {
        let result = try Baker(options: .init(lossyArrays: true, missingValues: .emptyValue))
            .bakeReporting(Box<[Int]>.self, from: ["value": [1, 2]])
        #expect(result.warnings.isEmpty)
        #expect(result.value.value == [1, 2])
    }

    struct Profile: Decodable {
        let name: String
        let age: Int
        let active: Bool
        let scores: [Int]
        let extra: [String: Int]
        let nickname: String?
    }

    @Test("missing values can be filled with empty values, each reported")
    func emptyValues() throws {
        let baker = Baker(options: .init(missingValues: .emptyValue))
        let result = try baker.bakeReporting(Profile.self, from: ["name": "ann", "age": .null])
        #expect(result.value.name == "ann")
        #expect(result.value.age == 0)
        #expect(result.value.active == false)
        #expect(result.value.scores == [])
        #expect(result.value.extra == [:])
        #expect(result.value.nickname == nil)
        #expect(Set(result.warnings.compactMap(\.baking?.property)) == ["age", "active", "scores", "extra"])
        #expect(result.warnings.allSatisfy { $0.message.hasPrefix("filled with an empty value") })
        #expect(captureError { try Baker().bake(Profile.self, from: ["name": "ann"]) }?.code == .valueNotFound)
    }

    @Test("a missing nested model is still an error under emptyValue")
    func emptyValueNoModel() throws {
        let baker = Baker(options: .init(missingValues: .emptyValue))
        let error = try #require(captureError { try baker.bake(User.self, from: ["name": "a"]) })
        #expect(error.code == .valueNotFound)
        #expect(error.baking?.property == "address")
    }
}

/// A recursive model: each level is one more decoder deep.
final class Chain: Decodable {
    let a: Chain?
    let end: Int?
}

@Suite("Baking: deep trees")
struct DeepBakingTests {
    @Test("a recursive model bakes from a tree as deep as the sources allow by default")
    func withinLimit() throws {
        var source = DeepSource(depth: 400, dictionaries: true)
        let tree = try Ingredients(reading: &source)
        let error = try #require(captureError { try Baker().bake(Chain.self, from: tree) })
        // The innermost value is the number 7 where a Chain dictionary is expected.
        #expect(error.code == .typeMismatch)
        #expect(error.path?.steps.count == 400)
        var chainTree: Ingredients = ["end": 1]
        for _ in 0..<400 { chainTree = ["a": chainTree] }
        var node: Chain? = try Baker().bake(Chain.self, from: chainTree)
        var levels = 0
        while let next = node?.a { node = next; levels += 1 }
        #expect(levels == 400)
        #expect(node?.end == 1)
    }

    @Test("a deeper tree is a limitExceeded error, not a stack overflow", arguments: [2_000, 100_000])
    func beyondLimit(depth: Int) throws {
        var source = DeepSource(depth: depth, dictionaries: true)
        let tree = try Ingredients(reading: &source)
        let error = try #require(captureError { try Baker().bake(Chain.self, from: tree) })
        #expect(error.code == .limitExceeded)
        #expect(error.baking?.modelType == "Chain")
        // The message and notes elide the middle of the coding path
        // (issue 27): the first and last 8 steps, and a count between.
        let property = try #require(error.baking?.property)
        #expect(property == "a.a.a.a.a.a.a.a…(497 more)….a.a.a.a.a.a.a.a", "\(property)")
        #expect(error.description.count < 400, "\(error.description.count) characters: \(error.description)")
        #expect(error.description.contains("path: a.a.a.a.a.a.a.a…(497 more)….a.a.a.a.a.a.a.a"), "\(error.description)")
        // The error itself keeps the whole path.
        #expect(error.path?.steps.count == 513)
    }

    @Test("a long path in an error is elided in the middle, a short one is whole (issue 27)")
    func elidedPaths() throws {
        var tree: Ingredients = ["end": "x"]
        for _ in 0..<30 { tree = ["a": tree] }
        let error = try #require(captureError { try Baker().bake(Chain.self, from: tree) })
        #expect(error.code == .typeMismatch)
        #expect(
            error.baking?.property == "a.a.a.a.a.a.a.a…(15 more)….a.a.a.a.a.a.a.end",
            "\(String(describing: error.baking))")
        #expect(
            error.description.contains("path: a.a.a.a.a.a.a.a…(15 more)….a.a.a.a.a.a.a.end"), "\(error.description)")
        #expect(error.path?.description == Array(repeating: "a", count: 30).joined(separator: ".") + ".end")
        let short = try #require(captureError { try Baker().bake([[Chain]].self, from: [[["end": "x"]]]) })
        #expect(short.description.contains("path: [0][0].end"), "\(short.description)")
    }
}
