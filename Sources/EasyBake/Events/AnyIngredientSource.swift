/// A type-erased ``IngredientSource``, for code that picks the format at run
/// time (``IngredientFormat/makeSource(for:)`` returns an existential) and
/// hands the source to generic readers such as ``RecordReader``.
public struct AnyIngredientSource: IngredientSource {
    /// The source this one forwards to.
    public private(set) var base: any IngredientSource

    /// Wraps `base`.
    public init(_ base: any IngredientSource) { self.base = base }

    public mutating func next() throws(EasyBakeError) -> IngredientEvent? { try base.next() }
    public mutating func skipValue() throws(EasyBakeError) { try base.skipValue() }
    public mutating func skipRestOfContainer() throws(EasyBakeError) { try base.skipRestOfContainer() }
    public mutating func nextWantedKey(_ wanted: WantedKeys) throws(EasyBakeError) -> Int? {
        try base.nextWantedKey(wanted)
    }
    public mutating func readValue(startingWith first: IngredientEvent, into index: inout IngredientIndex)
        throws(EasyBakeError)
    {
        try base.readValue(startingWith: first, into: &index)
    }
    public mutating func readValue(
        startingWith first: IngredientEvent, into index: inout IngredientIndex, keeping matcher: PathMatcher
    ) throws(EasyBakeError) {
        try base.readValue(startingWith: first, into: &index, keeping: matcher)
    }
    public mutating func readNextRecord(at recordPath: IngredientPath, into index: inout IngredientIndex)
        -> IndexedRecordRead
    {
        base.readNextRecord(at: recordPath, into: &index)
    }
    public mutating func deferValue(
        startingWith first: IngredientEvent, keeping matcher: PathMatcher?
    ) -> (any DeferredIngredientValue)? {
        base.deferValue(startingWith: first, keeping: matcher)
    }
    public mutating func skipValueForLater(startingWith first: IngredientEvent) throws(EasyBakeError) -> (
        any DeferredIngredientValue
    )? {
        try base.skipValueForLater(startingWith: first)
    }
    public mutating func skipElementsForLater(keepingLast keeping: Int) throws(EasyBakeError) -> (
        count: Int, last: [any DeferredIngredientValue]
    )? {
        try base.skipElementsForLater(keepingLast: keeping)
    }
    public mutating func skipElements(_ count: Int) throws(EasyBakeError) -> (skipped: Int, endedArray: Bool)? {
        try base.skipElements(count)
    }
    public mutating func deferNextRecord(at recordPath: IngredientPath) -> IndexedRecordRead? {
        base.deferNextRecord(at: recordPath)
    }
    public var deferringPaysFromJobs: Int { base.deferringPaysFromJobs }
    public var location: SourceLocation { base.location }
    public var mark: SourceMark { base.mark }
    public var duplicateKeyPolicy: DuplicateKeyPolicy { base.duplicateKeyPolicy }
    public var limits: IngredientLimits { base.limits }
    public var allowsStoppingEarly: Bool { base.allowsStoppingEarly }
    public var warnings: [EasyBakeError] { base.warnings }
    public var traits: IngredientTraits { base.traits }
    public var dictionariesAreElements: Bool { base.dictionariesAreElements }
    public mutating func resumeAfterFailedElement() -> Int? { base.resumeAfterFailedElement() }
}
