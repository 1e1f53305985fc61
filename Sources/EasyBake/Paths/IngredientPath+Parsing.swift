import EasyBakePathGrammar

extension IngredientPath {
    /// Parses a path written in the syntax described on ``IngredientPath``.
    ///
    /// - Throws: ``EasyBakeError/Code/invalidPath`` naming the column (from 1)
    ///   and what was expected there.
    public init(parsing text: String) throws(EasyBakeError) {
        do throws(IngredientPathGrammar.Problem) {
            self.init(
                try IngredientPathGrammar.parse(text).map { step in
                    switch step {
                    case .key(let key): .key(key)
                    case .index(let index): .index(index)
                    case .everyElement: .everyElement
                    }
                })
        } catch {
            throw EasyBakeError(
                .invalidPath,
                "in path \(text.debugDescription) at column \(error.column): \(error.description)",
                location: SourceLocation(sourceName: "<path>", line: 1, column: error.column, lineText: text))
        }
    }

    /// A hint for a path that found nothing and is written as JSONPath
    /// would write it (`$.statuses[0]`, whose first key is `$`): the path
    /// without its `$` root; `nil` for any other path.
    ///
    /// `$` is a valid key (MongoDB writes `$oid`), so such a path is no
    /// syntax error; only when it finds nothing is the JSONPath habit the
    /// likely cause.
    public var jsonPathHint: String? {
        guard case .key("$")? = steps.first else { return nil }
        let rest = IngredientPath(Array(steps.dropFirst()))
        return rest.isRoot
            ? "ingredient paths have no JSONPath '$' root: the whole input needs no path"
            : "ingredient paths have no JSONPath '$' root: try \(rest)"
    }
}
