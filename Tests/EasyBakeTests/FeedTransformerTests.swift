import Testing
import Foundation
import EasyBake
import EasyBakeTestSupport

@Suite("Built-in transformers for feeds: duration, pairs, geoPoint, RFC 822 zone names")
struct FeedTransformerTests {
    private func transform(_ name: Ingredients, _ value: Ingredients) throws -> Ingredients? {
        try TransformerRegistry.builtIn.resolve(name).transform(value)
    }

    private func spec(of reference: TransformerReference) -> Ingredients {
        guard case .spec(let spec) = reference else { return .null }
        return spec
    }

    // MARK: duration

    @Test(
        "durations as iTunes, Media RSS (NPT) and YouTube write them are seconds",
        arguments: [
            ("05:00:30", Ingredients.integer(18_030)), ("30:00", .integer(1_800)), ("1800", .integer(1_800)),
            ("00:01", .integer(1)), ("00:00:15.500", .float(15.5)), ("npt=12:05:35.3", .float(43_535.3)),
            ("npt=123.45", .float(123.45)), ("90:00", .integer(5_400)), ("1:02:03", .integer(3_723)),
            (" 0:59 ", .integer(59)), ("PT4M13S", .integer(253)), ("P1DT2H", .integer(93_600)), ("PT0.5S", .float(0.5)),
            ("P2W", .integer(1_209_600)), ("pt1h", .integer(3_600)), ("0", .integer(0)),
        ])
    func durations(text: String, seconds: Ingredients) throws {
        #expect(try transform("duration", .string(text)) == seconds, "\(text)")
    }

    @Test("numbers are seconds already; null stays null")
    func durationNumbers() throws {
        #expect(try transform("duration", .integer(42)) == .integer(42))
        #expect(try transform("duration", .float(1.25)) == .float(1.25))
        #expect(try DurationTransformer().transform(nil) == nil)
    }

    @Test(
        "what is no duration fails, saying what was expected and why",
        arguments: [
            ("", nil), ("abc", nil), ("1:2:3:4", "at most hours, minutes and seconds"), ("10:60", "60 or more"),
            ("1:75:00", "60 or more"), ("1.5:00", nil), ("P1M", "years and months"), ("P1Y", "years and months"),
            ("PT", nil), ("PT1S2M", nil), ("-5", nil), ("1e3", nil), ("P1H", nil), ("PT1H1", nil),
        ] as [(String, String?)])
    func badDurations(text: String, reason: String?) {
        #expect {
            _ = try transform("duration", .string(text))
        } throws: { error in
            let message = (error as? EasyBakeError)?.message ?? ""
            return message.contains("expected a duration") && reason.map { message.contains($0) } ?? true
        }
    }

    @Test("a negative or infinite number is no duration")
    func badDurationNumbers() {
        #expect(throws: EasyBakeError.self) { _ = try transform("duration", .integer(-1)) }
        #expect(throws: EasyBakeError.self) { _ = try transform("duration", .float(-0.5)) }
        #expect(throws: EasyBakeError.self) { _ = try transform("duration", .bool(true)) }
    }

    @Test("the reverse writes HH:MM:SS, with the fraction when there is one, and reads back the same seconds")
    func durationReverse() throws {
        let transformer = DurationTransformer()
        #expect(try transformer.reverseTransform(.integer(18_030)) == .string("05:00:30"))
        #expect(try transformer.reverseTransform(.float(15.5)) == .string("00:00:15.5"))
        #expect(try transformer.reverseTransform(.integer(400_000)) == .string("111:06:40"))
        #expect(try transformer.reverseTransform(.string("05:00")) == .string("05:00"))
        var generator = SeededGenerator(seed: 28)
        for _ in 0..<2_000 {
            let milliseconds = Int64.random(in: 0...(1_000 * 360_000), using: &generator)
            let seconds = Double(milliseconds) / 1000
            let text = try #require(try transformer.reverseTransform(.float(seconds)))
            let back = try #require(try transformer.transform(text)?.doubleValue)
            #expect(abs(back - seconds) < 1e-6, "\(text)")
        }
    }

    @Test("a duration bakes into TimeInterval and Int properties; a fraction into Int fails rather than round")
    func durationBaking() throws {
        struct Episode: Decodable { let length: TimeInterval; let whole: Int? }
        let recipe = try Recipe(
            mapping: ["length": "itunes:duration", "whole": "itunes:duration"],
            transformers: ["length": .duration, "whole": .duration])
        let episode = try Baker().bake(Episode.self, from: ["itunes:duration": "1:02:03"], recipe: recipe)
        #expect(episode.length == 3_723)
        #expect(episode.whole == 3_723)
        #expect(throws: EasyBakeError.self) {
            _ = try Baker().bake(Episode.self, from: ["itunes:duration": "00:00:15.500"], recipe: recipe)
        }
    }

    // MARK: split and pairs

    @Test("split and pairs are usable by name, by factory and from Swift")
    func listReferences() throws {
        #expect(try transform("split", "swift, ios,macos ,, ") == ["swift", "ios", "macos"])
        #expect(try transform(["split": ";"], "a; b;c") == ["a", "b", "c"])
        #expect(try TransformerRegistry.builtIn.resolve(spec(of: .split("|"))).transform("x|y") == ["x", "y"])
        let pairs = try transform("pairs", "news: 5, abc:3, reuters")
        #expect(pairs == (["news": "5", "abc": "3", "reuters": .null] as Ingredients))
        let weighted = try TransformerRegistry.builtIn.resolve(spec(of: .pairs(default: 1)))
            .transform("news: 5, reuters")
        #expect(weighted == (["news": "5", "reuters": 1] as Ingredients))
        let custom = try transform(["pairs": ["separator": ";", "delimiter": "="]], "a=1; b = two ;c")
        #expect(custom == (["a": "1", "b": "two", "c": .null] as Ingredients))
    }

    @Test("Media RSS tags bake into [String: Int] with their weights")
    func mediaTags() throws {
        struct Item: Decodable { let tags: [String: Int]; let keywords: [String] }
        let recipe = try Recipe(
            mapping: ["tags": "media:tags", "keywords": "media:keywords"],
            transformers: ["tags": .pairs(default: 1), "keywords": .split])
        let item = try Baker().bake(
            Item.self, from: ["media:tags": "news: 5, abc:3, reuters", "media:keywords": "kitty, cat, big dog"],
            recipe: recipe)
        #expect(item.tags == ["news": 5, "abc": 3, "reuters": 1])
        #expect(item.keywords == ["kitty", "cat", "big dog"])
    }

    @Test("a key given twice or a value without a key is an error, never a guess")
    func badPairs() {
        #expect { _ = try transform("pairs", "a: 1, a: 2") } throws: {
            ($0 as? EasyBakeError)?.message.contains("\"a\" is given twice") == true
        }
        #expect { _ = try transform("pairs", ": 1") } throws: {
            ($0 as? EasyBakeError)?.message.contains("has a value but no key") == true
        }
        #expect(throws: EasyBakeError.self) { _ = try transform("pairs", .integer(3)) }
        #expect { _ = try TransformerRegistry.builtIn.resolve(["pairs": ["separator": ":"]]) } throws: {
            ($0 as? EasyBakeError)?.code == .invalidRecipe
        }
        #expect { _ = try TransformerRegistry.builtIn.resolve(["pairs": ["weight": 1]]) } throws: {
            ($0 as? EasyBakeError)?.message.contains("\"weight\"") == true
        }
    }

    @Test("pairs reverse into the delimited text they came from")
    func pairsReverse() throws {
        let transformer = KeyValuePairsTransformer()
        let text: Ingredients = "news:5,abc:3,reuters"
        let forward = try #require(try transformer.transform(text))
        #expect(try transformer.reverseTransform(forward) == text)
    }

    // MARK: geoPoint

    @Test("a GeoRSS point is a latitude and a longitude, their text kept")
    func geoPoint() throws {
        let point = try transform("geoPoint", "45.256 -71.92")
        #expect(point == (["latitude": .float(45.256), "longitude": .float(-71.92)] as Ingredients))
        struct Place: Decodable, Equatable { let latitude: Double; let longitude: Double }
        struct Item: Decodable { let point: Place }
        let recipe = try Recipe(mapping: ["point": "georss:point"], transformers: ["point": .geoPoint])
        let item = try Baker().bake(Item.self, from: ["georss:point": "45.256 -71.92"], recipe: recipe)
        #expect(item.point == Place(latitude: 45.256, longitude: -71.92))
        #expect(try GeoPointTransformer().reverseTransform(point) == "45.256 -71.92")
        #expect(try transform("geoPoint", "-90,180") == (["latitude": -90, "longitude": 180] as Ingredients))
    }

    @Test("a point out of range or not two numbers fails", arguments: ["91 0", "0 180.5", "45.2", "1 2 3", "a b", ""])
    func badGeoPoints(text: String) {
        #expect { _ = try transform("geoPoint", .string(text)) } throws: {
            ($0 as? EasyBakeError)?.message.contains("expected a point as \"latitude longitude\"") == true
        }
    }

    // MARK: RFC 822 zones

    @Test(
        "RFC 822 dates with European and other zone names",
        arguments: [
            ("Tue, 10 Jun 2003 04:00:00 CEST", 2), ("Tue, 10 Jun 2003 04:00:00 CET", 1),
            ("Tue, 10 Jun 2003 04:00:00 BST", 1),
            ("Tue, 10 Jun 2003 04:00:00 EEST", 3), ("Tue, 10 Jun 2003 04:00:00 WET", 0),
            ("Tue, 10 Jun 2003 04:00:00 MSK", 3),
            ("Tue, 10 Jun 2003 04:00:00 JST", 9), ("Tue, 10 Jun 2003 04:00:00 AEST", 10),
        ])
    func europeanZones(text: String, hours: Int) throws {
        let date = try #require(DateFormats.parseRFC822(text), "\(text)")
        #expect(date == utcDate(2003, 6, 10, 4).addingTimeInterval(Double(-hours * 3600)), "\(text)")
    }

    @Test("half-hour zones, and an ambiguous zone name fails rather than guess")
    func otherZones() throws {
        let date = try #require(DateFormats.parseRFC822("Tue, 10 Jun 2003 04:00:00 ACST"))
        #expect(date == utcDate(2003, 6, 10, 4).addingTimeInterval(-9.5 * 3600))
        #expect(DateFormats.parseRFC822("Tue, 10 Jun 2003 04:00:00 IST") == nil)
        #expect(DateFormats.parseRFC822("Tue, 10 Jun 2003 04:00:00 XYZ") == nil)
    }

    @Test("the registry's names include the new transformers, and its doc lists every one")
    func names() {
        for name in ["duration", "pairs", "geoPoint", "split"] {
            #expect(TransformerRegistry.builtIn.names.contains(name), "\(name)")
        }
        #expect(TransformerRegistry.builtIn.factoryNames.contains("pairs"))
    }
}

@Suite("Built-in transformers of one value treat an array element by element (issue 27, item 5)")
struct ElementwiseTransformerTests {
    @Test("every built-in transformer of one value maps an array as it maps a lone value, or fails naming the element")
    func everyBuiltIn() throws {
        let samples: [(String, Ingredients)] = [
            ("iso8601", "2024-03-01"), ("rfc822", "Sat, 07 Sep 2002 00:00:01 GMT"), ("unixSeconds", 0),
            ("unixMilliseconds", 1_000), ("url", "https://a.example/x"),
            ("uuid", "0d6f2a9c-8d4e-4c47-9d0a-3c1e7b2f9a11"),
            ("number", "42"), ("string", 7), ("bool", "yes"), ("trim", " a "), ("lowercase", "ABC"),
            ("uppercase", "abc"),
            ("base64", "aGk"), ("duration", "01:00"), ("geoPoint", "1 2"), ("pairs", "a: 1"),
        ]
        let names = TransformerRegistry.builtIn.names
        for (name, sample) in samples {
            let transformer = try TransformerRegistry.builtIn.resolve(.string(name))
            let one = try #require(try transformer.transform(sample), "\(name)")
            #expect(try transformer.transform([sample, sample]) == [one, one], "\(name)")
            #expect(try transformer.transform([sample]) == [one], "\(name)")
            if transformer.allowsReverseTransformation {
                #expect(
                    try transformer.reverseTransform([one]) == [try transformer.reverseTransform(one) ?? .null],
                    "\(name)")
            }
        }
        // Every built-in but split (and its aliases) is sampled here.
        let sampled = Set(samples.map(\.0)).union(["split", "rfc1123", "rfc2822"])
        #expect(Set(names).subtracting(sampled).isEmpty, "\(Set(names).subtracting(sampled))")
        // One element that does not transform fails the array, naming it.
        #expect {
            _ = try TransformerRegistry.builtIn.resolve("url").transform(["https://a.example", ""])
        } throws: { ($0 as? EasyBakeError)?.message.hasPrefix("element 1: expected a URL") == true }
    }

    @Test("split splits each string of an array into one array of parts")
    func splitArrays() throws {
        let split = try TransformerRegistry.builtIn.resolve("split")
        #expect(try split.transform(["a, b", "c", 3]) == ["a", "b", "c", 3])
    }

    @Test("one XML element and two transform alike in a recipe: a lowercase category and a list of them")
    func xmlOneAndTwo() throws {
        struct Item: Decodable { let categories: [String] }
        let recipe = try Recipe(
            mapping: ["categories": "category"], transformers: ["categories": .spec(["trim", "lowercase"])])
        let one = try Baker().bake(Item.self, from: ["category": " Bread "], recipe: recipe)
        let two = try Baker().bake(Item.self, from: ["category": [" Bread ", "TOOLS"]], recipe: recipe)
        #expect(one.categories == ["bread"])
        #expect(two.categories == ["bread", "tools"])
    }
}
