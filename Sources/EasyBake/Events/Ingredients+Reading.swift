extension Ingredients {
    /// Builds the tree of the next value that `source` reads.
    ///
    /// The builder keeps explicit stacks of open containers, so the depth of
    /// the input costs heap, never call stack. Repeated keys are handled as
    /// `duplicateKeys` says (by default, the source's policy); under
    /// ``DuplicateKeyPolicy/firstWins`` a repeated key's value is skipped
    /// unread.
    ///
    /// - Returns: the value, or `nil` when the source has no more values.
    /// - Throws: the source's errors; ``EasyBakeError/Code/duplicateKey`` under
    ///   ``DuplicateKeyPolicy/reject``; ``EasyBakeError/Code/syntax`` when the
    ///   events end inside a container or are out of order.
    public static func read<Source: IngredientSource>(
        from source: inout Source, duplicateKeys: DuplicateKeyPolicy? = nil
    ) throws(EasyBakeError) -> Ingredients? {
        var builder = TreeBuilder(
            duplicateKeys: duplicateKeys ?? source.duplicateKeyPolicy, maximumNodes: source.limits.maximumNodes,
            marksElements: source.traits.contains(.dictionariesAreElements))
        while true {
            guard let event = try source.next() else {
                if builder.isEmpty { return nil }
                throw EasyBakeError.syntax("unexpected end of input inside a container", at: source.location)
            }
            switch builder.accept(event) {
            case .needMore:
                continue
            case .skipNextValue:
                try source.skipValue()
            case .failed(let failure):
                var error = builder.error(failure, at: source.location)
                if case .duplicate(let key) = failure { error.path = builder.path(appending: key) }
                throw error
            case .finished(let value):
                return value
            }
        }
    }

    /// Builds the tree of a source's single value, and checks that nothing
    /// follows it.
    ///
    /// ```swift
    /// var source = try JSONFormat().makeSource(for: .bytes(Array(#"{"a": [1, 2]}"#.utf8)))
    /// let tree = try Ingredients(reading: &source)
    /// ```
    ///
    /// - Throws: ``EasyBakeError/Code/syntax`` when the source is empty or
    ///   holds more than one value, and any error of ``read(from:duplicateKeys:)``.
    public init<Source: IngredientSource>(
        reading source: inout Source, duplicateKeys: DuplicateKeyPolicy? = nil
    ) throws(EasyBakeError) {
        guard let value = try Ingredients.read(from: &source, duplicateKeys: duplicateKeys) else {
            throw EasyBakeError.syntax("expected a value, found end of input", at: source.location)
        }
        if try source.next() != nil {
            throw EasyBakeError.syntax("expected end of input after the value", at: source.location)
        }
        self = value
    }
}

/// Assembles events into a tree.
///
/// The values of all open containers live in one flat stack (and the keys of
/// open dictionaries in another); closing a container moves its slice out
/// into the new array or dictionary. This costs one allocation per container
/// and no per-event copying of container frames.
struct TreeBuilder {
    enum Step {
        case needMore
        case skipNextValue
        case failed(Failure)
        case finished(Ingredients)
    }

    /// Why the events cannot make a tree.
    enum Failure {
        /// A repeated key under ``DuplicateKeyPolicy/reject``.
        case duplicate(String)
        case malformed(String)
        /// The tree would hold more than `maximumNodes` values.
        case tooManyNodes
    }

    /// What a key the innermost dictionary holds already does under
    /// `policy`: the step for the reader (its value skipped, or the error),
    /// or `nil` when its value replaces the first one's or joins it in an
    /// array (``DuplicateKeyPolicy/collect``), which the builder then notes.
    /// The tree's and the index's builders read the policy here, so that
    /// both hold the same.
    static func repeatedKey(_ key: String, under policy: DuplicateKeyPolicy) -> Step? {
        switch policy {
        case .firstWins: .skipNextValue
        case .reject: .failed(.duplicate(key))
        case .lastWins, .collect: nil
        }
    }

    /// The error a failure reports, at `location` (the event's).
    func error(_ failure: Failure, at location: SourceLocation) -> EasyBakeError {
        switch failure {
        case .duplicate(let key):
            EasyBakeError.duplicateKey(key, at: location)
        case .malformed(let message):
            EasyBakeError.syntax(message, at: location)
        case .tooManyNodes:
            EasyBakeError.limit(.maximumNodes, maximumNodes, at: location)
        }
    }

    private struct Frame {
        let isDictionary: Bool
        let valueStart: Int
        /// This dictionary's keys.
        var keys: OpenDictionaryKeys.Slice
        /// The position a repeated key's value replaces under last-wins, or
        /// joins under collect.
        var replacing: Int?
        /// Under collect: positions whose value is already a gathered array.
        var collected: Set<Int> = []
    }

    let duplicateKeys: DuplicateKeyPolicy
    let maximumNodes: Int
    /// Mark every dictionary ``IngredientDictionary/isElement`` (a source
    /// whose ``IngredientSource/traits`` hold ``IngredientTraits/dictionariesAreElements``).
    let marksElements: Bool
    private var nodes = 0
    private var frames: [Frame] = []
    private var values = ContiguousArray<Ingredients>()
    private var keys = OpenDictionaryKeys()

    init(
        duplicateKeys: DuplicateKeyPolicy, maximumNodes: Int = IngredientLimits.default.maximumNodes,
        marksElements: Bool = false
    ) {
        self.duplicateKeys = duplicateKeys
        self.maximumNodes = maximumNodes
        self.marksElements = marksElements
    }

    var isEmpty: Bool { frames.isEmpty }

    /// How many more values the tree may hold.
    var nodesLeft: Int { maximumNodes - nodes }

    /// The path of the value being built, for error messages.
    func path(appending key: String? = nil) -> IngredientPath {
        var steps: [IngredientPath.Step] = []
        for (depth, frame) in frames.enumerated() {
            let end = depth + 1 < frames.count ? frames[depth + 1].valueStart : values.count
            if frame.isDictionary {
                let keyEnd = depth + 1 < frames.count ? frames[depth + 1].keys.start : keys.count
                if keyEnd > frame.keys.start, keyEnd - frame.keys.start > end - frame.valueStart {
                    steps.append(.key(keys[keyEnd - 1]))
                }
            } else if depth + 1 < frames.count {
                steps.append(.index(end - frame.valueStart))
            }
        }
        if let key { steps.append(.key(key)) }
        return IngredientPath(steps)
    }

    mutating func accept(_ event: IngredientEvent) -> Step {
        switch event {
        case .beginArray, .beginDictionary, .scalar:
            nodes += 1
            if nodes > maximumNodes { return .failed(.tooManyNodes) }
        case .key, .endArray, .endDictionary:
            break
        }
        switch event {
        case .beginArray, .beginDictionary:
            if let top = frames.last, top.isDictionary, keys.count - top.keys.start == values.count - top.valueStart,
                top.replacing == nil
            {
                return .failed(.malformed("a value inside a dictionary has no key"))
            }
            frames.append(
                Frame(
                    isDictionary: event == .beginDictionary, valueStart: values.count, keys: keys.open()))
            return .needMore
        case .key(let key):
            // Read the top frame's fields in place: a local copy of the frame
            // would share its index and make every insertion copy it.
            let top = frames.count - 1
            guard top >= 0, frames[top].isDictionary, frames[top].replacing == nil,
                keys.count - frames[top].keys.start == values.count - frames[top].valueStart
            else {
                return .failed(.malformed("a key outside a dictionary or two keys in a row"))
            }
            if let existing = keys.position(of: key, in: frames[top].keys) {
                if let step = Self.repeatedKey(key, under: duplicateKeys) { return step }
                frames[top].replacing = existing
                return .needMore
            }
            _ = keys.add(key, to: &frames[top].keys)
            return .needMore
        case .endArray:
            guard let top = frames.last, !top.isDictionary else {
                return .failed(.malformed("an unbalanced end of array"))
            }
            frames.removeLast()
            let elements = ContiguousArray(values[top.valueStart...])
            values.removeSubrange(top.valueStart...)
            return add(.array(IngredientArray(elements)))
        case .endDictionary:
            guard let top = frames.last, top.isDictionary, top.replacing == nil,
                keys.count - top.keys.start == values.count - top.valueStart
            else {
                return .failed(.malformed("an unbalanced end of dictionary"))
            }
            frames.removeLast()
            var entries = ContiguousArray<IngredientDictionary.Element>()
            entries.reserveCapacity(keys.count - top.keys.start)
            for i in 0..<(keys.count - top.keys.start) {
                entries.append((keys[top.keys.start + i], values[top.valueStart + i]))
            }
            keys.close(top.keys)
            values.removeSubrange(top.valueStart...)
            // The index of a large dictionary's keys, built to find repeats,
            // becomes the dictionary's own.
            return add(
                .dictionary(
                    IngredientDictionary(uniqueEntries: entries, index: top.keys.index, isElement: marksElements)))
        case .scalar(let value):
            if let top = frames.last, top.isDictionary, keys.count - top.keys.start == values.count - top.valueStart,
                top.replacing == nil
            {
                return .failed(.malformed("a value inside a dictionary has no key"))
            }
            return add(value)
        }
    }

    /// Accepts `count` nulls as elements of the array being built, in one
    /// step, as `count` `.scalar(.null)` events would be accepted there.
    mutating func acceptNulls(_ count: Int) -> Step {
        guard let top = frames.last, !top.isDictionary else {
            return .failed(.malformed("elements outside an array"))
        }
        nodes += count
        if nodes > maximumNodes { return .failed(.tooManyNodes) }
        values.append(contentsOf: repeatElement(.null, count: count))
        return .needMore
    }

    private mutating func add(_ value: Ingredients) -> Step {
        let top = frames.count - 1
        guard top >= 0 else { return .finished(value) }
        if let replacing = frames[top].replacing {
            let slot = frames[top].valueStart + replacing
            if duplicateKeys == .collect {
                // Take the value out so that its array is uniquely owned and
                // grows in place.
                var gathered = values[slot]
                values[slot] = .null
                if frames[top].collected.contains(replacing), case .array(var array) = gathered {
                    gathered = .null
                    array.append(value)
                    gathered = .array(array)
                } else {
                    gathered = .array([gathered, value])
                    frames[top].collected.insert(replacing)
                }
                values[slot] = gathered
            } else {
                values[slot] = value
            }
            frames[top].replacing = nil
        } else {
            values.append(value)
        }
        return .needMore
    }
}
