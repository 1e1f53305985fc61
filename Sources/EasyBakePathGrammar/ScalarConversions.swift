/// Which scalars baking converts into which declared scalar types, in the
/// module the library and the macros share: the runtime's coercions read
/// the word table and the number grammar from here, and `@Bakeable` accepts
/// a `@Default` literal exactly when baking would convert it (a test bakes
/// every pair both ways and compares).
///
/// Conversions are those of the default coercion policy, for a property
/// whose type the model declares; `Baker.Options.coercions = .none` turns
/// them off at run time, which a compile-time check cannot know.
package enum ScalarConversions {
    /// The scalar types a property may declare, as baking tells them apart.
    package enum Target: Equatable {
        case string
        /// A fixed-width integer type and its range.
        case integer(min: Int64, max: UInt64)
        /// `Float`, whose range is narrower than a `Double`'s.
        case float32
        /// `Double`, `Decimal` and the other floating-point types.
        case float
        case boolean
    }

    /// The kinds of a literal scalar.
    package enum Literal {
        /// A string literal's text.
        case string(String)
        /// An integer literal's value, when it fits in 64 bits.
        case integer(Int64?)
        /// A float literal's value.
        case float(Double)
        case boolean(Bool)
    }

    /// The `Bool` a word is read as (after spaces are trimmed): `true`,
    /// `yes`, `on`, `1`, `y` and their opposites, in any case; `nil` for
    /// any other word.
    package static func bool(fromWord word: some StringProtocol) -> Bool? {
        switch word.lowercased() {
        case "true", "yes", "on", "1", "y": true
        case "false", "no", "off", "0", "n": false
        default: nil
        }
    }

    /// The words ``bool(fromWord:)`` reads, for a message.
    package static let boolWords = "true/false, yes/no, on/off, 1/0"

    /// Whether baking converts `literal` into a property of type `target`.
    package static func converts(_ literal: Literal, to target: Target) -> Bool {
        switch (literal, target) {
        case (_, .string), (.boolean, .boolean), (.integer, .float), (.float, .float):
            return true
        case (.integer(let value), .integer(let min, let max)):
            guard let value else { return false }
            return value >= min && (value < 0 || UInt64(value) <= max)
        case (.integer(let value), .float32):
            return value != nil
        case (.integer(let value), .boolean):
            return value == 0 || value == 1
        case (.float(let value), .integer(let min, let max)):
            return value.rounded(.towardZero) == value && value >= Double(min) && value <= Double(max)
        case (.float(let value), .float32):
            return Float(value).isFinite
        case (.float(let value), .boolean):
            return value == 0 || value == 1
        case (.boolean, _):
            return false
        case (.string(let text), .boolean):
            return bool(fromWord: trimmingSpaces(text)) != nil
        case (.string(let text), _):
            // Text converts to a number when it is a number literal.
            let trimmed = String(trimmingSpaces(text))
            guard isNumberLiteral(trimmed), let value = Double(trimmed), value.isFinite else { return false }
            if case .integer = target, let whole = Int64(trimmed) {
                return converts(.integer(whole), to: target)
            }
            return converts(.float(value), to: target)
        }
    }

    /// Whether `text` is one JSON number literal, whole.
    static func isNumberLiteral(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { JSONNumberGrammar.matches($0.baseAddress, count: $0.count) }
    }

    /// `text` without leading and trailing spaces: what Foundation's
    /// `CharacterSet.whitespaces` holds (Unicode's space separators, the tab
    /// and the zero-width space), without bridging to `NSString` — XML and
    /// YAML numbers arrive as text, and baking trims each of them.
    @inlinable
    package static func trimmingSpaces(_ text: String) -> Substring {
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, isSpace(scalars[start]) { start = scalars.index(after: start) }
        while end > start, isSpace(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        return Substring(scalars[start..<end])
    }

    @inlinable @inline(__always)
    package static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar == " " || scalar == "\t" }
        return scalar.value == 0x200B || scalar.properties.generalCategory == .spaceSeparator
    }
}
