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
    ///     reach from `state`: resolving the paths on it gives what it gives
    ///     on the whole value. A value of up to `unprunedEntryLimit` entries
    ///     is indexed whole over JSON's structure, which is faster than
    ///     pruning it byte by byte; in a larger one, a dictionary member no
    ///     path needs is skipped unbuilt (as strictly checked as any). Array
    ///     elements all keep their places, so that an index counts as in
    ///     the full array; those no path needs are kept whole.
    mutating func indexValue(
        into index: inout IngredientIndex, expectedBytes: Int = 0, keeping matcher: PathMatcher? = nil, state: Int = 0
    ) throws(EasyBakeError) {
        index.begin(input: storage, sourceName: sourceName)
        // Compact JSON has about one entry per six bytes; room for a few more
        // is only address space until it is used.
        if expectedBytes > 0 { index.reserveCapacity(expectedBytes / 4) }
        // Appends go through the storage, checked for uniqueness once here.
        let builder = index.storageForBuilding
        skipWhitespace()
        let documentStart = position
        // An array or object is built over JSON's structure where the machine
        // has a vector pass; the byte walk below is the reference, builds the
        // rest, and builds it all again where the structural build declines.
        // A value to prune is built whole, which is faster than pruning it
        // byte by byte, up to a size where what pruning saves counts more.
        if structuralLevel > 0, position < count, base[position] | 0x20 == UInt8(ascii: "{") {
            if indexByStructure(into: builder, entryLimit: matcher == nil ? nil : Self.unprunedEntryLimit) {
                expect = .afterValue
                return
            }
            builder.restartBuilding()
            position = documentStart
        }
        let outer = containers
        var nodes = 0
        // The element count of each open container, innermost last.
        var counts: [Int] = []
        counts.reserveCapacity(32)
        var inObject = false
        // Pruning: the matcher's state of the value read next, and of each
        // open dictionary whose members are picked (-1: kept whole).
        let picking = matcher?.picking
        var valueState = matcher == nil ? -1 : state
        var containerStates: [Int] = []
        if matcher != nil { containerStates.reserveCapacity(32) }

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
                builder.openContainer(isObject ? .dictionary : .array, at: position)
                position += 1
                counts.append(0)
                containers.append(isObject)
                inObject = isObject
                skipWhitespace()
                guard position < count else { throw diagnose(from: documentStart, inside: outer) }
                if base[position] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    // An empty container is a complete value at once.
                    position += 1
                    try builder.closeContainer(elements: counts.removeLast())
                    containers.removeLast()
                    inObject = containers.last ?? false
                    break
                }
                if let picking { containerStates.append(picking.containerState(valueState, isObject: isObject)) }
                if isObject {
                    try indexKey(into: builder, documentStart: documentStart, outer: outer)
                    if let picking, !(try keepMember(builder, containerStates.last!, picking, &valueState)) {
                        skippedMember = true
                        break
                    }
                } else if let picking {
                    valueState = picking.elementState(0, of: containerStates.last!)
                }
                continue value
            case UInt8(ascii: "\""):
                try indexString(into: builder)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = position
                let isInteger = try scanNumber()
                builder.appendNumber(at: start, length: position - start, isInteger: isInteger)
            case UInt8(ascii: "t"):
                builder.appendLiteral(.true, at: position)
                try literal("true")
            case UInt8(ascii: "f"):
                builder.appendLiteral(.false, at: position)
                try literal("false")
            case UInt8(ascii: "n"):
                builder.appendLiteral(.null, at: position)
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
                        try indexKey(into: builder, documentStart: documentStart, outer: outer)
                        if let picking, !(try keepMember(builder, containerStates.last!, picking, &valueState)) {
                            completed = false
                            continue
                        }
                    } else if let picking {
                        valueState = picking.elementState(counts[counts.count - 1], of: containerStates.last!)
                    }
                    continue value
                }
                guard byte == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw diagnose(from: documentStart, inside: outer)
                }
                position += 1
                try builder.closeContainer(elements: counts.removeLast())
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
        _ builder: IngredientIndex.Storage, _ state: Int, _ picking: PathMatcher.Picking, _ valueState: inout Int
    ) throws(EasyBakeError) -> Bool {
        guard state >= 0 else {
            valueState = -1
            return true
        }
        if let target = picking.memberState(builder.lastStringUTF8(), in: state) {
            valueState = target
            return true
        }
        expect = .value
        if try skipQuickly(insideContainer: false) {
            builder.removeLastString()
            return false
        }
        valueState = -1
        return true
    }

    /// Reads `"key":` into the index; the value follows.
    @inline(__always)
    private mutating func indexKey(
        into index: IngredientIndex.Storage, documentStart: Int, outer: [Bool]
    ) throws(EasyBakeError) {
        skipWhitespace()
        guard position < count, base[position] == UInt8(ascii: "\"") else {
            throw diagnose(from: documentStart, inside: outer)
        }
        try indexString(into: index)
        skipWhitespace()
        guard position < count, base[position] == UInt8(ascii: ":") else {
            throw diagnose(from: documentStart, inside: outer)
        }
        position += 1
    }

    /// Reads the string at `position` (its opening quote) into the index: a
    /// byte range of the input, or decoded bytes in the index's arena when
    /// it has escapes.
    @inline(__always)
    private mutating func indexString(into index: IngredientIndex.Storage) throws(EasyBakeError) {
        let open = position
        let start = open + 1
        position = firstSpecialStringByte(from: start)
        if position < count, base[position] == UInt8(ascii: "\"") {
            let length = position - start
            try checkStringLength(length, at: open)
            position += 1
            try index.appendString(at: open, length: length)
            return
        }
        if try scanSlowString(open: open, start: start, decoding: true) {
            try index.appendString(decoded: scratch, at: open)
        } else {
            try index.appendString(at: open, length: position - 1 - start)
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
