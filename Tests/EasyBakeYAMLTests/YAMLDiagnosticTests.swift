import EasyBake
import EasyBakeYAML
import Foundation
import Testing

/// The error reading `input` as YAML under `limits` throws, or `nil`.
private func diagnosticError(_ input: IngredientInput, limits: IngredientLimits = .default) -> EasyBakeError? {
    do {
        var options = YAMLReadingOptions()
        options.limits = limits
        _ = try YAMLFormat(options: options).read(input)
        return nil
    } catch {
        return error
    }
}

private func diagnosticError(_ text: String, limits: IngredientLimits = .default) -> EasyBakeError? {
    diagnosticError(.text(text, name: "in.yaml"), limits: limits)
}

@Suite("YAML: limit errors and rendered diagnostics")
struct YAMLDiagnosticTests {
    @Test("a syntax error renders with source name, line:column, the line, a caret and what was expected")
    func renderedSyntaxError() {
        let error = diagnosticError("a:\n  b: [1, 2\nc: 3\n")
        #expect(error?.description == """
            error: syntax: expected ',' or ']' in the flow sequence that begins at line 2, column 6, found ':'
             --> in.yaml:3:2
              |
            3 | c: 3
              |  ^
            """)
    }

    @Test("a limit error renders like any other diagnostic")
    func renderedLimitError() {
        let error = diagnosticError("a:\n  b:\n    c:\n      d: 1\n", limits: .init(maximumDepth: 3))
        #expect(error?.description == """
            error: limit exceeded: maximumDepth limit of 3 exceeded
             --> in.yaml:4:7
              |
            4 |       d: 1
              |       ^
            """)
    }

    /// Each limit that applies to YAML: the input, the limits, and where the error must point.
    static let limitCases: [(name: String, text: String, limits: IngredientLimits, line: Int, column: Int)] = [
        ("maximumDepth", "a:\n  b:\n    c:\n      d: 1\n", .init(maximumDepth: 3), 4, 7),
        ("maximumInputBytes", "a: 1\nb: xxxxxxxxxxxxxxxxxxxx\n", .init(maximumInputBytes: 10), 2, 6),
        ("maximumStringBytes", "a: 1\nb: xxxxxxxxxxxxxxxxxxxx\n", .init(maximumStringBytes: 10), 2, 4),
        ("maximumNumberLength", "a: 1\nb: 123456789012345\n", .init(maximumNumberLength: 5), 2, 4),
        ("maximumExpansion", "a: &x [1, 2, 3, 4]\nb: [*x, *x, *x, *x, *x]\n", .init(maximumExpansion: 15), 2, 13),
        ("maximumExpansion", "a: &x {p: 1, q: 2, r: 3}\nb: {<<: *x}\nc: {<<: *x}\n", .init(maximumExpansion: 6), 2, 9),
    ]

    @Test("every limit is its own error kind naming the limit, its value and the position", arguments: limitCases.indices)
    func limitErrors(index: Int) throws {
        let limit = Self.limitCases[index]
        let error = try #require(diagnosticError(limit.text, limits: limit.limits))
        #expect(error.code == .limitExceeded)
        // The one limit each case lowers is the smallest.
        let value = [limit.limits.maximumDepth, limit.limits.maximumInputBytes, limit.limits.maximumStringBytes,
                     limit.limits.maximumNumberLength, limit.limits.maximumExpansion].min()!
        #expect(error.message.hasPrefix("\(limit.name) limit of \(value) exceeded"))
        #expect(error.location?.sourceName == "in.yaml")
        #expect(error.location?.line == limit.line)
        #expect(error.location?.column == limit.column)
        #expect(error.location?.lineText != nil)
        #expect(diagnosticError(limit.text) == nil)
    }

    @Test("the input limit names its position when a file is read in chunks too")
    func inputLimitInFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("easybake-limit-\(UUID().uuidString).yaml")
        try Data("a: 1\nb: \(String(repeating: "x", count: 100_000))\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let error = try #require(diagnosticError(.file(url.path), limits: .init(maximumInputBytes: 70_000)))
        #expect(error.code == .limitExceeded)
        #expect(error.message == "maximumInputBytes limit of 70000 exceeded")
        #expect(error.location?.sourceName == url.path)
        #expect(error.location?.line == 2)
        #expect(error.location?.column == 70_000 - 5 + 1)
    }

    @Test("a source over text beyond the input limit throws instead of trapping")
    func textSourceOverLimit() throws {
        var options = YAMLReadingOptions()
        options.limits.maximumInputBytes = 4
        #expect(throws: EasyBakeError.self) { try YAMLIngredientSource(.text("a: 12345\n"), options: options) }
        do {
            _ = try YAMLIngredientSource(.text("a: 12345\n"), options: options)
        } catch {
            #expect(error.code == .limitExceeded)
            #expect(error.location?.line == 1)
        }
    }

    @Test("bytes named like standard input are bytes in memory: read whole, located with an excerpt")
    func bytesNamedStandardInput() throws {
        let input = IngredientInput.bytes(Array("a: 1\nb: [2\n".utf8), name: IngredientInput.standardInput.name)
        var source = try YAMLIngredientSource(input)
        var error: EasyBakeError?
        do { while try source.next() != nil {} } catch let thrown { error = thrown }
        let thrown = try #require(error)
        #expect(thrown.code == .syntax)
        #expect(thrown.location?.sourceName == "<stdin>")
        #expect(thrown.location?.lineText != nil)
    }
}
