/// JSON's number grammar (RFC 8259, section 6):
/// `-? (0 | [1-9][0-9]*) (\.[0-9]+)? ([eE][+-]?[0-9]+)?`.
///
/// The one implementation of it: the JSON scanner checks each literal with
/// it as it scans, `Ingredients.number(literal:)` checks text with it, the
/// paths survey tells numbers written as strings by it, and `@Bakeable`
/// judges a `@Default` string for a numeric property by it (see
/// ``ScalarConversions``).
///
/// It lives in this module, which depends on nothing, so that the macros'
/// compile-time checks read the runtime's grammar. The scanner must inline
/// ``scan(_:from:count:)`` to cost no more than the loop it replaced, which
/// the compiler (Swift 6.3) does for an `@inlinable` function of another
/// module when it is public; this module is no product of the package, so
/// public here is no promise to users.
public enum JSONNumberGrammar {
    /// Where a literal leaves the grammar: the position is the scan's ``Scan/end``.
    public enum Failure: Sendable {
        /// No digit at the start, or after a leading `-`.
        case missingDigit
        /// A digit after a leading `0` (leading zeros are not JSON).
        case leadingZero
        /// No digit after the decimal point.
        case missingFractionDigit
        /// No digit in the exponent, after `e` and its sign.
        case missingExponentDigit
    }

    /// What scanning a literal found.
    public struct Scan: Sendable {
        /// Where the literal ends: the first byte that cannot continue it,
        /// or the byte at fault for a ``failure``.
        public var end: Int
        /// Why the bytes from the start are no number; `nil` when they are.
        public var failure: Failure?
        /// How many digits the integer part has.
        public var integerDigits: Int
        /// Whether the literal has neither a fraction nor an exponent.
        public var isInteger: Bool

        @inlinable
        init(end: Int, failure: Failure?, integerDigits: Int, isInteger: Bool) {
            self.end = end
            self.failure = failure
            self.integerDigits = integerDigits
            self.isInteger = isInteger
        }
    }

    /// Scans the longest number literal at `start` in the `count` bytes at `base`.
    @inlinable @inline(__always)
    public static func scan(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Scan {
        @inline(__always) func isDigit(_ i: Int) -> Bool { i < count && base[i] &- UInt8(ascii: "0") < 10 }
        var position = start
        if position < count, base[position] == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        guard isDigit(position) else {
            return Scan(end: position, failure: .missingDigit, integerDigits: 0, isInteger: true)
        }
        if base[position] == UInt8(ascii: "0") {
            position += 1
            if isDigit(position) {
                return Scan(end: position, failure: .leadingZero, integerDigits: 1, isInteger: true)
            }
        } else {
            while isDigit(position) { position += 1 }
        }
        let integerDigits = position - integerStart
        var isInteger = true
        if position < count, base[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard isDigit(position) else {
                return Scan(
                    end: position, failure: .missingFractionDigit, integerDigits: integerDigits, isInteger: false)
            }
            while isDigit(position) { position += 1 }
        }
        if position < count, base[position] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            if position < count, base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard isDigit(position) else {
                return Scan(
                    end: position, failure: .missingExponentDigit, integerDigits: integerDigits, isInteger: false)
            }
            while isDigit(position) { position += 1 }
        }
        return Scan(end: position, failure: nil, integerDigits: integerDigits, isInteger: isInteger)
    }

    /// Whether the `count` bytes at `base` are one number literal, whole.
    @inlinable
    public static func matches(_ base: UnsafePointer<UInt8>?, count: Int) -> Bool {
        guard let base, count > 0 else { return false }
        let scan = scan(base, from: 0, count: count)
        return scan.failure == nil && scan.end == count
    }
}
