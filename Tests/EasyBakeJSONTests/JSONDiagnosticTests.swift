import EasyBake
import EasyBakeJSON
import Testing

/// The error reading `text` as JSON under `limits` throws, or `nil`.
private func jsonError(_ text: String, limits: IngredientLimits = .default) -> EasyBakeError? {
    do {
        _ = try JSONFormat(options: .init(limits: limits)).read(.text(text, name: "in.json"))
        return nil
    } catch {
        return error
    }
}

@Suite("JSON: limit errors and rendered diagnostics")
struct JSONDiagnosticTests {
    @Test("a syntax error renders with source name, line:column, the line, a caret and what was expected")
    func renderedSyntaxError() {
        let error = jsonError("{\n  \"a\": 1,\n  \"b\": [1, 2,]\n}")
        #expect(
            error?.description == """
                error: syntax: expected a value after ',', found ']' (trailing commas are not JSON)
                 --> in.json:3:14
                  |
                3 |   "b": [1, 2,]
                  |              ^
                """)
    }

    @Test("a limit error renders like any other diagnostic")
    func renderedLimitError() {
        let error = jsonError("{\n  \"a\": 123456789012345}", limits: .init(maximumNumberLength: 5))
        #expect(
            error?.description == """
                error: limit exceeded: maximumNumberLength limit of 5 exceeded
                 --> in.json:2:8
                  |
                2 |   "a": 123456789012345}
                  |        ^
                """)
    }

    /// Each limit that applies to JSON: the input, the limits, and where the error must point.
    static let limitCases: [(name: String, text: String, limits: IngredientLimits, line: Int, column: Int)] = [
        ("maximumDepth", "{\"a\": [[[1]]]}", .init(maximumDepth: 3), 1, 9),
        ("maximumInputBytes", "{\"a\":\n \"xxxxxxxxxxxxxxxxxxxxx\"}", .init(maximumInputBytes: 10), 2, 5),
        ("maximumStringBytes", "{\n  \"a\": \"xxxxxxxxxxxxxxxxxxxxx\"}", .init(maximumStringBytes: 10), 2, 8),
        ("maximumStringBytes", "{\n  \"xxxxxxxxxxxxxxxxxxxxx\": 1}", .init(maximumStringBytes: 10), 2, 3),
        ("maximumNumberLength", "[1,\n -1234567.5e10]", .init(maximumNumberLength: 5), 2, 2),
    ]

    @Test(
        "every limit is its own error kind naming the limit, its value and the position", arguments: limitCases.indices)
    func limitErrors(index: Int) throws {
        let limit = Self.limitCases[index]
        let error = try #require(jsonError(limit.text, limits: limit.limits))
        #expect(error.code == .limitExceeded)
        // The one limit each case lowers is the smallest.
        let value = [
            limit.limits.maximumDepth, limit.limits.maximumInputBytes, limit.limits.maximumStringBytes,
            limit.limits.maximumNumberLength,
        ].min()!
        #expect(error.message == "\(limit.name) limit of \(value) exceeded")
        #expect(error.location?.sourceName == "in.json")
        #expect(error.location?.line == limit.line)
        #expect(error.location?.column == limit.column)
        #expect(error.location?.lineText != nil)
        // Within the limits, the same input reads.
        #expect(jsonError(limit.text) == nil)
    }
}
