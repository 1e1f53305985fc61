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
        #expect(error?.description == """
            error: syntax: Opening and ending tag mismatch: b line 2 and c
             --> in.xml:2:11
              |
            2 |   <b>x</c>
              |           ^
            """)
    }

    @Test("a limit error renders like any other diagnostic")
    func renderedLimitError() {
        let error = diagnosticError("<a><b><c><d>x</d></c></b></a>", limits: .init(maximumDepth: 3))
        #expect(error?.description == """
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
        ("maximumExpansion", "<!DOCTYPE a [<!ENTITY e \"eeeeeeeeee\">]>\n<a>&e;&e;&e;</a>", .init(maximumExpansion: 15), 2, 7),
    ]

    @Test("every limit is its own error kind naming the limit, its value and the position", arguments: limitCases.indices)
    func limitErrors(index: Int) throws {
        let limit = Self.limitCases[index]
        let error = try #require(diagnosticError(limit.text, limits: limit.limits))
        #expect(error.code == .limitExceeded)
        // The one limit each case lowers is the smallest.
        let value = [limit.limits.maximumDepth, limit.limits.maximumInputBytes, limit.limits.maximumStringBytes,
                     limit.limits.maximumExpansion].min()!
        #expect(error.message.hasPrefix("\(limit.name) limit of \(value) exceeded"))
        #expect(error.location?.sourceName == "in.xml")
        #expect(error.location?.line == limit.line)
        #expect(error.location?.column == limit.column)
        #expect(error.location?.lineText != nil)
        #expect(diagnosticError(limit.text) == nil)
    }

    @Test("numbers are text in XML: maximumNumberLength does not apply")
    func numbersAreText() throws {
        let tree = try XMLFormat(options: .init(limits: .init(maximumNumberLength: 5))).read(.text("<a>123456789012345</a>"))
        #expect(tree == ["a": "123456789012345"])
    }

    @Test("a repeated element is located by its occurrence: a[n] is the nth, a the first")
    func repeatedElementLocation() throws {
        let document = try Document(reading: .text("<r>\n<a>1</a>\n<a>2</a>\n<b>3</b>\n</r>\n", name: "r.xml"), format: .xml)
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
