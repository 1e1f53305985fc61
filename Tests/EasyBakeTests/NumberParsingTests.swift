import EasyBake
import EasyBakeTestSupport
import Testing

/// Decimal literals read without a `String` (the fast path for plain
/// decimals of up to 15 digits) must give exactly what parsing the text gives.
@Suite("Number literals")
struct NumberParsingTests {
    @Test("plain decimals read exactly as their text parses")
    func plainDecimals() {
        var random = SeededGenerator(seed: 0xDEC1)
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...15, using: &random)
            var text = (0..<digits).map { _ in String(Int.random(in: 0...9, using: &random)) }.joined()
            let point = Int.random(in: 0..<digits, using: &random)
            text.insert(".", at: text.index(text.startIndex, offsetBy: point))
            if text.hasPrefix(".") { text = "0" + text }
            // JSON allows no leading zeros but one before the point.
            while text.hasPrefix("0"), text.dropFirst().first?.isNumber == true { text.removeFirst() }
            if Bool.random(using: &random) { text = "-" + text }
            #expect(Ingredients.number(literal: text) == .float(Double(text)!), "\(text)")
        }
    }

    @Test(
        "literals beside the fast path",
        arguments: [
            ("-0.0", Ingredients.float(-0.0)), ("0.1", .float(0.1)), ("123456789012345.6", .float(123456789012345.6)),
            ("1234567890123456.78", .exactNumber("1234567890123456.78")),
            ("99999999999999.9", .float(99999999999999.9)), ("0.0000000000000000000001", .float(1e-22)),
            ("1.5e3", .float(1500)), ("2.50", .float(2.5)),
        ])
    func edges(_ text: String, _ expected: Ingredients) {
        #expect(Ingredients.number(literal: text) == expected)
        if case .float(let value) = expected { #expect(value.sign == (text.hasPrefix("-") ? .minus : .plus)) }
    }
}
