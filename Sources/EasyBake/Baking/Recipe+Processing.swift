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
}
