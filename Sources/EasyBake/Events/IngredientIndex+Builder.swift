extension IngredientIndex {
    /// Assembles an index from events: how a source that reads through
    /// events (XML, YAML, a tree's own events) feeds the fast core.
    ///
    /// It follows ``TreeBuilder``'s rules to the letter — the same duplicate
    /// key policies, node limit and failures — so that an index and a tree
    /// read from the same events hold the same values. Repeated keys are
    /// found as they arrive; a dictionary that had any is rewritten once, when
    /// it closes (the last value kept under last-wins, all of them gathered
    /// into an array under collect), so a dictionary in the index never holds
    /// a key twice.
    struct Builder {
        typealias Step = TreeBuilder.Step

        private struct Frame {
            let position: Int
            let isDictionary: Bool
            var elements = 0
            /// This dictionary's keys.
            var keys: OpenDictionaryKeys.Slice
            /// Whether a key repeated (under last-wins or collect).
            var hasRepeats = false
            /// For each member, which distinct key (its position in `keys`) it belongs to.
            var memberKeys: [Int] = []
        }

        let duplicateKeys: DuplicateKeyPolicy
        let maximumNodes: Int
        private var nodes = 0
        private var frames: [Frame] = []
        private var keys = OpenDictionaryKeys()
        /// Inside a dictionary: the distinct key the next value belongs to.
        private var pendingKey: Int?
        private var scratch = ContiguousArray<Entry>()

        init(duplicateKeys: DuplicateKeyPolicy, maximumNodes: Int = IngredientLimits.default.maximumNodes) {
            self.duplicateKeys = duplicateKeys
            self.maximumNodes = maximumNodes
        }

        var isEmpty: Bool { frames.isEmpty }

        /// The error a failure reports, at `location` (the event's).
        func error(_ failure: TreeBuilder.Failure, at location: SourceLocation) -> EasyBakeError {
            TreeBuilder(duplicateKeys: duplicateKeys, maximumNodes: maximumNodes).error(failure, at: location)
        }

        /// Whether a value may come now: not inside a dictionary before its key.
        private var valueExpected: Bool {
            guard let top = frames.last, top.isDictionary else { return true }
            return pendingKey != nil
        }

        mutating func accept(_ event: IngredientEvent, into index: inout IngredientIndex) throws(EasyBakeError) -> Step
        {
            switch event {
            case .beginArray, .beginDictionary, .scalar:
                nodes += 1
                if nodes > maximumNodes { return .failed(.tooManyNodes) }
                guard valueExpected else { return .failed(.malformed("a value inside a dictionary has no key")) }
            case .key, .endArray, .endDictionary:
                break
            }
            switch event {
            case .beginArray, .beginDictionary:
                noteValue()
                let isDictionary = event == .beginDictionary
                frames.append(Frame(position: index.count, isDictionary: isDictionary, keys: keys.open()))
                index.openContainer(isDictionary ? .dictionary : .array, at: 0)
                return .needMore
            case .key(let key):
                let top = frames.count - 1
                guard top >= 0, frames[top].isDictionary, pendingKey == nil else {
                    return .failed(.malformed("a key outside a dictionary or two keys in a row"))
                }
                if let existing = keys.position(of: key, in: frames[top].keys) {
                    if let step = TreeBuilder.repeatedKey(key, under: duplicateKeys) { return step }
                    frames[top].hasRepeats = true
                    pendingKey = existing
                    // The key entry is written again and dropped when the
                    // dictionary is rewritten.
                    try index.appendString(key, at: 0)
                    return .needMore
                }
                pendingKey = keys.add(key, to: &frames[top].keys)
                try index.appendString(key, at: 0)
                return .needMore
            case .endArray:
                guard let top = frames.last, !top.isDictionary else {
                    return .failed(.malformed("an unbalanced end of array"))
                }
                frames.removeLast()
                try index.closeContainer(elements: top.elements)
                return finishedIfDone(index)
            case .endDictionary:
                guard let top = frames.last, top.isDictionary, pendingKey == nil else {
                    return .failed(.malformed("an unbalanced end of dictionary"))
                }
                frames.removeLast()
                keys.close(top.keys)
                try index.closeContainer(elements: top.elements)
                if top.hasRepeats { try rewrite(top, in: &index) }
                return finishedIfDone(index)
            case .scalar(let value):
                noteValue()
                try index.appendValue(value)
                return finishedIfDone(index)
            }
        }

        /// Counts a value in its container, and notes which key it belongs to.
        private mutating func noteValue() {
            guard !frames.isEmpty else { return }
            let top = frames.count - 1
            if frames[top].isDictionary {
                frames[top].memberKeys.append(pendingKey ?? 0)
                pendingKey = nil
            }
            frames[top].elements += 1
        }

        private func finishedIfDone(_ index: IngredientIndex) -> Step {
            frames.isEmpty ? .finished(.null) : .needMore
        }

        /// Rewrites a closed dictionary that had repeated keys: each key once,
        /// in order of first appearance, with its last value (last-wins) or
        /// all its values gathered into an array (collect).
        private mutating func rewrite(_ frame: Frame, in index: inout IngredientIndex) throws(EasyBakeError) {
            // The members as (key, value) entry ranges, grouped by key.
            var groups: [[Range<Int>]] = Array(repeating: [], count: (frame.memberKeys.max() ?? -1) + 1)
            var keyEntries: [Int] = Array(repeating: -1, count: groups.count)
            var position = frame.position + 1
            for key in frame.memberKeys {
                if keyEntries[key] < 0 { keyEntries[key] = position }
                let valueStart = position + 1
                let valueEnd = index.end(of: valueStart)
                groups[key].append(valueStart..<valueEnd)
                position = valueEnd
            }
            scratch.removeAll(keepingCapacity: true)
            // At most the dictionary's entries and an array's per key: room
            // at once, since growing a buffer the size of a document's root
            // copies it again and again.
            scratch.reserveCapacity(position - frame.position + groups.count)
            // Closed already, it is closed again with its new contents.
            scratch.append(index.storageForBuilding.uncompacted(at: frame.position))
            for (key, values) in groups.enumerated() where !values.isEmpty {
                scratch.append(index.entry(keyEntries[key]))
                if values.count == 1 || duplicateKeys == .lastWins {
                    for position in values[values.count - 1] { scratch.append(index.entry(position)) }
                } else {
                    let span = values.reduce(0) { $0 + $1.count }
                    let storage = index.storageForBuilding
                    guard
                        let array = storage.closed(
                            storage.containerEntry(.array, at: 0), span: span, elements: values.count,
                            firstElement: index.entry(values[0].lowerBound))
                    else { throw IngredientIndex.tooLarge("gathered array", at: 0) }
                    scratch.append(array)
                    for range in values { for position in range { scratch.append(index.entry(position)) } }
                }
            }
            let storage = index.storageForBuilding
            guard
                let dictionary = storage.closed(
                    scratch[0], span: scratch.count - 1, elements: groups.count(where: { !$0.isEmpty }),
                    firstElement: scratch.count > 1 ? scratch[1] : nil)
            else { throw IngredientIndex.tooLarge("dictionary", at: index.sourceOffset(at: frame.position)) }
            scratch[0] = dictionary
            index.replaceEntries(from: frame.position, with: scratch)
        }
    }
}

extension IngredientIndex {
    /// Reads the next value of `source` into this index, replacing what it
    /// held: the index of what ``Ingredients/read(from:duplicateKeys:)`` would
    /// build as a tree, with the same policies and the same errors.
    ///
    /// - Returns: `false` when the source has no more values.
    package mutating func read<Source: IngredientSource>(
        from source: inout Source, duplicateKeys: DuplicateKeyPolicy? = nil
    ) throws(EasyBakeError) -> Bool {
        removeAll()
        var builder = Builder(
            duplicateKeys: duplicateKeys ?? source.duplicateKeyPolicy, maximumNodes: source.limits.maximumNodes)
        traits = source.traits
        while true {
            guard let event = try source.next() else {
                if builder.isEmpty { return false }
                throw EasyBakeError.syntax("unexpected end of input inside a container", at: source.location)
            }
            if try feed(event, to: &builder, from: &source) { return true }
        }
    }

    /// Gives `event` to `builder` and does what it asks of `source` (skip
    /// a repeated key's value, or fail at the source's location); `true`
    /// once the value is complete.
    private mutating func feed<Source: IngredientSource>(
        _ event: IngredientEvent, to builder: inout Builder, from source: inout Source
    ) throws(EasyBakeError) -> Bool {
        switch try builder.accept(event, into: &self) {
        case .needMore: return false
        case .skipNextValue: try source.skipValue()
        case .failed(let failure): throw builder.error(failure, at: source.location)
        case .finished: return true
        }
        return false
    }

    /// Reads into this index (replacing what it held) the value whose first
    /// event is `first`, the rest of it from `source`: how a streamed record
    /// is read, with the tree's rules and the source's limits.
    package mutating func read<Source: IngredientSource>(
        startingWith first: IngredientEvent, from source: inout Source
    ) throws(EasyBakeError) {
        removeAll()
        var builder = Builder(duplicateKeys: source.duplicateKeyPolicy, maximumNodes: source.limits.maximumNodes)
        traits = source.traits
        var event = first
        while true {
            if try feed(event, to: &builder, from: &source) { return }
            guard let next = try source.next() else {
                throw EasyBakeError.syntax("unexpected end of input inside a container", at: source.location)
            }
            event = next
        }
    }

    /// Reads a source's single value into this index (replacing what it
    /// held) through its events, with the tree's rules and the source's
    /// limits, and checks that nothing follows it: what
    /// ``Ingredients/init(reading:duplicateKeys:)`` does for a tree, and
    /// what the default ``IngredientFormat/readIndex(_:into:)`` does. A
    /// format that indexes some inputs itself falls back to it for the
    /// others, as YAML does for what its own scanner leaves to libyaml.
    ///
    /// - Throws: the source's errors; ``EasyBakeError/Code/syntax`` when it
    ///   has no value, or more than one.
    public mutating func read<Source: IngredientSource>(single source: inout Source) throws(EasyBakeError) {
        guard try read(from: &source) else {
            throw EasyBakeError.syntax("expected a value, found end of input", at: source.location)
        }
        if try source.next() != nil {
            throw EasyBakeError.syntax("expected end of input after the value", at: source.location)
        }
    }
}
