import CEasyBakeScanning
import EasyBake

/// Skipping without events: what streaming spends most of its time on.
///
/// Skipping a value through `next(materializing: false)` pays for an event
/// per token. These loops walk the grammar directly over the bytes, with the
/// string, number and literal checks the event path uses, so skipped input
/// is exactly as strictly checked. On anything out of the ordinary — a
/// grammar error, nesting near the depth limit — they put the position back
/// and let the event path redo the work, which says precisely what is wrong.
extension JSONScanner {
    enum SkipState {
        case value, firstValueOrEnd, firstKeyOrEnd, key, afterValue

        /// Where the event path's `expect` leaves a skip inside a container;
        /// `nil` after the top-level value.
        @inline(__always)
        init?(inside expect: Expect) {
            switch expect {
            case .firstKeyOrEnd: self = .firstKeyOrEnd
            case .firstValueOrEnd: self = .firstValueOrEnd
            case .key: self = .key
            case .value: self = .value
            case .afterValue: self = .afterValue
            case .end: return nil
            }
        }

        /// The state as the C skip takes it (`easybake_json_skip_grammar`).
        var skipExpect: Int32 {
            switch self {
            case .value: Int32(EASYBAKE_SKIP_EXPECT_VALUE)
            case .firstValueOrEnd: Int32(EASYBAKE_SKIP_EXPECT_FIRST_VALUE_OR_END)
            case .firstKeyOrEnd: Int32(EASYBAKE_SKIP_EXPECT_FIRST_KEY_OR_END)
            case .key: Int32(EASYBAKE_SKIP_EXPECT_KEY)
            case .afterValue: Int32(EASYBAKE_SKIP_EXPECT_AFTER_VALUE)
            }
        }
    }

    /// Skips the value at the reading position (`insideContainer == false`,
    /// where the event path expects a value), or the rest of the innermost
    /// open container, up to and including its end.
    ///
    /// - Returns: `false`, with nothing consumed, when the event path must
    ///   do it instead.
    mutating func skipQuickly(insideContainer: Bool) throws(EasyBakeError) -> Bool {
        // A byte range's array and its bounds are kept by the event path.
        if elementRange != nil, containers.count <= 1 { return false }
        skipWhitespace()
        let savedPosition = position
        let savedExpect = expect
        var state: SkipState
        // Bit d of `objects`: the container at depth d is an object.
        var objects: UInt64 = 0
        var depth = 0
        if insideContainer {
            guard let isObject = containers.last else { return false }
            depth = 1
            if isObject { objects |= 2 }
            guard let inside = SkipState(inside: expect) else { return false }
            state = inside
        } else {
            guard expect == .value else { return false }
            state = .value
        }
        let depthBudget = skipDepthBudget(depth: depth)
        // Inside an array or object, the rest of the value goes over its
        // structure when the machine has a vector pass (the scalar pass is
        // slower than this walk); scalars and what that skip declines are
        // walked.
        var overStructure = structuralLevel > 0

        while true {
            if state == .afterValue, depth == 0 { break }
            skipWhitespace()
            guard position < count else { return restore(savedPosition, savedExpect) }
            if overStructure, depth > 0 {
                overStructure = false
                let resume = position
                if let end = try skipByStructure(state: state, depth: depth, objects: objects, depthBudget: depthBudget)
                {
                    position = end
                    depth = 0
                    state = .afterValue
                    continue
                }
                // Declined: the walk goes on from here and says what is wrong.
                position = resume
            }
            let byte = base[position]
            switch state {
            case .firstValueOrEnd where byte == UInt8(ascii: "]"):
                position += 1
                depth -= 1
                state = .afterValue
            case .value, .firstValueOrEnd:
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard depth < depthBudget else { return restore(savedPosition, savedExpect) }
                    depth += 1
                    position += 1
                    if byte == UInt8(ascii: "{") {
                        objects |= 1 << UInt64(depth)
                        state = .firstKeyOrEnd
                    } else {
                        objects &= ~(1 << UInt64(depth))
                        state = .firstValueOrEnd
                    }
                case UInt8(ascii: "\""):
                    _ = try string(materializing: false)
                    state = .afterValue
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    _ = try number(materializing: false)
                    state = .afterValue
                case UInt8(ascii: "t"):
                    try literal("true")
                    state = .afterValue
                case UInt8(ascii: "f"):
                    try literal("false")
                    state = .afterValue
                case UInt8(ascii: "n"):
                    try literal("null")
                    state = .afterValue
                default:
                    return restore(savedPosition, savedExpect)
                }
            case .firstKeyOrEnd where byte == UInt8(ascii: "}"):
                position += 1
                depth -= 1
                state = .afterValue
            case .firstKeyOrEnd, .key:
                guard byte == UInt8(ascii: "\""), try skipKey() else { return restore(savedPosition, savedExpect) }
                state = .value
            case .afterValue:
                let isObject = objects & (1 << UInt64(depth)) != 0
                if byte == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                    if isObject {
                        guard position < count, base[position] == UInt8(ascii: "\""), try skipKey() else {
                            return restore(savedPosition, savedExpect)
                        }
                    } else if position >= count || base[position] == UInt8(ascii: "]") {
                        return restore(savedPosition, savedExpect)
                    }
                    state = .value
                } else if byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    position += 1
                    depth -= 1
                } else {
                    return restore(savedPosition, savedExpect)
                }
            }
        }
        if insideContainer { containers.removeLast() }
        eventStart = savedPosition
        expect = .afterValue
        return true
    }

    /// ``skipQuickly(insideContainer:)`` over JSON's structure
    /// (``skipByStructure(state:depth:objects:depthBudget:)``), for an array
    /// or object: `true` with it skipped, or `false` with nothing consumed
    /// (the byte walk's turn). The byte walk stays the reference: tests
    /// compare the two at every level of the structural pass.
    @inline(never)
    mutating func skipContainerByStructure(insideContainer: Bool) throws(EasyBakeError) -> Bool {
        if elementRange != nil, containers.count <= 1 { return false }
        skipWhitespace()
        let savedPosition = position
        let savedExpect = expect
        var start = (state: SkipState.value, depth: 0, objects: UInt64(0))
        if insideContainer {
            guard let isObject = containers.last, let state = SkipState(inside: expect) else { return false }
            start = (state, 1, isObject ? 2 : 0)
        } else {
            guard expect == .value, position < count,
                base[position] == UInt8(ascii: "{") || base[position] == UInt8(ascii: "[")
            else { return false }
        }
        let depthBudget = skipDepthBudget(depth: start.depth)
        guard
            let end = try skipByStructure(
                state: start.state, depth: start.depth, objects: start.objects, depthBudget: depthBudget)
        else { return restore(savedPosition, savedExpect) }
        position = end
        if insideContainer { containers.removeLast() }
        eventStart = savedPosition
        expect = .afterValue
        return true
    }

    enum QuickKey {
        /// A wanted key was read, with its colon: the value is next.
        case wanted(Int)
        /// Another key was read, with its colon: its value is next.
        case unwanted
        /// The object ended (its end consumed).
        case end
        /// Nothing was consumed: the event path must read on.
        case slow
    }

    /// Inside an object, reads the next key if it is plain ASCII, and tells
    /// whether it is wanted, without building a `String`.
    mutating func nextKeyQuickly(_ wanted: WantedKeys) throws(EasyBakeError) -> QuickKey {
        guard wanted.isASCII, containers.last == true else { return .slow }
        while true {
            let step = try nextKeyQuicklyOnce(wanted)
            // An unwanted scalar is stepped over here and the search goes
            // on: most entries of a record are scalars nobody asked for.
            guard case .unwanted = step, try skipScalarQuickly() else { return step }
        }
    }

    /// Steps over a string, number or literal where a value is expected;
    /// `false`, with nothing consumed, for anything else.
    private mutating func skipScalarQuickly() throws(EasyBakeError) -> Bool {
        skipWhitespace()
        guard position < count else { return false }
        switch base[position] {
        case UInt8(ascii: "\""): _ = try string(materializing: false)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try number(materializing: false)
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: return false
        }
        expect = .afterValue
        return true
    }

    private mutating func nextKeyQuicklyOnce(_ wanted: WantedKeys) throws(EasyBakeError) -> QuickKey {
        skipWhitespace()
        let savedPosition = position
        let savedExpect = expect
        switch expect {
        case .firstKeyOrEnd, .afterValue:
            guard position < count else { return .slow }
            if base[position] == UInt8(ascii: "}") {
                eventStart = position
                _ = endContainer(.endDictionary)
                return .end
            }
            if expect == .afterValue {
                guard base[position] == UInt8(ascii: ",") else { return .slow }
                position += 1
                skipWhitespace()
            }
        case .key:
            break
        case .value, .firstValueOrEnd, .end:
            return .slow
        }
        guard position < count, base[position] == UInt8(ascii: "\"") else {
            return restoring(savedPosition, savedExpect, .slow)
        }
        eventStart = position
        let start = position + 1
        let end = firstSpecialStringByte(from: start)
        guard end < count, base[end] == UInt8(ascii: "\"") else { return restoring(savedPosition, savedExpect, .slow) }
        guard end - start <= limits.maximumStringBytes else { return restoring(savedPosition, savedExpect, .slow) }
        position = end + 1
        skipWhitespace()
        guard position < count, base[position] == UInt8(ascii: ":") else {
            return restoring(savedPosition, savedExpect, .slow)
        }
        position += 1
        expect = .value
        if let index = wanted.index(ofASCII: UnsafeRawBufferPointer(start: base + start, count: end - start)) {
            return .wanted(index)
        }
        return .unwanted
    }

    private mutating func restoring(_ savedPosition: Int, _ savedExpect: Expect, _ result: QuickKey) -> QuickKey {
        position = savedPosition
        expect = savedExpect
        return result
    }

    /// Steps over `"key":`; `false` when the colon is missing.
    private mutating func skipKey() throws(EasyBakeError) -> Bool {
        _ = try string(materializing: false)
        skipWhitespace()
        guard position < count, base[position] == UInt8(ascii: ":") else { return false }
        position += 1
        return true
    }

    /// The depth a skip that starts at `depth` of its own count (1 inside
    /// the innermost open container, 0 before a value) may reach: the
    /// limit's, less the containers open around it, and at most 62, the
    /// bits of a skip's stack of container kinds.
    func skipDepthBudget(depth: Int) -> Int {
        min(62, limits.maximumDepth - containers.count + depth)
    }

    private mutating func restore(_ savedPosition: Int, _ savedExpect: Expect) -> Bool {
        position = savedPosition
        expect = savedExpect
        return false
    }

    /// Skips the value at the reading position through the events (not
    /// materialized), which word any error exactly: the way on when
    /// ``skipQuickly(insideContainer:)`` declines.
    mutating func skipValueByEvents() throws(EasyBakeError) {
        var depth = 0
        repeat {
            guard let event = try next(materializing: false) else { return }
            switch event {
            case .beginArray, .beginDictionary: depth += 1
            case .endArray, .endDictionary: depth -= 1
            case .key, .scalar: break
            }
        } while depth > 0
    }

    /// Skips the rest of the innermost open container, its end included,
    /// through the events.
    mutating func skipRestOfContainerByEvents() throws(EasyBakeError) {
        var depth = 1
        repeat {
            guard let event = try next(materializing: false) else {
                throw syntax("expected the end of the container, found \(endName)", at: position)
            }
            switch event {
            case .beginArray, .beginDictionary: depth += 1
            case .endArray, .endDictionary: depth -= 1
            case .key, .scalar: break
            }
        } while depth > 0
    }
}
