extension IngredientPath {
    /// Parses a path written in the syntax described on ``IngredientPath``.
    ///
    /// - Throws: ``EasyBakeError/Code/invalidPath`` naming the column (from 1)
    ///   and what was expected there.
    public init(parsing text: String) throws(EasyBakeError) {
        var parser = PathParser(text)
        self = try parser.parse()
    }
}

private struct PathParser {
    let text: String
    let scalars: [Unicode.Scalar]
    var position = 0

    init(_ text: String) {
        self.text = text
        scalars = Array(text.unicodeScalars)
    }

    var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    func error(_ expected: String) -> EasyBakeError {
        let found = current.map { "'\($0)'" } ?? "end of path"
        return EasyBakeError(
            .invalidPath, "in path \(text.debugDescription) at column \(position + 1): expected \(expected), found \(found)",
            location: SourceLocation(sourceName: "<path>", line: 1, column: position + 1, lineText: text))
    }

    mutating func parse() throws(EasyBakeError) -> IngredientPath {
        var steps: [IngredientPath.Step] = []
        while let scalar = current {
            switch scalar {
            case "[":
                steps.append(try bracket())
            case ".":
                guard !steps.isEmpty else { throw error("a key or '[' at the start of the path") }
                position += 1
                guard let next = current, IngredientPath.isUnquotedKeyScalar(next) else {
                    throw error("a key after '.' (quote keys with special characters: [\"a.b\"])")
                }
                steps.append(.key(unquotedKey()))
            default:
                guard steps.isEmpty else { throw error("'.' or '[' between steps") }
                guard IngredientPath.isUnquotedKeyScalar(scalar) else {
                    throw error("a key (quote keys with special characters: [\"a b\"])")
                }
                steps.append(.key(unquotedKey()))
            }
        }
        return IngredientPath(steps)
    }

    mutating func unquotedKey() -> String {
        var key = String.UnicodeScalarView()
        while let scalar = current, IngredientPath.isUnquotedKeyScalar(scalar) {
            key.append(scalar)
            position += 1
        }
        return String(key)
    }

    mutating func bracket() throws(EasyBakeError) -> IngredientPath.Step {
        position += 1  // "["
        let step: IngredientPath.Step
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

    mutating func index() throws(EasyBakeError) -> Int {
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

    mutating func quotedKey() throws(EasyBakeError) -> String {
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
