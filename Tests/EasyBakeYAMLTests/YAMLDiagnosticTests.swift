import EasyBake
@testable import EasyBakeYAML
import Foundation
import Testing
import EasyBakeTestSupport

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
        #expect(
            error?.description == """
                error: syntax: expected ',' or ']' in the flow sequence that begins at line 2, column 6, found ':'
                 --> in.yaml:3:2
                  |
                3 | c: 3
                  |  ^
                """)
    }

    /// One malformed or cut file for each problem libyaml 0.2.5 reports
    /// while reading, with where the error must point and what it must say.
    static let syntaxCases: [(text: String, line: Int, column: Int, message: String)] = [
        // Cut files.
        (
            "a: [1, 2", 1, 9,
            "expected ',' or ']' in the flow sequence that begins at line 1, column 4, found the end of the input"
        ),
        ("a: {x: 1, ", 1, 11, "expected a value, found the end of the input"),
        (
            "a: \"unterminated\n", 1, 4,
            "expected the closing quote of the scalar that begins here, found the end of the input"
        ),
        (
            "a: 'cut\nb: 2\n", 1, 4,
            "expected the closing quote of the scalar that begins here, found the end of the input"
        ),
        (
            "a: !<tag:x", 1, 11,
            "expected '>' to close the verbatim tag that begins at line 1, column 4, found the end of the input"
        ),
        ("a: *", 1, 5, "expected an alias name after '*' (letters, digits, '-' and '_'), found the end of the input"),
        // Block structure.
        (
            "a: 1\nb\nc: 2\n", 2, 1,
            "expected ':' after this key, on its line, found the end of the line (an implicit key and its ':' "
                + "stand on one line, within 1024 characters; a scalar alone in a mapping needs a key)"
        ),
        (
            "a: - b\n", 1, 4,
            #"expected a value on the key's line, or a line break, found '-' (a block sequence begins on the line below its key; quote a string that begins with "- ")"#
        ),
        (
            "a: ? b\n", 1, 4,
            #"expected a value, found '?' (an explicit key "? " begins a line of its own; quote a string that begins with "? ")"#
        ),
        (
            "a: b: c\n", 1, 5,
            #"expected the end of the value, found ':' (a plain scalar cannot hold ": ": quote it; a nested mapping begins on the line below its key, indented)"#
        ),
        (
            "- a\nb: 1\n", 2, 1,
            "expected '-' before the next entry of the block sequence that begins at line 1, column 1, found 'b' "
                + "(an entry stands at the column of the entries before it)"
        ),
        (
            "a:\n  b: 1\n c: 2\n", 3, 2,
            "expected a key of the block mapping that begins at line 1, column 1, found 'c' "
                + "(a key stands at the column of the keys before it)"
        ),
        ("a:\n  b\n\tc\n", 3, 1, "expected spaces of indentation, found a tab (YAML indents with spaces, not tabs)"),
        (
            "a:\n\t- b\n", 2, 1,
            "expected the start of a node (a scalar, '-', '?', '[', '{', an anchor, an alias or a tag), found a tab "
                + "(YAML indents with spaces, not tabs)"
        ),
        (
            "a: 1\n@b: 2\n", 2, 1,
            "expected the start of a node (a scalar, '-', '?', '[', '{', an anchor, an alias or a tag), found '@' "
                + "('@' and '`' are reserved: quote a scalar that begins with one)"
        ),
        // Flow collections.
        (
            "a: {x: 1\nb: 3\n", 2, 2,
            "expected ',' or '}' in the flow mapping that begins at line 1, column 4, found ':'"
        ),
        ("a: [b, }\n", 1, 8, "expected a value, found '}'"),
        (
            "[a:, b]\n", 1, 3,
            "expected a space after ':', found ':' before a flow indicator (quote a scalar that holds ':')"
        ),
        // Scalars.
        ("a: |0\n  x\n", 1, 5, "expected an indentation indicator from 1 to 9, found '0'"),
        (
            "a: |x\n  x\n", 1, 5,
            "expected a comment or the end of the line after the block scalar's header, found 'x' "
                + "('|' or '>', then optionally '+' or '-' and an indentation from 1 to 9)"
        ),
        (
            "a: |\n  x\n\tb\n", 3, 1,
            "expected spaces to indent the block scalar's lines, found a tab (YAML indents with spaces, not tabs)"
        ),
        (
            "a: \"x\n---\ny\"\n", 2, 1,
            "expected the closing quote of the scalar that begins at line 1, column 4, "
                + "found a document marker at the start of a line (indent the quoted scalar's lines)"
        ),
        (
            "a: \"x\\qy\"\n", 1, 6,
            #"expected an escape of YAML's: \0 \a \b \t \n \v \f \r \e \" \/ \\ \N \_ \L \P \xXX \uXXXX \UXXXXXXXX, "#
                + #"or '\' before a space or a line break, found '\q'"#
        ),
        ("a: \"\\x4Z\"\n", 1, 7, "expected hexadecimal digits in the escape, found 'Z'"),
        (
            "a: \"\\uD800\"\n", 1, 7,
            #"expected a Unicode character up to 10FFFF, no surrogate (D800 to DFFF), found '\uD800'"#
        ),
        ("a: & b\n", 1, 5, "expected an anchor name after '&' (letters, digits, '-' and '_'), found a space"),
        // Tags.
        ("a: !<> x\n", 1, 6, "expected a tag, found '>'"),
        ("a: !<tag:x>b c\n", 1, 12, "expected a space or the end of the line after the tag, found 'b'"),
        ("a: !x%zz b\n", 1, 6, "expected two hexadecimal digits after '%' in the tag, found '%zz'"),
        ("a: !x%ff b\n", 1, 6, "expected a %-escaped UTF-8 character in the tag, found '%ff'"),
        ("a: !x%c3%41 b\n", 1, 9, "expected a %-escaped UTF-8 character in the tag, found '%41'"),
        (
            "a: !x!y b\n", 1, 4,
            "expected a tag whose handle a %TAG directive declares, found '!x!y' ('!' and '!!' need none)"
        ),
        // Directives and documents.
        ("%FOO bar\n---\na\n", 1, 1, "expected %YAML or %TAG, found '%FOO' (libyaml 0.2.5 knows no other directive)"),
        ("% \n---\na\n", 1, 2, "expected a directive name after '%', found a space"),
        ("%YA@ML\n---\na\n", 1, 4, "expected a directive name of letters, digits, '-' and '_', found '@'"),
        ("%YAML 1.2 x\n---\na\n", 1, 11, "expected a comment or the end of the line after the directive, found 'x'"),
        ("%YAML 1x2\n---\na\n", 1, 8, "expected a version number such as 1.2, found 'x'"),
        ("%TAG !x!tag:x\n---\na\n", 1, 9, "expected a space between the tag handle and its prefix, found 't'"),
        ("%YAML x\n---\na\n", 1, 7, "expected a version number such as 1.2, found 'x'"),
        ("%YAML 1.1234567890\n---\na\n", 1, 18, "expected a version number of at most 9 digits a part, found '0'"),
        ("%YAML 2.0\n---\na\n", 1, 1, "expected %YAML 1.1 or %YAML 1.2, found another version"),
        ("%YAML 1.2\n%YAML 1.2\n---\na\n", 2, 1, "expected one %YAML directive for the document, found a second one"),
        (
            "%TAG !x! tag:a\n%TAG !x! tag:b\n---\na\n", 2, 1,
            "expected one %TAG directive for each handle, found a second one for this handle"
        ),
        (
            "%TAG !x tag:x\n---\na\n", 1, 8,
            "expected '!' to end the tag handle, found a space (a tag handle is '!', '!!' or '!name!')"
        ),
        (
            "%YAML 1.2\na: 1\n", 2, 1,
            "expected '---' to begin the document, found 'a' (a document after directives or after '...' begins with '---')"
        ),
    ]

    @Test("each libyaml problem reads as expected …, found …, at its line and column", arguments: syntaxCases.indices)
    func syntaxMessages(index: Int) throws {
        let (text, line, column, message) = Self.syntaxCases[index]
        let error = try #require(diagnosticError(text), "\(text.debugDescription)")
        #expect(error.code == .syntax)
        #expect(error.message == message)
        #expect(
            error.location?.line == line && error.location?.column == column,
            "\(text.debugDescription): \(String(describing: error.location))")
        #expect(error.location?.lineText != nil)
        #expect(error.description.hasPrefix("error: syntax: expected "))
        // A file, read in chunks, is looked at again for the same words and excerpt.
        let url = TestFiles.directory.appendingPathComponent(
            "easybake-diagnostic-\(UUID().uuidString).yaml")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let fromFile = try #require(diagnosticError(.file(url.path)))
        #expect(fromFile.message == message)
        #expect(fromFile.location?.line == line && fromFile.location?.column == column)
        #expect(fromFile.location?.lineText == error.location?.lineText)
    }

    @Test(
        "without the input to look at again (standard input), a message keeps what was expected; an unknown problem keeps libyaml's words"
    )
    func messagesWithoutInput() {
        let message = YAMLSyntaxMessage(
            problem: "did not find expected ',' or ']'", context: "while parsing a flow sequence", line: 2, column: 6)
        #expect(
            message.text(input: nil, problem: 0, pointed: 0)
                == "expected ',' or ']' in the flow sequence that begins at line 2, column 6")
        let cut = YAMLSyntaxMessage(
            problem: "found unexpected end of stream", context: "while scanning a quoted scalar", line: 1, column: 4)
        #expect(
            cut.text(input: nil, problem: 0, pointed: 0)
                == "expected the closing quote of the scalar that begins here, found the end of the input")
        let unknown = YAMLSyntaxMessage(problem: "something new", context: "while doing x", line: 1, column: 2)
        #expect(
            unknown.text(input: nil, problem: 0, pointed: 0)
                == "expected well-formed YAML (libyaml: while doing x at line 1, column 2: something new)")
    }

    /// Bytes that are not text, and characters YAML does not allow: the
    /// input, where the error must point, and what it must say.
    static let encodingCases: [(bytes: [UInt8], line: Int, column: Int, message: String)] = [
        (Array("a: 1\nb: ".utf8) + [0xFF, 0x0A], 2, 4, "expected UTF-8 text, found the invalid byte 0xFF"),
        (
            Array("a: ".utf8) + [0xC3, 0x28, 0x0A], 1, 5,
            "expected UTF-8 text, found the invalid continuation byte 0x28"
        ),
        (
            Array("a: ".utf8) + [0xE2, 0x82], 1, 4,
            "expected UTF-8 text, found a sequence cut short by the end of the input"
        ),
        (
            Array("a: ".utf8) + [0xED, 0xA0, 0x80, 0x0A], 1, 4,
            "expected UTF-8 text, found the encoded surrogate or out-of-range value U+D800"
        ),
        (
            Array("a: ".utf8) + [0x01, 0x0A], 1, 4,
            "expected a printable character, found the control character U+0001 "
                + "(YAML allows tabs, line breaks and printable characters; write others as escapes in a double-quoted scalar)"
        ),
        (
            [0xFF, 0xFE, 0x61, 0x00, 0x3A, 0x00, 0x20, 0x00, 0x62], 1, 9,
            "expected UTF-16 text, found a character cut short by the end of the input"
        ),
        ([0xFF, 0xFE, 0x00, 0xD8], 1, 3, "expected UTF-16 text, found a character cut short by the end of the input"),
        ([0xFF, 0xFE, 0x00, 0xDC], 1, 3, "expected UTF-16 text, found the lone low surrogate 0xDC00"),
        ([0xFF, 0xFE, 0x00, 0xD8, 0x61, 0x00], 1, 5, "expected a low surrogate after a high one, found 0x61"),
    ]

    @Test(
        "bytes that are no text read as expected …, found …, at their position, in memory and in a file",
        arguments: encodingCases.indices)
    func encodingMessages(index: Int) throws {
        let (bytes, line, column, message) = Self.encodingCases[index]
        let url = TestFiles.directory.appendingPathComponent(
            "easybake-encoding-\(UUID().uuidString).yaml")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        for input in [IngredientInput.bytes(bytes, name: "in.yaml"), .file(url.path)] {
            let error = try #require(diagnosticError(input))
            #expect(error.code == .unsupportedEncoding)
            #expect(error.message == message)
            #expect(
                error.location?.line == line && error.location?.column == column,
                "\(String(describing: error.location))")
        }
    }

    @Test("a limit error renders like any other diagnostic")
    func renderedLimitError() {
        let error = diagnosticError("a:\n  b:\n    c:\n      d: 1\n", limits: .init(maximumDepth: 3))
        #expect(
            error?.description == """
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

    @Test(
        "every limit is its own error kind naming the limit, its value and the position", arguments: limitCases.indices)
    func limitErrors(index: Int) throws {
        let limit = Self.limitCases[index]
        let error = try #require(diagnosticError(limit.text, limits: limit.limits))
        #expect(error.code == .limitExceeded)
        // The one limit each case lowers is the smallest.
        let value = [
            limit.limits.maximumDepth, limit.limits.maximumInputBytes, limit.limits.maximumStringBytes,
            limit.limits.maximumNumberLength, limit.limits.maximumExpansion,
        ].min()!
        #expect(error.message.hasPrefix("\(limit.name) limit of \(value) exceeded"))
        #expect(error.location?.sourceName == "in.yaml")
        #expect(error.location?.line == limit.line)
        #expect(error.location?.column == limit.column)
        #expect(error.location?.lineText != nil)
        #expect(diagnosticError(limit.text) == nil)
    }

    @Test("the input limit names its position when a file is read in chunks too")
    func inputLimitInFile() throws {
        let url = TestFiles.directory.appendingPathComponent(
            "easybake-limit-\(UUID().uuidString).yaml")
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
