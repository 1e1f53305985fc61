/// The grammar of ingredient paths (`users[3].address.city`, `items[*]`,
/// `["a b"]`), in a module of its own so that the library's
/// `IngredientPath(parsing:)` and the macros' compile-time checks share one
/// implementation: the macro plugin is built for the compiler's host and must
/// not build the whole library there. It depends on nothing.
package enum IngredientPathGrammar {
    /// One step of a parsed path.
    package enum Step: Equatable, Sendable {
        case key(String)
        case index(Int)
        case everyElement
    }

    /// Why a path does not parse: the column (from 1), what was expected
    /// there, what was found (`'x'` or `end of path`), and a hint when the
    /// path looks written in another syntax (jq's leading `.`).
    package struct Problem: Error, Equatable, Sendable {
        package let column: Int
        package let expected: String
        package let found: String
        package var hint: String? = nil

        /// The problem in words: `expected …, found …`, and the hint.
        package var description: String {
            "expected \(expected), found \(found)" + (hint.map { "; " + $0 } ?? "")
        }
    }

    /// The steps of `text`.
    package static func parse(_ text: String) throws(Problem) -> [Step] {
        var parser = Parser(text)
        return try parser.parse()
    }

    /// Whether a key may stand unquoted: it holds no step separator, quote,
    /// backslash, white space or control.
    package static func isUnquotedKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case ".", "[", "]", "\"", "'", "\\": false
        default: !scalar.properties.isWhitespace && scalar.value >= 0x20
        }
    }
}

/// The parser behind `IngredientPath(parsing:)`.
private struct Parser {
    let text: String
    let scalars: [Unicode.Scalar]
    var position = 0

    init(_ text: String) {
        self.text = text
        scalars = Array(text.unicodeScalars)
    }

    var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    func error(_ expected: String) -> IngredientPathGrammar.Problem {
        IngredientPathGrammar.Problem(
            column: position + 1, expected: expected, found: current.map { "'\($0)'" } ?? "end of path")
    }

    mutating func parse() throws(IngredientPathGrammar.Problem) -> [IngredientPathGrammar.Step] {
        var steps: [IngredientPathGrammar.Step] = []
        while let scalar = current {
            switch scalar {
            case "[":
                steps.append(try bracket())
            case ".":
                guard !steps.isEmpty else {
                    // jq writes `.users[0]`; an ingredient path starts at its first key.
                    var problem = error("a key or '[' at the start of the path")
                    let rest = String(String.UnicodeScalarView(scalars.dropFirst()))
                    if !rest.isEmpty { problem.hint = "paths have no leading '.' as jq's do: try \(rest)" }
                    throw problem
                }
                position += 1
                guard let next = current, IngredientPathGrammar.isUnquotedKeyScalar(next) else {
                    throw error("a key after '.' (quote keys with special characters: [\"a.b\"])")
                }
                steps.append(.key(unquotedKey()))
            default:
                guard steps.isEmpty else { throw error("'.' or '[' between steps") }
                guard IngredientPathGrammar.isUnquotedKeyScalar(scalar) else {
                    throw error("a key (quote keys with special characters: [\"a b\"])")
                }
                steps.append(.key(unquotedKey()))
            }
        }
        return steps
    }

    mutating func unquotedKey() -> String {
        var key = String.UnicodeScalarView()
        while let scalar = current, IngredientPathGrammar.isUnquotedKeyScalar(scalar) {
            key.append(scalar)
            position += 1
        }
        return String(key)
    }

    mutating func bracket() throws(IngredientPathGrammar.Problem) -> IngredientPathGrammar.Step {
        position += 1  // "["
        let step: IngredientPathGrammar.Step
        switch current {
        case "*":
            position += 1
            step = .everyElement
        case "\"", "'":
            step = .key(try quotedKey())
        case let scalar? where scalar == "-" || ("0"..."9").contains(scalar):
            step = .index(try index())
        default:
            throw error("an index, '*' or a quoted key after '['")
        }
        guard current == "]" else { throw error("']'") }
        position += 1
        return step
    }

    mutating func index() throws(IngredientPathGrammar.Problem) -> Int {
        let negative = current == "-"
        if negative { position += 1 }
        var value = 0
        var digits = 0
        while let scalar = current, ("0"..."9").contains(scalar) {
            let (product, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = product.addingReportingOverflow(Int(scalar.value - 48))
            guard !o1, !o2 else { throw error("an index that fits in Int") }
            value = sum
            digits += 1
            position += 1
        }
        guard digits > 0 else { throw error("a digit") }
        return negative ? -value : value
    }

    mutating func quotedKey() throws(IngredientPathGrammar.Problem) -> String {
        let quote = current!
        position += 1
        var key = String.UnicodeScalarView()
        while let scalar = current {
            position += 1
            if scalar == quote { return String(key) }
            if scalar == "\\" {
                guard let escaped = current, escaped == "\"" || escaped == "'" || escaped == "\\" else {
                    throw error("\\\", \\' or \\\\ after a backslash")
                }
                key.append(escaped)
                position += 1
            } else {
                key.append(scalar)
            }
        }
        throw error("a closing \(quote)")
    }
}
