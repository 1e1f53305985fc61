import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import EasyBakeXML
import Foundation
import Testing

// The code of the "XML conventions" article, line for line (`shownCode`
// checks it); its commands run in easybakeTests' DocumentationCommandTests.

@Suite("The XML conventions article")
struct XMLConventionsArticleTests {
    @Test("the article shows the code these tests run")
    func shownCode() throws {
        let check = try DocumentationExamples.checkSwiftListings(
            in: try DocumentationExamples.article("EasyBakeXML", "XMLConventions"), runBy: #filePath)
        #expect(check.listings == 6)
        #expect(check.notRun == [])
    }

    @Test("trimming and stripped namespaces")
    func options() throws {
        let xml =
            #"<feed xmlns:atom="http://www.w3.org/2005/Atom"><atom:link href="/a"/> <title> Bread </title></feed>"#
        var options = XMLReadingOptions(trimsText: true, namespaces: .strip)
        options.keepsNamespaceDeclarations = false
        let tree = try XMLFormat(options: options).read(.text(xml))
        // ["feed": ["link": ["@href": "/a"], "title": "Bread"]]
        #expect(tree == ["feed": ["link": ["@href": "/a"], "title": "Bread"]])
    }

    @Test("namespace errors are refused unless accepted")
    func namespaces() throws {
        let legacy = "<rss><item><dc:creator>Ada</dc:creator></item></rss>"
        let refused = #expect(throws: EasyBakeError.self) { try XMLFormat().read(.text(legacy)) }
        #expect(refused?.code == .syntax)
        #expect(refused?.message.hasPrefix("namespace error:") == true)
        #expect(refused?.location?.line == 1)
        let lenient = XMLReadingOptions(acceptsNamespaceErrors: true)
        let item = try XMLFormat(options: lenient).read(.text(legacy))
        // ["rss": ["item": ["dc:creator": "Ada"]]]
        #expect(item == ["rss": ["item": ["dc:creator": "Ada"]]])
    }

    @Test("mixed content, a lone element and writing back")
    func conventions() throws {
        let mixed = try XMLFormat().read(.text("<p>Hello <b>you</b> there</p>"))
        #expect(mixed == ["p": ["#text": ["Hello ", " there"], "b": "you"]])
        let lone = try XMLFormat().read(.text("<rss><item><title>A</title></item></rss>"))
        #expect(try lone.resolve("rss.item[0].title") == "A")
        let tree: Ingredients = ["note": ["@id": "1", "body": "Hi", "tag": ["a", "b"], "empty": .null]]
        #expect(try XMLFormat().read(.bytes(try XMLFormat().write(tree))) == tree)
    }

    struct Entry: Decodable, Equatable {
        let title: String
        let summary: String
        let summaryText: String
        let content: String
    }

    @Test("an Atom feed's xhtml summary and content bake into strings of markup and of text")
    func markup() throws {
        let atomPath = TestPaths.fixture("xml/atom-xhtml.xml").path
        var options = XMLReadingOptions()
        options.markupElements = ["summary", "content"]
        let recipe = try Recipe(mapping: [
            "title": "title", "summary": "summary.#innerXML", "summaryText": "summary.#textContent",
            "content": "content.#innerXML",
        ])
        let source = try XMLIngredientSource(.file(atomPath), options: options)
        let entries = try Baker().bakeEach(Entry.self, from: source, each: "feed.entry[*]", recipe: recipe).map {
            try $0.get()
        }
        // entries[0].summary:     <div xmlns="http://www.w3.org/1999/xhtml">Flour, water, salt &amp; <em>time</em>.</div>
        // entries[0].summaryText: Flour, water, salt & time.
        #expect(entries.count == 2)
        #expect(
            entries[0].summary
                == #"<div xmlns="http://www.w3.org/1999/xhtml">Flour, water, salt &amp; <em>time</em>.</div>"#)
        #expect(entries[0].summaryText == "Flour, water, salt & time.")
        #expect(
            entries[0].content
                == #"<div xmlns="http://www.w3.org/1999/xhtml"><p>Mix <strong>500 g</strong> of flour with water.</p><p>Rest, fold, <em>wait</em>, bake.</p></div>"#
        )
        #expect(entries[1].summary == "Which knife for which job.")
        #expect(entries[1].content.contains(#"<a href="https://kitchen.example.org/boards">a board</a>"#))

        // The same from the tree and from the index.
        let format = XMLFormat(options: options)
        let tree = try format.read(.file(atomPath))
        let fromTree = try #require(tree.resolve(try IngredientPath(parsing: "feed.entry[*]"))?.arrayValue).map {
            entry in
            try Baker().bake(Entry.self, from: entry, recipe: recipe)
        }
        #expect(fromTree == entries)
        struct Feed: Decodable { let entries: [Entry] }
        let feedRecipe = try Recipe(mapping: ["entries": "feed.entry"], nested: ["entries": recipe])
        #expect(
            try Baker().bake(Feed.self, from: .file(atomPath), format: format, recipe: feedRecipe).entries == entries)
    }

    struct Post: Decodable {
        let title: String
        let link: URL
        let published: Date
    }

    @Test("a feed with a bare & and an &nbsp; bakes with lenientReferences and built-ins, each repair a warning")
    func lenientFeed() throws {
        let feed = """
            <rss version="2.0"><channel><item>
              <title>Bread&nbsp;&amp; butter</title>
              <link>https://kitchen.example.org/posts/bread?utm_source=rss&utm_medium=feed</link>
              <pubDate>Mon, 03 Mar 2025 09:15:00 +0100</pubDate>
            </item></channel></rss>
            """
        let recipe = try Recipe(
            mapping: [
                "title": "rss.channel.item.title", "link": "rss.channel.item.link",
                "published": "rss.channel.item.pubDate",
            ],
            transformers: ["link": "url", "published": "rfc822"])
        let format = XMLFormat(options: XMLReadingOptions(lenientReferences: true))
        let baked = try Baker().bakeReporting(
            Post.self, from: .text(feed, name: "feed.rss"), format: format, recipe: recipe)
        // baked.value.title: "Bread\u{A0}& butter"
        // baked.value.link:  https://kitchen.example.org/posts/bread?utm_source=rss&utm_medium=feed
        // baked.warnings[0]: feed.rss:2:15: the HTML entity "&nbsp;", which XML does not define, is read as U+00A0
        // baked.warnings[1]: feed.rss:3:63: a bare "&" is read as text: expected a reference such as "&amp;" or "&#38;", found "&utm_medium=feed"
        #expect(baked.value.title == "Bread\u{A0}& butter")
        #expect(
            baked.value.link == URL(string: "https://kitchen.example.org/posts/bread?utm_source=rss&utm_medium=feed"))
        #expect(baked.value.published == DateFormats.parseISO8601("2025-03-03T08:15:00Z"))
        #expect(
            baked.warnings.map { "\($0.location!): \($0.message)" } == [
                #"feed.rss:2:15: the HTML entity "&nbsp;", which XML does not define, is read as U+00A0"#,
                #"feed.rss:3:63: a bare "&" is read as text: expected a reference such as "&amp;" or "&#38;", found "&utm_medium=feed""#,
            ])
        // Read strictly, the feed is refused where its first `&` breaks XML.
        let refused = #expect(throws: EasyBakeError.self) {
            try Baker().bakeReporting(
                Post.self, from: .text(feed, name: "feed.rss"), format: XMLFormat(), recipe: recipe)
        }
        #expect(refused?.location?.line == 2)
    }

    @Test("an indented Atom xhtml summary's #innerXML is its markup, without the white space around it")
    func innerXMLTrimmed() throws {
        let entry = """
            <entry xmlns="http://www.w3.org/2005/Atom">
              <title>Sourdough</title>
              <summary type="xhtml">
                <div xmlns="http://www.w3.org/1999/xhtml">
                  <p>Flour, water, salt &amp; <em>time</em>.</p>
                </div>
              </summary>
            </entry>
            """
        let options = XMLReadingOptions(markupElements: ["summary"])
        let expected =
            "<div xmlns=\"http://www.w3.org/1999/xhtml\">\n      <p>Flour, water, salt &amp; <em>time</em>.</p>\n    </div>"
        let tree = try XMLFormat(options: options).read(.text(entry))
        #expect(tree["entry"]?["summary"]?["#innerXML"] == .string(expected))
        // The text content is the markup's text: the same runs are dropped.
        #expect(tree["entry"]?["summary"]?["#textContent"] == "\n      Flour, water, salt & time.\n    ")
        var index = IngredientIndex()
        try XMLFormat(options: options).readIndex(.text(entry), into: &index)
        #expect(try Ingredients(index: index)["entry"]?["summary"]?["#innerXML"] == .string(expected))
        // White space that is text stays: text-only content, and text
        // beside a child element.
        let text = try XMLFormat(options: options).read(.text("<summary>\n  Which  knife?\n</summary>"))
        #expect(text["summary"]?["#innerXML"] == "\n  Which  knife?\n")
        let mixed = try XMLFormat(options: options).read(
            .text("<summary> A <b>sharp</b> knife\n  <i>x</i>\n</summary>"))
        #expect(mixed["summary"]?["#innerXML"] == " A <b>sharp</b> knife\n  <i>x</i>")
        #expect(mixed["summary"]?["#textContent"] == " A sharp knife\n  x")
        // It writes back to the same tree.
        #expect(try XMLFormat(options: options).read(.bytes(try XMLFormat(options: options).write(mixed))) == mixed)
        #expect(try XMLFormat(options: options).read(.bytes(try XMLFormat(options: options).write(tree))) == tree)
    }

    @Test("markup is kept in skipped values, nested captures and with every kind of content")
    func markupDetails() throws {
        let xml =
            #"<r xmlns:m="urn:m"><a x="1 &amp; 2"><m:b>t<i/></m:b>&lt;tail&gt;<![CDATA[<c>]]><a>in</a></a><z>z</z></r>"#
        let tree = try XMLFormat(options: XMLReadingOptions(markupElements: ["a", "m:b"])).read(.text(xml))
        let outer = try #require(tree["r"]?["a"]?.dictionaryValue)
        // The prefix m, bound outside, is declared where the markup uses it.
        #expect(outer["#innerXML"] == #"<m:b xmlns:m="urn:m">t<i/></m:b>&lt;tail&gt;&lt;c&gt;<a>in</a>"#)
        #expect(outer["#textContent"] == "t<tail><c>in")
        #expect(outer["m:b"]?["#innerXML"] == "t<i/>")
        #expect(outer["a"]?["#innerXML"] == "in")
        // Streamed, a path that skips the element's children still gets its markup.
        var source = try XMLIngredientSource(.text(xml), options: XMLReadingOptions(markupElements: ["a"]))
        let found = try PathMatcher(["r.a.#innerXML", "r.z"]).resolve(from: &source)
        #expect(found["r.a.#innerXML"] == #"<m:b xmlns:m="urn:m">t<i/></m:b>&lt;tail&gt;&lt;c&gt;<a>in</a>"#)
        #expect(found["r.z"] == "z")
        // Markup longer than the string limit is a limit error.
        var limited = XMLReadingOptions(markupElements: ["r"])
        limited.limits.maximumStringBytes = 10
        let error = #expect(throws: EasyBakeError.self) {
            try XMLFormat(options: limited).read(.text("<r><a>12345</a><b>67890</b></r>"))
        }
        #expect(error?.code == .limitExceeded)
    }

    @Test("a Media RSS feed's durations, weighted tags and GeoRSS points bake with built-ins only")
    func mediaRSS() throws {
        let mediaPath = TestPaths.fixture("xml/media.rss").path
        struct Clip: Decodable {
            struct Place: Decodable { let latitude: Double; let longitude: Double }
            let title: String
            let seconds: TimeInterval
            let tags: [String: Int]
            let place: Place
        }
        let clipRecipe = try Recipe(
            mapping: [
                "title": "title", "seconds": "media:content.@duration", "tags": "media:tags", "place": "georss:point",
            ],
            transformers: ["seconds": .duration, "tags": .pairs(default: 1), "place": .geoPoint])
        let clips = try Baker().bakeEach(
            Clip.self, from: try XMLIngredientSource(.file(mediaPath)), each: "rss.channel.item[*]", recipe: clipRecipe
        )
        .map { try $0.get() }
        #expect(clips.count == 2)
        // clips[0].tags: ["bread": 5, "shaping": 3, "boule": 1]
        #expect(clips[0].tags == ["bread": 5, "shaping": 3, "boule": 1])
        #expect(clips[0].seconds == 185)
        #expect(clips[1].place.latitude == -33.8688 && clips[1].place.longitude == 151.2093)
    }

    @Test(
        "the shipped podcast feed bakes with the shipped recipe file: every form of itunes:duration, yes/no, CEST and BST"
    )
    func podcast() throws {
        struct Episode: Decodable, Equatable {
            let title: String
            let number: Int
            let seconds: Int
            let explicit: Bool
            let keywords: [String]
            let artwork: URL
            let published: Date
            let audio: URL
        }
        let recipe = try RecipeFile.load(
            .file(TestPaths.fixture("recipes/podcast-episode.json").path), format: JSONFormat())[0]
        let source = try XMLIngredientSource(.file(TestPaths.fixture("xml/podcast.rss").path))
        let episodes = try Baker().bakeEach(Episode.self, from: source, each: "rss.channel.item[*]", recipe: recipe)
            .map { try $0.get() }
        #expect(episodes.map(\.seconds) == [18_030, 1_800, 1_800])
        #expect(episodes.map(\.explicit) == [false, true, false])
        #expect(episodes[0].keywords == ["bread", "sourdough", "fermentation"])
        #expect(episodes[0].published == Date(timeIntervalSince1970: 1_749_520_800))  // 2025-06-10T02:00:00Z
        #expect(episodes[1].published == Date(timeIntervalSince1970: 1_750_149_000))  // 2025-06-17T08:30:00Z
    }

    @Test("an external DTD is ignored, not refused: nothing loaded, its entities refused by name (issue 27)")
    func externalDTDIgnored() throws {
        let external = #"<!DOCTYPE r SYSTEM "file:///nowhere/r.dtd"><r>x</r>"#
        let read = try XMLFormat().read(.text(external))
        // ["r": "x"]: the DTD was not loaded
        #expect(read == ["r": "x"])
        let undeclared = #"<!DOCTYPE r SYSTEM "file:///nowhere/r.dtd"><r>&secret;</r>"#
        // XMLFormat().read(.text(undeclared)) throws forbidden: "the entity &secret; is not declared in the internal DTD subset; …"
        let error = #expect(throws: EasyBakeError.self) { try XMLFormat().read(.text(undeclared)) }
        #expect(error?.code == .forbidden)
        #expect(
            error?.message.hasPrefix("the entity &secret; is not declared in the internal DTD subset; ") == true,
            "\(String(describing: error))")
        // The article says what happens: ignored, not refused.
        let article = try DocumentationExamples.article("EasyBakeXML", "XMLConventions")
        #expect(!article.contains("external entities and DTDs are\nrefused"))
        #expect(article.contains("An external DTD (`<!DOCTYPE r SYSTEM \"r.dtd\">`) is ignored, not\nrefused"))
    }
}
