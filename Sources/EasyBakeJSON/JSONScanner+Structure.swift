import CEasyBakeScanning
import EasyBake

// The JSON structural pass (issue 30): `easybake_json_structurals` turns 64
// bytes at a time into the positions of brackets, colons, commas, quotes and
// scalars, and `easybake_json_skip` skips a value over the same bitmaps,
// following JSON's grammar from token to token with no position written.
//
// The readers skip arrays and objects this way (`skipQuickly(insideContainer:)`
// hands the rest of a value over once it is inside it) wherever the machine
// has a vector pass. Measured with callgrind on a 20 MB slice of the 200 MB
// benchmark file (release harness, `JSONIngredientSource.skipValue()` of the
// whole document; `PathMatcher` finding `users[16999].id`, as `easybake get`
// does; streaming three fields of every record): 308.7M instructions against
// 182.5M, 325.5M against 216.9M, 772.1M against 765.8M. The AVX2 pass
// classes bytes by a nibble lookup (`vpshufb`): about 2 instructions a byte
// with the bitmap arithmetic. The grammar costs about 20 a token (one every
// 6 bytes there), looked up by state and byte in one table. What is left is the numbers and literals,
// which the byte walk's functions check one by one in Swift. A first try
// that wrote positions and followed the grammar over them (about 24
// instructions a position, and 6.6 a byte for the pass) was slower than the
// byte walk.
//
// The byte walk stays the reference: it takes the scalar level (slower than
// the walk: `EASYBAKE_SCALAR=1`), scalars, and everything the structural
// skip declines, and it words every error.

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
    /// How many checks a call of the skip may leave: its blocks run while
    /// one more block's worth (66) fits.
    private static let checkRoom = 512

    /// ``skipQuickly(insideContainer:)`` over JSON's structure
    /// (`easybake_json_skip`), 64 bytes at a time: the grammar of
    /// brackets, colons, commas and keys, the depth budget and the length
    /// of strings are followed in C over the structural pass's bitmaps;
    /// every number, literal and string with escapes, control characters or
    /// non-ASCII text is checked here by the functions the byte walk uses,
    /// in input order. So the same input is accepted and the same errors
    /// are thrown; whitespace and plain strings are not read at all.
    ///
    /// - Returns: where the value ends, or `nil` (with `position` anywhere)
    ///   when the byte walk must redo it: a grammar error, a string over
    ///   the limit, the budget reached, or the input ended.
    mutating func skipByStructure(
        state: SkipState, depth: Int, objects: UInt64, depthBudget: Int
    ) throws(EasyBakeError) -> Int? {
        var walk = easybake_json_skip_state()
        let expect: Int32
        switch state {
        case .value: expect = Int32(EASYBAKE_SKIP_EXPECT_VALUE)
        case .firstValueOrEnd: expect = Int32(EASYBAKE_SKIP_EXPECT_FIRST_VALUE_OR_END)
        case .firstKeyOrEnd: expect = Int32(EASYBAKE_SKIP_EXPECT_FIRST_KEY_OR_END)
        case .key: expect = Int32(EASYBAKE_SKIP_EXPECT_KEY)
        case .afterValue: expect = Int32(EASYBAKE_SKIP_EXPECT_AFTER_VALUE)
        }
        walk.grammar = easybake_json_skip_grammar(expect, Int32(depth), Int32(objects >> UInt64(depth) & 1))
        walk.next = position
        walk.depth = Int32(depth)
        walk.budget = Int32(depthBudget)
        walk.objects = objects
        walk.max_string = limits.maximumStringBytes
        let level = structuralLevel
        let outcome: Result<Int?, EasyBakeError> = withUnsafeTemporaryAllocation(
            of: UInt64.self, capacity: Self.checkRoom
        ) { checks in
            do throws(EasyBakeError) {
                return .success(try skipBlocks(&walk, level: level, checks: checks.baseAddress!))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    private mutating func skipBlocks(
        _ walk: inout easybake_json_skip_state, level: Int32, checks: UnsafeMutablePointer<UInt64>
    ) throws(EasyBakeError) -> Int? {
        while walk.next < count {
            var checked = 0
            var end = 0
            let result = easybake_json_skip(base, count, level, &walk, checks, Self.checkRoom, &checked, &end)
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
        }
        // The input ended inside the value.
        return nil
    }

    /// Whether the four bytes at `offset` are `word` read little-endian:
    /// `"true"` is 0x65757274, `"null"` 0x6C6C756E, `"alse"` 0x65736C61.
    @inline(__always)
    private func hasWord(_ word: UInt32, at offset: Int) -> Bool {
        offset + 4 <= count && UnsafeRawPointer(base + offset).loadUnaligned(as: UInt32.self).littleEndian == word
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
        // A whole literal is four bytes compared at once; anything else is
        // read by `literal`, which words the error.
        case UInt8(ascii: "t"):
            if hasWord(0x6575_7274, at: position) { position += 4 } else { try literal("true") }
        case UInt8(ascii: "f"):
            if hasWord(0x6573_6C61, at: position + 1) { position += 5 } else { try literal("false") }
        case UInt8(ascii: "n"):
            if hasWord(0x6C6C_756E, at: position) { position += 4 } else { try literal("null") }
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

/// The structural stage against the byte walk on one input, for the fuzz
/// target (`Fuzz/Sources/FuzzJSON`), which lives in a package of its own.
@_spi(Fuzzing) public enum JSONStructuralDifferential {
    /// Where the stages part ways on `bytes`, one line each (none when
    /// they agree): the structural positions at every vector level against
    /// the byte-by-byte pass, and skipping a value, skipping the rest of a
    /// container and finding paths that skip everything, at every level of
    /// the pass, against the byte walk — the same end, or the same error
    /// at the same line and column.
    public static func disagreements(in bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        let levels = JSONStructuralPass.machineLevels
        let reference = JSONStructuralPass.positions(of: bytes, level: 0, blocksPerCall: 1)
        for level in levels.dropFirst() {
            for blocks in [1, 4]
            where JSONStructuralPass.positions(of: bytes, level: level, blocksPerCall: blocks) != reference {
                problems.append("positions at level \(level), \(blocks) blocks a call")
            }
        }
        let walks: [(String, (inout JSONIngredientSource) throws(EasyBakeError) -> Void)] = [
            ("skip", { (source) throws(EasyBakeError) in try source.skipValue() }),
            (
                "skip rest",
                { (source) throws(EasyBakeError) in
                    guard let first = try source.next(), first == .beginArray || first == .beginDictionary else {
                        return
                    }
                    _ = try source.next()
                    try source.skipRestOfContainer()
                }
            ),
            (
                "find",
                { (source) throws(EasyBakeError) in
                    let paths = [IngredientPath([.key("zz")]), IngredientPath([.index(1 << 20)])]
                    _ = try PathMatcher(paths).resolve(from: &source)
                }
            ),
        ]
        for (name, walk) in walks {
            let byBytes = outcome(bytes, level: nil, walk)
            for level in levels {
                let found = outcome(bytes, level: level, walk)
                if found != byBytes {
                    problems.append("\(name) at level \(level): \(found), the byte walk: \(byBytes)")
                }
            }
        }
        return problems
    }

    /// Where `walk` left the source and what came next, or its error with
    /// its place; `level` `nil` is the byte walk (word scanning runs no
    /// structural pass).
    private static func outcome(
        _ bytes: [UInt8], level: Int32?, _ walk: (inout JSONIngredientSource) throws(EasyBakeError) -> Void
    ) -> String {
        do {
            var source = try JSONIngredientSource(.bytes(bytes))
            if let level { source.structuralLevel = level } else { source.byteScanning = .word }
            try walk(&source)
            let end = source.bytesRead
            return "ok at \(end), then \(String(describing: try source.next()))"
        } catch {
            return "\(error.code) \(error.location?.line ?? -1):\(error.location?.column ?? -1) \(error.message)"
        }
    }
}
