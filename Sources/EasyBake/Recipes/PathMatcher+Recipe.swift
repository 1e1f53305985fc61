extension PathMatcher {
    /// A matcher for the paths `recipe` reads.
    public init(recipe: Recipe) {
        self.init(recipe.entries.map(\.path))
    }
}
