import EasyBake
import EasyBakeXML
import Testing

private let lenient = XMLReadingOptions(lenientReferences: true)

/// The tree and the warnings of reading `xml` through events.
private func lenientRead(_ xml: String, options: XMLReadingOptions = lenient) throws -> (Ingredients, [EasyBakeError]) {
    var source = try XMLIngredientSource(.text(xml, name: "feed.rss"), options: options)
    let tree = try Ingredients(reading: &source)
    return (tree, source.warnings)
}

/// The tree and the warnings of reading `xml` straight into an index.
private func lenientIndex(_ xml: String, options: XMLReadingOptions = lenient) throws -> (Ingredients, [EasyBakeError])
{
    var index = IngredientIndex()
    let warnings = try XMLFormat(options: options).readIndexReporting(.text(xml, name: "feed.rss"), into: &index)
    return (try Ingredients(index: index), warnings)
}

/// `(line, column)` of each warning.
private func positions(_ warnings: [EasyBakeError]) -> [[Int]] {
    warnings.map { [$0.location?.line ?? 0, $0.location?.column ?? 0] }
}

struct FeedEntry: Decodable, Equatable {
    let title: String
    let link: String
}

@Suite("XML: lenient reading of feeds that are not well-formed (bare &, HTML entities)")
struct XMLLenientReadingTests {
    /// A feed with each kind of damage, one per line, and where each is.
    static let damagedFeed = """
        <rss version="2.0">
          <channel>
            <title>Caf&eacute; news&nbsp;&mdash; daily</title>
            <link>https://news.example.com/?utm_source=a&utm_medium=rss</link>
            <image url="https://news.example.com/logo.png?w=1&h=2"/>
            <copyright>&copy; 2025 Tom & Jerry &foo;</copyright>
            <item><title>AT&amp;T &#233;t&#xE9;</title><link>https://news.example.com/1?a&b</link></item>
          </channel>
        </rss>
        """

    static let damagedTree: Ingredients = [
        "rss": [
            "@version": "2.0",
            "channel": [
                "title": "Caf\u{E9} news\u{A0}\u{2014} daily",
                "link": "https://news.example.com/?utm_source=a&utm_medium=rss",
                "image": ["@url": "https://news.example.com/logo.png?w=1&h=2"],
                "copyright": "\u{A9} 2025 Tom & Jerry &foo;",
                "item": ["title": "AT&T \u{E9}t\u{E9}", "link": "https://news.example.com/1?a&b"],
            ],
        ]
    ]

    static let damagePositions = [
        [3, 15], [3, 28], [3, 34], [4, 49], [5, 54], [6, 16], [6, 32], [6, 40], [7, 82],
    ]

    @Test("each repair reads as feed readers read it, with a warning at its line and column, on both roads")
    func eachKindOfDamage() throws {
        let (tree, warnings) = try lenientRead(Self.damagedFeed)
        #expect(tree == Self.damagedTree)
        #expect(positions(warnings) == Self.damagePositions)
        #expect(warnings.allSatisfy { $0.code == .syntax && $0.location?.sourceName == "feed.rss" })
        #expect(
            warnings[0].message == #"the HTML entity "&eacute;", which XML does not define, is read as "é" (U+00E9)"#)
        #expect(
            warnings[3].message
                == #"a bare "&" is read as text: expected a reference such as "&amp;" or "&#38;", found "&utm_medium=rss""#
        )
        #expect(
            warnings[7].message
                == #"the entity "&foo;" is declared nowhere and is no HTML entity; it is kept as the text "&foo;""#)
        // The caret points at the `&` in the line as written.
        #expect(
            warnings[3].description.hasSuffix(
                "4 |     <link>https://news.example.com/?utm_source=a&utm_medium=rss</link>\n  | "
                    + String(repeating: " ", count: 48) + "^"))

        let (indexed, indexWarnings) = try lenientIndex(Self.damagedFeed)
        #expect(indexed == Self.damagedTree)
        #expect(positions(indexWarnings) == Self.damagePositions)
        #expect(indexWarnings.map(\.message) == warnings.map(\.message))
    }

    @Test(
        "the strict default still rejects each kind of damage, naming its line and column",
        arguments: [
            ("<a>Tom & Jerry</a>", 1, 9),
            ("<a>\n<b>x?a=1&b=2</b></a>", 2, 11),
            ("<a href=\"?a=1&b=2\"/>", 1, 16),
            ("<a>caf&eacute;</a>", 1, 15),
            ("<a>&nbsp;</a>", 1, 10),
            ("<a>&foo;</a>", 1, 9),
        ])
    func strictDefault(xml: String, line: Int, column: Int) throws {
        let error = try #require(xmlError(xml))
        #expect(error.code == .syntax)
        // The message says what XML expected there, and how to read feeds.
        #expect(error.message.hasPrefix("expected "))
        #expect(error.message.contains("lenientReferences"))
        #expect(error.location?.line == line)
        #expect(error.location?.column == column)
    }

    @Test("numeric references stay as XML reads them, and warn of nothing")
    func numericReferences() throws {
        let (tree, warnings) = try lenientRead("<a b=\"&#38;&#x26;\">&#233;&#xE9;&#38;</a>")
        #expect(tree == ["a": ["@b": "&&", "#text": "\u{E9}\u{E9}&"]])
        #expect(warnings.isEmpty)
        // An invalid one is still an error: only the bare `&` is repaired.
        #expect(xmlError("<a>&#0;</a>", options: lenient)?.code == .syntax)
    }

    @Test("an & at the very end of the input, and at the end of a read chunk")
    func ampersandAtTheEnd() throws {
        let (tree, warnings) = try lenientRead("<a>fish &</a>")
        #expect(tree == ["a": "fish &"])
        #expect(positions(warnings) == [[1, 9]])

        // The input ends right after the `&`: the repair is reported, and the
        // document is still cut.
        var source = try XMLIngredientSource(.text("<a>AT&", name: "cut.xml"), options: lenient)
        #expect(throws: EasyBakeError.self) { try Ingredients(reading: &source) }
        #expect(positions(source.warnings) == [[1, 6]])

        // An `&` as the last byte of the reader's first 64 KiB chunk, and a
        // reference cut by it: the rewrite waits for the next bytes.
        for (padding, tail) in [(65_536 - 4, "&x"), (65_536 - 6, "&nbsp;x"), (65_536 - 5, "&#233;")] {
            let xml = "<a>" + String(repeating: "y", count: padding) + tail + "</a>"
            let (long, longWarnings) = try lenientRead(xml)
            let text = try #require(long.resolve("a")?.stringValue)
            #expect(text.hasSuffix(tail == "&x" ? "y&x" : tail == "&#233;" ? "y\u{E9}" : "y\u{A0}x"))
            #expect(longWarnings.count == (tail == "&#233;" ? 0 : 1))
            #expect(longWarnings.first.map { $0.location?.column == padding + 4 } ?? true)
        }
    }

    @Test("comments, CDATA sections, processing instructions and the DOCTYPE keep their & untouched")
    func markupIsLeftAlone() throws {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE r [<!-- a ' & " ] --><!ENTITY nbsp "&#32;"><?pi a&b?>]>
            <r><!-- x & y --><?go a&b?><c><![CDATA[a & b]]></c><d>&nbsp;</d></r>
            """
        let (tree, warnings) = try lenientRead(xml)
        // The document's own declaration wins over HTML's.
        #expect(tree == ["r": ["c": "a & b", "d": " "]])
        #expect(warnings.isEmpty)
    }

    @Test("a later error or event on a repaired line names the column as written")
    func positionsAfterARepair() throws {
        let error = try #require(xmlError("<a>x&y&z <b></a>", options: lenient))
        #expect(error.location?.line == 1)
        #expect(error.location?.column == 17)
        let strictColumn = try #require(xmlError("<a>x&amp;y&amp;z <b></a>")).location?.column
        #expect(strictColumn == 25)

        var source = try XMLIngredientSource(.text("<r><a>&&&</a><b>1</b></r>"), options: lenient)
        var bLocation: EasyBake.SourceLocation?
        while let event = try source.next() {
            if event == .key("b") { bLocation = source.location }
        }
        var plain = try XMLIngredientSource(.text("<r><a>xxx</a><b>1</b></r>"))
        var plainLocation: EasyBake.SourceLocation?
        while let event = try plain.next() {
            if event == .key("b") { plainLocation = plain.location }
        }
        #expect(bLocation == plainLocation)
    }

    @Test("HTML 4 / XHTML 1 entities of each set read as their characters")
    func htmlEntitySets() throws {
        // latin1, symbol and special, first and last of each set.
        let names = [
            "nbsp": "\u{A0}", "yuml": "\u{FF}", "fnof": "\u{192}", "diams": "\u{2666}",
            "Alpha": "\u{391}", "thetasym": "\u{3D1}", "OElig": "\u{152}", "euro": "\u{20AC}",
            "rsaquo": "\u{203A}", "zwnj": "\u{200C}",
        ]
        for (name, text) in names {
            let (tree, warnings) = try lenientRead("<a>&\(name);</a>")
            #expect(tree == ["a": .string(text)], "\(name)")
            #expect(warnings.count == 1)
        }
        // HTML 5's names with two code points.
        #expect(try lenientRead("<a>&NotEqualTilde;</a>").0 == ["a": "\u{2242}\u{338}"])
    }

    @Test("security stays: HTML entities count against the expansion budget, external entities are refused")
    func securityStays() throws {
        let many = "<a>" + String(repeating: "&nbsp;", count: 100) + "</a>"
        let limited = XMLReadingOptions(lenientReferences: true, limits: .init(maximumExpansion: 500))
        #expect(xmlError(many, options: limited)?.code == .limitExceeded)
        #expect(xmlError(many, options: lenient) == nil)
        let external = "<!DOCTYPE a [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><a>&e;</a>"
        #expect(xmlError(external, options: lenient)?.code == .forbidden)
    }

    @Test("a bake reports the repairs first, from bytes and while streaming")
    func bakingReportsRepairs() throws {
        let feed = """
            <rss><channel>
            <item><title>Tom &amp; Jerry&nbsp;</title><link>https://e.com/?a=1&b=2</link></item>
            <item><title>Caf&eacute;</title><link>https://e.com/?c=3</link></item>
            </channel></rss>
            """
        struct Channel: Decodable { let item: [FeedEntry] }
        struct Feed: Decodable { let rss: [String: Channel] }
        let result = try Baker().bakeReporting(
            Feed.self, from: .text(feed, name: "feed.rss"), format: XMLFormat(options: lenient))
        #expect(
            result.value.rss["channel"]?.item == [
                FeedEntry(title: "Tom & Jerry\u{A0}", link: "https://e.com/?a=1&b=2"),
                FeedEntry(title: "Caf\u{E9}", link: "https://e.com/?c=3"),
            ])
        #expect(positions(result.warnings) == [[2, 29], [2, 67], [3, 17]])

        let source = try XMLIngredientSource(.text(feed, name: "feed.rss"), options: lenient)
        var records = try Baker().bakeEach(FeedEntry.self, from: source, each: "rss.channel.item[*]")
        var baked: [FeedEntry] = []
        while let record = records.next() { baked.append(try record.get()) }
        #expect(baked == result.value.rss["channel"]?.item)
        #expect(positions(records.reader.source.warnings) == [[2, 29], [2, 67], [3, 17]])

        // The strict default refuses the same feed, where the first `&` is.
        #expect(throws: EasyBakeError.self) {
            try Baker().bakeReporting(Feed.self, from: .text(feed), format: XMLFormat())
        }
    }

    @Test("a value that is skipped still has its repairs reported")
    func skippedValuesWarn() throws {
        var source = try XMLIngredientSource(.text("<r><a>x&y</a><b>&nbsp;</b><c>1</c></r>"), options: lenient)
        let resolution = try PathMatcher(["r.c"]).resolve(from: &source)
        #expect(resolution.values[0] == "1")
        #expect(positions(source.warnings) == [[1, 8], [1, 17]])
    }
}
