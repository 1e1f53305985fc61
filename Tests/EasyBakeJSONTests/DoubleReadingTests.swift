import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Foundation
import Testing

/// A `Double` property reads a short integer or a plain decimal literal
/// straight from the index, and any other number through the classifier:
/// each road must give the `Double` the literal names, correctly rounded,
/// in a keyed property, an optional one and an array's elements alike.
@Suite("Doubles read from the index")
struct DoubleReadingTests {
    struct Reading: Decodable {
        var d: Double
        var o: Double?
        var list: [Double]
    }

    /// A random number literal: an integer, a decimal or one with an
    /// exponent, with up to 20 significant digits.
    static func literal(using random: inout SeededGenerator) -> String {
        func digits(_ count: Int) -> String {
            String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
        }
        let sign = Bool.random(using: &random) ? "-" : ""
        let whole = String(Int.random(in: 0...9, using: &random)) + digits(Int.random(in: 0...9, using: &random))
        let trimmed = whole.count > 1 && whole.first == "0" ? "1" + whole.dropFirst() : whole
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return sign + trimmed
        case 1, 2: return sign + trimmed + "." + digits(Int.random(in: 1...12, using: &random))
        default:
            return sign + trimmed + "." + digits(Int.random(in: 1...6, using: &random)) + "e"
                + String(Int.random(in: -30...30, using: &random))
        }
    }

    @Test("thousands of literals read as the Double they name, on every road")
    func randomLiterals() throws {
        var random = SeededGenerator(seed: 0xD0)
        var decimals = 0
        for _ in 0..<3_000 {
            let text = Self.literal(using: &random)
            let expected = try #require(Double(text), "\(text)")
            if text.contains("."), !text.contains("e") { decimals += 1 }
            let payload = "{\"d\": \(text), \"o\": \(text), \"list\": [\(text), 1, \(text)]}"
            let reading = try Baker().bake(Reading.self, from: .text(payload), format: .json)
            #expect(reading.d == expected, "\(text)")
            #expect(reading.o == expected, "\(text)")
            #expect(reading.list == [expected, 1, expected], "\(text)")
        }
        #expect(decimals > 1_000)
    }

    @Test("numbers in strings, integers past 18 digits and negative zero take the coercion")
    func otherNumbers() throws {
        for (literal, value) in [
            ("\"2.5\"", 2.5), ("12345678901234567890", 12345678901234567890.0), ("-0.0", -0.0),
            ("-0", 0), ("1e2", 100), ("0.1", 0.1), ("123456789012345.6", 123456789012345.6),
        ] {
            let payload = "{\"d\": \(literal), \"o\": \(literal), \"list\": [\(literal)]}"
            let reading = try Baker().bake(Reading.self, from: .text(payload), format: .json)
            #expect(reading.d == value && reading.d.sign == value.sign, "\(literal)")
            #expect(reading.o == value, "\(literal)")
            #expect(reading.list == [value], "\(literal)")
        }
    }

    @Test("a value no Double holds still fails, with the property's path")
    func outOfRange() throws {
        let error = try #require(throws: EasyBakeError.self) {
            try Baker().bake(Reading.self, from: .text("{\"d\": 1e400, \"list\": []}"), format: .json)
        }
        #expect(error.code == .numberOutOfRange)
        #expect(error.path?.description == "d")
    }
}
