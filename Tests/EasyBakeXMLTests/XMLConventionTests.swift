import EasyBake
import EasyBakeXML
import Testing

@Suite("XML tree conventions")
struct XMLConventionTests {
    @Test("the root element is the single key of the top dictionary")
    func rootIsTheSingleTopKey() throws {
        let tree = try xmlTree("<rss><channel><title>News</title></channel></rss>")
        #expect(tree == ["rss": ["channel": ["title": "News"]]])
    }

    @Test("an element becomes a dictionary of its children by name")
    func elementsBecomeDictionaries() throws {
        let tree = try xmlTree("<user><name>Ada</name><city>London</city></user>")
        #expect(tree == ["user": ["name": "Ada", "city": "London"]])
    }

    @Test("attributes become @-prefixed keys, before the children")
    func attributes() throws {
        let tree = try xmlTree(#"<item id="7" kind='a &amp; b'><title>T</title></item>"#)
        #expect(tree == ["item": ["@id": "7", "@kind": "a & b", "title": "T"]])
        var source = try XMLIngredientSource(.text(#"<a x="1"><b/></a>"#))
        let events = try collectXMLEvents(&source)
        #expect(
            events == [
                .beginDictionary, .key("a"), .beginDictionary, .key("@x"), .scalar("1"),
                .key("b"), .scalar(.null), .endDictionary, .endDictionary,
            ])
    }

    @Test("an element with only text and no attributes becomes its string")
    func textOnlyElementIsString() throws {
        #expect(try xmlTree("<a>hello</a>") == ["a": "hello"])
    }

    @Test("an element with attributes and text keeps the text under #text")
    func attributedTextUsesTextKey() throws {
        let tree = try xmlTree(#"<title type="html">Hi &lt;b&gt;</title>"#)
        #expect(tree == ["title": ["@type": "html", "#text": "Hi <b>"]])
    }

    @Test("repeated siblings become an array in document order; a lone one stays single")
    func repeatedSiblingsBecomeArrays() throws {
        let tree = try xmlTree(
            """
            <rss><channel>
              <item><title>A</title><category>x</category><category>y</category></item>
              <item><title>B</title><category>z</category></item>
            </channel></rss>
            """)
        #expect(try tree.resolve("rss.channel.item[1].title") == "B")
        #expect(try tree.resolve("rss.channel.item[0].category") == ["x", "y"])
        #expect(try tree.resolve("rss.channel.item[1].category") == "z")
        // A path index finds a lone element too.
        #expect(try tree.resolve("rss.channel.item[1].category[0]") == "z")
        let lone = try xmlTree("<rss><channel><item><title>A</title></item></channel></rss>")
        #expect(try lone.resolve("rss.channel.item[0].title") == "A")
    }

    @Test("repeated siblings interleaved with others are still collected in order")
    func interleavedRepeats() throws {
        let tree = try xmlTree("<r><a>1</a><b>2</b><a>3</a><a>4</a></r>")
        #expect(tree == ["r": ["a": ["1", "3", "4"], "b": "2"]])
    }

    @Test("an empty element becomes null", arguments: ["<r><note/></r>", "<r><note></note></r>"])
    func emptyElementIsNull(xml: String) throws {
        #expect(try xmlTree(xml) == ["r": ["note": .null]])
    }

    @Test("an empty element with attributes keeps only its attributes")
    func emptyElementWithAttributes() throws {
        let tree = try xmlTree(#"<r><enclosure url="http://x/a.mp3" length="12"/></r>"#)
        #expect(tree == ["r": ["enclosure": ["@url": "http://x/a.mp3", "@length": "12"]]])
    }

    @Test("whitespace-only text between elements is dropped")
    func whitespaceBetweenElementsDropped() throws {
        let tree = try xmlTree("<r>\n  <a>1</a>\n\t<b>2</b>\r\n</r>")
        #expect(tree == ["r": ["a": "1", "b": "2"]])
    }

    @Test("other text is kept exactly, surrounding whitespace included")
    func textKeptExactly() throws {
        #expect(try xmlTree("<a>  two  words \n</a>") == ["a": "  two  words \n"])
        #expect(try xmlTree("<a> </a>") == ["a": " "])
    }

    @Test("the trim option trims text and turns blank text into null")
    func trimOption() throws {
        let options = XMLReadingOptions(trimsText: true)
        #expect(
            try xmlTree("<r><a>  two  words \n</a><b>  </b></r>", options: options)
                == ["r": ["a": "two  words", "b": .null]])
        #expect(
            try xmlTree(#"<r x="1">  t  <c/></r>"#, options: options) == ["r": ["@x": "1", "#text": "t", "c": .null]])
    }

    @Test("CDATA is text, joined with the text around it")
    func cdataIsText() throws {
        #expect(try xmlTree("<a>x<![CDATA[<b>&amp;</b>]]>y</a>") == ["a": "x<b>&amp;</b>y"])
    }

    @Test("mixed content keeps its text runs in order under #text")
    func mixedContent() throws {
        let tree = try xmlTree("<p>Hello <b>you</b> there<i>!</i></p>")
        #expect(tree == ["p": ["#text": ["Hello ", " there"], "b": "you", "i": "!"]])
        #expect(try xmlTree("<p>only <b>one</b></p>") == ["p": ["#text": "only ", "b": "one"]])
    }

    @Test("comments and processing instructions are dropped; references are replaced")
    func commentsAndReferences() throws {
        let tree = try xmlTree("<?xml version=\"1.0\"?><!-- c --><a>x<!-- y -->z&#65;&#x42;&lt;<?pi data?></a>")
        #expect(tree == ["a": "xzAB<"])
    }

    @Test("numbers and booleans stay strings")
    func numbersStayStrings() throws {
        #expect(try xmlTree("<r><n>42</n><f>1.5</f><b>true</b></r>") == ["r": ["n": "42", "f": "1.5", "b": "true"]])
    }

    @Test("namespace prefixes are kept by default, with their declarations as attributes")
    func namespacePrefixesKept() throws {
        let xml = #"<rss xmlns:atom="http://www.w3.org/2005/Atom"><atom:link href="h" atom:rel="self"/></rss>"#
        let tree = try xmlTree(xml)
        #expect(
            tree == [
                "rss": [
                    "@xmlns:atom": "http://www.w3.org/2005/Atom",
                    "atom:link": ["@href": "h", "@atom:rel": "self"],
                ]
            ])
        let withoutDeclarations = try xmlTree(xml, options: XMLReadingOptions(keepsNamespaceDeclarations: false))
        #expect(withoutDeclarations == ["rss": ["atom:link": ["@href": "h", "@atom:rel": "self"]]])
    }

    @Test("a namespace declaration's URI reads as written, references replaced as in any attribute")
    func namespaceURIReferences() throws {
        let xml = #"<r xmlns:a="x&amp;y&#38;z&lt;&#x26;#38;" b="x&amp;y&#38;z&lt;&#x26;#38;"/>"#
        let expected: Ingredients = ["r": ["@xmlns:a": "x&y&z<&#38;", "@b": "x&y&z<&#38;"]]
        #expect(try xmlTree(xml) == expected)
        // Read through the index (events above), the same.
        #expect(try XMLFormat().read(.text(xml)) == expected)
    }

    @Test("namespaces can resolve to URIs in Clark notation")
    func namespacesResolved() throws {
        let xml = #"<feed xmlns="urn:a" xmlns:x="urn:x"><x:link x:rel="r" href="h"/><title>T</title></feed>"#
        let tree = try xmlTree(
            xml, options: XMLReadingOptions(namespaces: .resolveToURIs, keepsNamespaceDeclarations: false))
        #expect(tree == ["{urn:a}feed": ["{urn:x}link": ["@{urn:x}rel": "r", "@href": "h"], "{urn:a}title": "T"]])
    }

    @Test("namespaces can be stripped")
    func namespacesStripped() throws {
        let xml = #"<a:feed xmlns:a="urn:a"><a:title>T</a:title></a:feed>"#
        let tree = try xmlTree(xml, options: XMLReadingOptions(namespaces: .strip, keepsNamespaceDeclarations: false))
        #expect(tree == ["feed": ["title": "T"]])
    }

    @Test("an undeclared prefix is an error, and kept as written with acceptsNamespaceErrors")
    func undeclaredPrefix() throws {
        let xml = "<r><dc:creator>me</dc:creator></r>"
        let error = try #require(xmlError(xml))
        #expect(error.code == .syntax)
        #expect(error.message.hasPrefix("namespace error:"))
        let options = XMLReadingOptions(acceptsNamespaceErrors: true)
        #expect(try xmlTree(xml, options: options) == ["r": ["dc:creator": "me"]])
    }

    @Test("internal entities declared in the internal subset are expanded")
    func internalEntities() throws {
        let xml = """
            <!DOCTYPE r [<!ENTITY who "World"><!ENTITY greet "Hello, &who;!"><!ENTITY el "<b>bold</b>">]>
            <r a="&who;"><t>&greet;</t><m>&el;</m></r>
            """
        let tree = try xmlTree(xml)
        #expect(tree == ["r": ["@a": "World", "t": "Hello, World!", "m": ["b": "bold"]]])
    }

    @Test("the attribute prefix and text key are options")
    func customKeys() throws {
        let options = XMLReadingOptions(attributePrefix: "_", textKey: "$")
        #expect(try xmlTree(#"<a x="1">t</a>"#, options: options) == ["a": ["_x": "1", "$": "t"]])
    }

    @Test("the source reports the collect policy and positions of events")
    func policyAndLocation() throws {
        var source = try XMLIngredientSource(.text("<r>\n  <a>1</a>\n  <b>2</b>\n</r>", name: "f.xml"))
        #expect(source.duplicateKeyPolicy == .collect)
        while let event = try source.next() {
            if event == .key("b") { break }
        }
        #expect(source.location.line == 3)
        #expect(source.location.sourceName == "f.xml")
    }

    @Test("a document larger than one chunk reads in full")
    func largeDocument() throws {
        var xml = "<feed>"
        for i in 0..<20_000 { xml += "<item id=\"\(i)\"><title>Item \(i)</title></item>" }
        xml += "</feed>"
        let tree = try xmlTree(xml)
        guard case .array(let items)? = tree["feed"]?["item"] else {
            Issue.record("expected an array of items")
            return
        }
        #expect(items.count == 20_000)
        #expect(items[19_999] == ["@id": "19999", "title": "Item 19999"])
    }

    @Test("a text node larger than libxml2's 10 MB text limit reads (below EasyBake's limit)")
    func hugeTextNode() throws {
        let text = String(repeating: "abcdefghij", count: 1_200_000)
        let tree = try xmlTree("<a>\(text)</a>")
        #expect(tree["a"]?.stringValue?.utf8.count == 12_000_000)
    }
}

func collectXMLEvents(_ source: inout XMLIngredientSource) throws -> [IngredientEvent] {
    var events: [IngredientEvent] = []
    while let event = try source.next() { events.append(event) }
    return events
}
