import EasyBake
import EasyBakeXML
import Testing

@Suite("XML writer")
struct XMLWriterTests {
    func written(_ tree: Ingredients, _ options: WritingOptions = .init()) throws -> String {
        String(decoding: try XMLFormat().write(tree, options: options), as: UTF8.self)
    }

    @Test("the format is named xml and claims .xml, .rss and .atom")
    func identity() throws {
        let format = XMLFormat()
        #expect(format.name == "xml")
        #expect(format.fileExtensions == ["xml", "rss", "atom"])
        let registry = FormatRegistry([format])
        #expect(registry.format(forExtension: "rss")?.name == "xml")
        let tree = try format.read(.text("<a><b>1</b></a>"))
        #expect(tree == ["a": ["b": "1"]])
    }

    @Test("a single-key dictionary becomes the root element; @-keys attributes; #text text")
    func conventions() throws {
        let tree: Ingredients = .dict([
            "note": .dict(["@id": "7", "to": "Ada", "body": .dict(["@lang": "en", "#text": "Hi"]), "empty": .null])
        ])
        #expect(
            try written(tree) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <note id="7"><to>Ada</to><body lang="en">Hi</body><empty/></note>

                """)
    }

    @Test("arrays become repeated elements")
    func arrays() throws {
        let tree: Ingredients = ["r": ["item": ["a", "b"], "n": 3]]
        #expect(try written(tree).contains("<r><item>a</item><item>b</item><n>3</n></r>"))
    }

    @Test("text and attribute values are escaped")
    func escaping() throws {
        let tree: Ingredients = ["a": .dict(["@q": "\"<&>\"\t\n", "#text": "x < y && z > w ]]> \r"])]
        let xml = try written(tree)
        #expect(
            xml.contains(#"<a q="&quot;&lt;&amp;&gt;&quot;&#9;&#10;">x &lt; y &amp;&amp; z &gt; w ]]&gt; &#13;</a>"#))
        #expect(try xmlTree(xml) == tree)
    }

    @Test("the root name comes from the options when the top value is not a single-key dictionary")
    func rootName() throws {
        let options = WritingOptions(rootName: "users")
        #expect(try written(["a": "1", "b": "2"], options).contains("<users><a>1</a><b>2</b></users>"))
        #expect(try written(["x", "y"], options).contains("<users><item>x</item><item>y</item></users>"))
        #expect(try written("just text", options).contains("<users>just text</users>"))
        #expect(try written(["a": "1", "b": "2"]).contains("<root><a>1</a><b>2</b></root>"))
    }

    @Test("keys that are not XML names and unwritable characters are refused")
    func refusals() {
        #expect(throws: EasyBakeError.self) { try written(["first name": "Ada"]) }
        #expect(throws: EasyBakeError.self) { try written(["1st": "Ada"]) }
        #expect(throws: EasyBakeError.self) { try written(["a": "bell \u{7}"]) }
        #expect(throws: EasyBakeError.self) { try written(["a": .dict(["@x": ["no", "arrays"]])]) }
    }

    @Test("pretty printing indents elements but not text or kept markup")
    func pretty() throws {
        let tree: Ingredients = [
            "r": .dict([
                "a": .dict(["b": "1"]), "t": .dict(["@x": "1", "#text": ["Hi ", "!"]]),
                "p": .dict([
                    "#innerXML": "Hi <b>you</b>!", "#textContent": "Hi you!", "#text": ["Hi ", "!"], "b": "you",
                ]),
            ])
        ]
        let xml = try written(tree, WritingOptions(prettyPrinted: true, indentWidth: 2))
        #expect(
            xml == """
                <?xml version="1.0" encoding="UTF-8"?>
                <r>
                  <a>
                    <b>1</b>
                  </a>
                  <t x="1">Hi !</t>
                  <p>Hi <b>you</b>!</p>
                </r>

                """)
    }

    @Test("mixed content is written in order from its kept markup, and refused without it")
    func mixedContent() throws {
        let paragraph = "<p>Hello <b>you</b> there <i>and</i> again <b>twice</b></p>"
        let kept = try xmlTree(paragraph, options: XMLReadingOptions(markupElements: ["p"]))
        #expect(kept["p"]?["#innerXML"] == "Hello <b>you</b> there <i>and</i> again <b>twice</b>")
        #expect(kept["p"]?["#textContent"] == "Hello you there and again twice")
        for options in [WritingOptions(), WritingOptions(prettyPrinted: true)] {
            let rewritten = try written(kept, options)
            #expect(rewritten.contains(paragraph), "\(rewritten)")
            #expect(try xmlTree(rewritten, options: XMLReadingOptions(markupElements: ["p"])) == kept)
        }

        let plain = try xmlTree("<r><p><b>first</b> then text</p></r>")
        let error = #expect(throws: EasyBakeError.self) { try written(plain) }
        #expect(error?.code == .invalidValue)
        #expect(error?.message.contains("the element <p> holds text beside child elements (mixed content)") == true)
        #expect(error?.message.contains("--xml-markup p") == true)

        // Markup that is no well-formed content is refused, not written.
        let broken: Ingredients = ["p": .dict(["#innerXML": "a <b>unclosed"])]
        let refusal = #expect(throws: EasyBakeError.self) { try written(broken) }
        #expect(refusal?.message.contains("is not well-formed XML content") == true)
    }

    static let documents = [
        #"<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>News &amp; more</title><atom:link href="http://x/feed" rel="self"/><item><title>A</title><category>x</category><category>y</category><enclosure url="http://x/a.mp3" length="123" type="audio/mpeg"/></item><item><title>B</title><description><![CDATA[<p>Hi</p>]]></description><note/></item></channel></rss>"#,
        "<r><a>1</a><b>2</b><a>3</a></r>",
        "<a>  spaced  </a>",
        #"<r><x y="1">t</x><x>u</x><x/></r>"#,
    ]

    @Test("reading what the writer wrote gives the same tree", arguments: documents)
    func roundTrip(xml: String) throws {
        let tree = try xmlTree(xml)
        for options in [WritingOptions(), WritingOptions(prettyPrinted: true)] {
            let rewritten = try written(tree, options)
            #expect(try xmlTree(rewritten) == tree, "\(rewritten)")
        }
    }

    @Test("any event source writes as XML, and reads back as the same tree")
    func fromEvents() throws {
        let tree: Ingredients = [
            "feed": .dict([
                "@lang": "en",
                "entry": [.dict(["title": "A", "id": "1"]), .dict(["title": "B", "id": "2"])],
                "updated": "2024-01-01",
            ])
        ]
        var source = IngredientTreeSource(tree)
        let xml = try XMLFormat().write(&source, options: WritingOptions())
        #expect(try xmlTree(bytes: xml) == tree)
    }

    @Test("deep trees are written without recursion")
    func deepTree() throws {
        var tree: Ingredients = "leaf"
        for _ in 0..<3_000 { tree = ["a": tree] }
        let xml = try XMLFormat().write(tree)
        let text = String(decoding: xml, as: UTF8.self)
        #expect(text.components(separatedBy: "<a>").count - 1 == 3_000)
        #expect(text.contains("<a>leaf</a></a>"))
        #expect(text.hasSuffix("</a></a>\n"))
    }
}
