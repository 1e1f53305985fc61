extension Ingredients {
    /// The value at `path`, or `nil` when the path leads nowhere — which is
    /// different from a value that is present and ``null``.
    ///
    /// Rules beyond plain lookup:
    /// - a value that is not an array reads as a one-element array for `[0]`,
    ///   `[-1]` and `[*]`, so that `channel.item[0]` finds a lone XML
    ///   `<item>` as surely as the first of many;
    /// - `[*]` resolves the rest of the path on each element and collects what
    ///   is found into an array, leaving out elements where it is missing;
    ///   on ``null`` it gives an empty array.
    ///
    /// ```swift
    /// let tree: Ingredients = ["users": [["name": "a"], ["name": "b"]]]
    /// tree.resolve(try IngredientPath(parsing: "users[-1].name"))  // "b"
    /// tree.resolve(try IngredientPath(parsing: "users[*].name"))   // ["a", "b"]
    /// ```
    /// - Complexity: O(*k*) for *k* steps without `[*]`; a `[*]` visits every element.
    public func resolve(_ path: IngredientPath) -> Ingredients? {
        resolve(path.steps[...])
    }

    /// The value at a path given as text; `nil` when missing.
    ///
    /// - Throws: ``EasyBakeError/Code/invalidPath`` when `path` does not parse.
    public func resolve(_ path: String) throws(EasyBakeError) -> Ingredients? {
        resolve(try IngredientPath(parsing: path))
    }

    private func resolve(_ steps: ArraySlice<IngredientPath.Step>) -> Ingredients? {
        var current = self
        var remaining = steps
        while let step = remaining.popFirst() {
            switch step {
            case .key(let key):
                guard case .dictionary(let dictionary) = current, let value = dictionary[key] else { return nil }
                current = value
            case .index(let index):
                switch current {
                case .array(let array):
                    let resolved = index < 0 ? array.count + index : index
                    guard array.indices.contains(resolved) else { return nil }
                    current = array[resolved]
                case .null:
                    return nil
                default:
                    guard index == 0 || index == -1 else { return nil }
                }
            case .everyElement:
                switch current {
                case .array(let array):
                    var found = ContiguousArray<Ingredients>()
                    found.reserveCapacity(array.count)
                    for element in array {
                        if let value = element.resolve(remaining) { found.append(value) }
                    }
                    return .array(IngredientArray(found))
                case .null:
                    return .array(IngredientArray())
                default:
                    return current.resolve(remaining).map { .array([$0]) } ?? .array(IngredientArray())
                }
            }
        }
        return current
    }
}
