import EasyBake
import EasyBakeXML
import Testing

/// Well-formedness cases from XML 1.0 (fifth edition), written for EasyBake.
@Suite("XML 1.0 well-formedness")
struct XMLWellFormednessTests {
    static let malformed: [(String, String)] = [
        ("mismatched end tag", "<a><b></a></b>"),
        ("end tag of another element", "<a></b>"),
        ("duplicate attribute", #"<a x="1" x="2"/>"#),
        ("< in an attribute value", #"<a x="<"/>"#),
        ("unescaped &", "<a>fish & chips</a>"),
        ("unescaped & in an attribute", #"<a x="a & b"/>"#),
        ("undeclared entity", "<a>&nbsp;</a>"),
        ("multiple root elements", "<a/><b/>"),
        ("text after the root", "<a/>text"),
        ("text before the root", "text<a/>"),
        ("invalid character U+0001", "<a>\u{1}</a>"),
        ("character reference to U+0000", "<a>&#0;</a>"),
        ("character reference to a surrogate", "<a>&#xD800;</a>"),
        ("character reference to U+FFFE", "<a>&#xFFFE;</a>"),
        ("processing instruction target xml", "<a><?xml data?></a>"),
        ("XML declaration not at the start", " <?xml version=\"1.0\"?><a/>"),
        ("bad standalone value", #"<?xml version="1.0" standalone="maybe"?><a/>"#),
        ("XML declaration without version", #"<?xml encoding="UTF-8"?><a/>"#),
        ("empty document", ""),
        ("only a comment", "<!-- nothing -->"),
        ("unclosed start tag", "<a"),
        ("missing end tag", "<a><b></b>"),
        ("name starting with a digit", "<1a/>"),
        ("unquoted attribute value", "<a x=1/>"),
        ("attribute without value", "<a x/>"),
        ("]]> in content", "<a>x]]>y</a>"),
        ("-- inside a comment", "<a><!-- a -- b --></a>"),
        ("DOCTYPE after the root", "<a/><!DOCTYPE a>"),
        ("unterminated CDATA", "<a><![CDATA[x</a>"),
        ("unterminated comment", "<a><!-- x</a>"),
        ("lowercase doctype", "<!doctype a><a/>"),
        ("entity used before it is declared", "<!DOCTYPE a [<!ENTITY b \"&c;\"><!ENTITY c \"x\">]><a>&b;x</a>x"),
        ("recursive entity", "<!DOCTYPE a [<!ENTITY e \"&e;\">]><a>&e;</a>"),
        ("entity with an unbalanced element", "<!DOCTYPE a [<!ENTITY e \"<b>\">]><a>&e;</a>"),
        ("external entity in an attribute value", #"<!DOCTYPE a [<!ENTITY e SYSTEM "x.txt">]><a x="&e;"/>"#),
        ("whitespace before the element name", "< a/>"),
        ("colon-only name misuse", "<a></a:>"),
    ]

    @Test("malformed documents are rejected with a syntax error and a position", arguments: malformed)
    func rejected(_ name: String, _ xml: String) throws {
        let error = try #require(xmlError(xml), "\(name) was accepted")
        #expect([.syntax, .forbidden].contains(error.code), "\(name): \(error)")
        let location = try #require(error.location, "\(name): no location")
        #expect(location.line >= 1 && location.column >= 1)
        #expect(location.sourceName == "test.xml")
    }

    @Test("invalid UTF-8 is rejected")
    func invalidUTF8() throws {
        let bytes: [UInt8] = Array("<a>".utf8) + [0xC3, 0x28] + Array("</a>".utf8)
        let error = try #require(xmlError(bytes: bytes))
        #expect(error.code == .syntax)
    }

    static let wellFormed: [(String, String)] = [
        ("whitespace in an end tag", "<a></a >"),
        ("spaces around =", #"<a b = "1" />"#),
        ("full declaration", #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><a/>"#),
        ("doctype without subset", "<!DOCTYPE a><a/>"),
        ("supplementary character", "<a>&#x10FFFF;&#x1F600;😀</a>"),
        ("comments and PIs after the root", "<a>t</a>\n<!-- c -->\n<?pi x?>\n"),
        ("a > in content and attributes", #"<a b=">">1 > 0</a>"#),
        ("single-quoted attribute with a double quote", #"<a b='say "hi"'/>"#),
        ("names with dots, dashes and non-ASCII", "<é.x-y_z>1</é.x-y_z>"),
        ("attribute defaults in the internal subset", #"<!DOCTYPE a [<!ATTLIST a b CDATA "d">]><a/>"#),
        ("a BOM before the declaration", "\u{FEFF}<?xml version=\"1.0\"?><a/>"),
        ("an XML 1.1 declaration", #"<?xml version="1.1"?><a/>"#),
        ("CR LF line ends", "<a>\r\n<b>x</b>\r\n</a>"),
    ]

    @Test("well-formed documents are accepted", arguments: wellFormed)
    func accepted(_ name: String, _ xml: String) {
        let error = xmlError(xml)
        #expect(error == nil, "\(name): \(String(describing: error))")
    }

    @Test("line ends are normalized to LF in text")
    func lineEnds() throws {
        #expect(try xmlTree("<a>1\r\n2\r3</a>") == ["a": "1\n2\n3"])
    }

    @Test("a mismatched tag reports its line, column and the line's text")
    func positionOfMismatch() throws {
        let error = try #require(xmlError("<a>\n  <b>text</c>\n</a>\n"))
        #expect(error.code == .syntax)
        let location = try #require(error.location)
        #expect(location.line == 2)
        #expect(location.column > 1)
        #expect(location.lineText == "  <b>text</c>")
        #expect(error.description.contains("test.xml:2:"))
    }

    @Test("an error deep in a large document reports its line")
    func positionInLargeDocument() throws {
        var xml = "<r>\n"
        for i in 0..<10_000 { xml += "  <item><n>\(i)</n></item>\n" }
        xml += "  <item><n>x</m></item>\n</r>\n"
        let error = try #require(xmlError(xml))
        #expect(error.code == .syntax)
        #expect(error.location?.line == 10_002)
        #expect(error.location?.lineText == "  <item><n>x</m></item>")
    }

    @Test("an error repeats on later calls to next()")
    func errorRepeats() throws {
        var source = try XMLIngredientSource(.text("<a><b></a>"))
        var first: EasyBakeError?
        do { while try source.next() != nil {} } catch { first = error }
        #expect(first?.code == .syntax)
        #expect(throws: EasyBakeError.self) { try source.next() }
    }
}
