/// What a string looks like to a person reading a sample payload: a date, a
/// URL, a number written as text. A number is told by the grammar baking
/// reads it with (``JSONNumberGrammar``); the other checks are cheap byte
/// patterns, not parsers: they say "looks like", and a model generated from
/// them still bakes through the real coercions.
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
        case 4: bytes[0] == UInt8(ascii: "t") && bytes[1] == UInt8(ascii: "r") && bytes[2] == UInt8(ascii: "u") && bytes[3] == UInt8(ascii: "e")
        case 5: bytes[0] == UInt8(ascii: "f") && bytes[1] == UInt8(ascii: "a") && bytes[2] == UInt8(ascii: "l")
            && bytes[3] == UInt8(ascii: "s") && bytes[4] == UInt8(ascii: "e")
        default: false
        }
    }

    /// `yyyy-MM-dd`, optionally followed by `T` or a space and a time.
    private static func isISO8601(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 10 else { return false }
        let pattern = Array("dddd-dd-dd".utf8)
        for (byte, expected) in zip(bytes, pattern) {
            if expected == UInt8(ascii: "d") { guard isDigit(byte) else { return false } } else if byte != expected { return false }
        }
        if bytes.count == 10 { return true }
        guard bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "), bytes.count >= 16 else { return false }
        // hh:mm, then anything a time may carry (seconds, fraction, zone).
        return isDigit(bytes[11]) && isDigit(bytes[12]) && bytes[13] == UInt8(ascii: ":")
            && isDigit(bytes[14]) && isDigit(bytes[15])
            && bytes[16...].allSatisfy { isDigit($0) || ":.+-Z ".utf8.contains($0) }
    }

    /// `Sat, 07 Sep 2002 00:00:01 GMT` (the weekday optional): a day, a month's
    /// English abbreviation, a year, a time.
    private static func isRFC822(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Most strings are not dates: a cheap look before splitting into words.
        guard (14...40).contains(bytes.count), isLetter(bytes[0]) || isDigit(bytes[0]),
              bytes.contains(UInt8(ascii: ":"))
        else { return false }
        let words = bytes.split(separator: UInt8(ascii: " "))
        guard words.count >= 4 else { return false }
        var index = 0
        if words[0].count == 4, words[0].last == UInt8(ascii: ","), words[0].dropLast().allSatisfy(isLetter) {
            index = 1
        }
        guard words.count >= index + 4 else { return false }
        let day = words[index], month = words[index + 1], year = words[index + 2], time = words[index + 3]
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        return (1...2).contains(day.count) && day.allSatisfy(isDigit)
            && month.count == 3 && months.contains { Array($0.utf8) == month.map { $0 | 0x20 } }
            && (year.count == 4 || year.count == 2) && year.allSatisfy(isDigit)
            && time.count >= 5 && time.allSatisfy { isDigit($0) || $0 == UInt8(ascii: ":") }
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
