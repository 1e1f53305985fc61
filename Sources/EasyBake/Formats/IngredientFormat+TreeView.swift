extension IngredientFormat {
    /// Reads the single value of `input` into an index with
    /// ``readIndex(_:into:)`` and returns its tree, which keeps that index:
    /// baking it is baking the index (see ``Ingredients``).
    func readViewingIndex(_ input: IngredientInput) throws(EasyBakeError) -> Ingredients {
        var index = IngredientIndex()
        try readIndex(input, into: &index)
        return Ingredients(viewing: index)
    }
}
