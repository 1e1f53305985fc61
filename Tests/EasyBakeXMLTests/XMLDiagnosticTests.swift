import EasyBake
import EasyBakeXML
import Testing

/// The error reading `text` as XML under `limits` throws, or `nil`.
private func diagnosticError(_ text: String, limits: IngredientLimits = .default) -> EasyBakeError? {
    do {
        _ = try XMLFormat(options: .init(limits: limits)).read(.text(text, name: "in.xml"))
        return nil
    } catch {
        return error
    }
}

@Suite("XML: limit errors and rendered diagnostics")
struct XMLDiagnosticTests {
    @Test("a syntax error renders with source name, line:column, the line and a caret")
    func renderedSyntaxError() {
        let error = diagnosticError("<a>\n  <b>x</c>\n</a>")
        #expect(error?.code == .syntax)
        #expect(
            error?.description == """
                error: syntax: expected the end tag </b> of the element that starts at line 2, found </c>
                 --> in.xml:2:11
                  |
                2 |   <b>x</c>
                  |           ^
                """)
    }

    /// A malformed or cut document of each kind libxml2 reports, the
    /// message EasyBake gives it (what was expected, what was found), and
    /// where it points.
    static let messageCases: [(xml: String, message: String, line: Int, column: Int)] = [
        ("", "the document is empty: expected a root element, found the end of the input", 1, 1),
        (" ", "the document is empty: expected a root element, found the end of the input", 1, 1),
        ("<", "expected an element name and '>' after '<', found the end of the input", 1, 1),
        ("<a", "expected '>' or '/>' to end the start tag <a, found the end of the input", 1, 3),
        ("<a b", "expected '=' and a quoted value after the attribute name b, found the end of the input", 1, 5),
        ("<a b=", "expected a quoted attribute value (\" or '), found the end of the input", 1, 6),
        ("<a b=\"x", "expected a quote to end the attribute value, found the end of the input", 1, 8),
        ("<a b=\"x\"", "expected a space, '>' or '/>' after an attribute value, found the end of the input", 1, 9),
        ("<a>", "expected the end tag </a> of the element that starts at line 1, found the end of the input", 1, 4),
        ("<a>text", "expected the end tag </a> of the element that starts at line 1, found the end of the input", 1, 8),
        ("<a></a", "expected '>' to end the end tag, found the end of the input", 1, 7),
        ("<a><!-- x", "expected '-->' to end the comment, found the end of the input", 1, 10),
        ("<a><![CDATA[x", "expected ']]>' to end the CDATA section, found the end of the input", 1, 14),
        (
            "<a><?pi",
            "expected a space or '?>' after the processing instruction's target pi, found the end of the input", 1, 8
        ),
        (
            "<?xml", "expected the rest of the XML declaration (<?xml version=\"1.0\"?>), found the end of the input",
            1, 6
        ),
        ("<?xml version=\"1.0\"", "expected a space, found the end of the input", 1, 20),
        ("<!DOCTYPE", "expected the root element's name after '<!DOCTYPE', found the end of the input", 1, 10),
        ("<!DOCTYPE a [", "expected ']>' to end the document type declaration, found the end of the input", 1, 13),
        ("<a>&", "expected a reference (&name; or &#number;) after '&', found the end of the input", 1, 4),
        (
            "<a>&am",
            "expected ';' to end the entity reference, found the end of the input (XML writes a lone & as &amp;; lenientReferences, or --xml-lenient, reads a feed's bare & as text)",
            1, 7
        ),
        (
            "<a>&#12", "expected decimal digits and ';' in a character reference (&#233;), found the end of the input",
            1, 8
        ),
        ("<a><b></a>", "expected the end tag </b> of the element that starts at line 1, found </a>", 1, 11),
        ("<a/><b/>", "expected the end of the input after the root element (a document has one), found \"<b/>\"", 1, 5),
        ("text", "expected a root element (a start tag such as <feed>), found \"text\"", 1, 1),
        ("<1a/>", "expected an element name after '<', found \"1a/>\"", 1, 2),
        ("<a b></a>", "expected '=' and a quoted value after the attribute name b, found '>'", 1, 5),
        ("<a b=x></a>", "expected a quoted attribute value (\" or '), found \"x>\"", 1, 6),
        ("<a b=\"1\" b=\"2\"/>", "expected each attribute once in a start tag, found b again", 1, 15),
        ("<a b=\"<\"/>", "expected '&lt;' for a '<' in an attribute value, found '<'", 1, 7),
        ("<a>\u{01}</a>", "expected a character XML allows, found U+0001", 1, 4),
        ("<a>]]></a>", "expected ']]&gt;' for ']]>' in text, found ']]>'", 1, 4),
        ("<a>&#0;</a>", "expected a reference to a character XML allows, found one to U+0000", 1, 8),
        ("<a>&#xZZ;</a>", "expected hexadecimal digits and ';' in a character reference (&#xE9;), found \"ZZ;\"", 1, 7),
        (
            "<a>x & y</a>",
            "expected an entity name after '&', found a space (XML writes a lone & as &amp;; lenientReferences, or --xml-lenient, reads a feed's bare & as text)",
            1, 7
        ),
        (
            "<a>&foo;</a>",
            "expected a declared entity, found &foo; (XML declares only &amp; &lt; &gt; &quot; &apos;; lenientReferences, or --xml-lenient, reads HTML's entities such as &nbsp;)",
            1, 9
        ),
        ("<a><!-- -- --></a>", "expected '>' after '--' (a comment cannot hold '--'), found \"--\"", 1, 9),
        ("<?xml version=\"2.0\"?><a/>", "expected the XML version 1.0 in the XML declaration, found '2.0'", 1, 20),
        (
            "<a/><?xml version=\"1.0\"?>",
            "expected the XML declaration <?xml …?> only at the very start of the document, found one here", 1, 10
        ),
        (
            "<a b=\"1\"c=\"2\"/>", "expected a space, '>' or '/>' after an attribute value, found \"c=\\\"2\\\"/>\"", 1,
            9
        ),
        ("<? ?><a/>", "expected a processing instruction's target name after '<?', found a space", 1, 3),
        ("<a>\n  <b>x</c>\n</a>", "expected the end tag </b> of the element that starts at line 2, found </c>", 2, 11),
        ("<a =\"1\"/>", "expected an attribute name, '>' or '/>', found \"=\\\"1\\\"/>\"", 1, 4),
    ]

    @Test("each libxml2 error reads as expected …, found …, with its line and column", arguments: messageCases.indices)
    func messageShapes(index: Int) throws {
        let expected = Self.messageCases[index]
        let error = try #require(diagnosticError(expected.xml))
        #expect(error.code == .syntax)
        #expect(error.message == expected.message)
        #expect(error.message.hasPrefix("expected ") || error.message.hasPrefix("the document is empty: expected "))
        #expect(error.message.contains(", found "))
        #expect(error.location?.line == expected.line)
        #expect(error.location?.column == expected.column)
    }

    @Test("a CDATA section left open is reported at the end of the input, reading records natively or not")
    func openCDATASectionOnEveryRoad() throws {
        // libxml2 hands an open section out a few hundred bytes at a time,
        // so where it stood at the end depended on how the input was fed
        // (found by the fuzzer: 23:58 reading records, 17:4 through events).
        var text = "<feed>\n"
        for number in 0..<20 { text += "  <entry><id>\(number)</id></entry>\n" }
        text += "  <entry><![CDATA[ open\n" + String(repeating: "a long line of text in the section\n", count: 60)
        let input = IngredientInput.bytes(Array(text.utf8), name: "feed.xml")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        func streamedError(natively: Bool) throws -> EasyBakeError? {
            let source = try XMLIngredientSource(input)
            source.readsRecordsNatively = natively
            var reader = try RecordReader(source: source, each: "feed.entry[*]")
            do {
                while try reader.next() != nil {}
            } catch {
                return error
            }
            return nil
        }
        var errors = [try streamedError(natively: true), try streamedError(natively: false)]
        do {
            _ = try XMLFormat().read(input)
        } catch {
            errors.append(error)
        }
        #expect(errors.count == 3)
        for error in errors {
            #expect(error?.message == "expected ']]>' to end the CDATA section, found the end of the input")
            #expect(error?.location?.line == lines)
            #expect(error?.location?.column == 1)
        }
    }

    @Test("an empty document says so; a cut one says what was expected where it ends, with the caret there")
    func emptyAndCutDocuments() throws {
        for empty in ["", "\n\n  \n", "\u{FEFF}"] {
            let error = try #require(diagnosticError(empty))
            #expect(error.message == "the document is empty: expected a root element, found the end of the input")
            #expect(!error.message.contains("Extra content"))
        }
        let feed = "<rss>\n  <channel>\n    <item><title>Bread</title>"
        let error = try #require(diagnosticError(feed))
        #expect(
            error.description == """
                error: syntax: expected the end tag </item> of the element that starts at line 3, found the end of the input
                 --> in.xml:3:31
                  |
                3 |     <item><title>Bread</title>
                  |                               ^
                """)
        // Cut after every byte of a small feed: never libxml2's "Extra
        // content", always what was expected, and the end of the input.
        let whole = Array(
            "<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><!-- c --><channel><title a='1'>A &amp; B</title><![CDATA[x]]></channel></rss>"
                .utf8)
        for length in 0..<whole.count {
            let cut = try #require(diagnosticError(String(decoding: whole[..<length], as: UTF8.self)), "\(length)")
            #expect(
                cut.message.hasPrefix("expected ") || cut.message.hasPrefix("the document is empty"),
                "\(length): \(cut.message)")
            #expect(cut.message.contains("found the end of the input"), "\(length): \(cut.message)")
        }
    }

    @Test("a limit error renders like any other diagnostic")
    func renderedLimitError() {
        let error = diagnosticError("<a><b><c><d>x</d></c></b></a>", limits: .init(maximumDepth: 3))
        #expect(
            error?.description == """
                error: limit exceeded: maximumDepth limit of 3 exceeded
                 --> in.xml:1:9
                  |
                1 | <a><b><c><d>x</d></c></b></a>
                  |         ^
                """)
    }

    /// Each limit that applies to XML (numbers stay text, so
    /// `maximumNumberLength` does not): the input, the limits, and where
    /// the error must point.
    static let limitCases: [(name: String, text: String, limits: IngredientLimits, line: Int, column: Int)] = [
        ("maximumDepth", "<a>\n<b><c><d>x</d></c></b></a>", .init(maximumDepth: 3), 2, 6),
        ("maximumInputBytes", "<a>\n<b>xxxxxxxxxxxxxxxxxxxxxxxx</b></a>", .init(maximumInputBytes: 10), 2, 7),
        ("maximumStringBytes", "<a>\n  <b>xxxxxxxxxxxxxxxxxxxxxxxx</b></a>", .init(maximumStringBytes: 10), 2, 30),
        ("maximumStringBytes", "<a>\n  <b c=\"xxxxxxxxxxxxxxxxxxxxxxxx\"/></a>", .init(maximumStringBytes: 10), 2, 34),
        ("maximumStringBytes", "<a>\n  <bbbbbbbbbbbbbbbbbbbbbbbb/></a>", .init(maximumStringBytes: 10), 2, 28),
        ("maximumStringBytes", "<a>\n  <b cccccccccccccccccccccccc=\"1\"/></a>", .init(maximumStringBytes: 10), 2, 34),
        (
            "maximumExpansion", "<!DOCTYPE a [<!ENTITY e \"eeeeeeeeee\">]>\n<a>&e;&e;&e;</a>",
            .init(maximumExpansion: 15), 2, 7
        ),
    ]

    @Test(
        "every limit is its own error kind naming the limit, its value and the position", arguments: limitCases.indices)
    func limitErrors(index: Int) throws {
        let limit = Self.limitCases[index]
        let error = try #require(diagnosticError(limit.text, limits: limit.limits))
        #expect(error.code == .limitExceeded)
        // The one limit each case lowers is the smallest.
        let value = [
            limit.limits.maximumDepth, limit.limits.maximumInputBytes, limit.limits.maximumStringBytes,
            limit.limits.maximumExpansion,
        ].min()!
        #expect(error.message.hasPrefix("\(limit.name) limit of \(value) exceeded"))
        #expect(error.location?.sourceName == "in.xml")
        #expect(error.location?.line == limit.line)
        #expect(error.location?.column == limit.column)
        #expect(error.location?.lineText != nil)
        #expect(diagnosticError(limit.text) == nil)
    }

    @Test("numbers are text in XML: maximumNumberLength does not apply")
    func numbersAreText() throws {
        let tree = try XMLFormat(options: .init(limits: .init(maximumNumberLength: 5))).read(
            .text("<a>123456789012345</a>"))
        #expect(tree == ["a": "123456789012345"])
    }

    @Test("a repeated element is located by its occurrence: a[n] is the nth, a the first")
    func repeatedElementLocation() throws {
        let document = try Document(
            reading: .text("<r>\n<a>1</a>\n<a>2</a>\n<b>3</b>\n</r>\n", name: "r.xml"), format: .xml)
        #expect(document.tree == ["r": ["a": ["1", "2"], "b": "3"]])
        let first = document.location(of: try IngredientPath(parsing: "r.a[0]"))
        let second = document.location(of: try IngredientPath(parsing: "r.a[1]"))
        #expect(first?.line == 2)
        #expect(second?.line == 3)
        #expect(document.location(of: try IngredientPath(parsing: "r.a"))?.line == first?.line)
        // Past the last occurrence: where its deepest present ancestor, r.a, begins.
        #expect(document.location(of: try IngredientPath(parsing: "r.a[2]")) == first)
    }
}
