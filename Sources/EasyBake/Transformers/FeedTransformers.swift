import Foundation

// The transformers that feeds and podcast directories need: durations in the
// shapes iTunes, Media RSS and YouTube write them, delimited key/value lists
// (`media:tags`), and GeoRSS points. Each keeps what it reads exact — a
// number's text, every part of a list — and fails on what it cannot read
// rather than guess.

/// `"duration"`: a length of time as a number of seconds.
///
/// It reads every form feeds and media APIs write:
/// - clock times, `H:MM:SS`, `MM:SS` or `SS`, with an optional fraction of
///   a second (`05:00:30`, `30:00`, `1800`, `00:00:15.500`) — iTunes'
///   `itunes:duration` and the normal play time (NPT) of Media RSS, with or
///   without its `npt=` prefix. The leading unit may be any size (`90:00`
///   is 90 minutes); the others are below 60;
/// - ISO 8601 durations in weeks, days, hours, minutes and seconds
///   (`PT4M13S`, `P1DT2H`), as YouTube's API writes them. Years and months
///   have no fixed length, so `P1M` is an error rather than a guess;
/// - a number of seconds.
///
/// The result is an integer when the duration is a whole number of seconds
/// and a floating-point number otherwise, so a `TimeInterval` property reads
/// every duration and an `Int` property reads exactly the whole ones (a
/// fraction is an error, not a rounding). Reverse: `HH:MM:SS`, with the
/// fraction when there is one.
public struct DurationTransformer: ScalarTransformer {
    /// The transformer registered as `duration`.
    public init() {}

    public func transformScalar(_ value: Ingredients?) throws -> Ingredients? {
        guard let value else { return nil }
        let seconds: Double
        switch value {
        case .integer(let whole):
            guard whole >= 0 else { throw Self.failure(value, "a duration cannot be negative") }
            return value
        case .float, .exactNumber:
            guard let number = value.doubleValue, number.isFinite, number >= 0, number <= Self.longest else {
                throw Self.failure(value, "a duration is a finite number of seconds, at least 0")
            }
            seconds = number
        case .string(let text):
            seconds = try Self.seconds(in: text, value: value)
        default:
            throw Self.failure(value, nil)
        }
        return Self.ingredient(seconds: seconds)
    }

    public func reverseTransformScalar(_ value: Ingredients?) throws -> Ingredients? {
        guard let value, !value.isNull, value.stringValue == nil else { return value }
        guard let seconds = value.doubleValue, seconds.isFinite, seconds >= 0, seconds <= Self.longest else {
            throw EasyBakeError(
                .transformFailed, "expected a duration in seconds to reverse, found \(value.briefDescription)")
        }
        return .string(Self.clockText(seconds: seconds))
    }

    public var allowsReverseTransformation: Bool { true }

    /// The longest duration read or written, in seconds (285 million years):
    /// its milliseconds still fit in an `Int64`.
    static let longest = 9.0e15

    /// The seconds a duration's text denotes.
    static func seconds(in text: String, value: Ingredients) throws -> Double {
        var body = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        if body.hasPrefix("npt=") { body = body.dropFirst(4) }
        guard !body.isEmpty else { throw failure(value, nil) }
        if body.first == "P" || body.first == "p" { return try isoSeconds(body.dropFirst(), value: value) }
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 3 else { throw failure(value, "a clock duration has at most hours, minutes and seconds") }
        var total = 0.0
        for (position, part) in parts.enumerated() {
            let isLast = position == parts.count - 1
            // Only the seconds may carry a fraction; only the leading unit may reach 60 or more.
            guard let number = decimal(part, allowingFraction: isLast), number.isFinite else {
                throw failure(value, nil)
            }
            if position > 0, number >= 60 {
                throw failure(value, "\(part) is 60 or more, and only the leading unit of a clock duration may be")
            }
            total = total * 60 + number
        }
        guard total.isFinite, total <= longest else { throw failure(value, "the duration is too long") }
        return total
    }

    /// `[nW][nD][T[nH][nM][n[.n]S]]`, after the `P`.
    private static func isoSeconds(_ body: Substring, value: Ingredients) throws -> Double {
        var total = 0.0
        var inTime = false
        var number = Substring()
        var sawUnit = false
        var lastRank = -1
        for character in body {
            switch character {
            case "0"..."9", ".", ",":
                number.append(character == "," ? "." : character)
            case "T", "t":
                guard !inTime, number.isEmpty else { throw failure(value, nil) }
                inTime = true
            default:
                let unit = Character(character.uppercased())
                let (rank, scale): (Int, Double)
                switch (unit, inTime) {
                case ("W", false): (rank, scale) = (0, 604_800)
                case ("D", false): (rank, scale) = (1, 86_400)
                case ("H", true): (rank, scale) = (2, 3_600)
                case ("M", true): (rank, scale) = (3, 60)
                case ("S", true): (rank, scale) = (4, 1)
                case ("Y", false), ("M", false):
                    throw failure(value, "years and months have no fixed length in seconds")
                default: throw failure(value, nil)
                }
                guard rank > lastRank, let amount = decimal(number, allowingFraction: true) else {
                    throw failure(value, nil)
                }
                total += amount * scale
                lastRank = rank
                sawUnit = true
                number = ""
            }
        }
        guard sawUnit, number.isEmpty, total.isFinite, total <= longest else { throw failure(value, nil) }
        return total
    }

    /// Digits, with a fraction after a `.` when allowed.
    private static func decimal(_ text: Substring, allowingFraction: Bool) -> Double? {
        var sawDigit = false
        var sawPoint = false
        for character in text {
            switch character {
            case "0"..."9": sawDigit = true
            case "." where allowingFraction && !sawPoint: sawPoint = true
            default: return nil
            }
        }
        return sawDigit ? Double(text) : nil
    }

    private static func ingredient(seconds: Double) -> Ingredients {
        if seconds.rounded() == seconds, let whole = Int64(exactly: seconds) { return .integer(whole) }
        return .float(seconds)
    }

    /// `HH:MM:SS`, and `.fff` (no trailing zeros) when the seconds have a fraction.
    static func clockText(seconds: Double) -> String {
        let milliseconds = Int64((seconds * 1000).rounded())
        let whole = milliseconds / 1000
        func two(_ number: Int64) -> String { number < 10 ? "0\(number)" : "\(number)" }
        var text = "\(two(whole / 3600)):\(two(whole / 60 % 60)):\(two(whole % 60))"
        if milliseconds % 1000 != 0 {
            var fraction = String(milliseconds % 1000)
            fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text
    }

    private static func failure(_ value: Ingredients, _ reason: String?) -> EasyBakeError {
        let expected = "expected a duration (HH:MM:SS, MM:SS, seconds or an ISO 8601 duration such as PT4M13S)"
        return EasyBakeError(
            .transformFailed, "\(expected), found \(value.briefDescription)" + (reason.map { ": \($0)" } ?? ""))
    }
}

/// `"pairs"` (or `{"pairs": {"separator": ";", "delimiter": "=", "default": 1}}`):
/// a delimited list of keys with optional values, as a dictionary.
///
/// `"news: 5, abc:3, reuters"` becomes `{"news": "5", "abc": "3", "reuters": null}`
/// — the shape of Media RSS's `media:tags` and of many keyword lists. Keys
/// and values are trimmed and kept as text (a `[String: Int]` property
/// bakes them as numbers); empty parts are skipped; a key without a value
/// gets the `default` when one is given (Media RSS weighs a bare tag 1) and
/// null otherwise. A key given twice, or a value without a key, is an error:
/// which of two weights a user meant is not for a transformer to guess.
/// Reverse: the pairs joined, `key<delimiter>value`, with a bare key for null.
public struct KeyValuePairsTransformer: ScalarTransformer {
    /// The text between pairs.
    public let separator: String
    /// The text between a key and its value.
    public let delimiter: String
    /// The value of a key written without one; `nil` for null.
    public let defaultValue: Ingredients?

    /// A transformer that reads `separator`-separated `key<delimiter>value` pairs.
    public init(separator: String = ",", delimiter: String = ":", defaultValue: Ingredients? = nil) {
        self.separator = separator
        self.delimiter = delimiter
        self.defaultValue = defaultValue
    }

    /// The transformer the `pairs` factory makes from its argument: a
    /// dictionary with any of `separator`, `delimiter` and `default`.
    static func make(_ argument: Ingredients) throws(EasyBakeError) -> KeyValuePairsTransformer {
        guard case .dictionary(let options) = argument else {
            throw EasyBakeError(
                .invalidRecipe,
                "the pairs factory takes a dictionary of separator, delimiter and default, found \(argument.briefDescription)"
            )
        }
        var separator = ",", delimiter = ":"
        var defaultValue: Ingredients?
        for (key, value) in options {
            switch key {
            case "separator", "delimiter":
                guard let text = value.stringValue, !text.isEmpty else {
                    throw EasyBakeError(
                        .invalidRecipe,
                        "the pairs factory's \(key) is a non-empty string, found \(value.briefDescription)")
                }
                if key == "separator" { separator = text } else { delimiter = text }
            case "default":
                defaultValue = value.isNull ? nil : value
            default:
                throw EasyBakeError(
                    .invalidRecipe,
                    "the pairs factory knows separator, delimiter and default, not \(key.debugDescription)")
            }
        }
        guard separator != delimiter else {
            throw EasyBakeError(.invalidRecipe, "the pairs factory's separator and delimiter must differ")
        }
        let transformer = KeyValuePairsTransformer(
            separator: separator, delimiter: delimiter, defaultValue: defaultValue)
        return transformer
    }

    public func transformScalar(_ value: Ingredients?) throws -> Ingredients? {
        guard let value else { return nil }
        guard case .string(let text) = value else {
            if case .dictionary = value { return value }
            throw EasyBakeError(
                .transformFailed, "expected a list of key\(delimiter)value pairs, found \(value.briefDescription)")
        }
        var entries: [(String, Ingredients)] = []
        var seen: Set<String> = []
        for part in text.components(separatedBy: separator) {
            let pair = part.trimmingCharacters(in: .whitespacesAndNewlines)
            if pair.isEmpty { continue }
            let key: String
            let entry: Ingredients
            if let range = pair.range(of: delimiter) {
                key = pair[..<range.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
                entry = .string(pair[range.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines))
            } else {
                key = pair
                entry = defaultValue ?? .null
            }
            guard !key.isEmpty else {
                throw EasyBakeError(.transformFailed, "the pair \(pair.debugDescription) has a value but no key")
            }
            guard seen.insert(key).inserted else {
                throw EasyBakeError(
                    .transformFailed, "the key \(key.debugDescription) is given twice in \(text.debugDescription)")
            }
            entries.append((key, entry))
        }
        return .dictionary(IngredientDictionary(entries))
    }

    public func reverseTransformScalar(_ value: Ingredients?) throws -> Ingredients? {
        guard case .dictionary(let entries)? = value else { return value }
        var parts: [String] = []
        for (key, entry) in entries {
            if entry.isNull { parts.append(key); continue }
            guard let text = try StringTransformer().transform(entry)?.stringValue else {
                throw EasyBakeError(
                    .transformFailed, "cannot join the value of \(key.debugDescription), \(entry.briefDescription)")
            }
            parts.append(key + delimiter + text)
        }
        return .string(parts.joined(separator: separator))
    }

    public var allowsReverseTransformation: Bool { true }
}

/// `"geoPoint"`: a GeoRSS point, `"45.256 -71.92"` (latitude, then
/// longitude, separated by white space or a comma), as
/// `{"latitude": 45.256, "longitude": -71.92}` — a model with `latitude`
/// and `longitude` properties bakes from it. The numbers keep their text;
/// a latitude outside ±90 or a longitude outside ±180 is an error. Reverse:
/// `"latitude longitude"`.
public struct GeoPointTransformer: ScalarTransformer {
    /// The transformer registered as `geoPoint`.
    public init() {}

    public func transformScalar(_ value: Ingredients?) throws -> Ingredients? {
        guard let value else { return nil }
        if case .dictionary = value { return value }
        guard case .string(let text) = value else { throw Self.failure(value, nil) }
        let parts = text.split { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard parts.count == 2,
            let latitude = Ingredients.number(literal: String(parts[0])),
            let longitude = Ingredients.number(literal: String(parts[1])),
            let latitudeDegrees = latitude.doubleValue, let longitudeDegrees = longitude.doubleValue
        else { throw Self.failure(value, nil) }
        guard abs(latitudeDegrees) <= 90 else {
            throw Self.failure(value, "the latitude \(parts[0]) is outside -90...90")
        }
        guard abs(longitudeDegrees) <= 180 else {
            throw Self.failure(value, "the longitude \(parts[1]) is outside -180...180")
        }
        return .dictionary(IngredientDictionary([("latitude", latitude), ("longitude", longitude)]))
    }

    public func reverseTransformScalar(_ value: Ingredients?) throws -> Ingredients? {
        guard case .dictionary(let point)? = value else { return value }
        guard let latitude = point["latitude"].flatMap(Self.text), let longitude = point["longitude"].flatMap(Self.text)
        else {
            throw EasyBakeError(
                .transformFailed, "expected a latitude and a longitude to reverse, found \(value!.briefDescription)")
        }
        return .string("\(latitude) \(longitude)")
    }

    public var allowsReverseTransformation: Bool { true }

    private static func text(_ number: Ingredients) -> String? {
        switch number {
        case .integer, .float, .exactNumber: try? StringTransformer().transform(number)?.stringValue
        default: nil
        }
    }

    private static func failure(_ value: Ingredients, _ reason: String?) -> EasyBakeError {
        EasyBakeError(
            .transformFailed,
            "expected a point as \"latitude longitude\", found \(value.briefDescription)"
                + (reason.map { ": \($0)" } ?? ""))
    }
}
