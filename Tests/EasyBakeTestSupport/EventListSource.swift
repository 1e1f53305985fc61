import EasyBake

/// A source that replays a fixed list of events, for feeding the tree
/// builder, the index builder and the contract checks well-formed and
/// malformed streams alike. Its skips are the protocol's defaults.
public struct EventListSource: IngredientSource {
    public var events: [IngredientEvent]
    public var position = 0
    public var duplicateKeyPolicy: DuplicateKeyPolicy

    public init(_ events: [IngredientEvent], policy: DuplicateKeyPolicy = .firstWins) {
        self.events = events
        duplicateKeyPolicy = policy
    }

    public var location: SourceLocation { SourceLocation(sourceName: "<events>", line: 1, column: position) }

    public mutating func next() throws(EasyBakeError) -> IngredientEvent? {
        guard position < events.count else { return nil }
        position += 1
        return events[position - 1]
    }
}
