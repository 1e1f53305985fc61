extension Recipe {
    /// Where a key of an update or a factory override goes in a payload this
    /// recipe reads: the key itself when the payload has it, else — when the
    /// key names a property the recipe maps — that property's path. So
    /// `["email": …]` reaches `contact.email` when the recipe maps `email`
    /// there, and a key the payload has wins over a property of that name.
    package func payloadPath(forKey key: String, in payload: Ingredients) -> IngredientPath? {
        if case .dictionary(let members) = payload, members[key] != nil { return nil }
        return entry(for: key)?.path
    }

    /// `value`, found at `entry`'s path, run through the entry's transformer
    /// (null reaches it as `nil`): the one place baking applies a recipe's
    /// transformer, for every model and for ``ProcessedIngredients``.
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
        let code: EasyBakeError.Code =
            (error as? EasyBakeError)?.code == .numberOutOfRange ? .numberOutOfRange : .transformFailed
        return EasyBakeError(
            code,
            "property \(property.debugDescription) at \(path.errorDescription): \(underlying)",
            path: path,
            baking: BakingContext(
                modelType: recipe.name ?? "recipe", property: property, found: value.briefDescription),
            cause: error)
    }
}
