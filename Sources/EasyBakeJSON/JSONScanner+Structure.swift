import CEasyBakeScanning
import EasyBake

// The JSON structural pass (issue 30): `easybake_json_structurals` turns 64
// bytes at a time into the positions of brackets, colons, commas, quotes and
// scalars, and `easybake_json_skip_positions` follows the grammar over them.
//
// Why the readers do not skip over it yet: measured with callgrind on a
// 20 MB slice of the 200 MB benchmark file, the pass costs about 6.6
// instructions a byte and the grammar over its positions about 24 a
// position (one position every 4 bytes there), against about 16 a byte for
// the whole byte walk: a whole-document skip took 327M instructions against
// 309M, skipping record by record (`easybake get`) 387M against 325M, with
// wall times no better. The way on is fewer instructions a byte in the pass
// (a table lookup per byte class instead of a comparison per character) and
// positions shared by consecutive skips instead of read again past each
// value's end.

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
    /// Blocks of 64 bytes the structural pass reads per call at most: a
    /// skip starts with one and doubles, so that a small value costs one
    /// block and what is read past a value's end stays short.
    private static let structuralBlocks = 4

    /// ``skipQuickly(insideContainer:)`` over structural positions
    /// (`easybake_json_structurals`), 64 bytes at a time: the grammar of
    /// brackets, colons, commas and keys, the depth budget and the length
    /// of plain strings are followed in C over the positions
    /// (`easybake_json_skip_positions`); every number, literal and string
    /// with escapes or non-ASCII text is checked here by the functions the
    /// byte walk uses, in input order. So the same input is accepted and
    /// the same errors are thrown; whitespace and plain strings are not
    /// read at all.
    ///
    /// - Returns: where the value ends, or `nil` (with `position` anywhere)
    ///   when the byte walk must redo it: a grammar error, a string over
    ///   the limit, the budget reached, or the input ended.
    mutating func skipByStructure(
        state: SkipState, depth: Int, objects: UInt64, depthBudget: Int
    ) throws(EasyBakeError) -> Int? {
        var walk = easybake_json_skip_state()
        switch state {
        case .value: walk.expect = Int32(EASYBAKE_SKIP_EXPECT_VALUE)
        case .firstValueOrEnd: walk.expect = Int32(EASYBAKE_SKIP_EXPECT_FIRST_VALUE_OR_END)
        case .firstKeyOrEnd: walk.expect = Int32(EASYBAKE_SKIP_EXPECT_FIRST_KEY_OR_END)
        case .key: walk.expect = Int32(EASYBAKE_SKIP_EXPECT_KEY)
        case .afterValue: walk.expect = Int32(EASYBAKE_SKIP_EXPECT_AFTER_VALUE)
        }
        walk.depth = Int32(depth)
        walk.budget = Int32(depthBudget)
        walk.objects = objects
        walk.max_string = limits.maximumStringBytes
        let level = scanning.structuralLevel
        let room = 64 * Self.structuralBlocks + 8
        let outcome: Result<Int?, EasyBakeError> = withUnsafeTemporaryAllocation(of: UInt32.self, capacity: room) {
            positions in
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: room) { checks in
                do throws(EasyBakeError) {
                    return .success(
                        try walkPositions(
                            &walk, level: level, positions: positions.baseAddress!, checks: checks.baseAddress!))
                } catch {
                    return .failure(error)
                }
            }
        }
        return try outcome.get()
    }

    private mutating func walkPositions(
        _ walk: inout easybake_json_skip_state, level: Int32, positions: UnsafeMutablePointer<UInt32>,
        checks: UnsafeMutablePointer<UInt64>
    ) throws(EasyBakeError) -> Int? {
        var pass = easybake_json_structural_state()
        var start = position
        var blocks = 1
        while start < count {
            let found = easybake_json_structurals(base, start, count, blocks, level, &pass, positions)
            var checked = 0
            var end = 0
            let result = easybake_json_skip_positions(base, start, positions, found, &walk, checks, &checked, &end)
            if result == Int32(EASYBAKE_SKIP_DECLINED) { return nil }
            var k = 0
            while k < checked {
                let check = checks[k]
                if check & EASYBAKE_SKIP_CHECK_STRING != 0 {
                    let open = Int(check & ~EASYBAKE_SKIP_CHECK_STRING)
                    position = open + 1
                    _ = try scanSlowString(open: open, start: open + 1, decoding: false)
                    // Escapes step over the bytes the pass took as escaped.
                    guard position == Int(checks[k + 1]) + 1 else { return nil }
                    k += 2
                } else {
                    position = Int(check)
                    guard try skipScalar() else { return nil }
                    k += 1
                }
            }
            if result == Int32(EASYBAKE_SKIP_ENDED) { return end }
            start += 64 * blocks
            blocks = min(blocks * 2, Self.structuralBlocks)
        }
        // The input ended inside the value.
        return nil
    }

    /// Checks the number or literal at `position`, as the byte walk does,
    /// and that it ends where the structural pass says a run of scalar
    /// bytes ends: at the end of the input, whitespace, a quote or one of
    /// `{}[]:,`. `false` for anything else (a stray byte where a value
    /// begins, or bytes after the value that no position points at).
    @inline(__always)
    private mutating func skipScalar() throws(EasyBakeError) -> Bool {
        switch base[position] {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try scanNumber()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: return false
        }
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
        var buffer = [UInt32](repeating: 0, count: 64 * blocksPerCall + 8)
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
