import EasyBake

/// Turns the text of a YAML scalar into an ingredient: by the schema for
/// plain scalars, by the tag for explicitly tagged ones.
///
/// Works on the bytes libyaml hands over, so that the common case — a plain
/// scalar that is just a word — is decided by its first byte without
/// building anything but the string.
// Invariant: the bytes each function takes are borrowed for the call (the
// caller's input or libyaml's event, alive meanwhile) and read within their
// `count`: every index is checked against it first, and the buffers'
// subscripts assert it in debug builds.
enum YAMLScalarResolver {
    /// The standard tags, as libyaml expands `!!x`.
    static let tagPrefix = "tag:yaml.org,2002:"

    /// The value of a plain (unquoted, untagged) scalar.
    @inline(__always)
    static func resolvePlain(
        _ bytes: UnsafeRawBufferPointer, text: String, schema: YAMLReadingOptions.Schema
    ) -> Ingredients {
        guard let first = bytes.first else { return .null }
        switch first {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            return number(bytes) ?? .string(text)
        case UInt8(ascii: "~"), UInt8(ascii: "n"), UInt8(ascii: "N"):
            if isNull(bytes) { return .null }
        default:
            break
        }
        if let value = bool(bytes, schema: schema) { return .bool(value) }
        return .string(text)
    }

    /// The value of a plain scalar, making its string only when it is one.
    @inline(__always)
    static func resolvePlain(_ bytes: UnsafeRawBufferPointer, schema: YAMLReadingOptions.Schema) -> Ingredients {
        resolvePlainUnlessString(bytes, schema: schema) ?? .string(String(decoding: bytes, as: UTF8.self))
    }

    /// The value of a plain scalar when the schema makes it something other
    /// than a string; `nil` for a string, which a caller that keeps strings
    /// as bytes (the native index) then never turns into a `String`.
    @inline(__always)
    static func resolvePlainUnlessString(_ bytes: UnsafeRawBufferPointer, schema: YAMLReadingOptions.Schema)
        -> Ingredients?
    {
        guard let first = bytes.first else { return .null }
        switch first {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            if let number = number(bytes) { return number }
        case UInt8(ascii: "~"), UInt8(ascii: "n"), UInt8(ascii: "N"):
            if isNull(bytes) { return .null }
            if let value = bool(bytes, schema: schema) { return .bool(value) }
        case UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"), UInt8(ascii: "F"),
            UInt8(ascii: "y"), UInt8(ascii: "Y"), UInt8(ascii: "o"), UInt8(ascii: "O"):
            if let value = bool(bytes, schema: schema) { return .bool(value) }
        default:
            break
        }
        return nil
    }

    static func isNull(_ bytes: UnsafeRawBufferPointer) -> Bool {
        switch bytes.count {
        case 0: return true
        case 1: return bytes[0] == UInt8(ascii: "~")
        case 4: return equals(bytes, "null") || equals(bytes, "Null") || equals(bytes, "NULL")
        default: return false
        }
    }

    static func bool(_ bytes: UnsafeRawBufferPointer, schema: YAMLReadingOptions.Schema) -> Bool? {
        guard bytes.count <= 5, let first = bytes.first else { return nil }
        switch first | 0x20 {
        case UInt8(ascii: "t"):
            if equals(bytes, "true") || equals(bytes, "True") || equals(bytes, "TRUE") { return true }
        case UInt8(ascii: "f"):
            if equals(bytes, "false") || equals(bytes, "False") || equals(bytes, "FALSE") { return false }
        default:
            break
        }
        guard schema == .yaml11 else { return nil }
        for word: StaticString in ["y", "Y", "yes", "Yes", "YES", "on", "On", "ON"] where equals(bytes, word) {
            return true
        }
        for word: StaticString in ["n", "N", "no", "No", "NO", "off", "Off", "OFF"] where equals(bytes, word) {
            return false
        }
        return nil
    }

    @inline(__always)
    static func equals(_ bytes: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        let pointer = word.utf8Start
        for i in 0..<bytes.count where bytes[i] != pointer[i] { return false }
        return true
    }

    /// The number a core-schema integer or float literal denotes, or `nil`
    /// when the text is not one. Decimal literals go through
    /// `Ingredients.number(literal:)` (rewritten to JSON syntax first where
    /// YAML allows more: `+1`, `007`, `.5`, `1.`), so nothing is rounded.
    static func number(_ bytes: UnsafeRawBufferPointer, integerOnly: Bool = false) -> Ingredients? {
        let n = bytes.count
        guard n > 0 else { return nil }
        // 0x and 0o: unsigned in the core schema.
        if n > 2, bytes[0] == UInt8(ascii: "0"), bytes[1] == UInt8(ascii: "x") || bytes[1] == UInt8(ascii: "o") {
            return radixInteger(
                UnsafeRawBufferPointer(rebasing: bytes[2...]), radix: bytes[1] == UInt8(ascii: "x") ? 16 : 8)
        }
        var i = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            i = 1
        }
        if !integerOnly, i < n, bytes[i] == UInt8(ascii: ".") {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[(i + 1)...])
            if equals(rest, "inf") || equals(rest, "Inf") || equals(rest, "INF") {
                return .float(negative ? -.infinity : .infinity)
            }
            if i == 0, equals(rest, "nan") || equals(rest, "NaN") || equals(rest, "NAN") { return .float(.nan) }
        }
        // [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
        let intStart = i
        while i < n, isDigit(bytes[i]) { i += 1 }
        let intEnd = i
        var fracStart = -1, fracEnd = -1
        if i < n, bytes[i] == UInt8(ascii: ".") {
            if integerOnly { return nil }
            i += 1
            fracStart = i
            while i < n, isDigit(bytes[i]) { i += 1 }
            fracEnd = i
        }
        let intDigits = intEnd - intStart
        let fracDigits = fracStart < 0 ? -1 : fracEnd - fracStart
        guard intDigits > 0 || fracDigits > 0 else { return nil }
        var expStart = -1
        if i < n, bytes[i] | 0x20 == UInt8(ascii: "e") {
            if integerOnly { return nil }
            i += 1
            expStart = i
            if i < n, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
            let digitsStart = i
            while i < n, isDigit(bytes[i]) { i += 1 }
            guard i > digitsStart else { return nil }
        }
        guard i == n else { return nil }
        // Already JSON syntax? Then classify the bytes as they are.
        let plusSign = bytes[0] == UInt8(ascii: "+")
        let leadingZero = intDigits > 1 && bytes[intStart] == UInt8(ascii: "0")
        if !plusSign, !leadingZero, intDigits > 0, fracDigits != 0 {
            return Ingredients.number(literal: bytes)
        }
        var json: [UInt8] = []
        json.reserveCapacity(n + 2)
        if negative { json.append(UInt8(ascii: "-")) }
        var start = intStart
        while start < intEnd - 1, bytes[start] == UInt8(ascii: "0") { start += 1 }
        if intDigits == 0 { json.append(UInt8(ascii: "0")) } else { json.append(contentsOf: bytes[start..<intEnd]) }
        if fracStart >= 0 {
            json.append(UInt8(ascii: "."))
            if fracDigits == 0 {
                json.append(UInt8(ascii: "0"))
            } else {
                json.append(contentsOf: bytes[fracStart..<fracEnd])
            }
        }
        if expStart >= 0 {
            json.append(UInt8(ascii: "e"))
            json.append(contentsOf: bytes[expStart..<n])
        }
        return json.withUnsafeBytes { Ingredients.number(literal: $0) }
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// A `0x`/`0o` literal's value; past 64 bits it stays exact, in decimal.
    static func radixInteger(_ digits: UnsafeRawBufferPointer, radix: UInt64) -> Ingredients? {
        guard !digits.isEmpty else { return nil }
        var value: UInt64 = 0
        var overflow = false
        for byte in digits {
            guard let digit = digitValue(byte), UInt64(digit) < radix else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: radix)
            let (s, o2) = m.addingReportingOverflow(UInt64(digit))
            value = s
            overflow = overflow || o1 || o2
        }
        if !overflow, value <= UInt64(Int64.max) { return .integer(Int64(value)) }
        // Schoolbook conversion to decimal: rare, and bounded by the number
        // length limit the caller enforces.
        var decimal: [UInt8] = [0]  // little-endian base-10 digits
        for byte in digits {
            var carry = Int(digitValue(byte)!)
            for k in decimal.indices {
                let product = Int(decimal[k]) * Int(radix) + carry
                decimal[k] = UInt8(product % 10)
                carry = product / 10
            }
            while carry > 0 {
                decimal.append(UInt8(carry % 10))
                carry /= 10
            }
        }
        return .exactNumber(String(decoding: decimal.reversed().map { $0 + 0x30 }, as: UTF8.self))
    }

    @inline(__always)
    static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - 0x30)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - 0x61 + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - 0x41 + 10)
        default: nil
        }
    }

    /// The value of a scalar with an explicit tag (already expanded by
    /// libyaml to `tag:yaml.org,2002:int` and so on).
    ///
    /// - Returns: `nil` for a tag EasyBake does not know.
    /// - Throws: `EasyBakeError.Code.invalidValue` (without a location; the
    ///   caller adds it) when the text does not fit its tag.
    static func resolveTagged(
        _ bytes: UnsafeRawBufferPointer, text: String, tag: String, schema: YAMLReadingOptions.Schema
    ) throws(EasyBakeError) -> Ingredients? {
        if tag == "!" { return .string(text) }
        guard tag.hasPrefix(tagPrefix) else { return nil }
        switch tag.dropFirst(tagPrefix.count) {
        case "str", "timestamp", "binary":
            // Timestamps and base64 stay text, as written (line breaks of a
            // !!binary block included — base64 decoders skip them): parsing
            // them is a transformer's job, Ingredients have no date or bytes.
            return .string(text)
        case "null":
            if isNull(bytes) { return .null }
            throw invalid(text, tag: "!!null", expected: "null, Null, NULL, ~ or nothing")
        case "bool":
            if let value = bool(bytes, schema: schema) { return .bool(value) }
            throw invalid(text, tag: "!!bool", expected: "true or false")
        case "int":
            if let value = number(bytes, integerOnly: true) { return value }
            throw invalid(text, tag: "!!int", expected: "a decimal, 0x or 0o integer")
        case "float":
            switch number(bytes) {
            case .integer(let value)?:
                let double = Double(value)
                // Keep integers a Double cannot hold exactly as their text.
                return double < 0x1p63 && Int64(double) == value ? .float(double) : .exactNumber(String(value))
            case let value?:
                return value
            case nil:
                throw invalid(text, tag: "!!float", expected: "a number, .inf, -.inf or .nan")
            }
        default:
            return nil
        }
    }

    /// Whether a container's tag is one EasyBake reads as the container
    /// itself: the non-specific `!` and YAML's collection types.
    static func isKnownContainerTag(_ tag: String) -> Bool {
        if tag == "!" { return true }
        guard tag.hasPrefix(tagPrefix) else { return false }
        switch tag.dropFirst(tagPrefix.count) {
        case "map", "seq", "omap", "pairs", "set": return true
        default: return false
        }
    }

    /// A tag as a reader would write it: `!!x` for YAML's own, `!Local` as
    /// is, any other global tag verbatim as `!<tag:example.com,2024:x>`.
    static func display(tag: String) -> String {
        if tag.hasPrefix(tagPrefix) { return "!!" + tag.dropFirst(tagPrefix.count) }
        if tag.hasPrefix("!") { return tag }
        return "!<\(tag)>"
    }

    private static func invalid(_ text: String, tag: String, expected: String) -> EasyBakeError {
        EasyBakeError(.invalidValue, "\(text.debugDescription) is not a valid \(tag): expected \(expected)")
    }
}
