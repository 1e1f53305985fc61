import EasyBakePathGrammar

extension IngredientPath {
    /// Parses a path written in the syntax described on ``IngredientPath``.
    ///
    /// - Throws: ``EasyBakeError/Code/invalidPath`` naming the column (from 1)
    ///   and what was expected there.
    public init(parsing text: String) throws(EasyBakeError) {
        do throws(IngredientPathGrammar.Problem) {
            self.init(try IngredientPathGrammar.parse(text).map { step in
                switch step {
                case .key(let key): .key(key)
                case .index(let index): .index(index)
                case .everyElement: .everyElement
                }
            })
        } catch {
            throw EasyBakeError(
                .invalidPath,
                "in path \(text.debugDescription) at column \(error.column): expected \(error.expected), found \(error.found)",
                location: SourceLocation(sourceName: "<path>", line: 1, column: error.column, lineText: text))
        }
    }
}
