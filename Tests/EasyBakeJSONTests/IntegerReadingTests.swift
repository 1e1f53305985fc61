import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Testing

/// An `Int` property reads a short integer literal straight from the index,
/// and any other number through the classifier: both must give what the
/// literal says, and a literal no `Int` holds must fail as before.
@Suite("Integers read from the index")
struct IntegerReadingTests {
    struct Counter: Decodable {
        var n: Int
        var m: Int64
    }

    @Test("every length of literal reads as its value, or fails where no Int holds it")
    func literalsOfEveryLength() throws {
        var random = SeededGenerator(seed: 0x1D)
        for length in 1...21 {
            for _ in 0..<40 {
                var digits = String(
                    (0..<length).map { index in
                        Character(String(Int.random(in: index == 0 && length > 1 ? 1...9 : 0...9, using: &random)))
                    })
                if Bool.random(using: &random) { digits = "-" + digits }
                let payload = "{\"n\": \(digits), \"m\": \(digits)}"
                let expected = Int(digits)
                let baked = Result { try Baker().bake(Counter.self, from: .text(payload), format: .json) }
                switch (baked, expected) {
                case (.success(let counter), let value?):
                    #expect(counter.n == value, "\(payload)")
                    #expect(counter.m == Int64(value), "\(payload)")
                case (.failure(let error), nil):
                    #expect((error as? EasyBakeError)?.code == .numberOutOfRange, "\(payload): \(error)")
                default:
                    Issue.record("\(payload): baked \(baked), expected \(String(describing: expected))")
                }
            }
        }
    }

    @Test("the extremes and negative zero")
    func extremes() throws {
        for (literal, value) in [
            ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min), ("-0", 0), ("0", 0),
        ] {
            let counter = try Baker().bake(
                Counter.self, from: .text("{\"n\": \(literal), \"m\": \(literal)}"), format: .json)
            #expect(counter.n == value)
            #expect(counter.m == Int64(value))
        }
    }
}
