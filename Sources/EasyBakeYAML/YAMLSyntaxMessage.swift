/// libyaml's problems in the shape of the JSON reader's errors: "expected
/// …, found …", and why, where it helps.
///
/// libyaml words a problem from its own side ("while parsing a flow
/// sequence (line 2, column 6): did not find expected ',' or ']'"); a user
/// fixing a file wants what should stand at the caret, what stands there
/// instead, and where the construct it belongs to began. Each problem libyaml
/// 0.2.5 can report while reading is mapped here, by its text (libyaml has
/// no codes); one it does not know keeps libyaml's words after the
/// expectation.
struct YAMLSyntaxMessage {
    /// What should stand at the error's position.
    var expected: String
    /// How to name what stands there instead.
    var found: Found
    /// Why, or what to write instead.
    var hint: String?
    /// Whether the error points where the construct began (libyaml's context
    /// mark) rather than where it went wrong — as the JSON reader points at
    /// a string that never closes.
    var pointsAtContext = false
    /// Whether the hint is the found character's (a tab, a reserved
    /// indicator): where no token may begin.
    var namesFoundCharacter = false

    enum Found {
        /// The character at the problem.
        case character
        /// A fixed description.
        case text(String)
        /// A word (up to a blank) at the position the error points at.
        case word
        /// An escape of a double-quoted scalar: the `\` and its letter.
        case escape
        /// The first character that is no hexadecimal digit of an escape
        /// whose digits begin at the problem.
        case hexDigit
        /// A whole `\x`, `\u` or `\U` escape whose digits begin at the problem.
        case escapeCode
        /// A `%` escape of a tag: the `%` and the two characters after it.
        case percentEscape
        /// Where an implicit key's line ended, or the character at the
        /// problem when it is on the key's line.
        case keyLineEnd
    }

    /// The message for libyaml's `problem` in `context`, which began at the
    /// 1-based `line` and `column`.
    init(problem: String, context: String?, line: Int, column: Int) {
        let began = "line \(line), column \(column)"
        switch problem {
        case "found character that cannot start any token":
            expected = "the start of a node (a scalar, '-', '?', '[', '{', an anchor, an alias or a tag)"
            found = .character
            namesFoundCharacter = true
        case "could not find expected ':'":
            expected = "':' after this key, on its line"
            found = .keyLineEnd
            hint =
                "an implicit key and its ':' stand on one line, within 1024 characters; a scalar alone in a mapping needs a key"
            pointsAtContext = true
        case "block sequence entries are not allowed in this context":
            expected = "a value on the key's line, or a line break"
            found = .character
            hint = #"a block sequence begins on the line below its key; quote a string that begins with "- ""#
        case "mapping keys are not allowed in this context":
            expected = "a value"
            found = .character
            hint = #"an explicit key "? " begins a line of its own; quote a string that begins with "? ""#
        case "mapping values are not allowed in this context":
            expected = "the end of the value"
            found = .character
            hint =
                #"a plain scalar cannot hold ": ": quote it; a nested mapping begins on the line below its key, indented"#
        case "found unknown directive name":
            expected = "%YAML or %TAG"
            found = .word
            hint = "libyaml 0.2.5 knows no other directive"
            pointsAtContext = true
        case "could not find expected directive name":
            expected = "a directive name after '%'"
            found = .character
        case "found unexpected non-alphabetical character":
            expected = "a directive name of letters, digits, '-' and '_'"
            found = .character
        case "did not find expected comment or line break":
            if context == "while scanning a block scalar" {
                expected = "a comment or the end of the line after the block scalar's header"
                hint = "'|' or '>', then optionally '+' or '-' and an indentation from 1 to 9"
            } else {
                expected = "a comment or the end of the line after the directive"
            }
            found = .character
        case "did not find expected digit or '.' character", "did not find expected version number":
            expected = "a version number such as 1.2"
            found = .character
        case "found extremely long version number":
            expected = "a version number of at most 9 digits a part"
            found = .character
        case "did not find expected whitespace":
            expected = "a space between the tag handle and its prefix"
            found = .character
        case "did not find expected whitespace or line break":
            expected = "a space or the end of the line after the tag"
            found = .character
        case "did not find expected alphabetic or numeric character":
            let sign = context == "while scanning an alias" ? "an alias name after '*'" : "an anchor name after '&'"
            expected = "\(sign) (letters, digits, '-' and '_')"
            found = .character
        case "did not find the expected '>'":
            expected = "'>' to close the verbatim tag that begins at \(began)"
            found = .character
        case "did not find expected '!'":
            expected = "'!' to end the tag handle"
            found = .character
            hint = "a tag handle is '!', '!!' or '!name!'"
        case "did not find expected tag URI":
            expected = "a tag"
            found = .character
        case "did not find URI escaped octet":
            expected = "two hexadecimal digits after '%' in the tag"
            found = .percentEscape
        case "found an incorrect leading UTF-8 octet", "found an incorrect trailing UTF-8 octet":
            expected = "a %-escaped UTF-8 character in the tag"
            found = .percentEscape
        case "found undefined tag handle":
            expected = "a tag whose handle a %TAG directive declares"
            found = .word
            hint = "'!' and '!!' need none"
        case "found an indentation indicator equal to 0":
            expected = "an indentation indicator from 1 to 9"
            found = .character
        case "found a tab character where an indentation space is expected":
            expected = "spaces to indent the block scalar's lines"
            found = .character
            hint = "YAML indents with spaces, not tabs"
        case "found unexpected document indicator":
            expected = "the closing quote of the scalar that begins at \(began)"
            found = .text("a document marker at the start of a line")
            hint = "indent the quoted scalar's lines"
        case "found unexpected end of stream":
            expected = "the closing quote of the scalar that begins here"
            found = .text("the end of the input")
            pointsAtContext = true
        case "found unknown escape character":
            expected =
                #"an escape of YAML's: \0 \a \b \t \n \v \f \r \e \" \/ \\ \N \_ \L \P \xXX \uXXXX \UXXXXXXXX, "#
                + "or '\\' before a space or a line break"
            found = .escape
        case "did not find expected hexdecimal number":
            expected = "hexadecimal digits in the escape"
            found = .hexDigit
        case "found invalid Unicode character escape code":
            expected = "a Unicode character up to 10FFFF, no surrogate (D800 to DFFF)"
            found = .escapeCode
        case "found unexpected ':'":
            expected = "a space after ':'"
            found = .text("':' before a flow indicator")
            hint = "quote a scalar that holds ':'"
        case "found a tab character that violates indentation":
            expected = "spaces of indentation"
            found = .character
            hint = "YAML indents with spaces, not tabs"
        case "did not find expected <document start>":
            expected = "'---' to begin the document"
            found = .character
            hint = "a document after directives or after '...' begins with '---'"
        case "found duplicate %YAML directive":
            expected = "one %YAML directive for the document"
            found = .text("a second one")
        case "found incompatible YAML document":
            expected = "%YAML 1.1 or %YAML 1.2"
            found = .text("another version")
        case "found duplicate %TAG directive":
            expected = "one %TAG directive for each handle"
            found = .text("a second one for this handle")
        case "did not find expected node content":
            expected = "a value"
            found = .character
        case "did not find expected '-' indicator":
            expected = "'-' before the next entry of the block sequence that begins at \(began)"
            found = .character
            hint = "an entry stands at the column of the entries before it"
        case "did not find expected key":
            expected = "a key of the block mapping that begins at \(began)"
            found = .character
            hint = "a key stands at the column of the keys before it"
        case "did not find expected ',' or ']'":
            expected = "',' or ']' in the flow sequence that begins at \(began)"
            found = .character
        case "did not find expected ',' or '}'":
            expected = "',' or '}' in the flow mapping that begins at \(began)"
            found = .character
        default:
            expected = "well-formed YAML"
            found = .character
            hint =
                "libyaml: " + (context.map { "\($0) at \(began): " } ?? "")
                + (problem.isEmpty ? "malformed YAML" : problem)
        }
    }

    /// The message, with what was found where the input can be looked at
    /// again: `input` and the byte offsets of the problem and of the
    /// position the error points at.
    func text(input: UnsafeRawBufferPointer?, problem: Int, pointed: Int) -> String {
        var text = "expected " + expected
        let found = describeFound(input: input, problem: problem, pointed: pointed)
        if let found { text += ", found " + found }
        if let hint = hint ?? (namesFoundCharacter ? found.flatMap(Self.hint(found:)) : nil) { text += " (\(hint))" }
        return text
    }

    private func describeFound(input: UnsafeRawBufferPointer?, problem: Int, pointed: Int) -> String? {
        if case .text(let fixed) = found { return fixed }
        guard let input else { return nil }
        switch found {
        case .text(let fixed):
            return fixed
        case .character:
            return Self.describe(at: problem, in: input)
        case .word:
            var end = pointed
            while end < input.count, end - pointed < 40, !Self.isBlank(input[end]) { end += 1 }
            guard end > pointed else { return Self.describe(at: pointed, in: input) }
            return "'" + String(decoding: UnsafeRawBufferPointer(rebasing: input[pointed..<end]), as: UTF8.self) + "'"
        case .escape:
            guard problem + 1 < input.count, !Self.isBlank(input[problem + 1]) else {
                return Self.describe(at: problem, in: input)
            }
            return "'\\" + Self.describe(at: problem + 1, in: input).dropFirst()
        case .hexDigit:
            var offset = problem
            let digits = problem > 0 ? Self.hexDigitCount(input[problem - 1]) : 0
            while offset < input.count, offset - problem < digits, YAMLScalarResolver.digitValue(input[offset]) != nil {
                offset += 1
            }
            return Self.describe(at: offset, in: input)
        case .escapeCode:
            guard problem >= 2 else { return Self.describe(at: problem, in: input) }
            let end = min(input.count, problem + Self.hexDigitCount(input[problem - 1]))
            return "'" + String(decoding: UnsafeRawBufferPointer(rebasing: input[(problem - 2)..<end]), as: UTF8.self)
                + "'"
        case .percentEscape:
            let end = min(input.count, problem + 3)
            return "'" + String(decoding: UnsafeRawBufferPointer(rebasing: input[problem..<end]), as: UTF8.self) + "'"
        case .keyLineEnd:
            var offset = pointed
            while offset < input.count, offset < problem, input[offset] != UInt8(ascii: "\n"),
                input[offset] != UInt8(ascii: "\r")
            {
                offset += 1
            }
            return Self.describe(at: offset, in: input)
        }
    }

    /// Why a character that often causes an error cannot stand where it was
    /// found.
    private static func hint(found: String) -> String? {
        switch found {
        case "a tab": "YAML indents with spaces, not tabs"
        case "'@'", "'`'": "'@' and '`' are reserved: quote a scalar that begins with one"
        default: nil
        }
    }

    private static func hexDigitCount(_ code: UInt8) -> Int {
        switch code {
        case UInt8(ascii: "x"): 2
        case UInt8(ascii: "u"): 4
        case UInt8(ascii: "U"): 8
        default: 0
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }

    /// What stands at `offset` of `input`, as the JSON reader names it: a
    /// quoted character, a tab, a space, the end of the line or of the
    /// input, or a byte that is no character.
    static func describe(at offset: Int, in input: UnsafeRawBufferPointer) -> String {
        guard offset < input.count else { return "the end of the input" }
        let byte = input[offset]
        switch byte {
        case UInt8(ascii: "\n"), UInt8(ascii: "\r"): return "the end of the line"
        case UInt8(ascii: "\t"): return "a tab"
        case UInt8(ascii: " "): return "a space"
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        case 0x80...:
            let end = min(input.count, offset + 4)
            var iterator = UnsafeRawBufferPointer(rebasing: input[offset..<end]).makeIterator()
            var decoder = UTF8()
            if case .scalarValue(let scalar) = decoder.decode(&iterator) { return "'\(Character(scalar))'" }
            return byteName(byte)
        default:
            return byteName(byte)
        }
    }

    static func byteName(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count == 1 ? "0" + hex : hex)
    }

    /// The message of a reader error of libyaml's: bytes that are not
    /// text in the input's encoding, or a character YAML does not allow.
    /// `value` is the byte or character at fault, -1 when there is none.
    static func encoding(problem: String, value: Int, offset: Int) -> String {
        let character = value >= 0 ? String(value, radix: 16, uppercase: true) : ""
        switch problem {
        case "invalid leading UTF-8 octet":
            return "expected UTF-8 text, found the invalid byte 0x\(character)"
        case "invalid trailing UTF-8 octet":
            return "expected UTF-8 text, found the invalid continuation byte 0x\(character)"
        case "incomplete UTF-8 octet sequence":
            return "expected UTF-8 text, found a sequence cut short by the end of the input"
        case "invalid length of a UTF-8 sequence":
            return "expected UTF-8 text, found an overlong sequence"
        case "invalid Unicode character":
            return "expected UTF-8 text, found the encoded surrogate or out-of-range value U+\(character)"
        case "control characters are not allowed":
            return
                "expected a printable character, found the control character U+\(character.count < 4 ? String(repeating: "0", count: 4 - character.count) + character : character) "
                + "(YAML allows tabs, line breaks and printable characters; write others as escapes in a double-quoted scalar)"
        case "incomplete UTF-16 character", "incomplete UTF-16 surrogate pair":
            return "expected UTF-16 text, found a character cut short by the end of the input"
        case "unexpected low surrogate area":
            return "expected UTF-16 text, found the lone low surrogate 0x\(character)"
        case "expected low surrogate area":
            return "expected a low surrogate after a high one, found 0x\(character)"
        default:
            return
                "expected readable text, found a byte that is not (libyaml: \(problem.isEmpty ? "input error" : problem) at byte \(offset))"
        }
    }
}
