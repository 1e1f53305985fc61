import Foundation

// The transformers every registry knows. Dates come out as the canonical
// ISO 8601 text (see `DateFormats.formatISO8601`), which the baker decodes
// into `Date` and which decomposition produces from a `Date`; so each date
// transformer's reverse turns canonical text back into its own format.

/// A transformer made of closures, for one-off transformations in Swift.
///
/// ```swift
/// let cents = ClosureTransformer(
///     transform: { value in value?.doubleValue.flatMap { Int64(exactly: ($0 * 100).rounded()) }.map { .integer($0) } },
///     reverse: { value in value?.doubleValue.map { .float($0 / 100) } })
/// ```
public struct ClosureTransformer: IngredientTransformer {
    private let forward: @Sendable (Ingredients?) throws -> Ingredients?
    private let backward: (@Sendable (Ingredients?) throws -> Ingredients?)?

    /// A transformer from a forward closure and an optional reverse one.
    public init(
        transform: @escaping @Sendable (Ingredients?) throws -> Ingredients?,
        reverse: (@Sendable (Ingredients?) throws -> Ingredients?)? = nil
    ) {
        forward = transform
        backward = reverse
    }

    public func transform(_ value: Ingredients?) throws -> Ingredients? { try forward(value) }
    public func reverseTransform(_ value: Ingredients?) throws -> Ingredients? { try backward?(value) ?? value }
    public var allowsReverseTransformation: Bool { backward != nil }
}

/// `"iso8601"`: an ISO 8601 / RFC 3339 string, normalised to the canonical
/// UTC form. Reverse: passes the canonical form through.
public struct ISO8601DateTransformer: ScalarTransformer {
    /// The transformer registered as `iso8601`.
    public init() {}

    public func transformScalar(_ value: Ingredients?) throws -> Ingredients? {
        guard let value else { return nil }
        guard case .string(let text) = value, let date = DateFormats.parseISO8601(text) else {
            throw EasyBakeError(.transformFailed, "expected an ISO 8601 date, found \(value.briefDescription)")
        }
        return .string(DateFormats.formatISO8601(date))
    }

    public func reverseTransformScalar(_ value: Ingredients?) throws -> Ingredients? { value }
    public var allowsReverseTransformation: Bool { true }
}

/// `"rfc822"` (also `"rfc1123"`, `"rfc2822"`): the dates of RSS feeds and
/// HTTP headers, `Sat, 07 Sep 2002 00:00:01 GMT`. Reverse: RFC 1123 in GMT.
public struct RFC822DateTransformer: ScalarTransformer {
    /// The transformer registered as `rfc822`, `rfc1123` and `rfc2822`.
    public init() {}

    public func transformScalar(_ value: Ingredients?) throws -> Ingredients? {
        guard let value else { return nil }
        guard case .string(let text) = value, let date = DateFormats.parseRFC822(text) else {
            throw EasyBakeError(.transformFailed, "expected an RFC 822 date, found \(value.briefDescription)")
        }
        return .string(DateFormats.formatISO8601(date))
    }

    public func reverseTransformScalar(_ value: Ingredients?) throws -> Ingredients? {
        guard let date = try canonicalDate(value) else { return value }
        return .string(DateFormats.formatRFC1123(date))
    }

    public var allowsReverseTransformation: Bool { true }
}

/// `"unixSeconds"` / `"unixMilliseconds"`: a Unix time (number or numeric
/// string). Reverse: the number of seconds or milliseconds.
public struct UnixTimeTransformer: ScalarTransformer {
    /// Whether the number counts milliseconds rather than seconds.
    public let milliseconds: Bool

    /// The transformer registered as `unixSeconds`, or with `milliseconds`
    /// as `unixMilliseconds`.
    public init(milliseconds: Bool = false) { self.milliseconds = milliseconds }

    public func transformScalar(_ value: Ingredients?) throws -> Ingredients? {
        guard let value else { return nil }
        guard let number = try? Coercion.double(value), number.isFinite else {
            throw EasyBakeError(.transformFailed, "expected a Unix time, found \(value.briefDescription)")
        }
        let seconds = milliseconds ? number / 1000 : number
        guard DateFormats.isRepresentable(seconds) else {
            throw EasyBakeError(
                .numberOutOfRange,
                DateFormats.outOfRange(number, unit: milliseconds ? "milliseconds" : "seconds"))
        }
        return .string(DateFormats.formatISO8601(Date(timeIntervalSince1970: seconds)))
    }

    public func reverseTransformScalar(_ value: Ingredients?) throws -> Ingredients? {
        guard let date = try canonicalDate(value) else { return value }
        let seconds = date.timeIntervalSince1970
        let scaled = milliseconds ? (seconds * 1000).rounded() : seconds
        if scaled.rounded() == scaled, let whole = Int64(exactly: scaled) { return .integer(whole) }
        return .float(scaled)
    }

    public var allowsReverseTransformation: Bool { true }
}

/// `{"date": "yyyy-MM-dd"}`: dates in a `DateFormatter` pattern, read in the
/// POSIX locale and, unless the pattern says otherwise, in UTC.
public struct DateFormatTransformer: ScalarTransformer {
    /// The pattern, in Unicode's date-format syntax.
    public let format: String
    private let formatter: LockedFormatter

    /// A transformer for `format` in `timeZone` (UTC by default).
    public init(format: String, timeZone: TimeZone = TimeZone(identifier: "UTC")!) {
        self.format = format
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = format
        self.formatter = LockedFormatter(formatter)
    }

    public func transformScalar(_ value: Ingredients?) throws -> Ingredients? {
        guard let value else { return nil }
        guard case .string(let text) = value, let date = formatter.date(from: text) else {
            throw EasyBakeError(
                .transformFailed, "expected a date like \(format.debugDescription), found \(value.briefDescription)")
        }
        return .string(DateFormats.formatISO8601(date))
    }

    public func reverseTransformScalar(_ value: Ingredients?) throws -> Ingredients? {
        guard let date = try canonicalDate(value) else { return value }
        return .string(formatter.string(from: date))
    }

    public var allowsReverseTransformation: Bool { true }
}

/// `DateFormatter` is thread-safe for reading on current Foundations, but is
/// not marked `Sendable` everywhere; a lock makes that a guarantee.
private struct LockedFormatter: Sendable {
    private let formatter: Locked<DateFormatter>
    init(_ formatter: DateFormatter) { self.formatter = Locked(formatter) }
    func date(from text: String) -> Date? { formatter.withLock { $0.date(from: text) } }
    func string(from date: Date) -> String { formatter.withLock { $0.string(from: date) } }
}

/// The date in a decomposed value: canonical ISO text or a Unix time.
private func canonicalDate(_ value: Ingredients?) throws -> Date? {
    switch value {
    case nil, .null?: return nil
    case .string(let text)?:
        guard let date = DateFormats.parseISO8601(text) else {
            throw EasyBakeError(
                .transformFailed, "expected an ISO 8601 date to reverse, found \(value!.briefDescription)")
        }
        return date
    case let number?:
        guard let seconds = number.doubleValue else {
            throw EasyBakeError(.transformFailed, "expected a date to reverse, found \(number.briefDescription)")
        }
        return Date(timeIntervalSince1970: seconds)
    }
}

/// `"url"` (or `{"url": "https://base/"}`): a string that must be a URL,
/// relative ones resolved against the base when one is given.
public struct URLTransformer: ScalarTransformer {
    /// The base that relative URLs resolve against.
    public let base: URL?

    /// The transformer registered as `url`, or with a base as the `url` factory makes it.
    public init(base: URL? = nil) { self.base = base }

    public func transformScalar(_ value: Ingredients?) throws -> Ingredients? {
        guard let value else { return nil }
        let trimmed = value.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let trimmed, !trimmed.isEmpty, let url = URL(string: trimmed, relativeTo: base) else {
            throw EasyBakeError(.transformFailed, "expected a URL, found \(value.briefDescription)")
        }
        return .string(base == nil ? url.absoluteString : url.absoluteURL.absoluteString)
    }

    public func reverseTransformScalar(_ value: Ingredients?) throws -> Ingredients? { value }
    public var allowsReverseTransformation: Bool { true }
}

/// `"uuid"`: a UUID string in any case, normalised to upper case.
public struct UUIDTransformer: ScalarTransformer {
    /// The transformer registered as `uuid`.
    public init() {}

    public func transformScalar(_ value: Ingredients?) throws -> Ingredients? {
        guard let value else { return nil }
        guard let text = value.stringValue, let uuid = UUID(uuidString: text) else {
            throw EasyBakeError(.transformFailed, "expected a UUID, found \(value.briefDescription)")
        }
        return .string(uuid.uuidString)
    }

    public func reverseTransformScalar(_ value: Ingredients?) throws -> Ingredients? { value }
    public var allowsReverseTransformation: Bool { true }
}

/// `"number"`: a number or numeric string, as a number (exact text kept for
/// numbers a `Double` cannot hold). Reverse: passes the number through.
public struct NumberTransformer: ScalarTransformer {
    /// The transformer registered as `number`.
    public init() {}

    public func transformScalar(_ value: Ingredients?) throws -> Ingredients? {
        switch value {
        case nil: return nil
        case .integer?, .float?, .exactNumber?: return value
        case .string(let text)?:
            if let number = Ingredients.number(literal: text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return number
            }
        case .bool(let flag)?: return .integer(flag ? 1 : 0)
        default: break
        }
        throw EasyBakeError(.transformFailed, "expected a number, found \(value!.briefDescription)")
    }

    public func reverseTransformScalar(_ value: Ingredients?) throws -> Ingredients? { value }
    public var allowsReverseTransformation: Bool { true }
}

/// `"string"`: any scalar as its text.
public struct StringTransformer: ScalarTransformer {
    /// The transformer registered as `string`.
    public init() {}

    public func transformScalar(_ value: Ingredients?) throws -> Ingredients? {
        switch value {
        case nil: return nil
        case .string?: return value
        case .integer(let i)?: return .string(String(i))
        case .float(let d)?: return .string(d.description)
        case .exactNumber(let text)?: return .string(text)
        case .bool(let b)?: return .string(b ? "true" : "false")
        default: throw EasyBakeError(.transformFailed, "expected a scalar, found \(value!.briefDescription)")
        }
    }
}

/// `"bool"`: `true`/`false`, `yes`/`no`, `on`/`off`, `1`/`0` as a Bool.
public struct BoolTransformer: ScalarTransformer {
    /// The transformer registered as `bool`.
    public init() {}

    public func transformScalar(_ value: Ingredients?) throws -> Ingredients? {
        guard let value else { return nil }
        do {
            return .bool(try Coercion.bool(value))
        } catch {
            throw EasyBakeError(.transformFailed, "expected a Bool, found \(value.briefDescription)")
        }
    }

    public func reverseTransformScalar(_ value: Ingredients?) throws -> Ingredients? { value }
    public var allowsReverseTransformation: Bool { true }
}

/// `"trim"`, `"lowercase"`, `"uppercase"`: text edits; other values pass.
public struct TextTransformer: ScalarTransformer {
    /// The edit; its raw value is the name it is registered under.
    public enum Edit: String, Sendable, CaseIterable {
        /// Removes white space and line breaks from both ends.
        case trim
        /// Lower-cases the text.
        case lowercase
        /// Upper-cases the text.
        case uppercase
    }

    /// The edit this transformer makes.
    public let edit: Edit

    /// The transformer that makes `edit`.
    public init(_ edit: Edit) { self.edit = edit }

    public func transformScalar(_ value: Ingredients?) throws -> Ingredients? {
        guard case .string(let text)? = value else { return value }
        switch edit {
        case .trim: return .string(text.trimmingCharacters(in: .whitespacesAndNewlines))
        case .lowercase: return .string(text.lowercased())
        case .uppercase: return .string(text.uppercased())
        }
    }
}

/// `{"split": ","}`: a string split into an array of trimmed, non-empty
/// parts (`"a, b"` → `["a", "b"]`). An array — XML's repeated element —
/// has each string element split and the parts joined into one array
/// (`["a, b", "c"]` → `["a", "b", "c"]`), so one element and several split
/// alike; its other elements stay as they are. Reverse: joins.
public struct SplitTransformer: IngredientTransformer {
    /// The text between parts; the reverse joins with it as it is.
    public let separator: String

    /// The transformer registered as `split` (a comma), or as the `split`
    /// factory makes it for another separator.
    public init(separator: String = ",") { self.separator = separator }

    public func transform(_ value: Ingredients?) throws -> Ingredients? {
        switch value {
        case .string(let text)?:
            return .array(IngredientArray(parts(of: text)))
        case .array(let elements)?:
            var parts: [Ingredients] = []
            for element in elements {
                if case .string(let text) = element { parts += self.parts(of: text) } else { parts.append(element) }
            }
            return .array(IngredientArray(parts))
        default: return value
        }
    }

    private func parts(of text: String) -> [Ingredients] {
        text.components(separatedBy: separator)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
            .map(Ingredients.string)
    }

    public func reverseTransform(_ value: Ingredients?) throws -> Ingredients? {
        guard case .array(let parts)? = value else { return value }
        var texts: [String] = []
        for part in parts {
            guard let text = try StringTransformer().transform(part)?.stringValue else {
                throw EasyBakeError(.transformFailed, "cannot join \(part.briefDescription)")
            }
            texts.append(text)
        }
        return .string(texts.joined(separator: separator))
    }

    public var allowsReverseTransformation: Bool { true }
}

/// `{"lookup": {"a": 1, "b": 2}}`: maps values through a table (keys are
/// the values' text), like an enum mapping. An unknown value is an error
/// unless a fallback is given. Reverse: the inverted table, when no two keys
/// share a value.
public struct LookupTransformer: ScalarTransformer {
    /// The table: a value's text → what it becomes.
    public let table: [String: Ingredients]
    /// What a value that is not in the table becomes (and what null becomes);
    /// `nil` makes an unknown value an error and lets null through.
    public let fallback: Ingredients?
    private let inverse: [Ingredients: String]?

    /// A lookup through `table`, with an optional `fallback`.
    ///
    /// ```swift
    /// let role = LookupTransformer(["A": "admin", "U": "user"], fallback: "user")
    /// try role.transform("A")   // "admin"
    /// try role.transform("X")   // "user"
    /// ```
    public init(_ table: [String: Ingredients], fallback: Ingredients? = nil) {
        self.table = table
        self.fallback = fallback
        var inverse: [Ingredients: String] = [:]
        var injective = true
        for (key, value) in table where inverse.updateValue(key, forKey: value) != nil { injective = false }
        self.inverse = injective ? inverse : nil
    }

    public func transformScalar(_ value: Ingredients?) throws -> Ingredients? {
        guard let value else { return fallback.flatMap { $0.isNull ? nil : $0 } }
        if let key = try? StringTransformer().transform(value)?.stringValue, let mapped = table[key] { return mapped }
        if let fallback { return fallback }
        throw EasyBakeError(
            .transformFailed,
            "\(value.briefDescription) is not one of \(table.keys.sorted().map(\.debugDescription).joined(separator: ", "))"
        )
    }

    public func reverseTransformScalar(_ value: Ingredients?) throws -> Ingredients? {
        guard let value, let inverse else { return value }
        guard let key = inverse[value] else {
            throw EasyBakeError(.transformFailed, "\(value.briefDescription) has no entry in the lookup table")
        }
        return .string(key)
    }

    public var allowsReverseTransformation: Bool { inverse != nil }
}

/// `{"each": spec}`: a transformer applied to every element of an array —
/// for an array property whose elements need one, such as `[URL]` from
/// `{"each": "url"}`. A single value (XML's list of one) is transformed as
/// itself, null stays null; reversed element by element.
public struct EachTransformer: IngredientTransformer {
    /// The transformer each element goes through.
    public let element: any IngredientTransformer

    /// A transformer that applies `element` to every element.
    public init(_ element: any IngredientTransformer) { self.element = element }

    public func transform(_ value: Ingredients?) throws -> Ingredients? {
        try map(value) { try element.transform($0) }
    }

    public func reverseTransform(_ value: Ingredients?) throws -> Ingredients? {
        try map(value) { try element.reverseTransform($0) }
    }

    public var allowsReverseTransformation: Bool { element.allowsReverseTransformation }

    private func map(_ value: Ingredients?, _ body: (Ingredients?) throws -> Ingredients?) throws -> Ingredients? {
        guard let value, !value.isNull else { return value }
        guard case .array(let elements) = value else { return try body(value) }
        return try Self.map(elements, body)
    }

    /// `body` of each element (`nil` for a null one), as an array; an
    /// element's error names its index.
    static func map(_ elements: IngredientArray, _ body: (Ingredients?) throws -> Ingredients?) throws -> Ingredients {
        var mapped = ContiguousArray<Ingredients>()
        mapped.reserveCapacity(elements.count)
        for (index, item) in elements.enumerated() {
            do {
                mapped.append(try body(item.isNull ? nil : item) ?? .null)
            } catch {
                let message = (error as? EasyBakeError)?.message ?? String(describing: error)
                throw EasyBakeError(
                    (error as? EasyBakeError)?.code ?? .transformFailed, "element \(index): \(message)", cause: error)
            }
        }
        return .array(IngredientArray(mapped))
    }
}

/// A list of transformers applied in order; reversed in reverse order.
public struct ChainTransformer: IngredientTransformer {
    /// The transformers, in the order they apply when baking.
    public let transformers: [any IngredientTransformer]

    /// A chain of `transformers`; a list in a spec (`["trim", "lowercase"]`) makes one.
    public init(_ transformers: [any IngredientTransformer]) { self.transformers = transformers }

    public func transform(_ value: Ingredients?) throws -> Ingredients? {
        var current = value
        for transformer in transformers { current = try transformer.transform(current) }
        return current
    }

    public func reverseTransform(_ value: Ingredients?) throws -> Ingredients? {
        var current = value
        for transformer in transformers.reversed() where transformer.allowsReverseTransformation {
            current = try transformer.reverseTransform(current)
        }
        return current
    }

    public var allowsReverseTransformation: Bool { transformers.contains { $0.allowsReverseTransformation } }
}

/// `"base64"`: base64 data in the standard or URL-safe alphabet, padded or
/// not, checked and normalised to standard padded base64 — the form the
/// baker decodes into `Data` and decomposition produces from it.
public struct Base64Transformer: ScalarTransformer {
    /// The transformer registered as `base64`.
    public init() {}

    public func transformScalar(_ value: Ingredients?) throws -> Ingredients? {
        guard let value else { return nil }
        guard var text = value.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines) else {
            throw EasyBakeError(.transformFailed, "expected base64 text, found \(value.briefDescription)")
        }
        text = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        if text.count % 4 != 0 { text += String(repeating: "=", count: 4 - text.count % 4) }
        guard let data = Data(base64Encoded: text) else {
            throw EasyBakeError(.transformFailed, "expected base64 text, found \(value.briefDescription)")
        }
        return .string(data.base64EncodedString())
    }

    public func reverseTransformScalar(_ value: Ingredients?) throws -> Ingredients? { value }
    public var allowsReverseTransformation: Bool { true }
}
