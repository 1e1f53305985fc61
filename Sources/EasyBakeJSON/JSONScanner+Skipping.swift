import CEasyBakeScanning
import EasyBake

/// Skipping without events: what streaming spends most of its time on.
///
/// Skipping a value through `next(materializing: false)` pays for an event
/// per token. A container is skipped over the bitmaps of the structural
/// stage (`easybake_skip_run` in `CEasyBakeScanning`), which checks its
/// grammar token by token without reading whitespace, and passes over a
/// string with nothing to check in it (plain ASCII, no escape) from quote
/// to quote; every number, literal and other string is checked here, with
/// the functions the event path uses, so skipped input is exactly as
/// strictly checked. On anything out of the ordinary — a
/// grammar error, nesting near the depth limit — they put the position back
/// and let the event path redo the work, which says precisely what is wrong.
extension JSONScanner {
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
        var grammar: Int32
        // Bit d of `objects`: the container at depth d is an object.
        var objects: UInt64 = 0
        var depth: Int32 = 0
        if insideContainer {
            guard let isObject = containers.last else { return false }
            depth = 1
            if isObject { objects |= 2 }
            switch expect {
            case .firstKeyOrEnd: grammar = Int32(EASYBAKE_SKIP_FIRST_KEY_OR_END)
            case .firstValueOrEnd: grammar = Int32(EASYBAKE_SKIP_FIRST_VALUE_OR_END)
            case .key: grammar = Int32(EASYBAKE_SKIP_KEY)
            case .value: grammar = Int32(EASYBAKE_SKIP_VALUE)
            case .afterValue: grammar = Int32(EASYBAKE_SKIP_AFTER_VALUE)
            case .end: return false
            }
        } else {
            guard expect == .value, position < count else { return false }
            grammar = Int32(EASYBAKE_SKIP_VALUE)
            let byte = base[position]
            if byte != UInt8(ascii: "{"), byte != UInt8(ascii: "[") {
                // A scalar alone: no grammar around it to check.
                guard try skipScalar() else { return restore(savedPosition, savedExpect) }
                eventStart = savedPosition
                expect = .afterValue
                return true
            }
        }
        let depthBudget = Int32(min(62, limits.maximumDepth - containers.count + Int(depth)))

        var skip = easybake_skip_context()
        easybake_skip_begin(
            &skip, base, count, easybake_structural_kernel(scanning == .word ? 1 : 0), position, grammar, depth,
            depthBudget, objects, limits.maximumStringBytes)
        while true {
            let step = easybake_skip_run(&skip)
            position = Int(skip.position)
            switch Int(step) {
            case EASYBAKE_SKIP_DONE:
                if insideContainer { containers.removeLast() }
                eventStart = savedPosition
                expect = .afterValue
                return true
            case EASYBAKE_SKIP_NEEDS_SCALAR, EASYBAKE_SKIP_NEEDS_STRING:
                guard try skipScalar() else { return restore(savedPosition, savedExpect) }
                skip.grammar = Int32(EASYBAKE_SKIP_AFTER_VALUE)
            case EASYBAKE_SKIP_NEEDS_KEY:
                guard try skipKey() else { return restore(savedPosition, savedExpect) }
                skip.grammar = Int32(EASYBAKE_SKIP_VALUE)
            default:
                return restore(savedPosition, savedExpect)
            }
            skip.position = Int(position)
        }
    }

    /// Steps over the string, number or literal at `position` with the
    /// reader's own checks; `false`, with a place the event path must look
    /// at, when it is none of them or something continues it ("12x",
    /// "truex"), which the structural stage does not see as a new token.
    private mutating func skipScalar() throws(EasyBakeError) -> Bool {
        switch base[position] {
        case UInt8(ascii: "\""): _ = try string(materializing: false)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try number(materializing: false)
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: return false
        }
        return endsScalar(at: position)
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
        let start = position
        guard try skipScalar() else {
            position = start
            return false
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

extension JSONScanner {
    /// Whether the byte at `offset` may follow a number or a literal: the
    /// end, whitespace, or the first byte of a token. Anything else would
    /// continue the scalar, where the structural stage sees no new token.
    @inline(__always)
    func endsScalar(at offset: Int) -> Bool {
        guard offset < count else { return true }
        switch base[offset] {
        case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "\""),
             UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"):
            return true
        default:
            return false
        }
    }
}
