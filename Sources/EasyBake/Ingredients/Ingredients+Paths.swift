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
    ///   on ``null`` it gives an empty array;
    /// - on a dictionary, `[*]` takes each value in order as an element
    ///   (`events[*].name` over events keyed by id), unless the dictionary
    ///   is an XML element (``IngredientDictionary/isElement``), which is one
    ///   element.
    ///
    /// ```swift
    /// let tree: Ingredients = ["users": [["name": "a"], ["name": "b"]]]
    /// tree.resolve(try IngredientPath(parsing: "users[-1].name"))  // "b"
    /// tree.resolve(try IngredientPath(parsing: "users[*].name"))   // ["a", "b"]
    /// ```
    /// - Complexity: O(*k*) for *k* steps without `[*]`; a `[*]` visits every element.
    public func resolve(_ path: IngredientPath) -> Ingredients? {
        // The commonest path, one key (every plain recipe entry), is looked
        // up without walking steps.
        if path.steps.count == 1, case .key(let key) = path.steps[0] {
            guard case .dictionary(let dictionary) = self else { return nil }
            return dictionary[key]
        }
        return resolve(path.steps[...])
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
                    guard IngredientPath.findsLoneValue(index) else { return nil }
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
                case .dictionary(let dictionary) where !dictionary.isElement:
                    var found = ContiguousArray<Ingredients>()
                    for (_, value) in dictionary {
                        if let value = value.resolve(remaining) { found.append(value) }
                    }
                    return .array(IngredientArray(found))
                default:
                    return current.resolve(remaining).map { .array([$0]) } ?? .array(IngredientArray())
                }
            }
        }
        return current
    }
}

extension Ingredients {
    /// The concrete steps, without `[*]`, of the value that `steps` reaches
    /// when each `[*]` is narrowed by the next of `selectors`: element `n` of
    /// a `[*]` result is the `n`-th element that has a match (elements
    /// without one are skipped when resolving). `nil` when a selector is not
    /// a non-negative index or selects nothing.
    ///
    /// Errors inside a `[*]` result use this to name the payload's own path
    /// (`items[3].id`) rather than the recipe's (`items[*].id[1]`).
    func concreteSteps(
        _ steps: ArraySlice<IngredientPath.Step>, selectors: ArraySlice<IngredientPath.Step>
    ) -> [IngredientPath.Step]? {
        var current = self
        var remaining = steps
        var selectors = selectors
        var concrete: [IngredientPath.Step] = []
        while let step = remaining.popFirst() {
            switch step {
            case .key:
                guard let value = current.resolve([step][...]) else { return nil }
                current = value
                concrete.append(step)
            case .index(let index):
                guard let value = current.resolve([step][...]) else { return nil }
                if case .array(let array) = current { concrete.append(.index(index < 0 ? array.count + index : index)) }
                current = value
            case .everyElement:
                guard case .index(let wanted)? = selectors.popFirst(), wanted >= 0 else { return nil }
                if case .dictionary(let dictionary) = current, !dictionary.isElement {
                    var matches = 0
                    for (key, value) in dictionary where value.resolve(remaining) != nil {
                        if matches == wanted {
                            guard let rest = value.concreteSteps(remaining, selectors: selectors) else { return nil }
                            return concrete + [.key(key)] + rest
                        }
                        matches += 1
                    }
                    return nil
                }
                guard case .array(let array) = current else {
                    // A lone value is a one-element array.
                    guard wanted == 0 else { return nil }
                    continue
                }
                var matches = 0
                for (position, element) in array.enumerated() where element.resolve(remaining) != nil {
                    if matches == wanted {
                        guard let rest = element.concreteSteps(remaining, selectors: selectors) else { return nil }
                        return concrete + [.index(position)] + rest
                    }
                    matches += 1
                }
                return nil
            }
        }
        return concrete
    }
}
