import EasyBakePathGrammar
import Foundation

/// Why a value could not become the requested type.
struct CoercionFailure: Error {
    let code: EasyBakeError.Code
    let expected: String
    let detail: String?
    init(_ code: EasyBakeError.Code = .typeMismatch, expected: String, detail: String? = nil) {
        self.code = code
        self.expected = expected
        self.detail = detail
    }
}

/// The coercions baking applies, from a non-null ingredient to a model type.
/// Each either returns the value or throws a ``CoercionFailure`` that the
/// decoder turns into an error with the property and path.
enum Coercion {
    /// `text` without leading and trailing spaces (`ScalarConversions.trimmingSpaces`).
    @inline(__always)
    static func trimmingSpaces(_ text: String) -> Substring { ScalarConversions.trimmingSpaces(text) }

    static func bool(_ value: Ingredients) throws(CoercionFailure) -> Bool { try bool(value, converting: true) }

    /// A Bool; with `converting` false, only a boolean (what `JSONDecoder`
    /// reads), the kind asked and no other.
    static func bool(_ value: Ingredients, converting: Bool) throws(CoercionFailure) -> Bool {
        if case .bool(let b) = value { return b }
        guard converting else { throw CoercionFailure(expected: "Bool") }
        switch value {
        case .integer(0): return false
        case .integer(1): return true
        case .float(0): return false
        case .float(1): return true
        case .string(let text):
            if let word = ScalarConversions.bool(fromWord: trimmingSpaces(text)) { return word }
        default: break
        }
        throw CoercionFailure(expected: "Bool (\(ScalarConversions.boolWords))")
    }

    static func integer<T: FixedWidthInteger>(_ value: Ingredients, as type: T.Type) throws(CoercionFailure) -> T {
        try integer(value, as: type, converting: true)
    }

    /// An integer; with `converting` false, only from a number (a whole
    /// one, `1.0` and `1e2` included, as `JSONDecoder` reads them), never
    /// from text.
    static func integer<T: FixedWidthInteger>(
        _ value: Ingredients, as type: T.Type, converting: Bool
    ) throws(CoercionFailure) -> T {
        // Named only for an error: naming a type costs more than the coercion.
        var name: String { String(describing: T.self) }
        switch value {
        case .integer(let i):
            guard let exact = T(exactly: i) else { throw outOfRange(name) }
            return exact
        case .float(let d):
            guard d.rounded(.towardZero) == d else { throw CoercionFailure(expected: "\(name) (a whole number)") }
            guard let exact = T(exactly: d) else { throw outOfRange(name) }
            return exact
        case .exactNumber(let text):
            if let exact = T(text) { return exact }
            // Only integers beyond 64 bits, or decimals with too many digits,
            // are exact numbers: either way no fixed-width integer holds them.
            if text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }),
                var decimal = Decimal(string: text)
            {
                var whole = Decimal()
                NSDecimalRound(&whole, &decimal, 0, .plain)
                guard whole == decimal else {
                    throw CoercionFailure(expected: "\(name) (a whole number)")
                }
                // A whole number written with an exponent (`1e2`, from a
                // source that keeps such text exact) may still fit.
                if let exact = T(decimal.description) { return exact }
            }
            throw outOfRange(name)
        case .string(let text) where converting:
            if let number = Ingredients.number(literal: trimmingSpaces(text)) {
                return try integer(number, as: type)
            }
        default: break
        }
        throw CoercionFailure(expected: name)
    }

    static func double(_ value: Ingredients) throws(CoercionFailure) -> Double { try double(value, converting: true) }

    /// A Double; with `converting` false, only from a number, never from text.
    static func double(_ value: Ingredients, converting: Bool) throws(CoercionFailure) -> Double {
        switch value {
        case .integer(let i): return Double(i)
        case .float(let d): return d
        case .exactNumber(let text):
            // Rounding away digits is what a Double is for; losing the
            // magnitude (overflow to infinity, underflow to zero) is not.
            guard let d = Double(text), d.isFinite, d != 0 || !text.hasNonZeroDigitBeforeExponent else {
                throw outOfRange("Double")
            }
            return d
        case .string(let text) where converting:
            if let number = Ingredients.number(literal: trimmingSpaces(text)) {
                return try double(number)
            }
        default: break
        }
        throw CoercionFailure(expected: "Double")
    }

    static func float(_ value: Ingredients) throws(CoercionFailure) -> Float { try float(value, converting: true) }

    /// A Float; with `converting` false, only from a number.
    static func float(_ value: Ingredients, converting: Bool) throws(CoercionFailure) -> Float {
        let d = try double(value, converting: converting)
        let f = Float(d)
        guard f.isFinite || !d.isFinite else { throw outOfRange("Float") }
        return f
    }

    static func string(_ value: Ingredients) throws(CoercionFailure) -> String { try string(value, converting: true) }

    /// A String; with `converting` false, only from a string.
    static func string(_ value: Ingredients, converting: Bool) throws(CoercionFailure) -> String {
        if case .string(let s) = value { return s }
        guard converting else { throw CoercionFailure(expected: "String") }
        switch value {
        case .string(let s): return s
        case .integer(let i): return String(i)
        case .float(let d): return d.description
        case .exactNumber(let text): return text
        case .bool(let b): return b ? "true" : "false"
        default: throw CoercionFailure(expected: "String")
        }
    }

    static func decimal(_ value: Ingredients) throws(CoercionFailure) -> Decimal {
        let text: String
        switch value {
        case .integer(let i): return Decimal(i)
        case .float(let d): text = d.description
        case .exactNumber(let t): text = t
        case .string(let s):
            guard let number = Ingredients.number(literal: trimmingSpaces(s)), !number.isNull else {
                throw CoercionFailure(expected: "Decimal")
            }
            return try decimal(number)
        default: throw CoercionFailure(expected: "Decimal")
        }
        guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !decimal.isNaN else {
            throw outOfRange("Decimal")
        }
        return decimal
    }

    static func date(_ value: Ingredients) throws(CoercionFailure) -> Date {
        switch value {
        case .string(let text):
            if let date = DateFormats.parseISO8601(text) { return date }
            throw CoercionFailure(.invalidValue, expected: "Date (an ISO 8601 string or a Unix time)")
        case .integer, .float, .exactNumber:
            let seconds = try double(value)
            guard DateFormats.isRepresentable(seconds) else {
                throw CoercionFailure(
                    .numberOutOfRange, expected: "Date (a Unix time in seconds, years 1 to 9999)",
                    detail: DateFormats.outOfRange(seconds))
            }
            return Date(timeIntervalSince1970: seconds)
        default:
            throw CoercionFailure(expected: "Date (an ISO 8601 string or a Unix time)")
        }
    }

    static func url(_ value: Ingredients) throws(CoercionFailure) -> URL {
        guard case .string(let text) = value else { throw CoercionFailure(expected: "URL (a string)") }
        guard !text.isEmpty, let url = URL(string: text) else {
            throw CoercionFailure(.invalidValue, expected: "URL", detail: "not a valid URL")
        }
        return url
    }

    static func data(_ value: Ingredients) throws(CoercionFailure) -> Data {
        guard case .string(let text) = value else { throw CoercionFailure(expected: "Data (a base64 string)") }
        guard let data = Data(base64Encoded: text) else {
            throw CoercionFailure(.invalidValue, expected: "Data (a base64 string)", detail: "not valid base64")
        }
        return data
    }

    static func uuid(_ value: Ingredients) throws(CoercionFailure) -> UUID {
        guard case .string(let text) = value else { throw CoercionFailure(expected: "UUID (a string)") }
        guard let uuid = UUID(uuidString: text) else {
            throw CoercionFailure(.invalidValue, expected: "UUID", detail: "not a valid UUID")
        }
        return uuid
    }

    private static func outOfRange(_ type: String) -> CoercionFailure {
        CoercionFailure(.numberOutOfRange, expected: type, detail: "does not fit in \(type)")
    }
}

private extension String {
    /// Whether the mantissa of a number literal has a non-zero digit.
    var hasNonZeroDigitBeforeExponent: Bool {
        for scalar in unicodeScalars {
            if scalar == "e" || scalar == "E" { return false }
            if ("1"..."9").contains(scalar) { return true }
        }
        return false
    }
}
