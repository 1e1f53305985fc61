import Testing
import EasyBake
import EasyBakeTestSupport

@Suite("Ingredients: the common tree")
struct IngredientsTests {
    @Test("literals build the matching cases")
    func literals() {
        let tree: Ingredients = [
            "name": "Zach", "age": 41, "ratio": 0.5, "admin": true, "tags": ["a", "b"], "none": .null,
        ]
        #expect(tree["name"] == .string("Zach"))
        #expect(tree["age"] == .integer(41))
        #expect(tree["ratio"] == .float(0.5))
        #expect(tree["admin"] == .bool(true))
        #expect(tree["tags"] == .array(IngredientArray([.string("a"), .string("b")])))
        #expect(tree["none"] == .null)
        #expect(tree["missing"] == nil)
        #expect(tree.dictionaryValue?.keys == ["name", "age", "ratio", "admin", "tags", "none"])
    }

    @Test("subscripts read keys and indexes, negative indexes from the end")
    func subscripts() {
        let tree: Ingredients = ["list": [10, 20, 30]]
        #expect(tree["list"]?[0] == 10)
        #expect(tree["list"]?[-1] == 30)
        #expect(tree["list"]?[-3] == 10)
        #expect(tree["list"]?[3] == nil)
        #expect(tree["list"]?[-4] == nil)
        #expect(tree[0] == nil, "a dictionary has no index")
        #expect(Ingredients.string("x")["key"] == nil)
    }

    @Test("dictionaries compare equal whatever their key order, and hash alike")
    func dictionaryEqualityIgnoresOrder() {
        let a: Ingredients = ["x": 1, "y": ["z": [1, 2]], "w": .null]
        let b: Ingredients = ["w": .null, "y": ["z": [1, 2]], "x": 1]
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a.dictionaryValue?.keys != b.dictionaryValue?.keys, "the order itself is kept")
        let c: Ingredients = ["x": 1, "y": ["z": [2, 1]], "w": .null]
        #expect(a != c, "array order matters")
        let d: Ingredients = ["x": 1, "y": ["z": [1, 2]]]
        #expect(a != d)
        let e: Ingredients = ["x": 1, "y": ["z": [1, 2]], "v": .null]
        #expect(a != e, "same count, a different key")
    }

    @Test("an integer never equals a float, nor a string its number")
    func kindsDiffer() {
        #expect(Ingredients.integer(1) != .float(1.0))
        #expect(Ingredients.integer(1) != .string("1"))
        #expect(Ingredients.exactNumber("1") != .integer(1))
        #expect(Ingredients.bool(true) != .integer(1))
        #expect(Ingredients.null != .string(""))
        #expect(Set<Ingredients>([1, 1.0, "1", true]).count == 4)
    }

    @Test("NaN equals NaN so every tree equals itself; -0.0 equals 0.0 and hashes alike")
    func floatEdges() {
        let nan: Ingredients = ["x": .float(.nan)]
        #expect(nan == nan)
        #expect(nan == ["x": .float(-.nan)])
        let otherNaN: Ingredients = ["x": .float(.nan)]
        #expect(nan.hashValue == otherNaN.hashValue)
        #expect(Ingredients.float(-0.0) == .float(0.0))
        #expect(Ingredients.float(-0.0).hashValue == Ingredients.float(0.0).hashValue)
        #expect(Ingredients.float(.infinity) != .float(-.infinity))
    }

    @Test("description renders compact JSON-like text")
    func description() {
        let tree: Ingredients = [
            "id": 7, "tags": ["a", "b\"c"], "empty": [], "obj": [:], "n": .null, "f": 2.5, "t": true,
        ]
        #expect(
            tree.description
                == #"{"id": 7, "tags": ["a", "b\"c"], "empty": [], "obj": {}, "n": null, "f": 2.5, "t": true}"#)
        #expect(Ingredients.exactNumber("1e400").description == "1e400")
        #expect(Ingredients.array([[1, [2]], [:]]).description == "[[1, [2]], {}]")
        #expect(Ingredients.string("x").description == #""x""#)
        #expect(tree.debugDescription.hasPrefix("Ingredients({"))
    }

    @Test("briefDescription names the kind and shortens long values")
    func briefDescription() {
        #expect(Ingredients.string("abc").briefDescription == #""abc" (string)"#)
        #expect(Ingredients.exactNumber("1e400").briefDescription == "1e400 (number)")
        #expect(Ingredients.array([1, 2, 3]).briefDescription == "[3 elements] (array)")
        let long = Ingredients.string(String(repeating: "x", count: 500)).briefDescription
        #expect(long.count < 80)
        #expect(long.hasSuffix("… (string)"))
    }

    @Test("accessors return payloads only for their own kind")
    func accessors() {
        #expect(Ingredients.string("s").stringValue == "s")
        #expect(Ingredients.integer(1).stringValue == nil)
        #expect(Ingredients.bool(false).boolValue == false)
        #expect(Ingredients.integer(3).doubleValue == 3)
        #expect(Ingredients.exactNumber("123456789012345678901234567890").doubleValue == 1.2345678901234568e29)
        #expect(Ingredients.exactNumber("1e400").doubleValue == nil, "overflow is not a Double")
        #expect(Ingredients.null.isNull)
        #expect(!Ingredients.integer(0).isNull)
        #expect(Ingredients.array([]).isContainer && Ingredients.dictionary(IngredientDictionary()).isContainer)
        #expect(Ingredients.exactNumber("1").kind.description == "number")
    }

    @Test("containers are values: mutating a copy leaves the original alone")
    func copyOnWrite() {
        var array: IngredientArray = [1, 2]
        let copy = array
        array.append(3)
        array[0] = "changed"
        #expect(copy.count == 2 && copy[0] == 1)
        #expect(array.count == 3 && array[0] == "changed")

        var dictionary: IngredientDictionary = ["a": 1]
        let original = dictionary
        dictionary["b"] = 2
        dictionary["a"] = nil
        #expect(original.keys == ["a"])
        #expect(dictionary.keys == ["b"])
    }

    @Test("a dictionary keeps insertion order, updates in place and appends new keys")
    func dictionaryOrder() {
        var dictionary: IngredientDictionary = ["b": 1, "a": 2]
        dictionary["b"] = 3
        dictionary["c"] = 4
        #expect(dictionary.keys == ["b", "a", "c"])
        #expect(dictionary.values == [3, 2, 4])
        #expect(dictionary.sortedByKey().map(\.key) == ["a", "b", "c"])
        #expect(dictionary.index(forKey: "c") == 2)
        let repeated = IngredientDictionary([(key: "k", value: 1), (key: "k", value: 2)])
        #expect(repeated.count == 1 && repeated["k"] == 1, "the first of repeated keys wins")
    }

    @Test("large dictionaries (hash indexed) find, replace and remove keys", arguments: [10, 25, 200])
    func largeDictionaries(size: Int) {
        var dictionary = IngredientDictionary()
        for i in 0..<size { dictionary["k\(i)"] = .integer(Int64(i)) }
        #expect(dictionary.count == size)
        for i in stride(from: 0, to: size, by: 3) { dictionary["k\(i)"] = nil }
        for i in 0..<size {
            let expected: Ingredients? = i % 3 == 0 ? nil : .integer(Int64(i))
            #expect(dictionary["k\(i)"] == expected)
        }
        dictionary["k1"] = "new"
        #expect(dictionary["k1"] == "new")
        #expect(dictionary.keys.first == "k1")
        let expectedKeys = (0..<size).filter { $0 % 3 != 0 }.map { "k\($0)" }
        #expect(dictionary.keys == expectedKeys)
    }
}

@Suite("Ingredients.number(literal:): numbers are never silently rounded")
struct NumberClassificationTests {
    @Test(
        "integers that fit in 64 bits are integers",
        arguments: [
            ("0", Int64(0)), ("-0", 0), ("42", 42), ("-17", -17),
            ("9223372036854775807", .max), ("-9223372036854775808", .min),
        ])
    func integers(literal: String, value: Int64) {
        #expect(Ingredients.number(literal: literal) == .integer(value))
    }

    @Test(
        "integers beyond 64 bits keep their exact text",
        arguments: [
            "9223372036854775808", "-9223372036854775809", "18446744073709551616",
            "123456789012345678901234567890123456789",
        ])
    func bigIntegers(literal: String) {
        #expect(Ingredients.number(literal: literal) == .exactNumber(literal))
    }

    @Test(
        "decimals a Double holds are floats",
        arguments: [
            ("0.1", 0.1), ("1.0", 1.0), ("3.5e-2", 0.035), ("-2.5E+3", -2500.0), ("1e2", 100.0),
            ("1.7976931348623157e308", .greatestFiniteMagnitude), ("5e-324", .leastNonzeroMagnitude), ("-0.0", -0.0),
            ("0.30000000000000004", 0.30000000000000004),
        ])
    func floats(literal: String, value: Double) throws {
        let number = try #require(Ingredients.number(literal: literal))
        guard case .float(let d) = number else {
            Issue.record("\(literal) became \(number), not a float")
            return
        }
        #expect(d == value)
        #expect(d.sign == value.sign)
    }

    @Test(
        "overflow, underflow and excess digits keep their exact text",
        arguments: [
            "1e400", "-1e400", "1.5E+309", "1e-400", "-2.5e-500",
            "0.10000000000000001", "3.14159265358979323846264338327950288",
            "123456789012345678.5",
        ])
    func exactNumbers(literal: String) {
        #expect(Ingredients.number(literal: literal) == .exactNumber(literal))
    }

    @Test("zero with a large exponent is still zero, not an underflow")
    func zeroExponent() {
        #expect(Ingredients.number(literal: "0e-400") == .float(0))
        #expect(Ingredients.number(literal: "0.000e999") == .float(0))
    }

    @Test(
        "text that is not a JSON number gives nil",
        arguments: [
            "", "-", "01", "1.", ".5", "+1", "1e", "1e+", "0x10", "1_000", " 1", "1 ", "NaN", "Infinity", "--1",
            "1.2.3", "abc",
        ])
    func invalid(literal: String) {
        #expect(Ingredients.number(literal: literal) == nil)
    }

    @Test("a literal of 100,000 digits is classified in bounded time")
    func hugeLiteral() {
        let digits = "9" + String(repeating: "0", count: 99_999)
        let clock = ContinuousClock()
        var result: Ingredients?
        let elapsed = clock.measure { result = Ingredients.number(literal: digits) }
        #expect(result == .exactNumber(digits))
        #expect(elapsed < .seconds(2))
        let fraction = "0." + String(repeating: "3", count: 100_000)
        #expect(Ingredients.number(literal: fraction) == .exactNumber(fraction))
    }

    @Test("every random Double's shortest text reads back as the same float")
    func randomDoublesRoundTrip() throws {
        var generator = SeededGenerator(seed: 0x5EED)
        for _ in 0..<2_000 {
            let value = Double(bitPattern: generator.next())
            guard value.isFinite, value != 0, value.magnitude >= Double.leastNormalMagnitude else { continue }
            // JSON has no "e+" requirement problems; Swift's description is a valid JSON number
            // except for a missing leading digit, which it never omits.
            let literal = value.description
            let number = try #require(Ingredients.number(literal: literal), "\(literal)")
            #expect(number == .float(value), "\(literal)")
        }
    }
}
