import EasyBakePathGrammar
/// What a string looks like to a person reading a sample payload: a date, a
/// URL, a number written as text. Numbers and dates are told by the
/// grammars baking reads them with (`JSONNumberGrammar`, ``DateFormats``),
/// so that a model generated from a sample bakes it; the URL check is a
/// cheap byte pattern.
struct StringShape {
    let kind: PathSurvey.ValueKind
    let dateStyle: PathSurvey.DateStyle?

    init(_ text: String) {
        var text = text
        let shape = text.withUTF8 { StringShape.classify($0) }
        kind = shape.kind
        dateStyle = shape.dateStyle
    }

    private init(kind: PathSurvey.ValueKind, dateStyle: PathSurvey.DateStyle? = nil) {
        self.kind = kind
        self.dateStyle = dateStyle
    }

    private static func classify(_ bytes: UnsafeBufferPointer<UInt8>) -> StringShape {
        guard !bytes.isEmpty, bytes.count <= 200 else { return StringShape(kind: .string) }
        if let number = numberKind(bytes) { return StringShape(kind: number) }
        if isBool(bytes) { return StringShape(kind: .boolString) }
        if isISO8601(bytes) { return StringShape(kind: .dateString, dateStyle: .iso8601) }
        if isRFC822(bytes) { return StringShape(kind: .dateString, dateStyle: .rfc822) }
        if isURL(bytes) { return StringShape(kind: .urlString) }
        return StringShape(kind: .string)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }

    /// `-12`, `3.5`, `1e9`: JSON's number grammar, which is also what the
    /// baker's string-to-number coercion accepts without surprises. Leading
    /// zeros (`007`, a zip code) are not numbers: they would lose the zero.
    private static func numberKind(_ bytes: UnsafeBufferPointer<UInt8>) -> PathSurvey.ValueKind? {
        guard let base = bytes.baseAddress else { return nil }
        let scan = JSONNumberGrammar.scan(base, from: 0, count: bytes.count)
        guard scan.failure == nil, scan.end == bytes.count else { return nil }
        // Whole numbers past 18 digits would not fit an `Int`: text to a model.
        if scan.isInteger { return scan.integerDigits < 19 ? .integerString : nil }
        return .floatString
    }

    private static func isBool(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch bytes.count {
        case 4:
            bytes[0] == UInt8(ascii: "t") && bytes[1] == UInt8(ascii: "r") && bytes[2] == UInt8(ascii: "u")
                && bytes[3] == UInt8(ascii: "e")
        case 5:
            bytes[0] == UInt8(ascii: "f") && bytes[1] == UInt8(ascii: "a") && bytes[2] == UInt8(ascii: "l")
                && bytes[3] == UInt8(ascii: "s") && bytes[4] == UInt8(ascii: "e")
        default: false
        }
    }

    /// An ISO 8601 date or date-time as ``DateFormats/parseISO8601(_:)``
    /// reads one — the grammar baking reads dates with, so that the
    /// transformer a generated recipe names reads every such sample. A date
    /// starts with its year's four digits: a cheap look before parsing.
    private static func isISO8601(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 10, isDigit(bytes[0]) else { return false }
        return DateFormats.parseISO8601(utf8: UnsafeRawBufferPointer(bytes)) != nil
    }

    /// An RFC 822 date as ``DateFormats/parseRFC822(_:)`` reads one
    /// (`Sat, 07 Sep 2002 00:00:01 GMT`, the weekday optional), written with
    /// a month's three-letter abbreviation as RFC 822 writes it: the parser
    /// also takes `Sept` or `September`, which a sample is no model for.
    private static func isRFC822(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Most strings are not dates: a cheap look before making a string to parse.
        guard (14...40).contains(bytes.count), isLetter(bytes[0]) || isDigit(bytes[0]),
            bytes.contains(UInt8(ascii: ":"))
        else { return false }
        // The month is the word after the day's digits.
        let words = bytes.split(separator: UInt8(ascii: " "))
        guard let day = words.firstIndex(where: { $0.allSatisfy(isDigit) }), day + 1 < words.count,
            words[day + 1].count == 3
        else { return false }
        return DateFormats.parseRFC822(String(decoding: bytes, as: UTF8.self)) != nil
    }

    /// An absolute URL with an authority: `scheme://` and no spaces.
    private static func isURL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
            isLetter(bytes[0]),
            bytes[..<colon].allSatisfy({ isLetter($0) || isDigit($0) || "+-.".utf8.contains($0) }),
            bytes.count > colon + 3,
            bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
        else { return false }
        return !bytes.contains { $0 <= 0x20 || $0 == 0x7F }
    }
}
