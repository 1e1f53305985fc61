import CEasyBakeScanning
import EasyBake

/// The structural positions of the input, a run of 64-byte blocks at a time,
/// from `easybake_json_structurals` (`CEasyBakeScanning`): every bracket,
/// colon and comma outside strings, every quote, and the first byte of
/// every number or literal. What lies between two positions is whitespace
/// or a string's text, so a reader that checks each position (and the
/// grammar of scalars and of strings the pass flags) has checked every
/// byte, and steps over plain strings and whitespace without reading them.
struct JSONStructuralCursor {
    private let base: UnsafePointer<UInt8>
    private let count: Int
    private let level: Int32
    private let buffer: UnsafeMutablePointer<UInt32>
    private let capacityBlocks: Int
    private var state = easybake_json_structural_state()
    /// Where the positions in `buffer` count from, and where the next run
    /// of blocks starts.
    private var chunkStart = 0
    private var nextStart: Int
    private var index = 0
    private var found = 0
    /// Blocks per run: one at first, so that a small value costs one block,
    /// doubling up to the buffer's room for a long one.
    private var blocks = 1

    /// Positions from `start` (outside any string, where a value or a
    /// separator may begin) up to `count`; `buffer` holds `64 * capacityBlocks`.
    init(
        base: UnsafePointer<UInt8>, from start: Int, count: Int, level: Int32,
        buffer: UnsafeMutablePointer<UInt32>, capacityBlocks: Int
    ) {
        self.base = base
        self.count = count
        self.level = level
        self.buffer = buffer
        self.capacityBlocks = capacityBlocks
        nextStart = start
    }

    /// The next structural position, and for a closing quote whether its
    /// string needs a closer look (escapes, control characters, non-ASCII
    /// text); `nil` at the end of the input.
    @inline(__always)
    mutating func next() -> (offset: Int, special: Bool)? {
        if index == found {
            guard refill() else { return nil }
        }
        let raw = buffer[index]
        index &+= 1
        return (chunkStart &+ Int(raw & ~EASYBAKE_JSON_STRING_SPECIAL), raw & EASYBAKE_JSON_STRING_SPECIAL != 0)
    }

    private mutating func refill() -> Bool {
        while index == found {
            guard nextStart < count else { return false }
            chunkStart = nextStart
            found = easybake_json_structurals(base, chunkStart, count, blocks, level, &state, buffer)
            index = 0
            nextStart = min(chunkStart + 64 * blocks, count)
            blocks = min(blocks * 2, capacityBlocks)
        }
        return true
    }
}

extension JSONByteScanning {
    /// The structural pass this way of scanning runs: the best the machine
    /// has for ``vector`` (unless `EASYBAKE_SCALAR` forces the scalar one),
    /// the byte-by-byte reference for ``word``.
    var structuralLevel: Int32 {
        self == .vector ? easybake_json_structural_level() : 0
    }

    /// How a scanner scans unless told otherwise: ``word`` when the
    /// environment variable `EASYBAKE_SCALAR` is set (to anything but `0`),
    /// so that a whole program, or test run, takes the scalar paths.
    static let preferred: JSONByteScanning = easybake_json_structural_level() == 0 ? .word : .vector
}

extension JSONScanner {
    /// Blocks of 64 bytes the structural pass reads into a buffer at most.
    private static let structuralBlocks = 16

    /// ``skipQuickly(insideContainer:)`` over structural positions: the
    /// same states, the same checks of every string, number and literal
    /// (by the same functions), the same depth budget, so the same input is
    /// accepted and the same errors are thrown; strings without escapes or
    /// non-ASCII text and whitespace are stepped over by the positions.
    ///
    /// - Returns: where the value ends, or `nil` (with `position` anywhere)
    ///   when the byte walk must redo it: a grammar error, the budget
    ///   reached, or the input ended.
    mutating func skipByStructure(
        state: SkipState, depth: Int, objects: UInt64, depthBudget: Int
    ) throws(EasyBakeError) -> Int? {
        let level = scanning.structuralLevel
        let outcome: Result<Int?, EasyBakeError> = withUnsafeTemporaryAllocation(
            of: UInt32.self, capacity: 64 * Self.structuralBlocks
        ) { buffer in
            var cursor = JSONStructuralCursor(
                base: base, from: position, count: count, level: level, buffer: buffer.baseAddress!,
                capacityBlocks: Self.structuralBlocks)
            do throws(EasyBakeError) {
                return .success(
                    try walkStructure(&cursor, state: state, depth: depth, objects: objects, depthBudget: depthBudget))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    private mutating func walkStructure(
        _ cursor: inout JSONStructuralCursor, state initial: SkipState, depth startDepth: Int, objects startObjects: UInt64,
        depthBudget: Int
    ) throws(EasyBakeError) -> Int? {
        var state = initial
        var depth = startDepth
        // Bit d: the container at depth d is an object.
        var objects = startObjects
        var end = position
        while state != .afterValue || depth > 0 {
            guard let (offset, _) = cursor.next() else { return nil }
            let byte = base[offset]
            end = offset + 1
            switch state {
            case .value, .firstValueOrEnd:
                switch byte {
                case UInt8(ascii: "]") where state == .firstValueOrEnd:
                    depth -= 1
                    state = .afterValue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard depth < depthBudget else { return nil }
                    depth += 1
                    if byte == UInt8(ascii: "{") {
                        objects |= 1 << UInt64(depth)
                        state = .firstKeyOrEnd
                    } else {
                        objects &= ~(1 << UInt64(depth))
                        state = .firstValueOrEnd
                    }
                case UInt8(ascii: "\""):
                    guard let close = try skipString(opening: offset, &cursor) else { return nil }
                    end = close
                    state = .afterValue
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    position = offset
                    _ = try scanNumber()
                    guard endsScalar() else { return nil }
                    state = .afterValue
                case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                    position = offset
                    switch byte {
                    case UInt8(ascii: "t"): try literal("true")
                    case UInt8(ascii: "f"): try literal("false")
                    default: try literal("null")
                    }
                    guard endsScalar() else { return nil }
                    state = .afterValue
                default:
                    return nil
                }
            case .firstKeyOrEnd where byte == UInt8(ascii: "}"):
                depth -= 1
                state = .afterValue
            case .firstKeyOrEnd, .key:
                guard byte == UInt8(ascii: "\""), let close = try skipString(opening: offset, &cursor) else {
                    return nil
                }
                end = close
                state = .colon
            case .colon:
                guard byte == UInt8(ascii: ":") else { return nil }
                state = .value
            case .afterValue:
                let isObject = objects & (1 << UInt64(depth)) != 0
                if byte == UInt8(ascii: ",") {
                    state = isObject ? .key : .value
                } else if byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    depth -= 1
                } else {
                    return nil
                }
            }
        }
        return end
    }

    /// Checks the string whose opening quote is at `open` (its closing quote
    /// is the cursor's next position): its length, and when the pass flags
    /// it, everything else, as ``string(materializing:)`` does. Returns
    /// where it ends; `nil` when it does not end.
    @inline(__always)
    private mutating func skipString(opening open: Int, _ cursor: inout JSONStructuralCursor) throws(EasyBakeError)
        -> Int?
    {
        guard let (close, special) = cursor.next() else { return nil }
        assert(base[close] == UInt8(ascii: "\""), "a string closed by something other than a quote")
        if special {
            position = open + 1
            _ = try scanSlowString(open: open, start: open + 1, decoding: false)
            // Escapes step over the bytes the pass took as escaped.
            guard position == close + 1 else { return nil }
        } else {
            try checkStringLength(close - open - 1, at: open)
        }
        return close + 1
    }

    /// Whether the number or literal just read ends where the pass says a
    /// run of scalar bytes ends: at the end of the input, whitespace, a
    /// quote or one of `{}[]:,`. Otherwise bytes follow it that no position
    /// points at, and the byte walk says what is wrong with them.
    @inline(__always)
    private func endsScalar() -> Bool {
        guard position < count else { return true }
        switch base[position] {
        case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: "\""), UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "{"),
            UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"):
            return true
        default:
            return false
        }
    }
}

/// The structural pass over a whole input, for tests that hold every level
/// of it to one reference.
package enum JSONStructuralPass {
    /// One structural position: an offset in the input, and for a closing
    /// quote whether its string needs a closer look.
    package struct Position: Equatable, Sendable, CustomStringConvertible {
        package var offset: Int
        package var special: Bool

        package init(offset: Int, special: Bool) {
            self.offset = offset
            self.special = special
        }

        package var description: String { special ? "\(offset)!" : "\(offset)" }
    }

    /// The levels this machine runs: 0 (byte by byte) up to its best.
    package static var machineLevels: [Int32] { Array(0...easybake_json_machine_level()) }

    /// The level chosen on a machine whose best is `machine`, with
    /// `EASYBAKE_SCALAR` set to `forced` (`nil`: unset).
    package static func chosenLevel(machine: Int32, forced: String?) -> Int32 {
        guard let forced else { return easybake_json_choose_level(machine, nil) }
        return forced.withCString { easybake_json_choose_level(machine, $0) }
    }

    /// Every structural position of `bytes`, read `blocksPerCall` blocks of
    /// 64 bytes per call of the pass at `level`.
    package static func positions(of bytes: [UInt8], level: Int32, blocksPerCall: Int) -> [Position] {
        var state = easybake_json_structural_state()
        var buffer = [UInt32](repeating: 0, count: 64 * blocksPerCall)
        var positions: [Position] = []
        bytes.withUnsafeBufferPointer { input in
            guard let base = input.baseAddress else { return }
            var start = 0
            while start < input.count {
                let found = buffer.withUnsafeMutableBufferPointer { out in
                    easybake_json_structurals(base, start, input.count, blocksPerCall, level, &state, out.baseAddress!)
                }
                for raw in buffer[0..<found] {
                    positions.append(
                        Position(
                            offset: start + Int(raw & ~EASYBAKE_JSON_STRING_SPECIAL),
                            special: raw & EASYBAKE_JSON_STRING_SPECIAL != 0))
                }
                start += 64 * blocksPerCall
            }
        }
        return positions
    }
}
