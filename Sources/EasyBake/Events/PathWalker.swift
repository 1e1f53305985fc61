/// Runs a ``PathMatcher`` over a source's events: descends into what some
/// path needs and skips the rest through the source's native skip.
///
/// In tree mode it feeds a ``TreeBuilder`` the needed parts only, so that the
/// result is the full tree pruned to the matcher's paths: every value a path
/// resolves through is there as in the full tree, everything else is left
/// out, and skipped array elements keep their places as `null` where an index
/// must still count them. `Ingredients.resolve` on the pruned tree therefore
/// answers exactly as on the full tree. In record mode it builds nothing and
/// stops at each value a path ends at, for the caller to read.
///
/// The walk keeps one frame per open container it descended into, so memory
/// follows the depth of the needed paths, never the size of the input.
struct PathWalker {
    private struct Frame {
        /// For a dictionary, its dictionary state; for an array, the array's state.
        let state: Int
        let isArray: Bool
        /// Elements seen so far (arrays).
        var count = 0
        /// Needed keys or indexes not reached yet; `Int.max` when a `[*]`
        /// or a negative index needs every element.
        var remaining: Int
        /// Which needed keys have occurred (dictionaries), by index in the
        /// state's wanted keys; counted in `counts` once one repeats or
        /// there are more than 64.
        var seen: UInt64 = 0
        var counts: [Int]?
        /// A dictionary whose every member some `[*]` reads: how often each
        /// key has occurred, for the duplicate-key policy, counted as the
        /// path locator counts them.
        var members: KeyOccurrences?
        /// An array whose only indexes are negative, in tree mode: its last
        /// elements, kept until it ends.
        var trailing: TrailingElements?
        /// Whether the elements no path needs are skipped one by one: where
        /// every element is needed (`[*]`, negative indexes), and once the
        /// source declined to skip them many at a time.
        var skipsOneByOne = false

        func occurrences(of key: Int) -> Int {
            if let counts { return counts[key] }
            return key < 64 && seen & (1 << UInt64(key)) != 0 ? 1 : 0
        }

        mutating func count(_ key: Int, keys: Int) {
            if counts == nil, key < 64, seen & (1 << UInt64(key)) == 0 {
                seen |= 1 << UInt64(key)
                return
            }
            if counts == nil {
                var made = [Int](repeating: 0, count: keys)
                for index in 0..<min(keys, 64) where seen & (1 << UInt64(index)) != 0 { made[index] = 1 }
                counts = made
            }
            counts![key] += 1
        }
    }

    let matcher: PathMatcher
    let policy: DuplicateKeyPolicy
    /// Whether `[*]` takes a dictionary as one element (the source's
    /// ``IngredientSource/traits`` hold
    /// ``IngredientTraits/dictionariesAreElements``) or its members.
    let dictionariesAreElements: Bool
    let buildsTree: Bool
    /// Whether the walk may end before the input does, once no open
    /// container holds anything a path still needs.
    let stopsEarly: Bool

    private var frames: [Frame] = []
    private var builder: TreeBuilder
    private(set) var result: Ingredients?
    /// Whether the walk ended early, leaving the rest of the input unread.
    private(set) var stoppedEarly = false
    /// The key of the member the last needed value was read from, when a
    /// `[*]` reached it in a dictionary; `nil` after an array's element.
    private(set) var lastMemberKey: String?

    init<Source: IngredientSource>(
        matcher: PathMatcher, source: Source, buildsTree: Bool, stopsEarly: Bool = false,
        maximumNodes: Int = IngredientLimits.default.maximumNodes
    ) {
        self.matcher = matcher
        policy = source.duplicateKeyPolicy
        dictionariesAreElements = source.traits.contains(.dictionariesAreElements)
        self.buildsTree = buildsTree
        self.stopsEarly = stopsEarly && matcher.resolvesEarly && (policy == .firstWins || policy == .reject)
        builder = TreeBuilder(duplicateKeys: policy, maximumNodes: maximumNodes, marksElements: dictionariesAreElements)
    }

    var isInside: Bool { !frames.isEmpty }

    /// How many containers the walk is inside: the depth, in steps of a
    /// single path, of the value it returned last.
    var depth: Int { frames.count }

    /// Whether the walk is inside a top-level array (record mode), so that
    /// it can go on with another of its elements after a failed one.
    var canResumeAtRootElement: Bool { !buildsTree && frames.first?.isArray == true }

    /// After the source moved past a failed element of the top-level array:
    /// drops the frames inside it, and counts `begun` elements in the array.
    mutating func resume(atRootElement begun: Int) {
        frames.removeSubrange(1...)
        frames[0].count = begun
    }

    /// Whether a path ends at the value that begins with `event` in `state`
    /// — counting the paths that reach a lone value through `[0]`, `[-1]`
    /// or `[*]` as if it were a one-element array (null is no such value:
    /// it is an empty array to `[*]` and has no index).
    func endsPath(_ event: IngredientEvent, state: Int) -> Bool {
        matcher.states[effectiveState(event, state: state)].isTerminal
    }

    private func effectiveState(_ event: IngredientEvent, state: Int) -> Int {
        switch event {
        case .beginDictionary: matcher.states[state].dictionary(elements: dictionariesAreElements)
        case .scalar(let value) where !value.isNull: matcher.states[state].dictionaryState
        default: state
        }
    }

    // MARK: Tree mode

    /// Reads the value that begins with `first` (already read from `source`)
    /// in `state`, pruned to the matcher's paths.
    mutating func readValue<Source: IngredientSource>(
        startingWith first: IngredientEvent, state: Int, from source: inout Source
    ) throws(EasyBakeError) -> Ingredients {
        try enter(first, state: state, from: &source)
        while let (event, state) = try nextNeededValue(from: &source) {
            try enter(event, state: state, from: &source)
        }
        guard let result else {
            throw EasyBakeError.syntax("the events of a value ended inside a container", at: source.location)
        }
        return result
    }

    // MARK: Walking

    /// Begins a needed value whose first event has been read. A terminal
    /// state's value is read whole (tree mode only; record mode reads it itself).
    mutating func enter<Source: IngredientSource>(
        _ event: IngredientEvent, state id: Int, from source: inout Source
    ) throws(EasyBakeError) {
        let state = matcher.states[id]
        if endsPath(event, state: id) {
            try feedWhole(startingWith: event, from: &source)
            return
        }
        switch event {
        case .scalar:
            // Kept even where only keys follow and resolve nothing: a baker
            // still tells a scalar record from a null one.
            try feed(event, at: source)
        case .beginDictionary:
            try feed(.beginDictionary, at: source)
            let dictionaryState = state.dictionary(elements: dictionariesAreElements)
            let dictionary = matcher.states[dictionaryState]
            if dictionary.otherKeys != nil {
                frames.append(Frame(state: dictionaryState, isArray: false, remaining: .max, members: KeyOccurrences()))
            } else {
                frames.append(Frame(state: dictionaryState, isArray: false, remaining: dictionary.keyTargets.count))
            }
        case .beginArray:
            try feed(.beginArray, at: source)
            var frame = Frame(
                state: id, isArray: true, remaining: state.otherElements == nil ? state.elements.count : .max)
            frame.skipsOneByOne = state.otherElements != nil
            if buildsTree, let last = state.trailingElements {
                let trailing = TrailingElements(capacity: last)
                // The whole array at once, where the source can skip it and
                // keep its last elements itself.
                if let skipped = try source.skipElementsForLater(keepingLast: trailing.capacity) {
                    for value in skipped.last { trailing.keep(later: value) }
                    try feedTrailing(trailing, of: skipped.count)
                    try feed(.endArray, at: source)
                    return
                }
                frame.trailing = trailing
            }
            frames.append(frame)
        case .key, .endArray, .endDictionary:
            throw EasyBakeError.syntax("expected a value, found \(event)", at: source.location)
        }
    }

    /// Reads on to the next value that some path needs and returns its first
    /// event and state, or `nil` once the walk's root value has ended.
    mutating func nextNeededValue<Source: IngredientSource>(
        from source: inout Source
    ) throws(EasyBakeError) -> (IngredientEvent, Int)? {
        while !frames.isEmpty {
            let top = frames.count - 1
            if stopsEarly, frames[top].remaining == 0, frames.allSatisfy({ $0.remaining == 0 }) {
                try closeAll(at: source)
                return nil
            }
            if frames[top].isArray {
                if !frames[top].skipsOneByOne, try skipUnneededElements(of: top, from: &source) {
                    continue
                }
                guard let event = try source.next() else {
                    throw EasyBakeError.syntax("unexpected end of input inside an array", at: source.location)
                }
                if case .endArray = event {
                    if let trailing = frames[top].trailing {
                        try feedTrailing(trailing, of: frames[top].count)
                    }
                    frames.removeLast()
                    try feed(.endArray, at: source)
                    continue
                }
                let index = frames[top].count
                frames[top].count += 1
                if let trailing = frames[top].trailing {
                    try trailing.keep(event, from: &source)
                    continue
                }
                let array = matcher.states[frames[top].state]
                if let element = array.element(index) {
                    lastMemberKey = nil
                    if array.elements[index] != nil, frames[top].remaining != .max { frames[top].remaining -= 1 }
                    return (event, element)
                }
                if array.keepsPositions { try feed(.scalar(.null), at: source) }
                try Self.skipRest(of: event, from: &source)
                continue
            }
            if frames[top].members != nil {
                if let needed = try nextMember(of: top, from: &source) { return needed }
                continue
            }
            // The source skips the entries no path needs without handing
            // them out, comparing raw key bytes where it can.
            let dictionary = matcher.states[frames[top].state]
            guard let keyIndex = try source.nextWantedKey(dictionary.wantedKeys) else {
                frames.removeLast()
                try feed(.endDictionary, at: source)
                continue
            }
            let occurrence = frames[top].occurrences(of: keyIndex)
            frames[top].count(keyIndex, keys: dictionary.keyTargets.count)
            if occurrence == 0 { frames[top].remaining -= 1 }
            if let needed = try enterMember(
                dictionary.wantedKeys.keys[keyIndex], occurrence: occurrence, target: dictionary.keyTargets[keyIndex],
                from: &source)
            {
                return needed
            }
        }
        return nil
    }

    /// Moves past the elements of the array of frame `top` that no path
    /// needs before the next one a path does, many at a time where the
    /// source can: `true` when it did, `false` when the next element is
    /// needed or the source declined.
    private mutating func skipUnneededElements<Source: IngredientSource>(
        of top: Int, from source: inout Source
    ) throws(EasyBakeError) -> Bool {
        var unneeded = matcher.states[frames[top].state].unneededElements(from: frames[top].count)
        // A tree that keeps their places takes a null for each: no more than
        // it may hold, so that the element that passes its limit is read in
        // turn and fails where it did one at a time.
        let keepsPositions = buildsTree && matcher.states[frames[top].state].keepsPositions
        if keepsPositions { unneeded = min(unneeded, builder.nodesLeft) }
        // One element is skipped as cheaply one at a time.
        guard unneeded >= 2 else { return false }
        guard let skipped = try source.skipElements(unneeded) else {
            frames[top].skipsOneByOne = true
            return false
        }
        frames[top].count += skipped.skipped
        if keepsPositions { try feedNulls(skipped.skipped, at: source) }
        if skipped.endedArray {
            frames.removeLast()
            try feed(.endArray, at: source)
        }
        return true
    }

    /// After the key of a member some path needs: follows the duplicate-key
    /// policy for its `occurrence`-th repeat, feeds the key, and returns the
    /// value's first event and state; `nil` when the member was settled here
    /// (a repeat skipped, or an occurrence no path reads).
    private mutating func enterMember<Source: IngredientSource>(
        _ key: String, occurrence: Int, target: Int, from source: inout Source
    ) throws(EasyBakeError) -> (IngredientEvent, Int)? {
        var valueState: Int? = target
        if occurrence == 0, buildsTree, policy == .collect, let other = matcher.states[target].otherOccurrences {
            // Should the key repeat, its first value becomes element 0 of
            // an array of unknown length, which a negative index (or `[*]`)
            // may reach: it is read in their state too, not only in that of
            // a lone value (`[0]`, `[-1]`). A tree may keep more than its
            // paths reach; record mode gives out what its state ends at, so
            // it keeps the lone value's state (its record paths have no
            // negative index, see `RecordReader`).
            valueState = other
        } else if occurrence > 0 {
            switch policy {
            case .firstWins:
                try source.skipValue()
                return nil
            case .reject:
                throw EasyBakeError.duplicateKey(key, at: source.location)
            case .lastWins:
                break
            case .collect:
                valueState = matcher.states[target].occurrence(occurrence)
            }
        }
        try feed(.key(key), at: source)
        guard let valueState else {
            // No path reads this occurrence, but it still turns the key's
            // value into an array.
            try feed(.scalar(.null), at: source)
            try source.skipValue()
            return nil
        }
        guard let first = try source.next() else {
            throw EasyBakeError.syntax(
                "expected a value after key \(key.debugDescription), found the end of the input", at: source.location)
        }
        return (first, valueState)
    }

    /// In a dictionary whose every member a `[*]` reads: the next member's
    /// value and state, after its key; `nil` when the member was settled
    /// here (skipped as a repeat, or the dictionary ended).
    private mutating func nextMember<Source: IngredientSource>(
        of top: Int, from source: inout Source
    ) throws(EasyBakeError) -> (IngredientEvent, Int)? {
        let dictionary = matcher.states[frames[top].state]
        guard let event = try source.next() else {
            throw EasyBakeError.syntax("unexpected end of input inside a dictionary", at: source.location)
        }
        guard case .key(let key) = event else {
            guard case .endDictionary = event else {
                throw EasyBakeError.syntax(
                    "expected a key or the end of the dictionary, found \(event)", at: source.location)
            }
            frames.removeLast()
            try feed(.endDictionary, at: source)
            return nil
        }
        let target =
            dictionary.wantedKeys.keys.firstIndex(of: key).map { dictionary.keyTargets[$0] } ?? dictionary.otherKeys!
        let occurrence = frames[top].members!.record(key)
        guard let needed = try enterMember(key, occurrence: occurrence, target: target, from: &source) else {
            return nil
        }
        lastMemberKey = key
        return needed
    }

    /// Skips the rest of a value whose first event has been read.
    static func skipRest<Source: IngredientSource>(
        of event: IngredientEvent, from source: inout Source
    ) throws(EasyBakeError) {
        switch event {
        case .scalar: return
        case .beginArray, .beginDictionary: try source.skipRestOfContainer()
        case .key, .endArray, .endDictionary:
            throw EasyBakeError.syntax("expected a value, found \(event)", at: source.location)
        }
    }

    // MARK: Building

    private mutating func feed<Source: IngredientSource>(_ event: IngredientEvent, at source: Source)
        throws(EasyBakeError)
    {
        guard buildsTree else { return }
        switch builder.accept(event) {
        case .needMore, .skipNextValue:
            // Repeated keys are settled before they are fed.
            break
        case .finished(let value):
            result = value
        case .failed(let failure):
            throw builder.error(failure, at: source.location)
        }
    }

    /// Feeds `count` nulls, the places of elements no path needs.
    private mutating func feedNulls<Source: IngredientSource>(_ count: Int, at source: Source) throws(EasyBakeError) {
        guard buildsTree, count > 0 else { return }
        if case .failed(let failure) = builder.acceptNulls(count) { throw builder.error(failure, at: source.location) }
    }

    /// Feeds the elements of an array of `count` whose only indexes are
    /// negative: `null` in the places of those before the kept ones, then
    /// the kept ones whole (more than their paths need, which resolve on
    /// them as on the pruned ones).
    private mutating func feedTrailing(_ trailing: TrailingElements, of count: Int) throws(EasyBakeError) {
        let kept = try trailing.values()
        // The builder asks a place only of an error, which nulls do not make.
        try feedNulls(count - kept.count, at: IngredientTreeSource(.null))
        for index in kept {
            var source = IngredientTreeSource(try Ingredients(index: index))
            guard let first = try source.next() else { continue }
            try feedWhole(startingWith: first, from: &source)
        }
    }

    /// Feeds a whole value, following the builder's duplicate-key policy inside it.
    private mutating func feedWhole<Source: IngredientSource>(
        startingWith first: IngredientEvent, from source: inout Source
    ) throws(EasyBakeError) {
        var depth = 0
        var event = first
        while true {
            switch builder.accept(event) {
            case .needMore: break
            case .skipNextValue: try source.skipValue()
            case .finished(let value): result = value
            case .failed(let failure):
                throw builder.error(failure, at: source.location)
            }
            depth += event.depthChange
            if depth == 0, !isKey(event) { return }
            guard let next = try source.next() else {
                throw EasyBakeError.syntax("unexpected end of input inside a container", at: source.location)
            }
            event = next
        }
    }

    private func isKey(_ event: IngredientEvent) -> Bool {
        if case .key = event { true } else { false }
    }

    /// Ends the walk early: closes every open container in the builder.
    private mutating func closeAll<Source: IngredientSource>(at source: Source) throws(EasyBakeError) {
        while let frame = frames.popLast() {
            try feed(frame.isArray ? .endArray : .endDictionary, at: source)
        }
        stoppedEarly = true
    }
}

extension PathWalker {
    /// The value whose first event was just read, pruned to what `keeping`'s
    /// paths reach (`null`, the value skipped, when no path needs anything):
    /// a record read as a tree, ``PathMatcher/read(from:)``, and the default
    /// of ``IngredientSource/readValue(startingWith:into:keeping:)``.
    static func readPrunedValue<Source: IngredientSource>(
        startingWith first: IngredientEvent, from source: inout Source, keeping: PathMatcher
    ) throws(EasyBakeError) -> Ingredients {
        guard let state = keeping.rootState else {
            try skipRest(of: first, from: &source)
            return .null
        }
        // The node limit holds for each record, however many records stream by.
        var recordWalker = PathWalker(
            matcher: keeping, source: source, buildsTree: true,
            maximumNodes: source.limits.maximumNodes)
        return try recordWalker.readValue(startingWith: first, state: state, from: &source)
    }
}

/// The last elements of an array whose only indexes are negative
/// (`items[-1]`), for a walk that builds a tree: which elements those are is
/// known only when the array ends, and keeping every element whole until
/// then made a tree of the whole array (`easybake get 'users[-1]'` read a
/// 100 MB file as a tree, 10× the time of `users[86684]`). Each element is
/// instead skipped for later where the source can
/// (``IngredientSource/skipValueForLater(startingWith:)``: JSON's strict
/// skip, a third of the cost of reading), or else read into an index of its
/// own through the source's own road
/// (``IngredientSource/readValue(startingWith:into:)``); both check it as
/// strictly as any value. Only the last `capacity` are kept, their places
/// reused in turn: memory follows the elements the paths name, not the
/// array.
final class TrailingElements {
    /// An element kept: read, or skipped for reading at the array's end;
    /// `taken` while its index is read into again.
    private enum Kept {
        case taken
        case read(IngredientIndex)
        case later(any DeferredIngredientValue)
    }

    let capacity: Int
    private var ring: [Kept] = []
    /// Where the next element is kept: the oldest kept, once the ring is full.
    private var next = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// Skips or reads the element whose first event was just read, keeping
    /// it as one of the last.
    func keep<Source: IngredientSource>(_ first: IngredientEvent, from source: inout Source) throws(EasyBakeError) {
        let kept: Kept
        if let later = try source.skipValueForLater(startingWith: first) {
            kept = .later(later)
        } else {
            // An index this place held before is read into again, keeping its memory.
            var index = IngredientIndex()
            if next < ring.count, case .read(let earlier) = ring[next] {
                ring[next] = .taken  // so that `index` is its one reference while written
                index = earlier
            }
            try source.readValue(startingWith: first, into: &index)
            kept = .read(index)
        }
        store(kept)
    }

    /// Keeps an element the source skipped for later, as one of the last.
    func keep(later value: any DeferredIngredientValue) {
        store(.later(value))
    }

    private func store(_ kept: Kept) {
        // Until the ring is full, `next` is its end.
        if ring.count < capacity { ring.append(kept) } else { ring[next] = kept }
        next = (next + 1) % capacity
    }

    /// The kept elements, oldest first, each read into its index.
    func values() throws(EasyBakeError) -> [IngredientIndex] {
        let oldestFirst = ring.count == capacity ? Array(ring[next...] + ring[..<next]) : ring
        var values: [IngredientIndex] = []
        values.reserveCapacity(oldestFirst.count)
        for kept in oldestFirst {
            switch kept {
            case .taken:
                continue
            case .read(let index):
                values.append(index)
            case .later(let value):
                var index = IngredientIndex()
                guard try value.read(into: &index, keeping: nil) else {
                    // A source's skipped value always reads (see skipValueForLater).
                    throw EasyBakeError(.unsupported, "a skipped array element could not be read again")
                }
                values.append(index)
            }
        }
        return values
    }
}
