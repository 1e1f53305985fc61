/// The ingredient path grammar of `IngredientPath(parsing:)`, checked when
/// the code compiles.
///
/// A second copy of the grammar, because the parser lives in the `EasyBake`
/// module (it throws `EasyBakeError`, which carries source locations), and a
/// macro plugin that depended on it would build the whole library for the
/// compiler's host. It only has to say whether a path parses and where it
/// does not: `PathGrammarTests` keeps its verdicts equal to the library's on
/// the same paths.
enum PathGrammar {
    /// Why a path does not parse: the column (from 1) and what was expected.
    struct Problem: Equatable {
        let column: Int
        let expected: String
        let found: String
    }

    /// The problem with `text` as an ingredient path, or `nil` if it parses.
    static func problem(in text: String) -> Problem? {
        let scalars = Array(text.unicodeScalars)
        var position = 0
        var steps = 0
        func problem(_ expected: String) -> Problem {
            let found = position < scalars.count ? "'\(scalars[position])'" : "end of path"
            return Problem(column: position + 1, expected: expected, found: found)
        }
        func skipUnquotedKey() {
            while position < scalars.count, isUnquotedKeyScalar(scalars[position]) { position += 1 }
        }
        while position < scalars.count {
            let scalar = scalars[position]
            switch scalar {
            case "[":
                position += 1
                guard position < scalars.count else { return problem("an index, '*' or a quoted key after '['") }
                let opening = scalars[position]
                if opening == "*" {
                    position += 1
                } else if opening == "\"" || opening == "'" {
                    position += 1
                    var closed = false
                    while position < scalars.count {
                        let character = scalars[position]
                        position += 1
                        if character == opening {
                            closed = true
                            break
                        }
                        if character == "\\" {
                            guard position < scalars.count,
                                ["\"", "'", "\\"].contains(scalars[position])
                            else { return problem("\\\", \\' or \\\\ after a backslash") }
                            position += 1
                        }
                    }
                    guard closed else { return problem("a closing \(opening)") }
                } else if opening == "-" || ("0"..."9").contains(opening) {
                    if opening == "-" { position += 1 }
                    var value = 0
                    var digits = 0
                    while position < scalars.count, ("0"..."9").contains(scalars[position]) {
                        let (product, o1) = value.multipliedReportingOverflow(by: 10)
                        let (sum, o2) = product.addingReportingOverflow(Int(scalars[position].value - 48))
                        guard !o1, !o2 else { return problem("an index that fits in Int") }
                        value = sum
                        digits += 1
                        position += 1
                    }
                    guard digits > 0 else { return problem("a digit") }
                } else {
                    return problem("an index, '*' or a quoted key after '['")
                }
                guard position < scalars.count, scalars[position] == "]" else { return problem("']'") }
                position += 1
            case ".":
                guard steps > 0 else { return problem("a key or '[' at the start of the path") }
                position += 1
                guard position < scalars.count, isUnquotedKeyScalar(scalars[position]) else {
                    return problem("a key after '.' (quote keys with special characters: [\"a.b\"])")
                }
                skipUnquotedKey()
            default:
                guard steps == 0 else { return problem("'.' or '[' between steps") }
                guard isUnquotedKeyScalar(scalar) else {
                    return problem("a key (quote keys with special characters: [\"a b\"])")
                }
                skipUnquotedKey()
            }
            steps += 1
        }
        return nil
    }

    /// The same rule as the library's: a key needs quoting when it holds a
    /// step separator, a quote, a backslash, white space or a control.
    static func isUnquotedKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case ".", "[", "]", "\"", "'", "\\": false
        default: !scalar.properties.isWhitespace && scalar.value >= 0x20
        }
    }

    /// A path that probably means what a malformed `text` meant, for a
    /// fix-it: dotted keys with the empty ones dropped and the ones that need
    /// it quoted (`"address..first name"` → `address["first name"]`). `nil`
    /// when `text` has brackets (no safe guess) or no key at all.
    static func suggestion(for text: String) -> String? {
        guard !text.contains("["), !text.contains("]") else { return nil }
        let keys = text.split(separator: ".", omittingEmptySubsequences: true)
            .map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
        guard !keys.isEmpty else { return nil }
        var path = ""
        for key in keys {
            if key.unicodeScalars.allSatisfy(isUnquotedKeyScalar) {
                path += path.isEmpty ? key : ".\(key)"
            } else {
                let escaped = key.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"")
                path += "[\"\(escaped)\"]"
            }
        }
        guard path != text, problem(in: path) == nil else { return nil }
        return path
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }
}
