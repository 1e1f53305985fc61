/// Bakes value after value (the records of a stream, one at a time) into
/// ``ProcessedIngredients`` with one recipe, in one bake session, so that
/// the key plans the first value makes serve the rest: `easybake bake`'s
/// road, one per job, and ``Recipe/process(_:ownKey:)``'s.
///
/// It is the baker's own road from an index (``Baker``'s rules, the
/// ``KeyedValueReader`` every model reads through), not a second reading
/// of the recipe. Not thread-safe: each thread makes its own.
package final class RecipeProcessor {
    private let recipe: Recipe
    private let session: BakeSession

    /// A processor of values with `recipe`.
    ///
    /// The recipe tally is off by default: a model-less bake asks for every
    /// key of its recipe, so no key can name a property it lacks, and a
    /// caller that wants to know whether the recipe found anything reads
    /// ``ProcessedIngredients/foundAnyPath``; a tally would cost an
    /// allocation per record for nothing.
    package init(recipe: Recipe, options: Baker.Options = Baker.Options(unknownRecipeKeys: .ignore)) {
        self.recipe = recipe
        session = BakeSession(options: options, modelType: ProcessedIngredients.self)
    }

    /// Bakes the value at the root of `index`, which the bake may append to
    /// (a path with `[*]`, a transformer's result, a default).
    ///
    /// - Parameters:
    ///   - recordKey: the key the value stands under in its parent
    ///     dictionary, which the recipe's `#key` reads.
    /// - Returns: the value's processed ingredients, and the bake's warnings
    ///   (the elements a lossy property dropped), each with its path from
    ///   the value's root.
    /// - Throws: the baker's error, its path from the value's root.
    package func process(
        _ index: inout IngredientIndex, recordKey: String?
    ) throws(EasyBakeError) -> (processed: ProcessedIngredients, warnings: [EasyBakeError]) {
        var warnings: [EasyBakeError] = []
        let processed = try Baker.decode(
            ProcessedIngredients.self, from: &index, at: 0, recipe: recipe, applyingTypeRecipe: false, in: session,
            observer: nil, recordKey: recordKey, warnings: &warnings)
        return (processed, warnings)
    }
}
