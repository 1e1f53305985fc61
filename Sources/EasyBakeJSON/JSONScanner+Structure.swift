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
// The index of a whole array or object is built over the same bitmaps
// (`easybake_json_index`, `indexByStructure(into:)`): the state is the place
// in the C code rather than a table, so the token each place expects is
// predicted as a branch, and tokens are taken from a block's bitmap as they
// are needed (a batch of positions written first and read back was
// slower). A value's kind is found by tests in order of frequency, not a
// jump table (the API shape was 2% slower with it). Literals and numbers of
// a plain shape (no exponent, at most 32 bytes) are checked in C, digits
// eight at a time (`easybake_plain_number`); the skip checks them so too.
// So are strings whose special bytes are only UTF-8 text (accented names):
// `easybake_plain_string` validates them as strictly as the byte walk, and
// only a string with an escape, a control character or bytes that are not
// UTF-8 comes back here, where the byte walk decodes it or words its error.
// Measured with callgrind on the 9 MB benchmark file (release harness,
// `readIndex`): 104M instructions for the byte walk, 78M over the structure
// before plain numbers were checked in C. A process that indexes a 50 MB
// file spends a third of its time in the kernel, faulting in the input and
// the index; best of six, interleaved, every other process paused, the byte
// walk against the structural build: 0.0620 s against 0.0538 s (users),
// 0.0900 against 0.0642 (keyed), 0.0729 against 0.0615 (numbers), 0.0903
// against 0.0892 (api, where most strings have escapes, which the byte
// walk's functions decode either way). What is left is mostly branch
// mispredictions (cachegrind simulates about 960k for the 9 MB file either
// way): the kind of the next value is what no predictor knows.
//
// A value read to be pruned to a recipe's paths that is too large to build
// whole (over 65,536 entries: a whole payload baked as one record, a large
// record) is pruned by the same build given the picking's tables
// (`PathMatcher.Picking`, read in C in its own layout): after each key of a
// dictionary whose members are picked, the key is looked up, and a member
// no path needs has its key's entry taken back and its value followed by
// the skip's grammar table, checked as strictly, with no entry written.
// Callgrind, `easybake bake` of the 9 MB benchmark file as one record with
// a recipe of three fields per user, whole process: 417.2M instructions
// when the byte walk pruned it, 316.3M over the structure. A small value
// is still built whole: pruning every streamed record in C cost more than
// building it (three fields streamed, 247.8M → 278.8M): every value is
// checked either way, and the skip's table costs about 16 instructions a
// token where writing an entry costs about 12, plus a lookup per key;
// what the bake saves on the smaller index (7.5M) does not make up for it.
//
// A reader that keeps only the last elements of an array (`users[-1]`, as
// `easybake get` finds it) skips the whole array in one go
// (`skipElementsByStructure`, over `easybake_json_skip_marking`), which
// writes where the commas between its elements are: no event, no call and
// no block classed twice per element; one that wants an element far into
// an array (`users[86684]`) skips the elements before it so, stopping at
// the comma before it. Callgrind, `easybake get 'users[-1].id'` on the 9 MB
// benchmark file, less the command's start: 92.2M instructions element by
// element, 78.8M for the whole array.
//
// The byte walk stays the reference: it takes the scalar level (slower than
// the walk: `EASYBAKE_SCALAR=1`), scalars, and everything the structural
// skip or build declines, and it words every error.

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
    /// every number and literal, and every string with escapes, control
    /// characters or bytes that are not UTF-8, is checked here by the
    /// functions the byte walk uses,
    /// in input order. So the same input is accepted and the same errors
    /// are thrown; whitespace and plain strings are not read at all.
    ///
    /// - Returns: where the value ends, or `nil` (with `position` anywhere)
    ///   when the byte walk must redo it: a grammar error, a string over
    ///   the limit, the budget reached, or the input ended.
    mutating func skipByStructure(
        state: SkipState, depth: Int, objects: UInt64, depthBudget: Int
    ) throws(EasyBakeError) -> Int? {
        var walk = skipWalk(state: state, depth: depth, objects: objects, depthBudget: depthBudget)
        let level = structuralLevel
        return try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: Self.checkRoom) {
            (checks) throws(EasyBakeError) -> Int? in
            try skipBlocks(&walk, level: level, checks: checks.baseAddress!)
        }
    }

    /// The C skip's state for a skip from the reading position, in `state`
    /// at `depth` of containers whose kinds are `objects`, under the
    /// scanner's limits.
    private func skipWalk(state: SkipState, depth: Int, objects: UInt64, depthBudget: Int) -> easybake_json_skip_state {
        var walk = easybake_json_skip_state()
        walk.grammar = easybake_json_skip_grammar(
            state.skipExpect, Int32(depth), Int32(objects >> UInt64(depth) & 1))
        walk.next = position
        walk.depth = Int32(depth)
        walk.budget = Int32(depthBudget)
        walk.objects = objects
        walk.max_string = limits.maximumStringBytes
        walk.plain_numbers = limits.maximumNumberLength >= 32 ? 1 : 0
        return walk
    }

    private mutating func skipBlocks(
        _ walk: inout easybake_json_skip_state, level: Int32, checks: UnsafeMutablePointer<UInt64>
    ) throws(EasyBakeError) -> Int? {
        while walk.next < count {
            var checked = 0
            var end = 0
            let result = easybake_json_skip(base, count, level, &walk, checks, Self.checkRoom, &checked, &end)
            if result == Int32(EASYBAKE_SKIP_DECLINED) { return nil }
            guard try takeChecks(checks, count: checked) else { return nil }
            if result == Int32(EASYBAKE_SKIP_ENDED) { return end }
        }
        // The input ended inside the value.
        return nil
    }

    /// Checks what a call of the skip left, in input order: `false` when
    /// the byte walk must redo the value.
    @inline(__always)
    private mutating func takeChecks(_ checks: UnsafeMutablePointer<UInt64>, count checked: Int) throws(EasyBakeError)
        -> Bool
    {
        var k = 0
        while k < checked {
            let check = checks[k]
            if check & EASYBAKE_SKIP_CHECK_STRING != 0 {
                let open = Int(check & ~EASYBAKE_SKIP_CHECK_STRING)
                position = open + 1
                _ = try scanSlowString(open: open, start: open + 1)
                // Escapes step over the bytes the pass took as escaped.
                guard position == Int(checks[k + 1]) + 1 else { return false }
                k += 2
            } else {
                position = Int(check)
                guard try skipScalar() else { return false }
                k += 1
            }
        }
        return true
    }

    /// How many commas a call of the marking skip may leave: its blocks run
    /// while one more block's worth (64) fits.
    private static let markRoom = 512

    /// Skips the rest of the array whose `[` was just read, over JSON's
    /// structure, as ``skipContainerByStructure(insideContainer:)`` skips
    /// it, and finds where its elements begin from the commas between them
    /// as the same pass finds them: for a reader that keeps only the last
    /// elements of an array (`users[-1]`), with no event and no call per
    /// element.
    ///
    /// The pages behind the skip are given back every `releaseInterval`
    /// bytes, `releaseLag` behind it, as a reader skipping element by
    /// element would give them back.
    ///
    /// - Returns: how many elements the array has, and where the last
    ///   `keeping` of them begin (fewer when it has fewer), oldest first; or
    ///   `nil`, with nothing consumed, when the byte walk must read the
    ///   array element by element (no vector pass, a byte range's array,
    ///   or anything the skip declines, which the walk words).
    mutating func skipElementsByStructure(keepingLast keeping: Int, releaseInterval: Int, releaseLag: Int)
        throws(EasyBakeError) -> (count: Int, starts: [Int])?
    {
        guard keeping > 0, expect == .firstValueOrEnd else { return nil }
        guard
            let skipped = try skipArrayByStructure(
                commaLimit: 0, keeping: keeping, releaseInterval: releaseInterval, releaseLag: releaseLag)
        else { return nil }
        let end = position
        let elements = skipped.elementsBegun
        var starts: [Int] = []
        starts.reserveCapacity(min(elements, keeping))
        for element in max(0, elements - keeping)..<elements {
            if element == 0 {
                starts.append(skipped.start)
            } else {
                position = skipped.commas[(element - 1) % keeping] + 1
                skipWhitespace()
                starts.append(position)
            }
        }
        position = end
        return (elements, starts)
    }

    /// Inside an array, before its next element or its end (as the event
    /// path expects it: after the bracket, after an element or after a
    /// comma), skips up to `count` elements over JSON's structure, as
    /// ``skipContainerByStructure(insideContainer:)`` skips them: for a
    /// reader that wants an element far into an array (`users[86684]`),
    /// with no event and no call per element. The pages behind the skip are
    /// given back as ``skipElementsByStructure(keepingLast:releaseInterval:releaseLag:)``
    /// gives them back.
    ///
    /// - Returns: how many elements were skipped, and whether the array
    ///   ended first (its end consumed, as an `.endArray` event consumes it);
    ///   or `nil`, with nothing consumed, when the byte walk must skip them.
    mutating func skipElementsByStructure(count wanted: Int, releaseInterval: Int, releaseLag: Int)
        throws(EasyBakeError) -> (skipped: Int, ended: Bool)?
    {
        guard wanted > 0 else { return nil }
        // After an element, the first comma ends it rather than one skipped;
        // `Int.max` elements are all of them (no limit).
        let commaLimit = wanted == .max ? 0 : expect == .afterValue ? wanted + 1 : wanted
        guard
            let skipped = try skipArrayByStructure(
                commaLimit: commaLimit, keeping: 0, releaseInterval: releaseInterval, releaseLag: releaseLag)
        else { return nil }
        return (skipped.ended ? skipped.elementsBegun : wanted, skipped.ended)
    }

    /// The skip of the two functions above: from where the event path
    /// stands in an array, over its elements to its end, or up to its
    /// `commaLimit`-th comma (0: none), with the last `keeping` commas
    /// (a ring: the `k`-th comma at `k % keeping`). Leaves the scanner
    /// just past the end it reached (after the array, with the array's
    /// container closed, or after the comma, expecting a value); `nil`,
    /// with nothing consumed, when the byte walk must do it.
    ///
    /// - Returns: whether the array ended, the ring of commas, where the
    ///   skip started (past white space), and how many elements it began:
    ///   one after each comma, and one where it started unless that was
    ///   after an element or at the array's end.
    private mutating func skipArrayByStructure(
        commaLimit: Int, keeping: Int, releaseInterval: Int, releaseLag: Int
    ) throws(EasyBakeError) -> (ended: Bool, commas: [Int], start: Int, elementsBegun: Int)? {
        guard structuralLevel > 0, containers.last == false, let state = SkipState(inside: expect) else {
            return nil
        }
        // A byte range's array and its bounds are kept by the event path.
        if elementRange != nil, containers.count <= 1 { return nil }
        skipWhitespace()
        let savedPosition = position
        let savedExpect = expect
        guard position < count else { return nil }
        let startsAtElement = expect != .afterValue && base[position] != UInt8(ascii: "]")
        var walk = skipWalk(state: state, depth: 1, objects: 0, depthBudget: skipDepthBudget(depth: 1))
        let level = structuralLevel
        var commas = [Int](repeating: 0, count: keeping)
        var commaCount = 0
        var nextRelease = position + releaseInterval
        let outcome: (end: Int, ended: Bool)? = try withUnsafeTemporaryAllocation(
            of: UInt64.self, capacity: Self.checkRoom
        ) { (checks) throws(EasyBakeError) -> (end: Int, ended: Bool)? in
            try withUnsafeTemporaryAllocation(of: Int.self, capacity: Self.markRoom) {
                (marks) throws(EasyBakeError) -> (end: Int, ended: Bool)? in
                while walk.next < count {
                    var checked = 0
                    var marked = 0
                    var end = 0
                    let result = easybake_json_skip_marking(
                        base, count, level, &walk, checks.baseAddress!, Self.checkRoom, &checked, &end,
                        marks.baseAddress!, Self.markRoom, &marked, 1, commaLimit > 0 ? commaLimit - commaCount : 0)
                    if result == Int32(EASYBAKE_SKIP_DECLINED) { return nil }
                    guard try takeChecks(checks.baseAddress!, count: checked) else { return nil }
                    if keeping > 0 {
                        for k in 0..<marked {
                            commas[(commaCount + k) % keeping] = marks[k]
                        }
                    }
                    commaCount += marked
                    if result == Int32(EASYBAKE_SKIP_ENDED) { return (end, true) }
                    if result == Int32(EASYBAKE_SKIP_MARKED) { return (end, false) }
                    if walk.next >= nextRelease {
                        storage.release(before: walk.next - 64 - releaseLag)
                        nextRelease = walk.next + releaseInterval
                    }
                }
                // The input ended inside the array.
                return nil
            }
        }
        guard let outcome else {
            position = savedPosition
            expect = savedExpect
            return nil
        }
        position = outcome.end
        eventStart = savedPosition
        if outcome.ended {
            containers.removeLast()
            expect = .afterValue
        } else {
            expect = .value
        }
        return (outcome.ended, commas, savedPosition, commaCount + (startsAtElement ? 1 : 0))
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
        // The skip checks whole literals itself: one here is wrong or runs
        // on, and `literal` words the error.
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: return false
        }
        return scalarEnds(at: position)
    }

    /// Whether a number or literal may end at `offset`: the end of the
    /// input, whitespace, a quote or one of `{}[]:,`. Any other byte would
    /// be part of the same run of scalar bytes.
    @inline(__always)
    private func scalarEnds(at offset: Int) -> Bool {
        guard offset < count else { return true }
        switch base[offset] {
        case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: "\""), UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "{"),
            UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"):
            return true
        default:
            return false
        }
    }
}

extension JSONScanner {
    /// Entries and checks a call of the structural build has room for (it
    /// reads a block while 64 more fit).
    private static let entryRoom = 4096
    private static let indexCheckRoom = JSONStructuralScratch.checkRoom

    /// The most entries a value read to be pruned is built whole with (1 MiB
    /// of index); a larger one is pruned.
    static let unprunedEntryLimit = 1 << 16

    /// How a structural build ended.
    enum StructuralBuild {
        /// The value is indexed; the reading position is just past it.
        case built
        /// The byte walk must build the value.
        case declined
        /// The build stopped at its entry limit.
        case tooLarge
    }

    private static let entryBits = IngredientIndex.Storage.rawEntryBits

    /// The kinds' raw values, for the C build.
    private static let indexKinds = easybake_index_kinds(
        null_value: IngredientIndex.Kind.null.rawValue, false_value: IngredientIndex.Kind.false.rawValue,
        true_value: IngredientIndex.Kind.true.rawValue, integer: IngredientIndex.Kind.integer.rawValue,
        float_value: IngredientIndex.Kind.float.rawValue, string: IngredientIndex.Kind.string.rawValue,
        array: IngredientIndex.Kind.array.rawValue,
        dictionary: IngredientIndex.Kind.dictionary.rawValue, wide_flag: IngredientIndex.Storage.rawEntryBits.wideFlag,
        compact_flag: IngredientIndex.Storage.rawEntryBits.compactFlag)

    /// Indexes the array or object at the reading position over JSON's
    /// structure (`easybake_json_index`), 64 bytes at a time: the grammar,
    /// the limits and the entries of containers, strings, literals and
    /// plain numbers come from the structural pass's bitmaps in C, and a
    /// string with non-ASCII text but no escape is checked as UTF-8 there;
    /// any other number, and each string with escapes, control characters
    /// or bytes that are not UTF-8, is checked and completed here by the
    /// functions the byte walk uses, in input order. So the index is the one
    /// the byte walk builds, entry for entry; whitespace and ASCII strings
    /// are not read at all.
    ///
    /// Without `picking`, the build stops (``StructuralBuild/tooLarge``)
    /// once it wrote more than `entryLimit` entries.
    ///
    /// With `picking`, the build keeps only what its paths reach from
    /// `state`, as the byte walk prunes (``indexValue(into:expectedBytes:keeping:state:)``):
    /// a member no path needs is skipped in C over the same bitmaps, its
    /// numbers and special strings checked here as any others, and writes
    /// no entry.
    ///
    /// - Returns: ``StructuralBuild/declined``, with the index and
    ///   position anywhere, when the byte walk must build it again, which
    ///   says what is wrong: a grammar error, a limit reached, a check
    ///   that failed, or the input ended inside the value; or, when
    ///   pruning, a key with an escape in a dictionary whose members are
    ///   picked (only the byte walk decodes it), or a member to leave out
    ///   nested deeper than the byte walk's quick skip goes (which keeps it
    ///   whole).
    mutating func indexByStructure(
        into builder: IngredientIndex.Storage, entryLimit: Int = .max, keeping picking: PathMatcher.Picking? = nil,
        state pickingState: PathMatcher.Picking.State = .whole
    ) -> StructuralBuild {
        // Deeper than 4,096 levels (a limit raised that far), the byte walk
        // builds it: the stack is the caller's memory.
        let budget = min(limits.maximumDepth - containers.count, 4096)
        guard budget > 0, limits.maximumNodes < UInt32.max else { return .declined }
        var state = easybake_json_index_state()
        state.next = position
        state.budget = Int32(clamping: budget)
        state.max_string = limits.maximumStringBytes
        state.max_nodes = limits.maximumNodes
        state.plain_numbers = limits.maximumNumberLength >= 32 ? 1 : 0
        state.kinds = Self.indexKinds
        let scratch = JSONStructuralScratch.held(by: builder, depth: budget, capacity: min(limits.maximumDepth, 4096))
        state.stack = scratch.stack
        state.elements = scratch.elements
        state.objects = scratch.objects
        // Kept alive here: `builder` holds it only from its second build on.
        return withExtendedLifetime(scratch) {
            guard let picking else {
                return buildBlocks(&state, into: builder, entryLimit: entryLimit, checks: scratch.checks)
            }
            let tables = picking.rawTables
            var cPicking = easybake_picking(
                states: tables.states.assumingMemoryBound(to: easybake_pick_state.self),
                keys: tables.keys.assumingMemoryBound(to: easybake_pick_key.self),
                elements: tables.elements.assumingMemoryBound(to: easybake_pick_element.self),
                bytes: tables.bytes.assumingMemoryBound(to: UInt8.self))
            state.picks = scratch.picks
            state.root_state = pickingState.rawValue
            return withExtendedLifetime(picking) {
                withUnsafePointer(to: &cPicking) { pointer in
                    state.picking = pointer
                    return buildBlocks(&state, into: builder, entryLimit: .max, checks: scratch.checks)
                }
            }
        }
    }

    /// ``indexBlocks(_:into:entryLimit:checks:)``, its errors taken for a
    /// decline: the byte walk builds the value again and says what is
    /// wrong.
    private mutating func buildBlocks(
        _ state: inout easybake_json_index_state, into builder: IngredientIndex.Storage, entryLimit: Int,
        checks: UnsafeMutablePointer<easybake_json_index_check>
    ) -> StructuralBuild {
        do throws(EasyBakeError) {
            return try indexBlocks(&state, into: builder, entryLimit: entryLimit, checks: checks)
        } catch {
            return .declined
        }
    }

    private mutating func indexBlocks(
        _ state: inout easybake_json_index_state, into builder: IngredientIndex.Storage, entryLimit: Int,
        checks: UnsafeMutablePointer<easybake_json_index_check>
    ) throws(EasyBakeError) -> StructuralBuild {
        assert(JSONStructuralPass.cLayoutIsTheIndexs, "the C entry's layout is not the index's")
        let level = structuralLevel
        let wideFlag = Self.entryBits.wideFlag
        let lengthMask: UInt64 = 1 << Self.entryBits.startShift - 1
        while state.next < count {
            let (raw, capacity) = builder.rawEntries(room: Self.entryRoom)
            let entries = raw.assumingMemoryBound(to: UInt64.self)
            // An extra at most per entry.
            let (rawExtras, extraCapacity) = builder.rawExtras(room: Self.entryRoom)
            let extras = rawExtras.assumingMemoryBound(to: easybake_index_extra.self)
            var written = builder.rawEntryCount
            var extrasWritten = builder.rawExtraCount
            guard written <= entryLimit else { return .tooLarge }
            var checked = 0
            var end = 0
            // At most `entryRoom` entries a call, so that the limit is looked at.
            let room = min(capacity, written + Self.entryRoom)
            let result = easybake_json_index(
                base, count, level, &state, entries, room, &written, extras, extraCapacity, &extrasWritten, checks,
                Self.indexCheckRoom, &checked, &end)
            builder.rawEntryCount = written
            builder.rawExtraCount = extrasWritten
            if result == Int32(EASYBAKE_SKIP_DECLINED) { return .declined }
            for k in 0..<checked {
                let check = checks[k]
                if check.entry & EASYBAKE_INDEX_CHECK_UNWRITTEN != 0 {
                    // A value of a member left out: checked as the skip checks one.
                    guard try checkUnwritten(check) else { return .declined }
                    continue
                }
                let entry = Int(check.entry)
                if check.at & EASYBAKE_INDEX_CHECK_ESCAPED != 0 {
                    // Text with escapes, checked in C: kept escaped, decoded when read.
                    try builder.completeEscapedString(at: entry)
                    continue
                }
                if check.at & EASYBAKE_SKIP_CHECK_STRING != 0 {
                    let open = Int(check.at & ~EASYBAKE_SKIP_CHECK_STRING)
                    position = open + 1
                    let hasEscapes = try scanSlowString(open: open, start: open + 1)
                    // Escapes step over the bytes the pass took as escaped.
                    // The length the pass found: in the entry, unless wide.
                    let word = entries[entry]
                    let length =
                        UInt8(truncatingIfNeeded: word >> 56) & wideFlag == 0
                        ? Int(truncatingIfNeeded: word & lengthMask)
                        : builder.rawLength(at: entry)
                    guard position == open + 2 + length else { return .declined }
                    if hasEscapes { try builder.completeEscapedString(at: entry) }
                } else {
                    let start = Int(check.at)
                    position = start
                    let isInteger = try scanNumber()
                    guard scalarEnds(at: position) else { return .declined }
                    builder.completeNumber(at: entry, length: position - start, isInteger: isInteger)
                }
            }
            if result == Int32(EASYBAKE_SKIP_ENDED) {
                position = end
                return .built
            }
        }
        // The input ended inside the value.
        return .declined
    }

    /// Checks a value the pruned build skipped (a number, or a string with
    /// a special byte, of a member no path needs), as ``takeChecks(_:count:)``
    /// checks the skip's: `false` when the byte walk must redo the value.
    private mutating func checkUnwritten(_ check: easybake_json_index_check) throws(EasyBakeError) -> Bool {
        guard check.at & EASYBAKE_SKIP_CHECK_STRING != 0 else {
            position = Int(check.at)
            return try skipScalar()
        }
        let open = Int(check.at & ~EASYBAKE_SKIP_CHECK_STRING)
        position = open + 1
        _ = try scanSlowString(open: open, start: open + 1)
        // Escapes step over the bytes the pass took as escaped.
        return position == Int(check.entry & ~EASYBAKE_INDEX_CHECK_UNWRITTEN) + 1
    }
}

/// The structural pass over a whole input, for tests that hold every level
/// of it to one reference.
package enum JSONStructuralPass {
    /// Whether the C build's entries and extras are laid out as the index's.
    package static var cLayoutIsTheIndexs: Bool {
        let layout = IngredientIndex.Storage.rawEntryLayout
        let bits = IngredientIndex.Storage.rawEntryBits
        return layout.entry == MemoryLayout<UInt64>.stride
            && layout.extra == MemoryLayout<easybake_index_extra>.stride
            && layout.low == MemoryLayout<easybake_index_extra>.offset(of: \.low)!
            && layout.high == MemoryLayout<easybake_index_extra>.offset(of: \.high)!
            && bits.startShift == Int(EASYBAKE_INDEX_START_SHIFT) && bits.extraShift == Int(EASYBAKE_INDEX_EXTRA_SHIFT)
            && bits.startLimit == Int(EASYBAKE_INDEX_START_LIMIT)
    }

    /// Whether the C build reads `PathMatcher.Picking`'s tables as the
    /// matcher lays them out.
    package static var cPickingLayoutIsTheMatchers: Bool {
        PathMatcher.Picking.rawLayout == [
            MemoryLayout<easybake_pick_state>.stride, MemoryLayout<easybake_pick_state>.offset(of: \.terminal)!,
            MemoryLayout<easybake_pick_state>.offset(of: \.picking_state)!,
            MemoryLayout<easybake_pick_state>.offset(of: \.keys_start)!,
            MemoryLayout<easybake_pick_state>.offset(of: \.keys_count)!,
            MemoryLayout<easybake_pick_state>.offset(of: \.elements_start)!,
            MemoryLayout<easybake_pick_state>.offset(of: \.elements_count)!,
            MemoryLayout<easybake_pick_state>.offset(of: \.other_elements)!,
            MemoryLayout<easybake_pick_state>.offset(of: \.other_members)!,
            MemoryLayout<easybake_pick_key>.stride, MemoryLayout<easybake_pick_key>.offset(of: \.bytes_start)!,
            MemoryLayout<easybake_pick_key>.offset(of: \.length)!,
            MemoryLayout<easybake_pick_key>.offset(of: \.target)!,
            MemoryLayout<easybake_pick_element>.stride, MemoryLayout<easybake_pick_element>.offset(of: \.index)!,
            MemoryLayout<easybake_pick_element>.offset(of: \.target)!,
        ]
    }

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

    /// The level a scanner that scans by vectors runs in this process: the
    /// machine's best, or 0 when `EASYBAKE_SCALAR` forces the byte-by-byte
    /// pass.
    package static var level: Int32 { JSONByteScanning.vector.structuralLevel }

    /// Whether the skip and the build over the structure take the string
    /// whose quotes are at `open` and `close` in `bytes` for plain text,
    /// which they leave unchecked (`easybake_json_plain_string`), at `level`.
    package static func isPlainString(_ bytes: [UInt8], open: Int, close: Int, level: Int32) -> Bool {
        precondition(open < close && close < bytes.count)
        return bytes.withUnsafeBufferPointer { input in
            easybake_json_plain_string(input.baseAddress!, open, close, input.count, level) != 0
        }
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
    /// container, finding paths that skip everything, finding an array's
    /// last elements (skipped whole) or its third (the two before skipped
    /// at once), and building the index, whole and pruned to a few paths,
    /// at every level of the pass, against the byte walk — the same end, values or entries,
    /// or the same error at the same line and column.
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
        let walks: [(String, (inout JSONIngredientSource) throws(EasyBakeError) -> String)] = [
            (
                "skip",
                { (source) throws(EasyBakeError) in
                    try source.skipValue(); return ""
                }
            ),
            (
                "skip rest",
                { (source) throws(EasyBakeError) in
                    guard let first = try source.next(), first == .beginArray || first == .beginDictionary else {
                        return ""
                    }
                    _ = try source.next()
                    try source.skipRestOfContainer()
                    return ""
                }
            ),
            (
                "find",
                { (source) throws(EasyBakeError) in
                    let paths = [IngredientPath([.key("zz")]), IngredientPath([.index(1 << 20)])]
                    _ = try PathMatcher(paths).resolve(from: &source)
                    return ""
                }
            ),
            (
                "last elements",
                { (source) throws(EasyBakeError) in
                    let paths = [IngredientPath([.index(-1)]), IngredientPath([.index(-3)])]
                    let found = try PathMatcher(paths).resolve(from: &source)
                    return found.values.map { String(describing: $0) }.joined(separator: " ")
                }
            ),
            (
                "an element",
                { (source) throws(EasyBakeError) in
                    let found = try PathMatcher([IngredientPath([.index(2)])]).resolve(from: &source)
                    return found.values.map { String(describing: $0) }.joined(separator: " ")
                }
            ),
            (
                "index",
                { (source) throws(EasyBakeError) in
                    var index = IngredientIndex()
                    try source.readIndex(into: &index)
                    return index.storedEntries.map(\.description).joined(separator: " ")
                }
            ),
            (
                "pruned index",
                { (source) throws(EasyBakeError) in
                    source.buildsSmallValuesWhole = false
                    guard let first = try source.next() else { return "" }
                    var index = IngredientIndex()
                    try source.readValue(startingWith: first, into: &index, keeping: prunedMatcher)
                    return index.storedEntries.map(\.description).joined(separator: " ")
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

    /// The paths the pruned index keeps: members of records and of the
    /// root, an element by its index, every member of a dictionary.
    private static let prunedMatcher = PathMatcher(
        ["a", "[*].id", "[1].b.c", "users[*].address.city", "*.k"].map { try! IngredientPath(parsing: $0) })

    /// Where `walk` left the source, what it found and what came next, or
    /// its error with its place; `level` `nil` is the byte walk (word scanning runs no
    /// structural pass).
    private static func outcome(
        _ bytes: [UInt8], level: Int32?, _ walk: (inout JSONIngredientSource) throws(EasyBakeError) -> String
    ) -> String {
        do {
            var source = try JSONIngredientSource(.bytes(bytes))
            if let level { source.structuralLevel = level } else { source.byteScanning = .word }
            let found = try walk(&source)
            let end = source.bytesRead
            return "ok at \(end) \(found), then \(String(describing: try source.next()))"
        } catch {
            return "\(error.code) \(error.location?.line ?? -1):\(error.location?.column ?? -1) \(error.message)"
        }
    }
}
