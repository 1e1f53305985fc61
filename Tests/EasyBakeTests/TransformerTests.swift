import Testing
import Foundation
import EasyBake
import EasyBakeTestSupport

/// A date from UTC components, through Foundation's calendar.
func utcDate(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0, ms: Int = 0)
    -> Date
{
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let date = calendar.date(
        from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
    return date.addingTimeInterval(Double(ms) / 1000)
}

@Suite("Date formats: ISO 8601 and RFC 822")
struct DateFormatTests {
    /// Milliseconds since 1970 of random instants between the years 1 and 9999.
    static func randomMilliseconds(count: Int, seed: UInt64) -> [Int64] {
        var generator = SeededGenerator(seed: seed)
        let low: Int64 = -62_135_596_800_000  // 0001-01-01
        let high: Int64 = 253_402_300_799_999  // 9999-12-31T23:59:59.999
        return (0..<count).map { _ in Int64.random(in: low...high, using: &generator) }
    }

    @Test("ISO 8601 text round-trips for thousands of random instants, to the millisecond")
    func isoRoundTrip() throws {
        for ms in Self.randomMilliseconds(count: 5_000, seed: 1) {
            let date = Date(timeIntervalSince1970: Double(ms) / 1000)
            let text = DateFormats.formatISO8601(date)
            let parsed = try #require(DateFormats.parseISO8601(text), "\(text)")
            #expect(Int64((parsed.timeIntervalSince1970 * 1000).rounded()) == ms, "\(text)")
            #expect(text.hasSuffix("Z"))
            #expect(text.contains(".") == (((ms % 1000) + 1000) % 1000 != 0), "\(text)")
        }
    }

    @Test("ISO 8601 text agrees with Foundation's calendar for random instants since 1600")
    func isoAgreesWithFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var generator = SeededGenerator(seed: 2)
        for _ in 0..<2_000 {
            // Whole seconds between 1600 and 9999: Foundation's calendar is Julian before 1582.
            let seconds = Int64.random(in: -11_676_096_000...253_402_300_799, using: &generator)
            let date = Date(timeIntervalSince1970: Double(seconds))
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02dZ", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
            #expect(DateFormats.formatISO8601(date) == expected)
            #expect(DateFormats.parseISO8601(expected) == date)
        }
    }

    @Test("RFC 1123 text round-trips and agrees with Foundation, weekday included")
    func rfcRoundTrip() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")!
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<2_000 {
            let seconds = Int64.random(in: -2_208_988_800...4_102_444_800, using: &generator)  // 1900...2100
            let date = Date(timeIntervalSince1970: Double(seconds))
            let text = DateFormats.formatRFC1123(date)
            #expect(text == formatter.string(from: date))
            #expect(DateFormats.parseRFC822(text) == date, "\(text)")
        }
    }

    @Test(
        "ISO 8601 variants and offsets",
        arguments: [
            ("2024-03-01", utcDate(2024, 3, 1)),
            ("2024-03-01T12:30Z", utcDate(2024, 3, 1, 12, 30)),
            ("2024-03-01T12:30:05Z", utcDate(2024, 3, 1, 12, 30, 5)),
            ("2024-03-01T12:30:05", utcDate(2024, 3, 1, 12, 30, 5)),
            ("2024-03-01 12:30:05", utcDate(2024, 3, 1, 12, 30, 5)),
            ("2024-03-01t12:30:05z", utcDate(2024, 3, 1, 12, 30, 5)),
            ("2024-03-01T12:30:05.123Z", utcDate(2024, 3, 1, 12, 30, 5, ms: 123)),
            ("2024-03-01T12:30:05,5Z", utcDate(2024, 3, 1, 12, 30, 5, ms: 500)),
            ("2024-03-01T12:30:05.123456789Z", utcDate(2024, 3, 1, 12, 30, 5, ms: 123)),
            ("2024-03-01T12:30:05.123+02:00", utcDate(2024, 3, 1, 10, 30, 5, ms: 123)),
            ("2024-03-01T12:30:05+0200", utcDate(2024, 3, 1, 10, 30, 5)),
            ("2024-03-01T12:30:05+02", utcDate(2024, 3, 1, 10, 30, 5)),
            ("2024-03-01T01:00:00-05:30", utcDate(2024, 3, 1, 6, 30)),
            ("2024-03-01T00:30:00+01:00", utcDate(2024, 2, 29, 23, 30)),
            ("2024-02-29T00:00:00Z", utcDate(2024, 2, 29)),
            ("2000-02-29", utcDate(2000, 2, 29)),
            ("2024-03-01T24:00:00Z", utcDate(2024, 3, 2)),
            ("2016-12-31T23:59:60Z", utcDate(2016, 12, 31, 23, 59, 59)),
            ("1969-12-31T23:59:59Z", Date(timeIntervalSince1970: -1)),
            ("  2024-03-01T12:30:05Z  ", utcDate(2024, 3, 1, 12, 30, 5)),
        ])
    func isoVariants(text: String, expected: Date) throws {
        let parsed = try #require(DateFormats.parseISO8601(text), "\(text)")
        #expect(abs(parsed.timeIntervalSince(expected)) < 0.0005, "\(text) → \(DateFormats.formatISO8601(parsed))")
    }

    @Test(
        "invalid ISO 8601 text gives nil",
        arguments: [
            "", "2024", "2024-03", "2024-02-30", "2023-02-29", "1900-02-29", "2024-04-31", "2024-13-01", "2024-00-10",
            "2024-03-00", "2024-03-01T25:00:00Z", "2024-03-01T24:00:01Z", "2024-03-01T12:60:00Z",
            "2024-03-01T12:00:61Z",
            "2024-3-1", "24-03-01", "2024-03-01T12", "2024-03-01T12:30:05.Z", "2024-03-01T12:30:05+24:00",
            "2024-03-01T12:30:05+02:60", "2024-03-01T12:30:05Zjunk", "2024/03/01", "March 1, 2024",
            "2024-03-01T1:30:05Z",
        ])
    func isoInvalid(text: String) {
        #expect(DateFormats.parseISO8601(text) == nil, "\(text)")
    }

    @Test(
        "RFC 822 variants: weekday optional, seconds optional, 2-digit years, named zones and offsets",
        arguments: [
            ("Sat, 07 Sep 2002 00:00:01 GMT", utcDate(2002, 9, 7, 0, 0, 1)),
            ("07 Sep 2002 00:00:01 GMT", utcDate(2002, 9, 7, 0, 0, 1)),
            ("Sat, 07 Sep 2002 00:00 GMT", utcDate(2002, 9, 7)),
            ("Sat, 7 Sep 2002 13:05:00 UT", utcDate(2002, 9, 7, 13, 5)),
            ("Saturday, 07 September 2002 00:00:01 Z", utcDate(2002, 9, 7, 0, 0, 1)),
            ("Sat, 07 Sep 02 00:00:01 GMT", utcDate(2002, 9, 7, 0, 0, 1)),
            ("Tue, 07 Sep 99 00:00:01 GMT", utcDate(1999, 9, 7, 0, 0, 1)),
            ("Sat, 07 Sep 49 00:00:01 GMT", utcDate(2049, 9, 7, 0, 0, 1)),
            ("Sat, 07 Sep 50 00:00:01 GMT", utcDate(1950, 9, 7, 0, 0, 1)),
            ("Sat, 07 Sep 2002 00:00:01 EST", utcDate(2002, 9, 7, 5, 0, 1)),
            ("Sat, 07 Sep 2002 00:00:01 EDT", utcDate(2002, 9, 7, 4, 0, 1)),
            ("Sat, 07 Sep 2002 00:00:01 PDT", utcDate(2002, 9, 7, 7, 0, 1)),
            ("Sat, 07 Sep 2002 00:00:01 CST", utcDate(2002, 9, 7, 6, 0, 1)),
            ("Sat, 07 Sep 2002 00:00:01 MST", utcDate(2002, 9, 7, 7, 0, 1)),
            ("Sat, 07 Sep 2002 00:00:01 +0200", utcDate(2002, 9, 6, 22, 0, 1)),
            ("Sat, 07 Sep 2002 00:00:01 -0730", utcDate(2002, 9, 7, 7, 30, 1)),
            ("Sat, 07 Sep 2002 00:00:01", utcDate(2002, 9, 7, 0, 0, 1)),
            ("Sat, 07-Sep-2002 00:00:01 GMT", utcDate(2002, 9, 7, 0, 0, 1)),
            ("sat, 07 sep 2002 00:00:01 gmt", utcDate(2002, 9, 7, 0, 0, 1)),
        ])
    func rfcVariants(text: String, expected: Date) throws {
        let parsed = try #require(DateFormats.parseRFC822(text), "\(text)")
        #expect(parsed == expected, "\(text) → \(DateFormats.formatISO8601(parsed))")
    }

    @Test(
        "invalid RFC 822 text gives nil",
        arguments: [
            "", "Sat, 30 Feb 2002 00:00:01 GMT", "Sat, 29 Feb 2002 00:00:01 GMT", "Sat, 07 Sep 2002 25:00:01 GMT",
            "Sat, 07 Sep 2002 12:60:01 GMT", "Sat, 07 Sep 2002 00:00:01 XYZ", "Sat, 07 Foo 2002 00:00:01 GMT",
            "Sat, 07 Sep 200 00:00:01 GMT", "Sat, 07 Sep 2002", "Someday, 07 Sep 2002 00:00:01 GMT",
            "Sat, 07 Sep 2002 00:00:01 GMT trailing", "2002-09-07T00:00:01Z", "Sat, 07 Sep 2002 00:00:01 +02",
        ])
    func rfcInvalid(text: String) {
        #expect(DateFormats.parseRFC822(text) == nil, "\(text)")
    }

    @Test("formatting uses milliseconds only when present, and pads years")
    func formatting() {
        #expect(DateFormats.formatISO8601(utcDate(2002, 9, 7, 0, 0, 1)) == "2002-09-07T00:00:01Z")
        #expect(DateFormats.formatISO8601(utcDate(2002, 9, 7, 0, 0, 1, ms: 250)) == "2002-09-07T00:00:01.250Z")
        #expect(DateFormats.formatISO8601(Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
        #expect(DateFormats.formatISO8601(Date(timeIntervalSince1970: -62_135_596_800)) == "0001-01-01T00:00:00Z")
        #expect(DateFormats.formatRFC1123(utcDate(2002, 9, 7, 0, 0, 1)) == "Sat, 07 Sep 2002 00:00:01 GMT")
        #expect(DateFormats.formatRFC1123(Date(timeIntervalSince1970: -86_400)) == "Wed, 31 Dec 1969 00:00:00 GMT")
    }
}

@Suite("Built-in transformers")
struct BuiltinTransformerTests {
    let registry = TransformerRegistry()

    func named(_ name: String) throws -> any IngredientTransformer { try registry.resolve(.string(name)) }

    @Test("every transformer maps nil to nil, except a lookup with a fallback")
    func nilPassesThrough() throws {
        for name in registry.names {
            #expect(try named(name).transform(nil) == nil, "\(name)")
        }
        #expect(try LookupTransformer(["a": 1], fallback: 0).transform(nil) == 0)
    }

    @Test("base64 accepts standard and URL-safe text, padded or not, and normalises it")
    func base64() throws {
        let t = try named("base64")
        let bytes = Data([0xFB, 0xFF, 0x01, 0x02])
        #expect(try t.transform(.string(bytes.base64EncodedString())) == .string("+/8BAg=="))
        #expect(try t.transform("-_8BAg") == "+/8BAg==")
        #expect(throws: EasyBakeError.self) { try t.transform("not base64!") }
        #expect(throws: EasyBakeError.self) { try t.transform(12) }
        struct Blob: Decodable { let data: Data }
        let recipe = try Recipe(mapping: ["data": "payload"], transformers: ["data": "base64"])
        #expect(try Baker().bake(Blob.self, from: ["payload": "-_8BAg"], recipe: recipe).data == bytes)
    }

    @Test("iso8601 normalises to canonical UTC text and rejects other values")
    func iso8601() throws {
        let t = try named("iso8601")
        #expect(try t.transform("2024-03-01T12:30:05.500+02:00") == "2024-03-01T10:30:05.500Z")
        #expect(try t.transform("2024-03-01") == "2024-03-01T00:00:00Z")
        #expect(throws: EasyBakeError.self) { try t.transform("yesterday") }
        #expect(throws: EasyBakeError.self) { try t.transform(20240301) }
        #expect(t.allowsReverseTransformation)
        #expect(try t.reverseTransform("2024-03-01T10:30:05Z") == "2024-03-01T10:30:05Z")
    }

    @Test("rfc822 reads feed dates and writes RFC 1123 back", arguments: ["rfc822", "rfc1123", "rfc2822"])
    func rfc822(name: String) throws {
        let t = try named(name)
        #expect(try t.transform("Sat, 07 Sep 2002 00:00:01 GMT") == "2002-09-07T00:00:01Z")
        #expect(try t.transform("Sat, 07 Sep 2002 02:00:01 +0200") == "2002-09-07T00:00:01Z")
        #expect(try t.reverseTransform("2002-09-07T00:00:01Z") == "Sat, 07 Sep 2002 00:00:01 GMT")
        #expect(try t.reverseTransform(1_031_356_801) == "Sat, 07 Sep 2002 00:00:01 GMT")
        #expect(try t.reverseTransform(.null) == .null)
        #expect(throws: EasyBakeError.self) { try t.transform("2002-09-07") }
        #expect(throws: EasyBakeError.self) { try t.reverseTransform("not a date") }
    }

    @Test("unixSeconds and unixMilliseconds read numbers and numeric strings, and reverse to numbers")
    func unixTime() throws {
        let seconds = try named("unixSeconds")
        #expect(try seconds.transform(0) == "1970-01-01T00:00:00Z")
        #expect(try seconds.transform(1_000_000_000) == "2001-09-09T01:46:40Z")
        #expect(try seconds.transform("1000000000") == "2001-09-09T01:46:40Z")
        #expect(try seconds.transform(1.5) == "1970-01-01T00:00:01.500Z")
        #expect(try seconds.transform(-86_400) == "1969-12-31T00:00:00Z")
        #expect(try seconds.reverseTransform("2001-09-09T01:46:40Z") == .integer(1_000_000_000))
        #expect(try seconds.reverseTransform("1970-01-01T00:00:01.500Z") == .float(1.5))
        #expect(throws: EasyBakeError.self) { try seconds.transform("soon") }
        #expect(throws: EasyBakeError.self) { try seconds.transform(.exactNumber("1e400")) }
        #expect(throws: EasyBakeError.self) { try seconds.transform(true) }

        let millis = try named("unixMilliseconds")
        #expect(try millis.transform(1_500) == "1970-01-01T00:00:01.500Z")
        #expect(try millis.transform(1_031_356_801_000) == "2002-09-07T00:00:01Z")
        #expect(try millis.reverseTransform("1970-01-01T00:00:01.500Z") == .integer(1_500))
    }

    @Test("the date factory reads and writes a DateFormatter pattern in UTC")
    func dateFactory() throws {
        let t = try registry.resolve(["date": "dd.MM.yyyy HH:mm"])
        #expect((t as? DateFormatTransformer)?.format == "dd.MM.yyyy HH:mm")
        #expect(try t.transform("07.09.2002 13:45") == "2002-09-07T13:45:00Z")
        #expect(try t.reverseTransform("2002-09-07T13:45:00Z") == "07.09.2002 13:45")
        #expect(throws: EasyBakeError.self) { try t.transform("2002-09-07") }
        #expect(throws: EasyBakeError.self) { try t.transform(7) }
        let zoned = DateFormatTransformer(format: "yyyy-MM-dd HH:mm", timeZone: TimeZone(secondsFromGMT: 3600)!)
        #expect(try zoned.transform("2002-09-07 01:00") == "2002-09-07T00:00:00Z")
    }

    @Test("url trims and checks, resolving relative URLs against a base")
    func url() throws {
        let t = try named("url")
        #expect(try t.transform("  https://example.com/a?b=1 ") == "https://example.com/a?b=1")
        #expect(throws: EasyBakeError.self) { try t.transform("") }
        #expect(throws: EasyBakeError.self) { try t.transform("   ") }
        #expect(throws: EasyBakeError.self) { try t.transform(42) }
        let based = try registry.resolve(["url": "https://example.com/feeds/"])
        #expect(try based.transform("img/a.png") == "https://example.com/feeds/img/a.png")
        #expect(try based.transform("/root.png") == "https://example.com/root.png")
        #expect(try based.transform("https://other.org/x") == "https://other.org/x")
        #expect(captureError { try registry.resolve(["url": 5]) }?.code == .invalidRecipe)
    }

    @Test("uuid normalises case and rejects malformed text")
    func uuid() throws {
        let t = try named("uuid")
        #expect(try t.transform("e621e1f8-c36c-495a-93fc-0c247a3e6e5f") == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(throws: EasyBakeError.self) { try t.transform("e621e1f8-c36c") }
        #expect(throws: EasyBakeError.self) { try t.transform(5) }
    }

    @Test("number reads numeric strings without rounding; string writes any scalar")
    func numberAndString() throws {
        let number = try named("number")
        #expect(try number.transform("42") == 42)
        #expect(try number.transform(" 2.5 ") == 2.5)
        #expect(try number.transform("1e400") == .exactNumber("1e400"))
        #expect(
            try number.transform("123456789012345678901234567890") == .exactNumber("123456789012345678901234567890"))
        #expect(try number.transform(true) == 1)
        #expect(try number.transform(7) == 7)
        #expect(throws: EasyBakeError.self) { try number.transform("forty") }
        // An array is transformed element by element, as every built-in of one value does (issue 27).
        #expect(try number.transform(["1", 2]) == [1, 2])
        #expect(throws: EasyBakeError.self) { try number.transform([["x": 1]]) }

        let string = try named("string")
        #expect(try string.transform(42) == "42")
        #expect(try string.transform(2.5) == "2.5")
        #expect(try string.transform(false) == "false")
        #expect(try string.transform(.exactNumber("1e400")) == "1e400")
        #expect(try string.transform("s") == "s")
        #expect(throws: EasyBakeError.self) { try string.transform(["a": 1]) }
    }

    @Test(
        "bool reads true/false, yes/no, on/off, 1/0",
        arguments: [
            (Ingredients.string("true"), true), ("FALSE", false), ("yes", true), ("No", false), ("on", true),
            ("off", false),
            ("1", true), ("0", false), (1, true), (0, false), (true, true),
        ])
    func bool(value: Ingredients, expected: Bool) throws {
        #expect(try named("bool").transform(value) == .bool(expected))
    }

    @Test("bool rejects anything else", arguments: [Ingredients.string("maybe"), 2, 0.5, "", ["a"]])
    func boolInvalid(value: Ingredients) throws {
        let error = try #require(captureError { try named("bool").transform(value) })
        #expect(error.code == .transformFailed)
    }

    @Test("trim, lowercase and uppercase edit text and pass other values")
    func textEdits() throws {
        #expect(try named("trim").transform("  a b \n") == "a b")
        #expect(try named("lowercase").transform("ÀBC") == "àbc")
        #expect(try named("uppercase").transform("straße") == "STRASSE")
        #expect(try named("trim").transform(5) == 5)
    }

    @Test("split cuts text into trimmed non-empty parts and joins them back")
    func split() throws {
        #expect(try named("split").transform("a, b,,c ") == ["a", "b", "c"])
        let pipes = try registry.resolve(["split": "|"])
        #expect(try pipes.transform("x | y") == ["x", "y"])
        #expect(try pipes.reverseTransform(["x", 1, true]) == "x|1|true")
        #expect(try pipes.transform(["already"]) == ["already"])
        #expect(captureError { try registry.resolve(["split": ""]) }?.code == .invalidRecipe)
    }

    @Test("lookup maps through a table, with a fallback, and reverses when injective")
    func lookup() throws {
        let t = try registry.resolve(["lookup": ["a": "admin", "m": "member", "1": "one"]])
        #expect(try t.transform("a") == "admin")
        #expect(try t.transform(1) == "one", "keys match a value's text")
        let error = try #require(captureError { try t.transform("x") })
        #expect(error.code == .transformFailed)
        #expect(error.message.contains("\"a\"") && error.message.contains("\"m\""))
        #expect(t.allowsReverseTransformation)
        #expect(try t.reverseTransform("member") == "m")
        #expect(throws: EasyBakeError.self) { try t.reverseTransform("guest") }

        let fallback = LookupTransformer(["a": 1], fallback: 0)
        #expect(try fallback.transform("zzz") == 0)
        let lossy = LookupTransformer(["a": 1, "b": 1])
        #expect(!lossy.allowsReverseTransformation)
        #expect(try lossy.reverseTransform(1) == 1)
    }

    @Test("a chain applies in order and reverses in reverse order")
    func chain() throws {
        let t = try registry.resolve(["trim", ["split": ","]])
        #expect(try t.transform(" a,b ") == ["a", "b"])
        #expect(try t.reverseTransform(["a", "b"]) == "a,b")
        let order = try registry.resolve(["uppercase", ["lookup": ["A": "found", "a": "wrong"]]])
        #expect(try order.transform("a") == "found")
        let dates = try registry.resolve(["trim", "rfc822"])
        #expect(try dates.reverseTransform("2002-09-07T00:00:01Z") == "Sat, 07 Sep 2002 00:00:01 GMT")
    }

    @Test("closure transformers run their closures")
    func closures() throws {
        let cents = ClosureTransformer(
            transform: { value in value?.doubleValue.map { .integer(Int64(($0 * 100).rounded())) } },
            reverse: { value in value?.doubleValue.map { .float($0 / 100) } })
        #expect(try cents.transform(12.34) == 1234)
        #expect(try cents.reverseTransform(1234) == 12.34)
        #expect(cents.allowsReverseTransformation)
        #expect(!ClosureTransformer { $0 }.allowsReverseTransformation)
    }
}

@Suite("Transformer registry")
struct TransformerRegistryTests {
    @Test("resolves names, factories and chains")
    func resolve() throws {
        let registry = TransformerRegistry()
        #expect(try registry.resolve("iso8601") is ISO8601DateTransformer)
        #expect(try registry.resolve(["lookup": ["a": 1]]) is LookupTransformer)
        let chain = try #require(try registry.resolve(["trim", "lowercase", ["date": "yyyy"]]) as? ChainTransformer)
        #expect(chain.transformers.count == 3)
        #expect(registry.names.contains("unixMilliseconds"))
        #expect(registry.factoryNames == ["date", "lookup", "pairs", "split", "url"])
    }

    @Test("an unknown name or factory throws unknownTransformer listing the known ones")
    func unknown() throws {
        let registry = TransformerRegistry()
        let name = try #require(captureError { try registry.resolve("iso8061") })
        #expect(name.code == .unknownTransformer)
        #expect(name.message.contains("\"iso8061\"") && name.message.contains("iso8601"))
        let factory = try #require(captureError { try registry.resolve(["dat": "yyyy"]) })
        #expect(factory.code == .unknownTransformer)
        #expect(factory.message.contains("date"))
        let inChain = try #require(captureError { try registry.resolve(["trim", "nope"]) })
        #expect(inChain.code == .unknownTransformer)
    }

    @Test(
        "malformed specs and factory arguments throw invalidRecipe",
        arguments: [
            Ingredients.integer(5), .null, ["date": 5], ["date": ""], ["lookup": "a"], ["date": "x", "lookup": [:]],
        ])
    func malformed(spec: Ingredients) throws {
        let error = try #require(captureError { try TransformerRegistry().resolve(spec) })
        #expect(error.code == .invalidRecipe)
    }

    @Test("registered transformers and factories resolve; an empty registry knows nothing")
    func register() throws {
        var registry = TransformerRegistry(includingBuiltins: false)
        #expect(registry.names.isEmpty)
        #expect(captureError { try registry.resolve("iso8601") }?.code == .unknownTransformer)
        registry.register(ClosureTransformer { _ in "constant" }, named: "constant")
        registry.registerFactory(named: "prefix") { argument throws(EasyBakeError) in
            let prefix = argument.stringValue ?? ""
            return ClosureTransformer { value in value?.stringValue.map { .string(prefix + $0) } }
        }
        #expect(try registry.resolve("constant").transform(1) == "constant")
        #expect(try registry.resolve(["prefix": "x-"]).transform("y") == "x-y")
        let recipe = try Recipe(mapping: ["a": "a"], transformers: ["a": .spec(["prefix": ">"])], registry: registry)
        #expect(try recipe.process(["a": "b"])["a"] == ">b")
    }
}

/// `yyyy-MM-ddTHH:mm:ssZ` is read at fixed offsets; any other spelling of
/// the same instant takes the general grammar. Both must agree, on valid
/// dates and on invalid ones alike.
@Suite("ISO 8601: the fixed-offset form")
struct FixedFormDateTests {
    @Test("the fixed form reads as the general grammar reads the same date, valid or not")
    func fixedFormAgreesWithGrammar() {
        var random = SeededGenerator(seed: 0x15)
        var valid = 0
        for _ in 0..<5_000 {
            func field(_ range: ClosedRange<Int>, _ width: Int) -> String {
                let text = String(Int.random(in: range, using: &random))
                return String(repeating: "0", count: max(0, width - text.count)) + text
            }
            let text =
                "\(field(0...9999, 4))-\(field(0...13, 2))-\(field(0...32, 2))T"
                + "\(field(0...25, 2)):\(field(0...60, 2)):\(field(0...61, 2))Z"
            // A lower-case zone letter is the same instant in the general grammar.
            let general = DateFormats.parseISO8601(String(text.dropLast()) + "z")
            #expect(DateFormats.parseISO8601(text) == general, "\(text)")
            if general != nil { valid += 1 }
        }
        #expect(valid > 1_000)
        #expect(DateFormats.parseISO8601("2024-02-29T24:00:00Z") == DateFormats.parseISO8601("2024-02-29T24:00:00z"))
        #expect(DateFormats.parseISO8601("2023-02-29T12:00:00Z") == nil)
        #expect(DateFormats.parseISO8601("2024-1a-01T00:00:00Z") == nil)
    }
}
