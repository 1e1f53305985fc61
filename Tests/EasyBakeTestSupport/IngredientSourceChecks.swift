import EasyBake

/// Checks an ``IngredientSource`` against its own events, as
/// swift-collections' `checkSequence` checks a sequence: at every position
/// of a valid input, each requirement that skips or reads ahead must leave
/// the source where reading the events one by one would:
///
/// - ``IngredientSource/skipValue()`` consumes the whole value that begins
///   next — a container up to its end, or a scalar — and at a key or at a
///   container's end consumes that one event;
/// - ``IngredientSource/skipRestOfContainer()``, right after a container's
///   first event, consumes the rest of it, its end included;
/// - ``IngredientSource/nextWantedKey(_:)``, inside a dictionary before a
///   key or its end, returns the first wanted key's index with the source
///   before that key's value, or `nil` with the dictionary's end consumed;
/// - ``IngredientSource/readValue(startingWith:into:)``, after a value's
///   first event, indexes that value, and leaves the source after it.
///
/// `make` makes a fresh source over the same input each time. Returns a
/// description of each disagreement; empty when the source keeps the
/// contract.
public func checkIngredientSource(
    _ make: () throws(EasyBakeError) -> any IngredientSource
) throws(EasyBakeError) -> [String] {
    var reference = try make()
    let policy = reference.duplicateKeyPolicy
    var events: [IngredientEvent] = []
    while let event = try reference.next() { events.append(event) }
    var failures: [String] = []

    /// The position after the value that begins at `position`.
    func end(ofValueAt position: Int) -> Int {
        guard position < events.count else { return position }
        var depth = 0
        var index = position
        repeat {
            switch events[index] {
            case .beginArray, .beginDictionary: depth += 1
            case .endArray, .endDictionary: depth -= 1
            case .key, .scalar: break
            }
            index += 1
        } while depth > 0 && index < events.count
        return index
    }

    /// The events of a source after `prefix` events and `act`.
    func rest<Result>(
        after prefix: Int, _ act: (inout any IngredientSource) throws(EasyBakeError) -> Result
    ) throws(EasyBakeError) -> (Result, [IngredientEvent]) {
        var source = try make()
        for _ in 0..<prefix { _ = try source.next() }
        let result = try act(&source)
        var remaining: [IngredientEvent] = []
        while let event = try source.next() { remaining.append(event) }
        return (result, remaining)
    }

    // The container each position is directly inside (its begin's position).
    var open: [Int] = []
    var innermost: [Int?] = []
    for event in events {
        innermost.append(open.last)
        switch event {
        case .beginArray, .beginDictionary: open.append(innermost.count - 1)
        case .endArray, .endDictionary: open.removeLast()
        case .key, .scalar: break
        }
    }
    innermost.append(nil)

    for position in 0...events.count {
        let next = position < events.count ? events[position] : nil
        // skipValue
        let skipped = position < events.count ? max(end(ofValueAt: position), position + 1) : position
        let (_, afterSkip) = try rest(after: position) { (source) throws(EasyBakeError) in try source.skipValue() }
        if afterSkip != Array(events[skipped...]) {
            failures.append(
                "skipValue() after \(position) events (next: \(next.map { "\($0)" } ?? "the end")) left \(afterSkip.prefix(3)), expected \(events[skipped...].prefix(3))"
            )
        }
        // skipRestOfContainer, right after a container's first event
        if position > 0, case .beginArray = events[position - 1] {
            check(afterContainerAt: position - 1)
        } else if position > 0, case .beginDictionary = events[position - 1] {
            check(afterContainerAt: position - 1)
        }
        // nextWantedKey, inside a dictionary before a key or its end
        if let container = innermost[position], case .beginDictionary = events[container], let next,
            next == .endDictionary || { if case .key = next { true } else { false } }()
        {
            let keys = events[position..<end(ofValueAt: container)].enumerated().compactMap {
                offset, event -> String? in
                guard case .key(let key) = event, innermost[position + offset] == container else { return nil }
                return key
            }
            for wanted in [keys.last.map { [$0, "\u{1}absent"] } ?? ["\u{1}absent"], ["\u{1}absent"]] {
                let (found, after) = try rest(after: position) { (source) throws(EasyBakeError) in
                    try source.nextWantedKey(WantedKeys(wanted))
                }
                // Where the first wanted key is, or the dictionary's end.
                var expectedIndex: Int?
                var expectedRest = end(ofValueAt: container)
                var scan = position
                while scan < events.count, innermost[scan] == container, case .key(let key) = events[scan] {
                    if let index = wanted.firstIndex(of: key) {
                        expectedIndex = index
                        expectedRest = scan + 1
                        break
                    }
                    scan = end(ofValueAt: scan + 1)
                }
                if found != expectedIndex || after != Array(events[expectedRest...]) {
                    failures.append(
                        "nextWantedKey(\(wanted)) after \(position) events returned \(found.map(String.init) ?? "nil") leaving \(after.prefix(3)), expected \(expectedIndex.map(String.init) ?? "nil") leaving \(events[expectedRest...].prefix(3))"
                    )
                }
            }
        }
        // readValue, after a value's first event
        if position < events.count, isValueStart(events[position]) {
            let valueEnd = end(ofValueAt: position)
            let (index, after) = try rest(after: position + 1) { (source) throws(EasyBakeError) -> IngredientIndex in
                var index = IngredientIndex()
                try source.readValue(startingWith: events[position], into: &index)
                return index
            }
            let expected = try tree(of: Array(events[position..<valueEnd]), policy: policy)
            let got = try Ingredients(index: index)
            if got != expected || after != Array(events[valueEnd...]) {
                failures.append(
                    "readValue after \(position + 1) events indexed \(got), expected \(expected); left \(after.prefix(3)), expected \(events[valueEnd...].prefix(3))"
                )
            }
        }
    }
    return failures

    func check(afterContainerAt begin: Int) {
        let containerEnd = end(ofValueAt: begin)
        do {
            let (_, after) = try rest(after: begin + 1) { (source) throws(EasyBakeError) in
                try source.skipRestOfContainer()
            }
            if after != Array(events[containerEnd...]) {
                failures.append(
                    "skipRestOfContainer() after \(begin + 1) events left \(after.prefix(3)), expected \(events[containerEnd...].prefix(3))"
                )
            }
        } catch {
            failures.append("skipRestOfContainer() after \(begin + 1) events threw \(error)")
        }
    }

    func isValueStart(_ event: IngredientEvent) -> Bool {
        switch event {
        case .beginArray, .beginDictionary, .scalar: true
        case .key, .endArray, .endDictionary: false
        }
    }
}

/// The tree the events of one value make, under the source's policy for
/// repeated keys.
private func tree(of events: [IngredientEvent], policy: DuplicateKeyPolicy) throws(EasyBakeError) -> Ingredients {
    var source = EventListSource(events, policy: policy)
    return try Ingredients(reading: &source)
}
