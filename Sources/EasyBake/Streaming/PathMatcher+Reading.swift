extension PathMatcher {
    /// The values of a matcher's paths in one payload.
    public struct Resolution: Sendable {
        /// The paths, in the matcher's order.
        public let paths: [IngredientPath]
        /// The value of each path, in the same order; `nil` when missing.
        public let values: [Ingredients?]
        /// The tree the values were resolved on: the payload pruned to the
        /// matcher's paths.
        public let prunedTree: Ingredients
        /// Whether reading stopped before the end of the input because every
        /// path was resolved. The rest of the input was not checked.
        public let stoppedEarly: Bool

        /// The value of `path`, or `nil` when it is missing or not one of the
        /// matcher's paths.
        public subscript(path: IngredientPath) -> Ingredients? {
            paths.firstIndex(of: path).flatMap { values[$0] }
        }

        /// The value of a path given as text.
        public subscript(path: String) -> Ingredients? {
            (try? IngredientPath(parsing: path)).flatMap { self[$0] }
        }
    }

    /// Reads the next value of `source`, keeping only what the matcher's
    /// paths reach; everything else is skipped unbuilt.
    ///
    /// `resolve` on the result gives, for each of the matcher's paths,
    /// exactly what it gives on the full tree.
    ///
    /// - Returns: the pruned value, or `nil` when the source has no more values.
    /// - Throws: the source's errors, and ``EasyBakeError/Code/duplicateKey``
    ///   under ``DuplicateKeyPolicy/reject`` for a key that repeats among the
    ///   keys the paths need.
    public func read<Source: IngredientSource>(from source: inout Source) throws(EasyBakeError) -> Ingredients? {
        guard let first = try source.next() else { return nil }
        return try PathWalker.readPrunedValue(startingWith: first, from: &source, keeping: self)
    }

    /// Resolves every path in one pass over the next value of `source`.
    ///
    /// Reading stops as soon as every path is settled when no path has `[*]`
    /// or a negative index and the source keeps the first of repeated keys
    /// (or rejects them): `users[0].name` at the head of a gigabyte file
    /// returns without reading the rest. The unread rest is then not checked
    /// for errors; ``Resolution/stoppedEarly`` says so. A source that must
    /// be read to its end (``IngredientSource/allowsStoppingEarly``) is.
    ///
    /// - Throws: what ``read(from:)`` throws, and ``EasyBakeError/Code/syntax``
    ///   when the source is empty.
    public func resolve<Source: IngredientSource>(from source: inout Source) throws(EasyBakeError) -> Resolution {
        guard let first = try source.next() else {
            throw EasyBakeError.syntax("expected a value, found the end of the input", at: source.location)
        }
        var tree = Ingredients.null
        var stoppedEarly = false
        if let rootState {
            var walker = PathWalker(
                matcher: self, source: source, buildsTree: true, stopsEarly: source.allowsStoppingEarly,
                maximumNodes: source.limits.maximumNodes)
            tree = try walker.readValue(startingWith: first, state: rootState, from: &source)
            stoppedEarly = walker.stoppedEarly
        }
        return Resolution(
            paths: paths, values: paths.map { tree.resolve($0) }, prunedTree: tree, stoppedEarly: stoppedEarly)
    }
}
