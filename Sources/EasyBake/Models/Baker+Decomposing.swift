extension Baker {
    /// Decomposes a model into ingredients through a recipe, the reverse of
    /// baking: each mapped property's value is reverse-transformed and placed
    /// at its ingredient path, so that the result has the shape the recipe
    /// reads (a dictionary or an array root). Baking the result with the same
    /// recipe gives an equal model.
    ///
    /// Properties the recipe does not map are placed at the root under their
    /// own names, where implicit key matching finds them again. Nested models
    /// use the recipe's nested recipes, or their type's
    /// ``Bakeable/bakingRecipe``. Without any recipe the result is a
    /// dictionary keyed by property names (``Ingredients/init(encoding:)``).
    ///
    /// ```swift
    /// let recipe = try Recipe(mapping: ["name": "profile.name", "tags": "tags[*].label"])
    /// try Baker().decompose(user, recipe: recipe)
    /// // ["profile": ["name": "Ada"], "tags": [["label": "x"], ["label": "y"]]]
    /// ```
    /// - Throws: ``EasyBakeError/Code/transformFailed`` when a reverse
    ///   transformer fails, ``EasyBakeError/Code/invalidValue`` when the model
    ///   does not encode.
    public func decompose<Model: Encodable>(_ model: Model, recipe: Recipe? = nil) throws(EasyBakeError) -> Ingredients
    {
        let root = try EncodingNode.encodeRoot(model)
        return try Decomposer.decompose(root, recipe: recipe ?? root.typeRecipe) ?? .dictionary(IngredientDictionary())
    }
}

/// Places encoded model values at their recipes' paths.
enum Decomposer {
    static func decompose(_ node: EncodingNode, recipe: Recipe?) throws(EasyBakeError) -> Ingredients? {
        switch node.kind {
        case .empty, .value:
            return node.finish()
        case .array:
            // A nested recipe applies to each element, as in baking.
            var elements = ContiguousArray<Ingredients>()
            for element in node.elementNodes {
                elements.append(try decompose(element, recipe: recipe ?? element.typeRecipe) ?? .null)
            }
            return .array(IngredientArray(elements))
        case .dictionary:
            guard let recipe else {
                var entries = ContiguousArray<IngredientDictionary.Element>()
                for (key, child) in node.orderedChildren {
                    if let value = try decompose(child, recipe: child.typeRecipe) { entries.append((key, value)) }
                }
                return .dictionary(IngredientDictionary(uniqueEntries: entries))
            }
            return try place(node, with: recipe)
        }
    }

    private static func place(_ node: EncodingNode, with recipe: Recipe) throws(EasyBakeError) -> Ingredients {
        let properties = Dictionary(
            node.orderedChildren.map { ($0.key, $0.node) }, uniquingKeysWith: { first, _ in first })
        let root = PlacementNode()
        for entry in recipe.entries {
            guard let child = properties[entry.property],
                var value = try decompose(child, recipe: recipe.nested[entry.property] ?? child.typeRecipe)
            else { continue }
            if let transformer = entry.transformer, transformer.allowsReverseTransformation {
                do {
                    value = try transformer.reverseTransform(value.isNull ? nil : value) ?? .null
                } catch {
                    throw EasyBakeError.transform(
                        error, property: entry.property, path: entry.path, value: value, recipe: recipe)
                }
            }
            root.place(value, at: entry.path.steps[...])
        }
        if let (path, problem) = root.firstProblem() {
            let recipeLabel = recipe.name.map { "recipe \($0.debugDescription)" } ?? "the recipe"
            throw EasyBakeError(
                .unsupported,
                "\(recipeLabel) cannot be reversed for this model: \(problem), and which element each value came from is not known",
                path: path)
        }
        if !recipe.rootIsArray {
            for (key, child) in node.orderedChildren where recipe.entry(for: key) == nil && !root.hasChild(key) {
                if let value = try decompose(child, recipe: recipe.nested[key] ?? child.typeRecipe) {
                    root.place(value, at: [.key(key)])
                }
            }
        }
        return root.finish() ?? (recipe.rootIsArray ? .array([]) : .dictionary(IngredientDictionary()))
    }
}

/// A tree under construction by placing values at paths.
final class PlacementNode {
    private var value: Ingredients?
    private var keys: [String] = []
    private var children: [String: PlacementNode] = [:]
    private var elements: [PlacementNode] = []
    private var isArray = false
    /// How many values each `[*]` placed here spread over, when there were any.
    private var spreadCount: Int?
    /// Values at negative indexes, placed when the array's length is known.
    private var fromEnd: [(offset: Int, value: Ingredients, rest: ArraySlice<IngredientPath.Step>)] = []

    /// Two `[*]` paths through this array gathered different numbers of
    /// values: which element each belongs to is lost.
    private(set) var spreadMismatch: (first: Int, other: Int)?
    /// Two paths placed different values here (`[0]` and `[-1]` in an array
    /// that `[*]` placed fewer elements in than the payload had).
    private(set) var placedTwice = false

    func hasChild(_ key: String) -> Bool { children[key] != nil }

    func place(_ newValue: Ingredients, at steps: ArraySlice<IngredientPath.Step>) {
        guard let step = steps.first else {
            if let value, value != newValue { placedTwice = true }
            value = newValue
            return
        }
        let rest = steps.dropFirst()
        switch step {
        case .key(let key):
            if let existing = children[key] {
                existing.place(newValue, at: rest)
            } else {
                let child = PlacementNode()
                keys.append(key)
                children[key] = child
                child.place(newValue, at: rest)
            }
        case .index(let index):
            isArray = true
            if index < 0 {
                fromEnd.append((index, newValue, rest))
            } else {
                element(at: index).place(newValue, at: rest)
            }
        case .everyElement:
            isArray = true
            // The values gathered by `[*]` go back one per element.
            let spread: IngredientArray =
                switch newValue {
                case .array(let array): array
                case .null: []
                default: [newValue]
                }
            if let earlier = spreadCount, earlier != spread.count, spreadMismatch == nil {
                spreadMismatch = (earlier, spread.count)
            }
            spreadCount = spreadCount ?? spread.count
            for (index, item) in spread.enumerated() { element(at: index).place(item, at: rest) }
        }
    }

    private func element(at index: Int) -> PlacementNode {
        while elements.count <= index { elements.append(PlacementNode()) }
        return elements[index]
    }

    /// What cannot be placed faithfully anywhere below this node, with the
    /// path where: the counts of two `[*]` paths that differ, or two values
    /// for one place. Negative indexes are placed first.
    func firstProblem(at path: IngredientPath = IngredientPath()) -> (path: IngredientPath, problem: String)? {
        placeFromEnd()
        if let (first, other) = spreadMismatch {
            return (
                path,
                "several properties map through \(path.appending(.everyElement).errorDescription) and hold \(first) and \(other) values"
            )
        }
        if placedTwice { return (path, "two properties place different values at \(path.errorDescription)") }
        for key in keys {
            if let found = children[key]?.firstProblem(at: path.appending(key: key)) { return found }
        }
        for (index, element) in elements.enumerated() {
            if let found = element.firstProblem(at: path.appending(.index(index))) { return found }
        }
        return nil
    }

    func finish() -> Ingredients? {
        if isArray {
            placeFromEnd()
            return .array(IngredientArray(elements.map { $0.finish() ?? .null }))
        }
        if !keys.isEmpty {
            var entries = ContiguousArray<IngredientDictionary.Element>()
            // A value placed at this node itself (a dictionary) merges under the children.
            if case .dictionary(let own)? = value {
                for entry in own where children[entry.key] == nil { entries.append(entry) }
            }
            for key in keys {
                if let child = children[key]?.finish() { entries.append((key, child)) }
            }
            return .dictionary(IngredientDictionary(uniqueEntries: entries))
        }
        return value
    }

    /// Places the values at negative indexes. Under a `[*]` the array holds
    /// every element, so `[-1]` is the last of them; otherwise the array's
    /// length is unknown, and the values go after the elements placed by
    /// index (`[0]` and `[-1]` make two elements, which read back the same
    /// even when they came from one).
    private func placeFromEnd() {
        guard !fromEnd.isEmpty else { return }
        let pending = fromEnd
        fromEnd = []
        let count = spreadCount != nil ? elements.count : elements.count + (pending.map { -$0.offset }.max() ?? 0)
        for (offset, value, rest) in pending { element(at: max(count + offset, 0)).place(value, at: rest) }
    }
}
