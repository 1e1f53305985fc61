import Foundation

/// Hand-written parsers and formatters for the date formats feeds and APIs
/// use most: ISO 8601 (RFC 3339) and RFC 822/1123.
///
/// They work on UTF-8 bytes with civil-calendar arithmetic instead of
/// `DateFormatter`, which is both slow (a formatter per thread, locale
/// machinery per call) and lenient in surprising ways.
public enum DateFormats {
    // MARK: ISO 8601

    /// Parses an ISO 8601 / RFC 3339 date or date-time.
    ///
    /// Accepts `2024-03-01`, `2024-03-01T12:30Z`, `2024-03-01T12:30:05.123+02:00`,
    /// `2024-03-01 12:30:05` (a space for `T`), offsets as `+0200`, `+02` or
    /// `Z`. A time without an offset, or a bare date, is read as UTC.
    /// - Returns: the date, or `nil` when the text is not such a date.
    public static func parseISO8601(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parseISO8601(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// ``parseISO8601(_:)`` on UTF-8 bytes, for the fast core, which reads a
    /// date straight from the payload's bytes without making a `String`.
    static func parseISO8601(utf8 bytes: UnsafeRawBufferPointer) -> Date? {
        var scanner = DateScanner(bytes.assumingMemoryBound(to: UInt8.self))
        return scanner.iso8601()
    }

    /// The dates baking reads and writes: from 0001-01-01T00:00:00Z through
    /// 9999-12-31T23:59:59.999Z, the years ISO 8601 writes with four digits,
    /// as seconds since 1970.
    ///
    /// A Unix time outside it is far more often a number in another unit —
    /// milliseconds (`1372701600000` is 45,000 years out as seconds) or
    /// microseconds — or a corrupt value than a real date, so baking refuses
    /// it with ``EasyBakeError/Code/numberOutOfRange`` instead of making a date
    /// no payload meant.
    public static let representableSeconds: ClosedRange<Double> = -62_135_596_800...253_402_300_799.999

    /// Whether `seconds` since 1970 is within ``representableSeconds``.
    static func isRepresentable(_ seconds: Double) -> Bool { representableSeconds.contains(seconds) }

    /// The error for a Unix time outside ``representableSeconds``, suggesting
    /// the unit the number more likely counts.
    static func outOfRange(_ seconds: Double, unit: String = "seconds") -> String {
        var message = "\(seconds) \(unit) since 1970 is not a date between the years 1 and 9999"
        if unit == "seconds", abs(seconds) > representableSeconds.upperBound, isRepresentable(seconds / 1000) {
            message += "; if it counts milliseconds, use the unixMilliseconds transformer"
        }
        return message
    }

    /// The canonical ISO 8601 text of a date, in UTC: `2002-09-07T00:00:01Z`,
    /// with milliseconds only when they are not zero (`…01.250Z`).
    ///
    /// A date outside ``representableSeconds`` (which baking never makes) is
    /// written with as many year digits as it needs and a sign before a
    /// negative year; one whose milliseconds since 1970 no 64-bit integer
    /// holds, or that is not finite, as its seconds since 1970. Neither
    /// reads back as a date.
    public static func formatISO8601(_ date: Date) -> String {
        guard let (days, secondsOfDay, milliseconds) = split(date) else {
            return "\(date.timeIntervalSince1970)"
        }
        let (year, month, day) = civil(fromDays: days)
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
        text += "\(pad(secondsOfDay / 3600, 2)):\(pad(secondsOfDay / 60 % 60, 2)):\(pad(secondsOfDay % 60, 2))"
        if milliseconds != 0 { text += ".\(pad(milliseconds, 3))" }
        return text + "Z"
    }

    // MARK: RFC 822 / 1123

    /// Parses an RFC 822 / 1123 / 2822 date as RSS feeds write them:
    /// `Sat, 07 Sep 2002 00:00:01 GMT`, with or without the weekday and the
    /// seconds, two- or four-digit years, and zones `GMT`, `UT`, `Z`, the
    /// North American names (`EST`, `PDT`, …), the European ones (`CET`,
    /// `CEST`, `BST`, `EET`, …) and a few others feeds use (`JST`, `AEST`,
    /// `NZST`, …), or `+hhmm`.
    public static func parseRFC822(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes in
            var scanner = DateScanner(bytes)
            return scanner.rfc822()
        }
    }

    /// The RFC 1123 text of a date in GMT: `Sat, 07 Sep 2002 00:00:01 GMT`.
    ///
    /// A date whose milliseconds since 1970 no 64-bit integer holds, or that
    /// is not finite, is written as its seconds since 1970 (as
    /// ``formatISO8601(_:)`` writes it).
    public static func formatRFC1123(_ date: Date) -> String {
        guard let (days, secondsOfDay, _) = split(date) else { return "\(date.timeIntervalSince1970)" }
        let (year, month, day) = civil(fromDays: days)
        // 1970-01-01 was a Thursday.
        let weekday = ((days % 7) + 7 + 4) % 7
        let time = "\(pad(secondsOfDay / 3600, 2)):\(pad(secondsOfDay / 60 % 60, 2)):\(pad(secondsOfDay % 60, 2))"
        return "\(weekdayNames[weekday]), \(pad(day, 2)) \(monthNames[month - 1]) \(pad(year, 4)) \(time) GMT"
    }

    static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    // MARK: Calendar arithmetic

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
    /// `days_from_civil`).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }

    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let dayOfEra = z - era * 146097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func split(_ date: Date) -> (days: Int, secondsOfDay: Int, milliseconds: Int)? {
        // Converting a Double that no Int holds traps: check first.
        guard let totalMilliseconds = Int(exactly: (date.timeIntervalSince1970 * 1000).rounded()) else { return nil }
        var days = totalMilliseconds / 86_400_000
        var rest = totalMilliseconds % 86_400_000
        if rest < 0 {
            days -= 1
            rest += 86_400_000
        }
        return (days, rest / 1000, rest % 1000)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let padded = digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        return value < 0 ? "-" + padded : padded
    }
}

/// A byte cursor for the date grammars.
private struct DateScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var atEnd: Bool { index >= bytes.count }
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipSpaces() {
        while let byte = current, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { index += 1 }
    }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        index += 1
        return true
    }

    /// Exactly `count` digits (at most 4, which no `Int` overflows).
    @inline(__always)
    mutating func digits(_ count: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        var value = 0
        for offset in 0..<count {
            let digit = bytes[index + offset] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value &* 10 &+ Int(digit)
        }
        index += count
        return value
    }

    /// One to `maximum` digits, with how many were read.
    mutating func someDigits(maximum: Int) -> (value: Int, count: Int)? {
        var value = 0
        var count = 0
        while count < maximum, let byte = current, byte &- UInt8(ascii: "0") < 10 {
            value = value * 10 + Int(byte &- UInt8(ascii: "0"))
            count += 1
            index += 1
        }
        return count == 0 ? nil : (value, count)
    }

    mutating func word() -> String {
        let start = index
        while let byte = current, (byte | 0x20) >= UInt8(ascii: "a"), (byte | 0x20) <= UInt8(ascii: "z") { index += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    static func makeDate(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, fraction: Double, offsetSeconds: Int
    ) -> Date? {
        guard (1...12).contains(month), day >= 1, day <= DateFormats.daysInMonth(year: year, month: month),
            (0...24).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        if hour == 24 && (minute != 0 || second != 0 || fraction != 0) { return nil }
        // A leap second is read as the last second of its minute: Date has no room for it.
        let seconds =
            DateFormats.days(year: year, month: month, day: day) * 86_400
            + hour * 3600 + minute * 60 + min(second, 59) - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    mutating func iso8601() -> Date? {
        if let date = utcSeconds() { return date }
        skipSpaces()
        var sign = 1
        if consume(UInt8(ascii: "-")) { sign = -1 } else { _ = consume(UInt8(ascii: "+")) }
        guard let year = digits(4), consume(UInt8(ascii: "-")), let month = digits(2),
            consume(UInt8(ascii: "-")), let day = digits(2)
        else { return nil }
        var hour = 0, minute = 0, second = 0, fraction = 0.0, offset = 0
        if current == UInt8(ascii: "T") || current == UInt8(ascii: "t") || current == UInt8(ascii: " ") {
            index += 1
            guard let h = digits(2), consume(UInt8(ascii: ":")), let m = digits(2) else { return nil }
            hour = h
            minute = m
            if consume(UInt8(ascii: ":")) {
                guard let s = digits(2) else { return nil }
                second = s
                if consume(UInt8(ascii: ".")) || consume(UInt8(ascii: ",")) {
                    let start = index
                    var scale = 0.1
                    while let byte = current, byte &- UInt8(ascii: "0") < 10 {
                        fraction += Double(byte &- UInt8(ascii: "0")) * scale
                        scale /= 10
                        index += 1
                    }
                    if index == start { return nil }
                }
            }
            guard let zone = isoOffset() else { return nil }
            offset = zone
        }
        skipSpaces()
        guard atEnd else { return nil }
        return Self.makeDate(
            year: sign * year, month: month, day: day, hour: hour, minute: minute, second: second,
            fraction: fraction, offsetSeconds: offset)
    }

    /// `yyyy-MM-ddTHH:mm:ssZ` and nothing else, the form most payloads
    /// write, read at fixed offsets: what ``iso8601()`` reads it as, without
    /// the general grammar's walk. `nil` for any other text.
    private func utcSeconds() -> Date? {
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes[19] == UInt8(ascii: "Z")
        else { return nil }
        @inline(__always) func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for offset in start..<(start + count) {
                let digit = bytes[offset] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value &* 10 &+ Int(digit)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2)
        else { return nil }
        return Self.makeDate(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second,
            fraction: 0, offsetSeconds: 0)
    }

    /// `Z`, `±hh:mm`, `±hhmm`, `±hh`, or nothing (UTC).
    mutating func isoOffset() -> Int? {
        if consume(UInt8(ascii: "Z")) || consume(UInt8(ascii: "z")) { return 0 }
        let sign: Int
        if consume(UInt8(ascii: "+")) { sign = 1 } else if consume(UInt8(ascii: "-")) { sign = -1 } else { return 0 }
        guard let hours = digits(2), hours <= 23 else { return nil }
        var minutes = 0
        if consume(UInt8(ascii: ":")) {
            guard let m = digits(2) else { return nil }
            minutes = m
        } else if let m = digits(2) {
            minutes = m
        }
        guard minutes <= 59 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }

    mutating func rfc822() -> Date? {
        skipSpaces()
        if let byte = current, byte &- UInt8(ascii: "0") >= 10 {
            // An optional weekday name and comma.
            let weekday = word().lowercased()
            guard DateFormats.weekdayNames.contains(where: { weekday.hasPrefix($0.lowercased()) }) else { return nil }
            skipSpaces()
            _ = consume(UInt8(ascii: ","))
            skipSpaces()
        }
        guard let day = someDigits(maximum: 2)?.value else { return nil }
        skipSpaces()
        _ = consume(UInt8(ascii: "-"))
        let monthName = word().lowercased()
        guard let monthIndex = DateFormats.monthNames.firstIndex(where: { monthName.hasPrefix($0.lowercased()) }),
            monthName.count >= 3
        else { return nil }
        skipSpaces()
        _ = consume(UInt8(ascii: "-"))
        guard let (rawYear, yearDigits) = someDigits(maximum: 4), yearDigits == 2 || yearDigits == 4 else { return nil }
        // RFC 2822 §4.3: two-digit years below 50 are 20xx, the rest 19xx.
        let year = yearDigits == 4 ? rawYear : (rawYear < 50 ? 2000 + rawYear : 1900 + rawYear)
        skipSpaces()
        guard let hour = digits(2), consume(UInt8(ascii: ":")), let minute = digits(2) else { return nil }
        var second = 0
        if consume(UInt8(ascii: ":")) {
            guard let s = digits(2) else { return nil }
            second = s
        }
        skipSpaces()
        let offset: Int
        if atEnd {
            offset = 0
        } else if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") {
            let sign = current == UInt8(ascii: "+") ? 1 : -1
            index += 1
            guard let hours = digits(2) else { return nil }
            _ = consume(UInt8(ascii: ":"))
            guard let minutes = digits(2), minutes <= 59 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            guard let zoneOffset = Self.zoneOffsets[word().uppercased()] else { return nil }
            offset = zoneOffset
        }
        skipSpaces()
        guard atEnd else { return nil }
        return Self.makeDate(
            year: year, month: monthIndex + 1, day: day, hour: hour, minute: minute, second: second,
            fraction: 0, offsetSeconds: offset)
    }

    /// Zone names and their offsets in seconds: RFC 822's own (universal
    /// and North American), and the European, Australian and other names
    /// feeds write in their place. A name that stands for several zones
    /// (`IST`: India, Ireland or Israel) is left out, so that it fails
    /// rather than turn into the wrong hour.
    static let zoneOffsets: [String: Int] = {
        let hours: [String: Double] = [
            "GMT": 0, "UT": 0, "UTC": 0, "Z": 0,
            "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7,
            "AKST": -9, "AKDT": -8, "HST": -10, "NST": -3.5, "NDT": -2.5,
            "WET": 0, "WEST": 1, "BST": 1, "CET": 1, "CEST": 2, "MET": 1, "MEST": 2, "EET": 2, "EEST": 3, "MSK": 3,
            "JST": 9, "KST": 9, "AWST": 8, "ACST": 9.5, "ACDT": 10.5, "AEST": 10, "AEDT": 11, "NZST": 12, "NZDT": 13,
        ]
        return hours.mapValues { Int($0 * 3600) }
    }()
}
