extension PathMatcher {
    // Here rather than beside `Picking` (Paths/): the traits are a source's,
    // a level above the paths.

    /// The matcher's states for a format that picks what its paths reach as
    /// it indexes its input (``Picking``), for values of `traits`; `nil`
    /// for ``IngredientTraits/dictionariesAreElements``, whose `[*]` takes a
    /// dictionary as one element where picking reaches its members: such a
    /// format reads the value whole, or through its events.
    public func picking(for traits: IngredientTraits) -> Picking? {
        traits.contains(.dictionariesAreElements) ? nil : picking
    }
}
