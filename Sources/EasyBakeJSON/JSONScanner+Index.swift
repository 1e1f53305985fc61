import EasyBake

/// Building an ``IngredientIndex`` straight from the bytes: the fast core's
/// JSON reader.
///
/// The loop walks the grammar once and writes one entry per value, with no
/// event, no `String` and no allocation per value. Strings, numbers and
/// literals are checked by the same functions the event path uses, so the
/// index accepts exactly what the event source accepts and reports the same
/// errors for them. A structural error (a missing comma, a stray bracket) is
/// rare and its message depends on the event path's state, so the loop does
/// not word it itself: it reads the input again through the event path,
/// which says precisely what is wrong.
extension JSONScanner {
    /// Reads the value at the reading position, and then the end of the
    /// input, into `index`.
    mutating func buildIndex(into index: inout IngredientIndex) throws(EasyBakeError) {
        let documentStart = position
        try indexValue(into: &index, expectedBytes: count - position)
        skipWhitespace()
        guard position >= count else { throw diagnose(from: documentStart, inside: []) }
        expect = .end
    }

    /// Reads the value at the reading position into `index` (replacing what
    /// it held), inside whatever containers are open around it: a whole
    /// document, or one streamed record. The value counts against the node
    /// limit as a tree of it would.
    ///
    /// - Parameters:
    ///   - expectedBytes: about how long the value is, when known, to make
    ///     room for its entries at once.
    ///   - keeping: when given, the index may hold only what its paths
    ///     reach from `state` (the picking's root, or a state it gave):
    ///     resolving the paths on it gives what it gives on the whole
    ///     value. A value of up to `unprunedEntryLimit` entries is indexed
    ///     whole over JSON's structure, which is faster than pruning it
    ///     (every value is checked either way, and skipping one costs more
    ///     than writing its entry); in a larger one, a dictionary member no
    ///     path needs is skipped unbuilt (as strictly checked as any), over
    ///     the structure or byte by byte, which prune alike, entry for
    ///     entry. Array elements all keep their places, so that an index
    ///     counts as in the full array; those no path needs are kept whole.
    mutating func indexValue(
        into index: inout IngredientIndex, expectedBytes: Int = 0, keeping picking: PathMatcher.Picking? = nil,
        state: PathMatcher.Picking.State = .whole
    ) throws(EasyBakeError) {
        skipWhitespace()
        let documentStart = position
        // Compact JSON has about one entry per six bytes; room for a few more
        // is only address space until it is used.
        let entries = expectedBytes / 4
        // An array or object is built over JSON's structure where the machine
        // has a vector pass; the byte walk below is the reference, builds the
        // rest, and builds it all again where the structural build declines.
        // A value to prune is built whole up to a size where what pruning
        // saves (memory, and the bake's lookups) counts more, then pruned
        // over the same structure.
        // The structural build writes the entries in C, in the index's own
        // layout, which is the core's and no format's: it goes through the
        // storage (`package`), not the writer.
        if structuralLevel > 0, position < count, base[position] | 0x20 == UInt8(ascii: "{") {
            index.begin(input: storage, sourceName: sourceName)
            if entries > 0 { index.reserveCapacity(entries) }
            var build = StructuralBuild.tooLarge
            if picking == nil || buildsSmallValuesWhole {
                build = indexByStructure(
                    into: index.storageForBuilding, entryLimit: picking == nil ? .max : Self.unprunedEntryLimit)
            }
            if build == .tooLarge, let picking {
                position = documentStart
                index.begin(input: storage, sourceName: sourceName)
                build = indexByStructure(into: index.storageForBuilding, keeping: picking, state: state)
            }
            if build == .built {
                expect = .afterValue
                return
            }
            position = documentStart
        }
        // The byte walk writes as any format does, through the unchecked
        // writer (which empties the index again): the walk checks what it
        // writes.
        let writer = index.beginUncheckedWriting(input: storage, sourceName: sourceName)
        if entries > 0 { writer.reserve(entries: entries) }
        let outer = containers
        var nodes = 0
        // The element count of each open container, innermost last.
        var counts: [Int] = []
        counts.reserveCapacity(32)
        var inObject = false
        // Pruning: the matcher's state of the value read next, and of each
        // open dictionary whose members are picked (-1: kept whole).
        var valueState = picking == nil ? .whole : state
        var containerStates: [PathMatcher.Picking.State] = []
        if picking != nil { containerStates.reserveCapacity(32) }

        // Each pass reads one value (with, inside an object, the key before
        // it), then the separators and container ends that follow it.
        value: while true {
            skipWhitespace()
            guard position < count else { throw diagnose(from: documentStart, inside: outer) }
            var skippedMember = false
            nodes += 1
            if nodes > limits.maximumNodes {
                throw EasyBakeError.limit(.maximumNodes, limits.maximumNodes, at: location(of: position))
            }
            switch base[position] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard containers.count < limits.maximumDepth else {
                    throw EasyBakeError.limit(.maximumDepth, limits.maximumDepth, at: location(of: position))
                }
                let isObject = base[position] == UInt8(ascii: "{")
                if isObject { writer.beginDictionary(at: position) } else { writer.beginArray(at: position) }
                position += 1
                counts.append(0)
                containers.append(isObject)
                inObject = isObject
                skipWhitespace()
                guard position < count else { throw diagnose(from: documentStart, inside: outer) }
                if base[position] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    // An empty container is a complete value at once.
                    position += 1
                    try writer.endContainer(elements: counts.removeLast())
                    containers.removeLast()
                    inObject = containers.last ?? false
                    break
                }
                if let picking {
                    containerStates.append(picking.state(ofContainerIn: valueState, isDictionary: isObject))
                }
                if isObject {
                    try indexKey(into: writer, documentStart: documentStart, outer: outer)
                    if let picking, !(try keepMember(writer, containerStates.last!, picking, &valueState)) {
                        skippedMember = true
                        break
                    }
                } else if let picking {
                    valueState = picking.state(ofElement: 0, ofArrayIn: containerStates.last!)
                }
                continue value
            case UInt8(ascii: "\""):
                try indexString(into: writer)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = position
                let isInteger = try scanNumber()
                writer.number(literalAt: start, count: position - start, isInteger: isInteger)
            case UInt8(ascii: "t"):
                writer.bool(true, at: position)
                try literal("true")
            case UInt8(ascii: "f"):
                writer.bool(false, at: position)
                try literal("false")
            case UInt8(ascii: "n"):
                writer.null(at: position)
                try literal("null")
            default:
                throw diagnose(from: documentStart, inside: outer)
            }

            // A value is complete: count it, then read a comma and go on to
            // the next element, or close as many containers as end here
            // (each a complete value of its parent).
            // (A member left out is no value of its dictionary.)
            var completed = !skippedMember
            while true {
                guard !counts.isEmpty else { break value }
                if completed { counts[counts.count - 1] += 1 }
                completed = true
                skipWhitespace()
                guard position < count else { throw diagnose(from: documentStart, inside: outer) }
                let byte = base[position]
                if byte == UInt8(ascii: ",") {
                    position += 1
                    if inObject {
                        try indexKey(into: writer, documentStart: documentStart, outer: outer)
                        if let picking, !(try keepMember(writer, containerStates.last!, picking, &valueState)) {
                            completed = false
                            continue
                        }
                    } else if let picking {
                        valueState = picking.state(
                            ofElement: counts[counts.count - 1], ofArrayIn: containerStates.last!)
                    }
                    continue value
                }
                guard byte == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw diagnose(from: documentStart, inside: outer)
                }
                position += 1
                try writer.endContainer(elements: counts.removeLast())
                containers.removeLast()
                if picking != nil { containerStates.removeLast() }
                inObject = containers.last ?? false
            }
        }
        expect = .afterValue
    }

    /// After a key is indexed in a dictionary picked in `state`: whether its
    /// member is kept, with the state its value is read in. A member no path
    /// needs is skipped and its key removed; one the quick skip declines (it
    /// is malformed, or deeper than it goes) is indexed whole instead, so
    /// that the error, if any, is worded as always.
    @inline(__always)
    private mutating func keepMember(
        _ writer: IngredientIndex.UncheckedWriter, _ state: PathMatcher.Picking.State, _ picking: PathMatcher.Picking,
        _ valueState: inout PathMatcher.Picking.State
    ) throws(EasyBakeError) -> Bool {
        if let target = picking.state(ofMember: writer.lastString, ofDictionaryIn: state) {
            valueState = target
            return true
        }
        expect = .value
        if try skipQuickly(insideContainer: false) {
            writer.removeLastString()
            return false
        }
        valueState = .whole
        return true
    }

    /// Reads `"key":` into the index; the value follows.
    @inline(__always)
    private mutating func indexKey(
        into writer: IngredientIndex.UncheckedWriter, documentStart: Int, outer: [Bool]
    ) throws(EasyBakeError) {
        skipWhitespace()
        guard position < count, base[position] == UInt8(ascii: "\"") else {
            throw diagnose(from: documentStart, inside: outer)
        }
        try indexString(into: writer)
        skipWhitespace()
        guard position < count, base[position] == UInt8(ascii: ":") else {
            throw diagnose(from: documentStart, inside: outer)
        }
        position += 1
    }

    /// Reads the string at `position` (its opening quote) into the index: a
    /// byte range of the input, kept escaped when it has escapes.
    @inline(__always)
    private mutating func indexString(into writer: IngredientIndex.UncheckedWriter) throws(EasyBakeError) {
        let open = position
        let start = open + 1
        position = firstSpecialStringByte(from: start)
        if position < count, base[position] == UInt8(ascii: "\"") {
            let length = position - start
            try checkStringLength(length, at: open)
            position += 1
            try writer.string(bytesAfterQuoteAt: open, count: length)
            return
        }
        if try scanSlowString(open: open, start: start) {
            try writer.string(escapedAfterQuoteAt: open, count: position - 1 - start)
        } else {
            try writer.string(bytesAfterQuoteAt: open, count: position - 1 - start)
        }
    }

    /// The error the event path reports for this input, read again from
    /// `start` inside the containers `outer`: the exact message and position
    /// for a structural error the index loop only noticed.
    private func diagnose(from start: Int, inside outer: [Bool]) -> EasyBakeError {
        var again = self
        again.position = start
        again.eventStart = start
        again.expect = .value
        again.containers = outer
        do {
            while try again.next(materializing: false) != nil {}
        } catch {
            return error
        }
        // The event path found nothing wrong, which the loop's checks rule
        // out; report where the loop stopped rather than nothing.
        return EasyBakeError.syntax("unexpected input", at: location(of: position))
    }
}
