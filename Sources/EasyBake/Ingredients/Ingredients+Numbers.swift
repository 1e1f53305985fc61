import EasyBakePathGrammar
extension Ingredients {
    /// The ingredient for a number literal in JSON syntax (`-12`, `3.5e-2`),
    /// classified so that nothing is silently rounded:
    ///
    /// - an integer literal that fits becomes ``integer(_:)``;
    /// - a literal a `Double` holds without losing digits becomes ``float(_:)``
    ///   (every literal of at most 15 significant digits, and longer ones whose
    ///   shortest `Double` rendering denotes the same value);
    /// - anything else — an integer beyond 64 bits, more digits than a
    ///   `Double` keeps, overflow to infinity, underflow to zero — stays
    ///   ``exactNumber(_:)`` with its text.
    ///
    /// Runs in time linear in the literal's length.
    ///
    /// - Parameter literal: ASCII bytes of a syntactically valid number
    ///   (unchecked: the format modules call this after scanning one).
    package static func number(literal: UnsafeRawBufferPointer) -> Ingredients {
        NumberClassifier.classify(literal)
    }

    /// The ingredient for a number literal given as text; `nil` when the text
    /// is not a JSON number.
    public static func number(literal: String) -> Ingredients? {
        number(literal: Substring(literal))
    }

    static func number(literal: Substring) -> Ingredients? {
        var text = literal
        return text.withUTF8 { utf8 -> Ingredients? in
            let raw = UnsafeRawBufferPointer(utf8)
            guard JSONNumberGrammar.matches(utf8.baseAddress, count: utf8.count) else { return nil }
            return NumberClassifier.classify(raw)
        }
    }
}

enum NumberClassifier {
    static func classify(_ bytes: UnsafeRawBufferPointer) -> Ingredients {
        var isInteger = true
        var negative = false
        var magnitude: UInt64 = 0
        var overflow = false
        var significantDigits = 0
        var sawNonZeroDigit = false
        var pendingZeros = 0  // zeros after the last non-zero digit
        for (position, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "-") where position == 0:
                negative = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = UInt64(byte &- 0x30)
                if isInteger {
                    let (m1, o1) = magnitude.multipliedReportingOverflow(by: 10)
                    let (m2, o2) = m1.addingReportingOverflow(digit)
                    magnitude = m2
                    overflow = overflow || o1 || o2
                }
                if digit == 0 {
                    if sawNonZeroDigit { pendingZeros += 1 }
                } else {
                    significantDigits += pendingZeros + 1
                    pendingZeros = 0
                    sawNonZeroDigit = true
                }
            default:
                // "." or an exponent: a float literal. Exponent digits must not
                // count as significant, so stop counting there.
                if isInteger { isInteger = false }
                if byte | 0x20 == UInt8(ascii: "e") {
                    return classifyFloat(bytes, significantDigits: significantDigits, sawNonZeroDigit: sawNonZeroDigit)
                }
            }
        }
        if isInteger && !overflow {
            if negative, magnitude <= UInt64(Int64.max) + 1 {
                return .integer(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude))
            }
            if !negative, magnitude <= UInt64(Int64.max) { return .integer(Int64(magnitude)) }
        }
        if isInteger { return .exactNumber(text(bytes)) }
        return classifyFloat(bytes, significantDigits: significantDigits, sawNonZeroDigit: sawNonZeroDigit)
    }

    /// The value of an integer literal of at most 18 digits after an
    /// optional minus, which no `Int64` overflows: what ``classify(_:)``
    /// returns for it as `.integer`. `nil` for any other literal.
    static func shortInteger(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        let negative = base.load(as: UInt8.self) == UInt8(ascii: "-")
        var offset = negative ? 1 : 0
        guard bytes.count - offset > 0, bytes.count - offset <= 18 else { return nil }
        var value: Int64 = 0
        while offset < bytes.count {
            let digit = base.load(fromByteOffset: offset, as: UInt8.self) &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value &* 10 &+ Int64(digit)
            offset += 1
        }
        return negative ? -value : value
    }

    private static func classifyFloat(
        _ bytes: UnsafeRawBufferPointer, significantDigits: Int, sawNonZeroDigit: Bool
    ) -> Ingredients {
        if let value = plainDecimal(bytes) { return .float(value) }
        let literal = text(bytes)
        // A Double keeps at most 17 significant digits; past that the literal
        // names a value no Double has (and 17 is all strtod needs to look at).
        guard significantDigits <= 17, let value = Double(literal) else { return .exactNumber(literal) }
        if value.isInfinite || (value == 0 && sawNonZeroDigit) { return .exactNumber(literal) }
        if significantDigits <= 15 { return .float(value) }
        // 16 or 17 digits: keep the Double only if it reads back as the same value.
        return sameDecimalValue(literal, value.description) ? .float(value) : .exactNumber(literal)
    }

    /// The value of a literal with a fraction and no exponent whose digits,
    /// read as one integer, stay below 10^15, and with at most 22 of them
    /// after the point; `nil` for any other. Such an integer and such a power
    /// of ten are both exact in a `Double`, so one division rounds exactly as
    /// parsing the text would (Clinger's fast path), with no `String` made:
    /// most prices, coordinates and scores are literals like these.
    static func plainDecimal(_ bytes: UnsafeRawBufferPointer) -> Double? {
        var mantissa: UInt64 = 0
        var fractionDigits = 0
        var sawPoint = false
        var negative = false
        for (position, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                mantissa = mantissa &* 10 &+ UInt64(byte &- 0x30)
                guard mantissa < 1_000_000_000_000_000 else { return nil }
                if sawPoint { fractionDigits += 1 }
            case UInt8(ascii: "."):
                sawPoint = true
            case UInt8(ascii: "-") where position == 0:
                negative = true
            default:
                return nil
            }
        }
        guard sawPoint, fractionDigits <= 22 else { return nil }
        let value = Double(mantissa) / exactPowersOfTen[fractionDigits]
        return negative ? -value : value
    }

    /// 10^0 through 10^22: the powers of ten a `Double` holds exactly.
    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        var power = 1.0
        for _ in 0..<exponent { power *= 10 }
        return power
    }

    private static func text(_ bytes: UnsafeRawBufferPointer) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Whether two decimal literals denote the same value, comparing their
    /// significant digits and decimal exponents.
    static func sameDecimalValue(_ a: String, _ b: String) -> Bool {
        guard let x = normalized(a), let y = normalized(b) else { return false }
        return x.negative == y.negative && x.digits == y.digits && x.exponent == y.exponent
    }

    private static func normalized(_ literal: String) -> (negative: Bool, digits: [UInt8], exponent: Int)? {
        var negative = false
        var digits: [UInt8] = []
        var pointPosition: Int?
        var exponent = 0
        var iterator = literal.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "-"): negative = true
            case UInt8(ascii: "+"): break
            case UInt8(ascii: "."): pointPosition = digits.count
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits.append(byte)
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                var rest = ""
                while let next = iterator.next() { rest.append(Character(Unicode.Scalar(next))) }
                guard let parsed = Int(rest) else { return nil }
                exponent = parsed
            default: return nil
            }
        }
        // value = 0.d1d2d3… × 10^(point + exponent)
        var scale = (pointPosition ?? digits.count) + exponent
        while let first = digits.first, first == UInt8(ascii: "0") {
            digits.removeFirst()
            scale -= 1
        }
        while let last = digits.last, last == UInt8(ascii: "0") { digits.removeLast() }
        if digits.isEmpty { return (false, [], 0) }
        return (negative, digits, scale)
    }
}
