import Foundation
import Testing
import EasyBakeTestSupport

/// The XML feed commands that the EasyBakeXML catalog's "XML conventions"
/// article shows (DocumentationCommandTests runs them as shown, too).
@Suite("The easybake command on XML feeds")
struct XMLFeedCommandTests {
    static let bakedItems = [
        #"{"title":"Sourdough in 24 hours","link":"https://kitchen.example.org/posts/sourdough","published":"2025-03-03T08:15:00Z","author":"Ada Baker","categories":["bread"],"summary":"<p>Flour, water, salt &amp; <em>time</em>.</p>","enclosureURL":"https://cdn.example.org/audio/sourdough.mp3","enclosureLength":12345678,"enclosureType":"audio/mpeg"}"#,
        #"{"title":"Knives & boards: a buyer’s guide","link":"https://kitchen.example.org/posts/knives","published":"2002-09-07T00:00:01Z","author":"Grace Whisk","categories":["tools","reviews","safety"],"summary":"Which knife for which job, and how to keep it sharp."}"#,
        #"{"title":"Kitchen notes","link":"https://kitchen.example.org/posts/notes","published":"2025-04-01T23:30:00Z","categories":[],"summary":null,"enclosureURL":"https://cdn.example.org/video/notes.mp4","enclosureLength":987654,"enclosureType":"video/mp4"}"#,
    ]

    @Test("bake --each prints one JSON line per RSS item")
    func bakeRSS() throws {
        let result = try Command.run([
            "bake", "--each", "rss.channel.item[*]", "--recipe", "Fixtures/recipes/rss-item.json",
            "Fixtures/xml/feed.rss",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty)
        #expect(result.standardOutput == Self.bakedItems.joined(separator: "\n") + "\n")
    }

    @Test("bake --each prints the same lines for the Atom entries")
    func bakeAtom() throws {
        let result = try Command.run([
            "bake", "--each", "feed.entry[*]", "--recipe", "Fixtures/recipes/atom-entry.json", "Fixtures/xml/atom.xml",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == Self.bakedItems.joined(separator: "\n") + "\n")
    }

    @Test("convert --to json prints the feed's tree")
    func convertRSS() throws {
        let result = try Command.run(["convert", "--to", "json", "Fixtures/xml/feed.rss"])
        #expect(result.status == 0, "\(result.standardError)")
        let expected =
            ##"{"rss":{"@xmlns:atom":"http://www.w3.org/2005/Atom","@xmlns:dc":"http://purl.org/dc/elements/1.1/","@version":"2.0","channel":{"title":"The EasyBake Kitchen","link":"https://kitchen.example.org/","description":"Recipes, tools and news from a small test kitchen.","language":"en","atom:link":{"@href":"https://kitchen.example.org/feed.rss","@rel":"self","@type":"application/rss+xml"},"item":[{"title":"Sourdough in 24 hours","link":"https://kitchen.example.org/posts/sourdough","guid":{"@isPermaLink":"false","#text":"kitchen-2025-0012"},"dc:creator":"Ada Baker","pubDate":"Mon, 03 Mar 2025 09:15:00 +0100","category":"bread","description":"<p>Flour, water, salt &amp; <em>time</em>.</p>","enclosure":{"@url":"https://cdn.example.org/audio/sourdough.mp3","@length":"12345678","@type":"audio/mpeg"}},{"title":"Knives & boards: a buyer’s guide","link":"https://kitchen.example.org/posts/knives","guid":"https://kitchen.example.org/posts/knives","dc:creator":"Grace Whisk","pubDate":"Sat, 07 Sep 2002 00:00:01 GMT","category":["tools","reviews","safety"],"description":"Which knife for which job, and how to keep it sharp."},{"title":"Kitchen notes","link":"https://kitchen.example.org/posts/notes","pubDate":"Tue, 01 Apr 2025 18:30 EST","description":null,"enclosure":{"@url":"https://cdn.example.org/video/notes.mp4","@length":"987654","@type":"video/mp4"}}]}}}"##
        #expect(result.standardOutput == expected + "\n")
    }

    @Test("the XML conventions article's small example: XML in, the tree as JSON out, a path")
    func readmeExample() throws {
        let xml =
            #"<shelf><book id="7" lang="en"><title>Bread</title><tag>baking</tag><tag>basics</tag><note/></book></shelf>"#
        let converted = try Command.run(["convert", "--to", "json", "--format", "xml", "-"], input: xml)
        #expect(converted.status == 0, "\(converted.standardError)")
        #expect(
            converted.standardOutput
                == #"{"shelf":{"book":{"@id":"7","@lang":"en","title":"Bread","tag":["baking","basics"],"note":null}}}"#
                + "\n")
        let tag = try Command.run(["get", "--format", "xml", "shelf.book[0].tag[1]", "-"], input: xml)
        #expect(tag.standardOutput == "\"basics\"\n")
    }

    @Test("a malformed feed exits 1 with the position and the line on stderr")
    func malformedFeed() throws {
        let result = try Command.run(
            ["convert", "--to", "json", "--format", "xml", "-"],
            input: "<rss>\n  <channel>\n    <title>A & B</title>\n  </channel>\n</rss>\n")
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("<stdin>:3:"))
        #expect(result.standardError.contains("<title>A & B</title>"))
    }

    @Test("an external entity is refused, not read")
    func externalEntity() throws {
        let result = try Command.run(
            ["convert", "--to", "json", "--format", "xml", "-"],
            input: #"<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>"#)
        #expect(result.status == 1)
        #expect(!result.standardOutput.contains("root:"))
        #expect(result.standardError.contains("external"))
    }

    static let damagedFeed = """
        <rss><channel>
        <item><title>Caf&eacute;&nbsp;news</title><link>https://e.com/?a=1&b=2</link></item>
        </channel></rss>
        """

    @Test("--xml-lenient reads a feed with a bare & and HTML entities, each repair a warning on stderr")
    func lenientFeed() throws {
        let result = try Command.run(
            ["get", "--format", "xml", "--xml-lenient", "rss.channel.item", "-"], input: Self.damagedFeed)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == #"{"title":"Café\#u{A0}news","link":"https://e.com/?a=1&b=2"}"# + "\n")
        #expect(
            result.standardError == """
                warning: syntax: the HTML entity "&eacute;", which XML does not define, is read as "é" (U+00E9)
                 --> <stdin>:2:17
                  |
                2 | <item><title>Caf&eacute;&nbsp;news</title><link>https://e.com/?a=1&b=2</link></item>
                  |                 ^
                warning: syntax: the HTML entity "&nbsp;", which XML does not define, is read as U+00A0
                 --> <stdin>:2:25
                  |
                2 | <item><title>Caf&eacute;&nbsp;news</title><link>https://e.com/?a=1&b=2</link></item>
                  |                         ^
                warning: syntax: a bare "&" is read as text: expected a reference such as "&amp;" or "&#38;", found "&b=2"
                 --> <stdin>:2:67
                  |
                2 | <item><title>Caf&eacute;&nbsp;news</title><link>https://e.com/?a=1&b=2</link></item>
                  |                                                                   ^

                """)

        // Every command that reads takes it: bake (one job and several),
        // convert, paths.
        for arguments in [
            ["convert", "--to", "json"], ["paths"],
            ["bake", "--recipe", "Fixtures/recipes/rss-item.json", "--each", "rss.channel.item[*]", "--jobs", "1"],
            ["bake", "--recipe", "Fixtures/recipes/rss-item.json", "--each", "rss.channel.item[*]", "--jobs", "2"],
        ] {
            let run = try Command.run(arguments + ["--format", "xml", "--xml-lenient", "-"], input: Self.damagedFeed)
            #expect(
                run.standardError.components(separatedBy: "warning: syntax:").count == 4,
                "\(arguments): \(run.standardError)")
            #expect(run.standardOutput.contains("?a=1&b=2"), "\(arguments)")
        }

        // scaffold's usage lines read the way the survey did.
        let scaffold = try Command.run(
            ["scaffold", "--name", "Feed", "--format", "xml", "--xml-lenient", "-"], input: Self.damagedFeed)
        #expect(scaffold.status == 0, "\(scaffold.standardError)")
        #expect(scaffold.standardOutput.contains("XMLReadingOptions(lenientReferences: true)"))
        #expect(scaffold.standardError.contains("warning: syntax: a bare \"&\" is read as text"))

        // Without it the feed is refused at its first `&` that is not XML.
        let strict = try Command.run(["get", "--format", "xml", "rss.channel.item", "-"], input: Self.damagedFeed)
        #expect(strict.status == 1)
        #expect(strict.standardError.contains("<stdin>:2:"))
        let json = try Command.run(["get", "--format", "json", "--xml-lenient", "a", "-"], input: #"{"a":1}"#)
        #expect(json.status == 1)
        #expect(json.standardError.contains("--xml-lenient reads XML feeds"))
    }
}
