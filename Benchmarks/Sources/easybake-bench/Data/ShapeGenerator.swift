import Foundation

/// The real-world document shapes of scenario 5, each unlike the benchmark's
/// flat records in the way that stresses a different part of a parser.
enum Shape: String, CaseIterable, Codable, Sendable {
    /// A social API's search response: deep nesting, many short strings and
    /// nulls, escapes (`\/`, `\uXXXX`, surrogate pairs) in nearly every value.
    case api
    /// A catalogue keyed by product id: one big dictionary, decoded into
    /// `[String: Product]`.
    case keyed
    /// A GeoJSON-like feature collection: long arrays of 16-digit doubles.
    case numbers

    /// What one element of the document is, for the reports.
    var elements: String {
        switch self {
        case .api: "statuses"
        case .keyed: "products"
        case .numbers: "features"
        }
    }
}

/// Writes one shape's JSON document, one element (status, product, feature)
/// at a time, like ``RecordGenerator``: element `i` depends only on the seed
/// and `i`, and every number is written from integers (no `String(format:)`,
/// no trigonometry), so the same seed gives the same bytes on every platform.
struct ShapeGenerator: Sendable {
    /// Bump when the output changes, so old files are rewritten.
    static let version = 1

    let shape: Shape
    let seed: UInt64

    func header(into out: inout [UInt8]) {
        switch shape {
        case .api: out.put("{\"statuses\":[\n")
        case .keyed: out.put("{\"products\":{\n")
        case .numbers: out.put("{\"type\":\"FeatureCollection\",\"features\":[\n")
        }
    }

    func element(at index: Int, first: Bool, into out: inout [UInt8]) {
        if !first { out.put(",\n") }
        var rng = SplitMix64(seed: seed ^ (UInt64(index) &* 0x9e6c_63d0_676a_9a99) ^ UInt64(shape.hashSeed))
        switch shape {
        case .api: status(index, &rng, into: &out)
        case .keyed: product(index, &rng, into: &out)
        case .numbers: feature(index, &rng, into: &out)
        }
    }

    func footer(elements: Int, into out: inout [UInt8]) {
        switch shape {
        case .api:
            // Like the real thing, the metadata follows the statuses: a
            // decoder must walk past all of them to reach it.
            let maxID = Self.statusID(elements - 1)
            out.put("\n],\"search_metadata\":{\"completed_in\":0.087,\"max_id\":\(maxID),\"max_id_str\":\"\(maxID)\",")
            out.put("\"next_results\":\"?max_id=\(maxID - 1)&q=%23swift&count=\(elements)&include_entities=1\",")
            out.put("\"query\":\"%23swift\",\"refresh_url\":\"?since_id=\(maxID)&q=%23swift&include_entities=1\",")
            out.put("\"count\":\(elements),\"since_id\":0,\"since_id_str\":\"0\"}}\n")
        case .keyed: out.put("\n}}\n")
        case .numbers: out.put("\n]}\n")
        }
    }

    // MARK: api

    /// Status ids grow like snowflake ids: 18 digits, past 2^53, so a parser
    /// that reads integers through `Double` loses them.
    static func statusID(_ index: Int) -> Int { 505_874_924_095_815_681 + index * 7919 }

    private func status(_ index: Int, _ rng: inout SplitMix64, into out: inout [UInt8]) {
        func number(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        func pick<T>(_ list: [T]) -> T { list[number(0...list.count - 1)] }
        func chance(_ percent: Int) -> Bool { number(0...99) < percent }

        let id = Self.statusID(index)
        let userID = number(10_000...3_000_000_000)
        let first = pick(Words.firstNames)
        let screenName = "\(pick(Words.handles))_\(number(1...9999))"
        let lang = pick(ShapeWords.languages)

        // The text, with the entities' indices pointing into it (in UTF-16
        // units, as the real API counts; only ASCII comes before them).
        var text = ""
        var hashtags: [(String, Int, Int)] = []
        var mentions: [(String, Int, Int)] = []
        var urls: [(String, Int, Int)] = []
        if chance(30) {
            let handle = "\(pick(Words.handles))\(number(1...99))"
            text += "@\(handle) "
            mentions.append((handle, 0, handle.count + 1))
        }
        for _ in 0..<number(2...4) {
            let tag = pick(Words.tags)
            let start = text.utf16.count
            text += "#\(tag) "
            hashtags.append((tag, start, start + tag.count + 1))
        }
        let link = "https://t.co/\(String(UInt64(index) &* 2_654_435_761 % 1_000_000_007, radix: 36))"
        let linkStart = text.utf16.count
        text += link
        urls.append((link, linkStart, linkStart + link.utf16.count))
        text += " " + (0..<number(4...12)).map { _ in pick(ShapeWords.text) }.joined(separator: " ")

        out.put(
            "{\"created_at\":\"\(twitterDate(number(1_230_768_000...1_767_225_599)))\",\"id\":\(id),\"id_str\":\"\(id)\",\"text\":"
        )
        // Half the texts are sent as ASCII with \u escapes, as many APIs do.
        jsonString(text, asciiOnly: chance(50), into: &out)
        out.put(",\"truncated\":\(chance(5)),\"entities\":{\"hashtags\":[")
        for (i, tag) in hashtags.enumerated() {
            out.put(i == 0 ? "{\"text\":" : ",{\"text\":")
            jsonString(tag.0, into: &out)
            out.put(",\"indices\":[\(tag.1),\(tag.2)]}")
        }
        out.put("],\"symbols\":[],\"urls\":[")
        for (i, url) in urls.enumerated() {
            let path = "\(pick(Words.tags))/\(number(1...99_999))"
            out.put(i == 0 ? "{\"url\":" : ",{\"url\":")
            jsonString(url.0, escapingSlashes: true, into: &out)
            out.put(",\"expanded_url\":")
            jsonString(
                "https://\(pick(Words.domains))/\(path)?utm_source=api&lang=\(lang)", escapingSlashes: true, into: &out)
            out.put(",\"display_url\":")
            jsonString("\(pick(Words.domains))/\(path.prefix(8))…", escapingSlashes: true, into: &out)
            out.put(",\"indices\":[\(url.1),\(url.2)]}")
        }
        out.put("],\"user_mentions\":[")
        for (i, mention) in mentions.enumerated() {
            let mentionID = number(10_000...3_000_000_000)
            out.put(i == 0 ? "{\"screen_name\":" : ",{\"screen_name\":")
            jsonString(mention.0, into: &out)
            out.put(",\"name\":")
            jsonString("\(pick(Words.firstNames)) \(pick(Words.lastNames))", into: &out)
            out.put(",\"id\":\(mentionID),\"id_str\":\"\(mentionID)\",\"indices\":[\(mention.1),\(mention.2)]}")
        }
        out.put(
            "]},\"metadata\":{\"result_type\":\"\(chance(90) ? "recent" : "popular")\",\"iso_language_code\":\"\(lang)\"},"
        )
        out.put("\"source\":")
        jsonString(
            "<a href=\"https://\(pick(Words.domains))/client\" rel=\"nofollow\">\(pick(ShapeWords.clients))</a>",
            escapingSlashes: true, into: &out)
        let reply = chance(20)
        let replyID = id - number(1...1_000_000)
        let replyUser = number(10_000...3_000_000_000)
        out.put(
            reply
                ? ",\"in_reply_to_status_id\":\(replyID),\"in_reply_to_status_id_str\":\"\(replyID)\","
                    + "\"in_reply_to_user_id\":\(replyUser),\"in_reply_to_user_id_str\":\"\(replyUser)\",\"in_reply_to_screen_name\":"
                : ",\"in_reply_to_status_id\":null,\"in_reply_to_status_id_str\":null,"
                    + "\"in_reply_to_user_id\":null,\"in_reply_to_user_id_str\":null,\"in_reply_to_screen_name\":")
        if reply { jsonString("\(pick(Words.handles))_\(number(1...9999))", into: &out) } else { out.put("null") }

        out.put(",\"user\":{\"id\":\(userID),\"id_str\":\"\(userID)\",\"name\":")
        jsonString(
            "\(first) \(pick(Words.lastNames))\(chance(20) ? " \(pick(ShapeWords.emoji))" : "")", asciiOnly: chance(50),
            into: &out)
        out.put(",\"screen_name\":")
        jsonString(screenName, into: &out)
        out.put(",\"location\":")
        jsonString(chance(70) ? pick(Words.cities) : "", asciiOnly: chance(50), into: &out)
        out.put(",\"description\":")
        jsonString(
            (0..<number(0...10)).map { _ in pick(ShapeWords.text) }.joined(separator: " "), asciiOnly: chance(50),
            into: &out)
        out.put(",\"url\":")
        if chance(40) {
            jsonString("https://t.co/\(String(userID, radix: 36))", escapingSlashes: true, into: &out)
        } else {
            out.put("null")
        }
        let created = number(1_167_609_600...1_735_689_599)
        out.put(
            ",\"protected\":\(chance(3)),\"followers_count\":\(number(0...2_000_000)),\"friends_count\":\(number(0...5000)),"
        )
        out.put("\"listed_count\":\(number(0...900)),\"created_at\":\"\(twitterDate(created))\",")
        out.put("\"favourites_count\":\(number(0...80_000)),\"utc_offset\":")
        out.put(chance(40) ? "\(number(-12...14) * 3600)" : "null")
        out.put(",\"time_zone\":")
        if chance(40) { jsonString(pick(Words.timezones), into: &out) } else { out.put("null") }
        out.put(",\"geo_enabled\":\(chance(30)),\"verified\":\(chance(4)),\"statuses_count\":\(number(1...300_000)),")
        out.put("\"lang\":\"\(lang)\",\"profile_background_color\":\"\(hexColor(&rng))\",")
        out.put("\"profile_image_url\":")
        jsonString(
            "http://pbs.example.com/profile_images/\(userID)/avatar_normal.jpeg", escapingSlashes: true, into: &out)
        out.put(",\"profile_image_url_https\":")
        jsonString(
            "https://pbs.example.com/profile_images/\(userID)/avatar_normal.jpeg", escapingSlashes: true, into: &out)
        out.put(",\"profile_link_color\":\"\(hexColor(&rng))\",\"default_profile\":\(chance(50)),")
        out.put("\"default_profile_image\":\(chance(10)),\"following\":false,\"notifications\":false},")

        out.put("\"geo\":null,\"coordinates\":")
        if chance(10) {
            out.put("{\"type\":\"Point\",\"coordinates\":[")
            putFixed(number(-1_800_000...1_800_000), decimals: 4, into: &out)
            out.put(",")
            putFixed(number(-900_000...900_000), decimals: 4, into: &out)
            out.put("]}")
        } else {
            out.put("null")
        }
        out.put(",\"place\":null,\"contributors\":null,\"is_quote_status\":\(chance(8)),")
        out.put(
            "\"retweet_count\":\(chance(60) ? 0 : number(1...50_000)),\"favorite_count\":\(chance(50) ? 0 : number(1...90_000)),"
        )
        out.put("\"favorited\":false,\"retweeted\":false,\"lang\":\"\(lang)\"}")
    }

    /// `Wed Aug 27 13:08:45 +0000 2008`, the date format of that API.
    private func twitterDate(_ seconds: Int) -> String {
        let t = civilTime(seconds)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(ShapeWords.weekdays[t.weekday]) \(ShapeWords.months[t.month - 1]) \(two(t.day)) "
            + "\(two(t.hour)):\(two(t.minute)):\(two(t.second)) +0000 \(t.year)"
    }

    private func hexColor(_ rng: inout SplitMix64) -> String {
        let hex = String(rng.next() & 0xff_ffff, radix: 16, uppercase: true)
        return String(repeating: "0", count: 6 - hex.count) + hex
    }

    // MARK: keyed

    private func product(_ index: Int, _ rng: inout SplitMix64, into out: inout [UInt8]) {
        func number(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        func pick<T>(_ list: [T]) -> T { list[number(0...list.count - 1)] }

        out.put("\"\(Self.productKey(index))\":{\"name\":")
        jsonString("\(pick(ShapeWords.adjectives)) \(pick(ShapeWords.products))", into: &out)
        out.put(",\"price\":")
        putFixed(number(99...250_000), decimals: 2, into: &out)
        out.put(",\"currency\":\"\(pick(ShapeWords.currencies))\",\"stock\":\(number(0...5000)),\"discount\":")
        if number(0...3) == 0 { putFixed(number(5...50), decimals: 2, into: &out) } else { out.put("null") }
        out.put(",\"tags\":[")
        for i in 0..<number(0...4) {
            if i > 0 { out.put(",") }
            jsonString(pick(Words.tags), into: &out)
        }
        out.put("],\"dimensions\":{\"w\":")
        putFixed(number(10...2000), decimals: 1, into: &out)
        out.put(",\"h\":")
        putFixed(number(10...2000), decimals: 1, into: &out)
        out.put(",\"d\":")
        putFixed(number(10...2000), decimals: 1, into: &out)
        out.put("}}")
    }

    /// `p-000017`: ids as catalogues write them.
    static func productKey(_ index: Int) -> String {
        let digits = String(index + 1)
        return "p-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    // MARK: numbers

    private func feature(_ index: Int, _ rng: inout SplitMix64, into out: inout [UInt8]) {
        func number(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        out.put("{\"type\":\"Feature\",\"properties\":{\"name\":")
        jsonString("Parcel \(index + 1) \(pick(ShapeWords.places, &rng))", into: &out)
        out.put(",\"id\":\(index + 1)},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[")
        // An outer ring, and a hole in one feature of three. Coordinates are
        // integers of 1e-13 degrees, written as 16-digit decimals: a random
        // walk around a centre, closed as GeoJSON requires.
        let lonCentre = number(-1_700_000...1_700_000) * 100_000_000
        let latCentre = number(-800_000...800_000) * 100_000_000
        for ring in 0..<(number(0...2) == 0 ? 2 : 1) {
            out.put(ring == 0 ? "[" : ",[")
            let points = ring == 0 ? number(1000...4000) : number(100...400)
            var lon = lonCentre, lat = latCentre
            for point in 0..<points {
                if point > 0 { out.put(",") }
                if point == points - 1 { (lon, lat) = (lonCentre, latCentre) }
                out.put("[")
                putFixed(lon, decimals: 13, into: &out)
                out.put(",")
                putFixed(lat, decimals: 13, into: &out)
                out.put("]")
                lon += number(-5_000_000_000...5_000_000_000)
                lat += number(-5_000_000_000...5_000_000_000)
            }
            out.put("]")
        }
        out.put("]}}")
    }

    private func pick<T>(_ list: [T], _ rng: inout SplitMix64) -> T {
        list[Int.random(in: 0...list.count - 1, using: &rng)]
    }
}

private extension Shape {
    /// Mixed into each element's seed, so that the shapes' streams differ.
    var hashSeed: Int {
        switch self {
        case .api: 0x5a17
        case .keyed: 0x6b28
        case .numbers: 0x7c39
        }
    }
}

/// `value / 10^decimals` written exactly, as a decimal with `decimals`
/// fraction digits: `putFixed(-1234, decimals: 2)` writes `-12.34`.
func putFixed(_ value: Int, decimals: Int, into out: inout [UInt8]) {
    var scale = 1
    for _ in 0..<decimals { scale *= 10 }
    if value < 0 { out.append(UInt8(ascii: "-")) }
    out.put(value.magnitude / UInt(scale))
    out.append(UInt8(ascii: "."))
    let fraction = String(value.magnitude % UInt(scale))
    out.put(String(repeating: "0", count: decimals - fraction.count) + fraction)
}

private extension Array where Element == UInt8 {
    mutating func put(_ value: UInt) { append(contentsOf: String(value).utf8) }
}

/// Writes `text` as a JSON string. `asciiOnly` writes every non-ASCII
/// character as `\uXXXX` (a surrogate pair above U+FFFF); `escapingSlashes`
/// writes `/` as `\/`, as some APIs do in URLs.
func jsonString(_ text: String, asciiOnly: Bool = false, escapingSlashes: Bool = false, into out: inout [UInt8]) {
    func hex4(_ unit: UInt16) {
        let digits = String(unit, radix: 16)
        out.put("\\u" + String(repeating: "0", count: 4 - digits.count) + digits)
    }
    out.append(UInt8(ascii: "\""))
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out.put("\\\"")
        case "\\": out.put("\\\\")
        case "\n": out.put("\\n")
        case "\t": out.put("\\t")
        case "/" where escapingSlashes: out.put("\\/")
        case _ where scalar.value < 0x20: hex4(UInt16(scalar.value))
        case _ where scalar.value >= 0x80 && asciiOnly:
            for unit in String(scalar).utf16 { hex4(unit) }
        default: out.append(contentsOf: String(scalar).utf8)
        }
    }
    out.append(UInt8(ascii: "\""))
}

/// Word lists of the shapes, with the characters that make real API text
/// hard to read: accents, CJK, emoji beyond the BMP, quotes, newlines, HTML
/// entities left escaped.
enum ShapeWords {
    static let text = [
        "just", "shipped", "a", "new", "release", "of", "our", "parser", "🎉", "🚀", "benchmarks", "are",
        "in", "&amp;", "it's", "\"fast\"", "really", "fast", "—", "café", "東京", "で", "勉強会", "naïve",
        "Zürich", "meetup", "tonight", "line\nbreak", "50%", "faster", "than", "before", "👍🏽", "→", "RT",
        "¿qué", "tal?", "merci", "Straße", "ok",
    ]
    static let emoji = ["🦊", "🌱", "☕️", "🇨🇭", "✨"]
    static let languages = ["en", "ja", "de", "fr", "es", "pt", "und"]
    static let clients = ["Twitter for iPhone", "Twitter Web App", "TweetDeck", "Buffer", "Tweetbot for iOS"]
    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let adjectives = [
        "Compact", "Deluxe", "Ergonomic", "Rustic", "Sleek", "Handmade", "Smart", "Wireless",
        "Vintage", "Öko",
    ]
    static let products = [
        "Chair", "Lamp", "Keyboard", "Kettle", "Backpack", "Desk", "Speaker", "Mug", "Notebook",
        "Headphones",
    ]
    static let currencies = ["EUR", "USD", "CHF", "JPY", "GBP"]
    static let places = ["North Field", "Riverside", "Old Town", "Hillcrest", "Lakeshore", "Wetland", "Orchard"]
}

extension Words {
    static let handles = [
        "swiftlang", "dev", "coder", "jsonfan", "parsers", "night_owl", "tea_time", "bytes",
        "compiler", "hacker",
    ]
}
