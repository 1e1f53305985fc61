import EasyBake
import EasyBakeXML
import Testing

/// A one-scalar string (Swift literals refuse noncharacters such as U+FFFE).
private func scalar(_ value: UInt32) -> String {
    Unicode.Scalar(value).map { String(Character($0)) } ?? ""
}

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
        // Added from a review against XML 1.0 (fifth edition).
        ("comment ending in --->", "<a><!-- a ---></a>"),
        ("PI target XmL in any case", "<a><?XmL x?></a>"),
        ("PI without a target", "<a><? x?></a>"),
        ("attributes without whitespace between", #"<a b="1"c="2"/>"#),
        ("space between / and >", "<a/ >"),
        ("an attribute in an end tag", #"<a></a x="1">"#),
        ("end tag in another case", "<a></A>"),
        ("version 2.0", #"<?xml version="2.0"?><a/>"#),
        ("version without a minor number", #"<?xml version="1"?><a/>"#),
        ("encoding before version", #"<?xml encoding="UTF-8" version="1.0"?><a/>"#),
        ("standalone before encoding", #"<?xml version="1.0" standalone="yes" encoding="UTF-8"?><a/>"#),
        ("standalone in upper case", #"<?xml version="1.0" standalone="YES"?><a/>"#),
        ("uppercase XML declaration", #"<?XML version="1.0"?><a/>"#),
        ("two XML declarations", #"<?xml version="1.0"?><?xml version="1.0"?><a/>"#),
        ("a comment before the XML declaration", #"<!-- c --><?xml version="1.0"?><a/>"#),
        ("an invalid encoding name", #"<?xml version="1.0" encoding="-x"?><a/>"#),
        ("empty hexadecimal character reference", "<a>&#x;</a>"),
        ("non-hex digit in a character reference", "<a>&#xG;</a>"),
        ("character reference without ;", "<a>&#65</a>"),
        ("character reference beyond U+10FFFF", "<a>&#x110000;</a>"),
        ("character reference to U+001F", "<a>&#x1F;</a>"),
        ("character reference to U+001F in an attribute", #"<a x="&#x1F;"/>"#),
        ("entity reference without a name", "<a>&;</a>"),
        ("space inside an entity reference", "<a>& amp;</a>"),
        ("raw U+FFFE", "<a>" + scalar(0xFFFE) + "</a>"),
        ("raw U+FFFF", "<a>" + scalar(0xFFFF) + "</a>"),
        ("raw NUL in content", "<a>x\u{0}y</a>"),
        ("raw NUL in an attribute", "<a x=\"\u{0}\"/>"),
        ("NUL after the root", "<a>x</a>\u{0}"),
        ("control character in a comment", "<a><!-- \u{1} --></a>"),
        ("control character in a PI", "<a><?p \u{1}?></a>"),
        ("control character in CDATA", "<a><![CDATA[\u{1}]]></a>"),
        ("control character in an attribute", "<a x=\"\u{1}\"/>"),
        ("U+FFFE in a comment", "<a><!-- " + scalar(0xFFFE) + " --></a>"),
        ("name starting with a middle dot", "<\u{B7}a/>"),
        ("name starting with a combining mark", "<\u{300}a/>"),
        ("name starting with -", "<-a/>"),
        ("name starting with .", "<.a/>"),
        ("name character U+037E", "<\u{37E}/>"),
        ("name character U+FDD0", "<" + scalar(0xFDD0) + "/>"),
        ("name character U+F0000", "<" + scalar(0xF0000) + "/>"),
        ("× in a name", "<a\u{D7}/>"),
        ("empty attribute name", #"<a ="1"/>"#),
        ("mismatched attribute quotes", "<a x=\"1'/>"),
        ("CDATA in an attribute value", #"<a x="<![CDATA[x]]>"/>"#),
        ("a comment inside a tag", "<a <!-- c -->/>"),
        ("CDATA outside the root", "<a/><![CDATA[x]]>"),
        ("lowercase CDATA keyword", "<a><![cdata[x]]></a>"),
        ("a DOCTYPE inside content", "<a><!DOCTYPE a></a>"),
        ("a markup declaration inside content", "<a><!ELEMENT a ANY></a>"),
        ("two DOCTYPEs", "<!DOCTYPE a><!DOCTYPE a><a/>"),
        ("DOCTYPE without a name", "<!DOCTYPE><a/>"),
        ("text before the DOCTYPE", "x<!DOCTYPE a><a/>"),
        ("only text", "hello"),
        ("two byte order marks", "\u{FEFF}\u{FEFF}<a/>"),
        ("a bad character in a public ID", #"<!DOCTYPE a PUBLIC "x{y}" "a.dtd"><a/>"#),
        ("an invalid entity name", #"<!DOCTYPE a [<!ENTITY 1e "x">]><a/>"#),
        ("an unterminated entity value", #"<!DOCTYPE a [<!ENTITY e "x>]><a/>"#),
        ("a raw % in an entity value", #"<!DOCTYPE a [<!ENTITY e "100%">]><a/>"#),
        (
            "a parameter-entity reference inside a declaration of the internal subset",
            #"<!DOCTYPE a [<!ENTITY % e "x"><!ENTITY y "%e;">]><a/>"#
        ),
        ("a parameter entity whose text is not a declaration", #"<!DOCTYPE a [<!ENTITY % p "x"> %p;]><a/>"#),
        ("a conditional section in the internal subset", "<!DOCTYPE a [<![INCLUDE[<!ELEMENT a ANY>]]>]><a/>"),
        ("a bad content model", "<!DOCTYPE a [<!ELEMENT a (b,|c)>]><a/>"),
        ("an unknown attribute type", "<!DOCTYPE a [<!ATTLIST a x FOO #IMPLIED>]><a/>"),
        ("#FIXED without a value", "<!DOCTYPE a [<!ATTLIST a x CDATA #FIXED>]><a/>"),
        ("an attribute default with <", #"<!DOCTYPE a [<!ATTLIST a x CDATA "<">]><a/>"#),
        ("an entity whose text is < alone", #"<!DOCTYPE a [<!ENTITY e "&#60;">]><a>&e;</a>"#),
        ("an entity with < used in an attribute", #"<!DOCTYPE a [<!ENTITY e "&#60;b">]><a x="&e;"/>"#),
        ("an entity that closes an element it did not open", #"<!DOCTYPE a [<!ENTITY e "</b>">]><a><b>&e;</a>"#),
        ("an entity that opens a CDATA section", #"<!DOCTYPE a [<!ENTITY e "<![CDATA[">]><a>&e;]]></a>"#),
        ("an entity that opens a comment", #"<!DOCTYPE a [<!ENTITY e "<!--">]><a>&e; --></a>"#),
        ("an entity holding half a start tag", #"<!DOCTYPE a [<!ENTITY e "<b">]><a>&e;/></a>"#),
        (
            "nested entities with an unbalanced element",
            #"<!DOCTYPE a [<!ENTITY e "<b>"><!ENTITY f "&e;</b>">]><a>&f;</a>"#
        ),
        ("indirectly recursive entities", #"<!DOCTYPE a [<!ENTITY x "&y;"><!ENTITY y "&x;">]><a>&x;</a>"#),
        ("a parameter-entity reference in content", #"<!DOCTYPE a [<!ENTITY % p "x">]><a>%p;</a>x"#),
        (
            "an undeclared entity in a standalone document",
            #"<?xml version="1.0" standalone="yes"?><!DOCTYPE a SYSTEM "a.dtd"><a>&e;</a>"#
        ),
        (
            "an undeclared parameter entity in a standalone document",
            #"<?xml version="1.0" standalone="yes"?><!DOCTYPE a [%p;]><a/>"#
        ),
        ("an undeclared entity with only an internal subset", #"<!DOCTYPE a [<!ENTITY % p "x">]><a>&x;</a>"#),
        (
            "a reference to an unparsed entity",
            #"<!DOCTYPE a [<!NOTATION n SYSTEM "n"><!ENTITY e SYSTEM "x" NDATA n>]><a>&e;</a>"#
        ),
        (
            "an external entity in an attribute default",
            #"<!DOCTYPE a [<!ENTITY e SYSTEM "x"><!ATTLIST a x CDATA "&e;">]><a/>"#
        ),
        ("a form feed in content", "<a>\u{C}</a>"),
        ("an escape character in a PI", "<a><?p \u{1B}?></a>"),
        ("an SGML comment inside a declaration", "<!DOCTYPE a [<!ELEMENT a EMPTY -- c -->]><a/>"),
        ("no space between public and system literals", #"<!DOCTYPE a [<!ENTITY e PUBLIC "p""s">]><a/>"#),
        ("no space after an entity name", #"<!DOCTYPE a [<!ENTITY e"x">]><a/>"#),
        ("DOCTYPE PUBLIC with one literal", #"<!DOCTYPE a PUBLIC "p"><a/>"#),
        ("an empty end tag", "<a></>"),
        ("a PI ending in >", "<a><?p x></a>"),
        (
            "NDATA on a parameter entity",
            #"<!DOCTYPE a [<!NOTATION n SYSTEM "n"><!ENTITY % e SYSTEM "x" NDATA n>]><a/>"#
        ),
        ("no space before NDATA", #"<!DOCTYPE a [<!NOTATION n SYSTEM "n"><!ENTITY e SYSTEM "x"NDATA n>]><a/>"#),
        ("commas in an attribute enumeration", #"<!DOCTYPE a [<!ATTLIST a x (p,q) "p">]><a/>"#),
        ("an unquoted attribute default", "<!DOCTYPE a [<!ATTLIST a x CDATA p>]><a/>"),
        ("a character reference after the root", "<a/>&#32;"),
        ("< followed by a space in content", "<a>< b</a>"),
        ("an entity reference starting with .", "<a>&.x;</a>"),
        ("an XML declaration inside an entity", #"<!DOCTYPE a [<!ENTITY e "<?xml version='1.0'?>x">]><a>&e;</a>"#),
        (
            "an entity whose text has a bare &, used in an attribute",
            #"<!DOCTYPE a [<!ENTITY e "a&#38;b">]><a x="&e;"/>"#
        ),
        ("a hexadecimal character reference with X", "<a>&#X20;</a>"),
        ("VERSION in upper case", #"<?xml VERSION="1.0"?><a/>"#),
        ("no space before standalone", #"<?xml version="1.0"standalone="yes"?><a/>"#),
        ("two versions in the declaration", #"<?xml version="1.0" version="1.0"?><a/>"#),
        ("an unknown pseudo-attribute in the declaration", #"<?xml version="1.0" valid="yes"?><a/>"#),
        ("a space in the encoding name", #"<?xml version="1.0" encoding="UTF 8"?><a/>"#),
        ("an entity reference after the root", #"<!DOCTYPE a [<!ENTITY e "x">]><a/>&e;"#),
        ("an entity reference inside a start tag", #"<!DOCTYPE a [<!ENTITY e "x">]><a &e;/>"#),
        ("a malformed reference in an entity value", #"<!DOCTYPE a [<!ENTITY e "& x;">]><a/>"#),
        (
            "an entity whose text is a reference to U+0001, in an attribute",
            #"<!DOCTYPE a [<!ENTITY e "&#38;#1;">]><a x="&e;"/>"#
        ),
        ("a character reference split across an entity's end", #"<!DOCTYPE a [<!ENTITY e "&#38;#">]><a>&e;38;</a>"#),
        ("mixed connectors in a content model", "<!DOCTYPE a [<!ELEMENT a (b,c|d)>]><a/>"),
        ("mixed content without *", "<!DOCTYPE a [<!ELEMENT a (#PCDATA|b)>]><a/>"),
        ("an empty content model", "<!DOCTYPE a [<!ELEMENT a ()>]><a/>"),
        ("SGML tag omission in an element declaration", "<!DOCTYPE a [<!ELEMENT a - - ANY>]><a/>"),
        ("an XML declaration inside the DTD", #"<!DOCTYPE a [<?xml version="1.0"?>]><a/>"#),
        ("no space before % in a parameter-entity declaration", #"<!DOCTYPE a [<!ENTITY% e "x">]><a/>"#),
    ]

    @Test("malformed documents are rejected with a syntax error and a position", arguments: malformed)
    func rejected(_ name: String, _ xml: String) throws {
        let error = try #require(xmlError(xml), "\(name) was accepted")
        #expect([.syntax, .forbidden].contains(error.code), "\(name): \(error)")
        let location = try #require(error.location, "\(name): no location")
        #expect(location.line >= 1 && location.column >= 1)
        #expect(location.sourceName == "test.xml")
    }

    @Test(
        "invalid UTF-8 is rejected",
        arguments: [
            [0xC3, 0x28], [0xC0, 0xBC], [0xED, 0xA0, 0x80], [0xED, 0xB0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE9],
        ] as [[UInt8]])
    func invalidUTF8(_ sequence: [UInt8]) throws {
        let bytes: [UInt8] = Array("<a>".utf8) + sequence + Array("</a>".utf8)
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
        // Added from a review against XML 1.0 (fifth edition).
        ("a PI target that only starts with xml", "<?xml-stylesheet href='a'?><a/>"),
        ("an empty PI", "<a><?pi?></a>"),
        ("U+007F and U+0085 in text", "<a>\u{7F}\u{85}</a>"),
        ("fifth-edition name characters", "<\u{2070}><\u{10000}/><\u{EFFFF}/><a\u{203F}\u{B7}\u{300}/></\u{2070}>"),
        ("a name ending in -", "<a-/>"),
        (
            "xml:lang and the xml prefix declared",
            #"<a xmlns:xml="http://www.w3.org/XML/1998/namespace" xml:lang="en"/>"#
        ),
        ("an empty default namespace", #"<a xmlns=""/>"#),
        ("single quotes in the declaration", "<?xml version='1.0' encoding='utf-8' standalone='no'?><a/>"),
        ("whitespace around = in the declaration", #"<?xml  version = "1.0"  encoding = "UTF-8"  ?><a/>"#),
        ("version 1.5 (any 1.x)", #"<?xml version="1.5"?><a/>"#),
        (
            "element, attribute, notation declarations, comments and PIs in the internal subset",
            #"<!DOCTYPE a [<!ELEMENT a (#PCDATA)><!ATTLIST a x (p|q) "p"><!NOTATION n PUBLIC "p"><!-- c --><?pi x?>]><a/>"#
        ),
        (
            "a repeated element declaration (a validity matter only)",
            "<!DOCTYPE a [ <!ELEMENT a ANY> <!ELEMENT a ANY> ]><a/>"
        ),
        ("a parameter entity between declarations", "<!DOCTYPE a [<!ENTITY % e \"<!ENTITY x 'y'>\"> %e;]><a>&x;</a>"),
        ("an unused external entity (never loaded)", #"<!DOCTYPE a [<!ENTITY e SYSTEM "x.txt">]><a/>"#),
        ("an unused unparsed entity", #"<!DOCTYPE a [<!NOTATION n SYSTEM "n"><!ENTITY e SYSTEM "x" NDATA n>]><a/>"#),
        ("an external DTD (never loaded)", #"<!DOCTYPE a PUBLIC "-//x//y" "a.dtd"><a/>"#),
        (
            "an internal entity in a standalone document",
            #"<?xml version="1.0" standalone="yes"?><!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>"#
        ),
        ("an empty entity", #"<!DOCTYPE a [<!ENTITY e "">]><a>&e;</a>"#),
        ("an unused entity that would open an element", #"<!DOCTYPE a [<!ENTITY e "<b>"><!ENTITY f "&e;">]><a/>"#),
        ("predefined entities redeclared as the spec suggests", #"<!DOCTYPE a [<!ENTITY lt "&#38;#60;">]><a>&lt;</a>"#),
        ("CDATA sections around ]]>", "<a><![CDATA[]]]]><![CDATA[>]]></a>"),
        ("]] followed by space, and escaped ]]&gt;", "<a>]] > ]]&gt;</a>"),
        ("an empty CDATA section", "<a><![CDATA[]]></a>"),
        ("a name of 5000 characters", "<" + String(repeating: "a", count: 5000) + "/>"),
        (
            "an unparsed entity with an undeclared notation (a validity matter only)",
            #"<!DOCTYPE a [<!ENTITY e SYSTEM "x" NDATA n>]><a/>"#
        ),
        ("300 attributes", "<a " + (0..<300).map { "x\($0)=\"\($0)\"" }.joined(separator: " ") + "/>"),
    ]

    @Test("well-formed documents are accepted", arguments: wellFormed)
    func accepted(_ name: String, _ xml: String) {
        let error = xmlError(xml)
        #expect(error == nil, "\(name): \(String(describing: error))")
    }

    static let values: [(String, String, Ingredients)] = [
        ("attribute whitespace becomes spaces", "<a x=\" a\n\tb \"/>", ["a": ["@x": " a  b "]]),
        ("CR LF in an attribute becomes one space", "<a x=\"1\r\n2\"/>", ["a": ["@x": "1 2"]]),
        ("character references to CR and LF stay in attributes", #"<a x="1&#13;&#10;2"/>"#, ["a": ["@x": "1\r\n2"]]),
        (
            "tokenized attribute types are normalized further",
            #"<!DOCTYPE a [<!ATTLIST a x NMTOKENS #IMPLIED>]><a x="  p   q "/>"#, ["a": ["@x": "p q"]]
        ),
        (
            "attribute defaults of the internal subset apply",
            #"<!DOCTYPE a [<!ENTITY e "v"><!ATTLIST a x CDATA "&e;" y CDATA #FIXED "f" z CDATA #IMPLIED>]><a/>"#,
            ["a": ["@x": "v", "@y": "f"]]
        ),
        (
            "a given attribute wins over its default", #"<!DOCTYPE a [<!ATTLIST a x CDATA "d">]><a x="given"/>"#,
            ["a": ["@x": "given"]]
        ),
        (
            "the first declaration of an entity binds", #"<!DOCTYPE a [<!ENTITY e "x"><!ENTITY e "y">]><a>&e;</a>"#,
            ["a": "x"]
        ),
        (
            "an entity in an attribute value is replaced",
            #"<!DOCTYPE a [<!ENTITY e "x"><!ENTITY f "&e;&e;">]><a x="&f;"/>"#,
            ["a": ["@x": "xx"]]
        ),
        (
            "a character reference in an entity value is replaced when declared",
            #"<!DOCTYPE a [<!ENTITY e "&#x26;amp;">]><a>&e;</a>"#,
            ["a": "&"]
        ),
        (
            "an escaped < in an entity value makes a character", #"<!DOCTYPE a [<!ENTITY e "&#38;#60;">]><a>&e;</a>"#,
            ["a": "<"]
        ),
        (
            "an entity with markup makes elements", #"<!DOCTYPE a [<!ENTITY e "x<b>y</b>">]><a>&e;</a>"#,
            ["a": .dict(["#text": "x", "b": "y"])]
        ),
        (
            "a parameter entity declares an attribute default",
            "<!DOCTYPE a [<!ENTITY % d \"<!ATTLIST a x CDATA 'v'>\">%d;]><a/>", ["a": ["@x": "v"]]
        ),
        (
            "a percent sign through a character reference", #"<!DOCTYPE a [<!ENTITY e "100&#37;">]><a>&e;</a>"#,
            ["a": "100%"]
        ),
    ]

    /// Documents that are well-formed XML 1.0 but break a rule of
    /// Namespaces in XML 1.0 §7 (or 1.1 where it differs), by rule.
    static let notNamespaceWellFormed: [(String, String)] = [
        // NSC: Prefix Declared.
        ("an undeclared element prefix", "<a:b/>"),
        ("an undeclared attribute prefix", #"<r a:x="1"/>"#),
        ("a prefix declared only on a sibling", #"<r><s xmlns:p="u"/><p:t/></r>"#),
        ("a prefix declared only inside", #"<p:r><s xmlns:p="u"/></p:r>"#),
        ("an undeclared prefix in an end tag's element", #"<r xmlns:p="u"><q:s></q:s></r>"#),
        ("the prefix xmlns on an element", "<xmlns:a/>"),
        (
            "an undeclared prefix from an attribute default",
            #"<!DOCTYPE r [<!ATTLIST r p:x CDATA "d">]><r/>"#
        ),
        ("an undeclared prefix in an entity's replacement text", #"<!DOCTYPE r [<!ENTITY e "<a:b/>">]><r>&e;</r>"#),
        // NSC: No Prefix Undeclaring (XML 1.0).
        ("a prefix bound to the empty string", #"<r xmlns:p=""/>"#),
        ("a bound prefix undeclared inside", #"<r xmlns:p="u"><s xmlns:p=""/></r>"#),
        ("a prefix undeclared by an attribute default", #"<!DOCTYPE r [<!ATTLIST r xmlns:p CDATA "">]><r/>"#),
        // NSC: Prefix Declared, XML 1.1: undeclaring is allowed, using the prefix inside is not.
        (
            "XML 1.1: an undeclared prefix used inside its undeclaration",
            #"<?xml version="1.1"?><r xmlns:p="u"><s xmlns:p=""><p:t/></s></r>"#
        ),
        (
            "XML 1.1: an undeclared prefix used on the undeclaring element",
            #"<?xml version="1.1"?><r xmlns:p="u"><p:s xmlns:p=""/></r>"#
        ),
        (
            "XML 1.1: an undeclared prefix on an attribute inside",
            #"<?xml version="1.1"?><r xmlns:p="u"><s xmlns:p=""><t p:a="1"/></s></r>"#
        ),
        (
            "XML 1.1: an undeclared prefix used deeper down",
            #"<?xml version="1.1"?><r xmlns:p="u"><s xmlns:p=""><t><u><p:v/></u></t></s></r>"#
        ),
        // NSC: Attributes Unique.
        ("two attributes with one expanded name", #"<r xmlns:a="u" xmlns:b="u"><x a:n="1" b:n="2"/></r>"#),
        (
            "two attributes with one expanded name, bound on the element",
            #"<r xmlns:a="u"><x a:n="1" xmlns:b="u" b:n="2"/></r>"#
        ),
        (
            "an attribute default with the expanded name of a given attribute",
            #"<!DOCTYPE r [<!ATTLIST x b:n CDATA "d">]><r xmlns:a="u" xmlns:b="u"><x a:n="1"/></r>"#
        ),
        // NSC: Reserved Prefixes and Namespace Names.
        ("xml bound to another URI", #"<r xmlns:xml="http://example.com/"/>"#),
        ("xml bound to the empty string", #"<r xmlns:xml=""/>"#),
        ("another prefix bound to the XML namespace", #"<r xmlns:p="http://www.w3.org/XML/1998/namespace"/>"#),
        ("the default namespace bound to the XML namespace", #"<r xmlns="http://www.w3.org/XML/1998/namespace"/>"#),
        ("xmlns declared", #"<r xmlns:xmlns="http://example.com/"/>"#),
        ("xmlns declared with its own URI", #"<r xmlns:xmlns="http://www.w3.org/2000/xmlns/"/>"#),
        ("a prefix bound to the xmlns namespace", #"<r xmlns:p="http://www.w3.org/2000/xmlns/"/>"#),
        ("the default namespace bound to the xmlns namespace", #"<r xmlns="http://www.w3.org/2000/xmlns/"/>"#),
        (
            "xml bound to another URI by an attribute default",
            #"<!DOCTYPE r [<!ATTLIST r xmlns:xml CDATA "http://example.com/">]><r/>"#
        ),
        ("xmlns declared by an attribute default", #"<!DOCTYPE r [<!ATTLIST r xmlns:xmlns CDATA "u">]><r/>"#),
        (
            "a prefix bound to the XML namespace by an attribute default",
            #"<!DOCTYPE r [<!ATTLIST r xmlns:p CDATA "http://www.w3.org/XML/1998/namespace">]><r/>"#
        ),
        (
            "the default namespace bound to the xmlns namespace by an attribute default",
            #"<!DOCTYPE r [<!ATTLIST r xmlns CDATA "http://www.w3.org/2000/xmlns/">]><r/>"#
        ),
        // §7: element and attribute names are qualified names (at most one colon, NCName parts).
        ("two colons in an element name", #"<a:b:c xmlns:a="u"/>"#),
        ("two colons in an attribute name", #"<r xmlns:a="u" a:b:c="1"/>"#),
        ("an element name starting with a colon", "<:a/>"),
        ("an element name ending with a colon", "<a:/>"),
        ("an attribute name starting with a colon", #"<r :b="1"/>"#),
        ("an attribute name ending with a colon", #"<r xmlns:a="u" a:="1"/>"#),
        ("a local part starting with a digit", #"<a:1b xmlns:a="u"/>"#),
        ("a local part starting with -", #"<a:-b xmlns:a="u"/>"#),
        ("an attribute's local part starting with .", #"<r xmlns:a="u" a:.b="1"/>"#),
        ("a colon in a declared prefix", #"<r xmlns:a:b="u"/>"#),
        ("several colons in element names", "<r><:a/><a:b:c/><p:a/></r>"),
        ("two colons in a declared element name", "<!DOCTYPE r [<!ELEMENT a:b:c EMPTY>]><r/>"),
        ("two colons in a declared attribute name", "<!DOCTYPE r [<!ATTLIST r a:b:c CDATA #IMPLIED>]><r/>"),
        ("two colons in an attribute list's element name", "<!DOCTYPE r [<!ATTLIST a:b:c x CDATA #IMPLIED>]><r/>"),
        ("two colons in the document type name", "<!DOCTYPE r:s:t><r/>"),
        ("a document type name ending with a colon", "<!DOCTYPE r:><r/>"),
        // §7: entity names, PI targets and notation names have no colon.
        ("a colon in an entity name", #"<!DOCTYPE r [<!ENTITY a:b "x">]><r/>"#),
        ("a colon in a parameter entity name", #"<!DOCTYPE r [<!ENTITY % a:b "x">]><r/>"#),
        ("a colon in a PI target", "<r><?a:b x?></r>"),
        ("a colon in a PI target before the root", "<?a:b x?><r/>"),
        ("a colon in a notation name", #"<!DOCTYPE r [<!NOTATION a:b SYSTEM "x">]><r/>"#),
        (
            "a colon in the notation of an unparsed entity",
            #"<!DOCTYPE r [<!NOTATION n SYSTEM "x"><!ENTITY e SYSTEM "y" NDATA a:n>]><r/>"#
        ),
    ]

    @Test(
        "documents that are not namespace-well-formed are rejected with their position",
        arguments: notNamespaceWellFormed)
    func namespaceErrorRejected(_ name: String, _ xml: String) throws {
        let error = try #require(xmlError(xml), "\(name) was accepted")
        #expect(error.code == .syntax, "\(name): \(error)")
        #expect(error.message.hasPrefix("namespace error:"), "\(name): \(error)")
        let location = try #require(error.location, "\(name): no location")
        #expect(location.line == 1 && location.column > 1, "\(name): \(location)")
        #expect(location.sourceName == "test.xml")
    }

    @Test(
        "acceptsNamespaceErrors reads documents that are only well-formed XML 1.0",
        arguments: notNamespaceWellFormed.filter { !$0.0.contains("entity's replacement") })
    func namespaceErrorAccepted(_ name: String, _ xml: String) {
        let error = xmlError(xml, options: XMLReadingOptions(acceptsNamespaceErrors: true))
        #expect(error == nil, "\(name): \(String(describing: error))")
    }

    /// Namespace-well-formed documents near the rules' edges.
    static let namespaceWellFormed: [(String, String)] = [
        ("the xml prefix without a declaration", #"<xml:a xml:lang="en"/>"#),
        ("xml declared with its own URI", #"<r xmlns:xml="http://www.w3.org/XML/1998/namespace" xml:lang="en"/>"#),
        ("an empty default namespace", #"<r xmlns="u"><s xmlns=""/></r>"#),
        ("a prefixed attribute named xmlns", #"<r xmlns:p="u" p:xmlns="1"/>"#),
        ("an element named xmlns", "<xmlns/>"),
        ("one local name in two namespaces", #"<r xmlns:a="u" xmlns:b="v"><x a:n="1" b:n="2" n="3"/></r>"#),
        ("an unprefixed attribute beside one in the default namespace", #"<r xmlns="u" xmlns:a="u" n="1" a:n="2"/>"#),
        ("a prefix rebound inside", #"<r xmlns:p="u"><p:s xmlns:p="v"><p:t/></p:s></r>"#),
        ("a relative namespace name (deprecated, not an error)", #"<r xmlns:p="rel/uri"/>"#),
        (
            "a declared element with one colon",
            #"<!DOCTYPE p:r [<!ELEMENT p:r EMPTY><!ATTLIST p:r xmlns:p CDATA #FIXED "u" p:a CDATA #IMPLIED>]><p:r/>"#
        ),
        (
            "a namespace declared by an attribute default",
            #"<!DOCTYPE r [<!ATTLIST r xmlns:p CDATA "u">]><r><p:s/></r>"#
        ),
        ("a colon in a PI's data", "<r><?pi a:b?></r>"),
        (
            "XML 1.1: a prefix undeclared and not used",
            #"<?xml version="1.1"?><r xmlns:p="u"><s xmlns:p=""/><p:t/></r>"#
        ),
        (
            "XML 1.1: a prefix undeclared, then declared again inside",
            #"<?xml version="1.1"?><r xmlns:p="u"><s xmlns:p=""><t xmlns:p="v"><p:u/></t></s><p:w/></r>"#
        ),
    ]

    @Test("namespace-well-formed documents are accepted", arguments: namespaceWellFormed)
    func namespaceWellFormedAccepted(_ name: String, _ xml: String) {
        let error = xmlError(xml)
        #expect(error == nil, "\(name): \(String(describing: error))")
    }

    @Test("a namespace error reports its line, column and the line's text")
    func namespaceErrorPosition() throws {
        let error = try #require(xmlError("<feed>\n  <entry>\n    <media:title>x</media:title>\n  </entry>\n</feed>\n"))
        #expect(error.code == .syntax)
        #expect(error.message.contains("media"))
        let location = try #require(error.location)
        #expect(location.line == 3)
        #expect(location.column > 1)
        #expect(location.lineText == "    <media:title>x</media:title>")
        #expect(error.description.contains("test.xml:3:"))
    }

    @Test("a namespace error in a skipped value is still reported")
    func namespaceErrorWhileSkipping() throws {
        // Past the first slice libxml2 is handed, so that the error is met while skipping.
        let xml = "<r><a>" + String(repeating: "<b>x</b>", count: 1000) + "<p:c/></a></r>"
        var source = try XMLIngredientSource(.text(xml, name: "test.xml"))
        #expect(try source.next() == .beginDictionary)
        #expect(try source.next() == .key("r"))
        let error = #expect(throws: EasyBakeError.self) { try source.skipValue() }
        #expect(error?.message.hasPrefix("namespace error:") == true)
    }

    @Test("with acceptsNamespaceErrors, names are read as written")
    func namespaceErrorsAcceptedValues() throws {
        let options = XMLReadingOptions(acceptsNamespaceErrors: true)
        #expect(
            try xmlTree(#"<r a:x="1"><media:title>T</media:title></r>"#, options: options)
                == ["r": .dict(["@a:x": "1", "media:title": "T"])])
        var resolving = options
        resolving.namespaces = .resolveToURIs
        #expect(try xmlTree("<r><media:title>T</media:title></r>", options: resolving) == ["r": ["media:title": "T"]])
    }

    @Test("well-formed documents read as the spec says", arguments: values)
    func value(_ name: String, _ xml: String, _ expected: Ingredients) throws {
        #expect(try xmlTree(xml) == expected, "\(name)")
    }

    @Test("an entity only an external DTD could declare is refused, not dropped")
    func undeclaredWithExternalDTD() throws {
        for xml in [#"<!DOCTYPE a SYSTEM "a.dtd"><a>x&e;y</a>"#, #"<!DOCTYPE a SYSTEM "a.dtd"><a b="&e;"/>"#] {
            let error = try #require(xmlError(xml))
            #expect(error.code == .forbidden)
            #expect(error.message.contains("&e;"))
        }
        // A parameter entity that cannot be read is skipped, as XML 1.0 §5.1 allows.
        #expect(try xmlTree(#"<!DOCTYPE a SYSTEM "a.dtd" [<!ENTITY x "1">]><a>&x;</a>"#) == ["a": "1"])
    }

    /// Constructs placed across the 64 KiB boundary between the chunks
    /// libxml2 is handed, at every offset.
    static let acrossChunks: [(String, [UInt8], Bool)] = [
        ("]]> in content", Array("]]>".utf8), false),
        ("-- in a comment", Array("<!-- a -- b -->".utf8), false),
        ("a control character", [0x01], false),
        ("a bare &", Array("& x".utf8), false),
        ("U+FFFE", [0xEF, 0xBF, 0xBE], false),
        ("< in an attribute", Array(#"<b x="<"/>"#.utf8), false),
        ("a PI named xml", Array("<?xml x?>".utf8), false),
        ("invalid UTF-8", [0xC3, 0x28], false),
        ("a four-byte character", Array("\u{1F600}".utf8), true),
        ("CDATA", Array("<![CDATA[x]]>".utf8), true),
        ("CR LF", [0x0D, 0x0A], true),
        ("a character reference", Array("&#x1F600;".utf8), true),
        ("a comment with -", Array("<!-- - -->".utf8), true),
    ]

    @Test("well-formedness is checked the same across chunk boundaries", arguments: acrossChunks)
    func acrossChunkBoundary(_ name: String, _ piece: [UInt8], _ wellFormed: Bool) throws {
        for shift in -piece.count - 1...1 {
            let prefix =
                Array("<r><p>".utf8) + Array(repeating: UInt8(ascii: "x"), count: 65_536 + shift - 10)
                + Array("</p>".utf8)
            let error = xmlError(bytes: prefix + piece + Array("</r>".utf8))
            if wellFormed {
                #expect(error == nil, "\(name) at \(shift): \(String(describing: error))")
            } else {
                #expect(error?.code == .syntax, "\(name) at \(shift)")
                #expect(error?.location?.line == 1, "\(name) at \(shift)")
            }
        }
    }

    @Test("an unfinished CDATA section is named as such")
    func unfinishedCDATA() throws {
        let error = try #require(xmlError(#"<!DOCTYPE a [<!ENTITY e "<![CDATA[">]><a>&e;]]></a>"#))
        #expect(error.message.hasPrefix("expected ']]>' to end the CDATA section, found "))
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
