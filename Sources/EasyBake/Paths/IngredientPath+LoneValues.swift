extension IngredientPath {
    /// The indexes that find a lone value — one that is neither an array nor
    /// null — as if it were a one-element array: `[0]` and `[-1]`. XML writes
    /// one element where it repeats others, so `channel.item[0]` must find a
    /// single `<item>` as it finds the first of several.
    ///
    /// The one statement of the rule, which every reader of paths follows:
    /// resolving a tree (``Ingredients/resolve(_:)-(IngredientPath)``) or an
    /// index, the states ``PathMatcher`` compiles, and locating a path in an
    /// input for an error.
    static let loneValueIndexes = [0, -1]

    /// Whether `index` finds a lone value (see ``loneValueIndexes``).
    @inline(__always)
    static func findsLoneValue(_ index: Int) -> Bool { index == 0 || index == -1 }
}
