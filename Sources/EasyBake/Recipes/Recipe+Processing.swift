extension Recipe {
    /// Prepares ingredients for baking: resolves each mapped path, applies
    /// defaults for missing paths and the transformers, and returns the
    /// processed ingredients keyed by property.
    ///
    /// A property whose path is missing and has no default is left out (the
    /// baker then reports it missing, or leaves an optional nil). Null stays
    /// null, and reaches a transformer as `nil`.
    ///
    /// ```swift
    /// let processed = try recipe.process(["stats": ["unread_messages": 10]])
    /// processed["unreadMessages"]   // 10
    /// ```
    /// - Throws: ``EasyBakeError/Code/transformFailed`` naming the property
    ///   and the ingredient path, with the transformer's error as the cause.
    public func process(_ ingredients: Ingredients) throws(EasyBakeError) -> IngredientDictionary {
        var processed = ContiguousArray<IngredientDictionary.Element>()
        processed.reserveCapacity(entries.count)
        for entry in entries {
            if let value = try processedValue(for: entry, in: ingredients) {
                processed.append((entry.property, value))
            }
        }
        return IngredientDictionary(uniqueEntries: processed)
    }

    /// The processed value of one entry, or `nil` when missing without default.
    func processedValue(for entry: Entry, in ingredients: Ingredients) throws(EasyBakeError) -> Ingredients? {
        guard let found = ingredients.resolve(entry.path) else { return defaults[entry.property] }
        return try transform(found, for: entry)
    }

    func transform(_ value: Ingredients, for entry: Entry) throws(EasyBakeError) -> Ingredients {
        guard let transformer = entry.transformer else { return value }
        do {
            return try transformer.transform(value.isNull ? nil : value) ?? .null
        } catch {
            throw EasyBakeError.transform(error, property: entry.property, path: entry.path, value: value, recipe: self)
        }
    }
}

extension EasyBakeError {
    static func transform(
        _ error: any Error, property: String, path: IngredientPath, value: Ingredients, recipe: Recipe
    ) -> EasyBakeError {
        let underlying = (error as? EasyBakeError)?.message ?? String(describing: error)
        // A number the transformer found out of range keeps that code: the
        // value is at fault, not the transformer.
        let code: EasyBakeError.Code = (error as? EasyBakeError)?.code == .numberOutOfRange ? .numberOutOfRange : .transformFailed
        return EasyBakeError(
            code,
            "property \(property.debugDescription) at \(path): \(underlying)",
            path: path,
            baking: BakingContext(modelType: recipe.name ?? "recipe", property: property, found: value.briefDescription),
            cause: error)
    }
}
