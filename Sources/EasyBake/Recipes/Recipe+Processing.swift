extension Recipe {
    /// Prepares ingredients for baking: resolves each mapped path, applies
    /// defaults for missing paths and the transformers, and returns the
    /// processed ingredients keyed by property, in the recipe's order.
    ///
    /// It bakes the ingredients into ``ProcessedIngredients`` with this
    /// recipe, by the baker's own rules, and returns its
    /// ``ProcessedIngredients/ingredients``: what `easybake bake` prints.
    /// A property whose path is missing takes its default (so does a null
    /// one, under ``defaultsForNull``); one that is missing and has no
    /// default is left out (the baker then reports it missing, or leaves an
    /// optional nil). Null otherwise stays null, and reaches a transformer
    /// as `nil`.
    ///
    /// ```swift
    /// let processed = try recipe.process(["stats": ["unread_messages": 10]])
    /// processed["unreadMessages"]   // 10
    /// ```
    /// - Throws: ``EasyBakeError/Code/transformFailed`` naming the property
    ///   and the ingredient path, with the transformer's error as the cause;
    ///   ``EasyBakeError/Code/typeMismatch`` for ingredients the recipe
    ///   cannot read by key (a plain value or an array, unless the recipe
    ///   reads `#text` or its paths start with an index).
    ///
    /// A property with a nested recipe is processed by it in turn — a
    /// dictionary as a whole, an array element by element — as baking
    /// applies it, and fails where baking does: a plain value where the
    /// nested recipe reads keys is a type mismatch (unless the nested recipe
    /// maps `#text`, which reads it as its text). Warnings (the elements a
    /// ``lossy`` property dropped) are not returned: bake
    /// ``ProcessedIngredients`` with ``Baker/bakeReporting(_:from:recipe:)``
    /// for them.
    ///
    /// `ownKey` is the key the ingredients stand under in their parent
    /// dictionary (a record of `events[*]` over a dictionary), which the
    /// path ``IngredientPath/ownKey`` (`#key`) reads.
    public func process(_ ingredients: Ingredients, ownKey: String? = nil) throws(EasyBakeError) -> IngredientDictionary
    {
        var index = IngredientIndex(ingredients)
        return try RecipeProcessor(recipe: self).process(&index, recordKey: ownKey).processed.ingredients
    }

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
