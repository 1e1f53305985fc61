/// The events of an index, in document order: any consumer of events — the
/// tree builder, path matching, streaming, the writers — reads an index as
/// it reads a source, and skipping a value is one step instead of a scan.
package struct IndexedIngredientSource: IngredientSource {
    package let index: IngredientIndex
    /// The entry the next event comes from.
    private var position = 0
    /// The position of the entry the last event came from, for its location.
    private var eventPosition = 0
    /// For each open container: where it ends, and whether it is a dictionary.
    private var open: [(end: Int, isDictionary: Bool)] = []
    /// Where the value the events are read from ends.
    private let valueEnd: Int
    /// Inside a dictionary: whether the next entry is a key.
    private var expectingKey = false
    package let limits: IngredientLimits
    package let duplicateKeyPolicy: DuplicateKeyPolicy
    package var traits: IngredientTraits { index.traits }

    /// The events of the value at `position` (by default the whole index).
    package init(
        index: IngredientIndex, at position: Int = 0, limits: IngredientLimits = .default,
        duplicateKeyPolicy: DuplicateKeyPolicy = .firstWins
    ) {
        self.index = index
        self.position = position
        eventPosition = position
        valueEnd = position < index.count ? index.end(of: position) : index.count
        self.limits = limits
        self.duplicateKeyPolicy = duplicateKeyPolicy
    }

    package mutating func next() throws(EasyBakeError) -> IngredientEvent? {
        if let innermost = open.last, position == innermost.end {
            open.removeLast()
            expectingKey = open.last?.isDictionary ?? false
            return innermost.isDictionary ? .endDictionary : .endArray
        }
        guard position < valueEnd else { return nil }
        eventPosition = position
        if expectingKey {
            expectingKey = false
            position += 1
            return .key(index.string(at: eventPosition) ?? "")
        }
        let kind = index.kind(at: position)
        switch kind {
        case .array, .dictionary:
            open.append((index.end(of: position), kind == .dictionary))
            position += 1
            expectingKey = kind == .dictionary
            return kind == .dictionary ? .beginDictionary : .beginArray
        default:
            let value = index.scalar(at: position) ?? .null
            position += 1
            expectingKey = open.last?.isDictionary ?? false
            return .scalar(value)
        }
    }

    package mutating func skipValue() throws(EasyBakeError) {
        if let innermost = open.last, position == innermost.end {
            // At a container's end the next event is that end: consume it.
            _ = try next()
            return
        }
        guard position < valueEnd else { return }
        eventPosition = position
        if expectingKey {
            // A key is an event of its own; skipping it leaves the value next.
            position += 1
            expectingKey = false
            return
        }
        position = index.end(of: position)
        expectingKey = open.last?.isDictionary ?? false
    }

    package var location: SourceLocation {
        guard index.count > 0, let mark = index.mark(at: min(eventPosition, index.count - 1)) else {
            return SourceLocation(sourceName: index.sourceName, line: 1, column: 1)
        }
        return mark.location
    }
}

extension Ingredients {
    /// The tree of the value at `position` in `index`. A dictionary that an
    /// index holds a key of twice (a JSON index keeps every member, and
    /// lookups find the first) keeps the first, as a tree read from the same
    /// input would under ``DuplicateKeyPolicy/firstWins``.
    package init(index: IngredientIndex, at position: Int = 0) throws(EasyBakeError) {
        var source = IndexedIngredientSource(index: index, at: position)
        self = try Ingredients(reading: &source, duplicateKeys: .firstWins)
    }
}
