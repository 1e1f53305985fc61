import EasyBake

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The native scanner stopped: the input leaves the subset it reads, or is
/// wrong. Either way the event path reads the input again and gives the
/// authoritative index or error, so the scanner never words an error.
struct YAMLIndexBail: Error {}

/// Builds an ``IngredientIndex`` straight from the bytes of common block
/// YAML, without libyaml: the fast core's YAML reader, as `JSONScanner`'s
/// index loop is JSON's.
///
/// It reads one document of block mappings and block sequences (compact
/// `- key: value` entries and sequences at their key's column included)
/// whose scalars each stand on one line: plain, single- or double-quoted,
/// empty, and the empty flow collections `[]` and `{}`; comments, blank
/// lines and a leading `---`. Plain scalars resolve through
/// ``YAMLScalarResolver`` as the event path resolves them; keys are their
/// text. Anything else — tabs, anchors, aliases, tags, merge keys, complex
/// keys, block scalars, multi-line scalars, flow content, directives,
/// several documents, a byte order mark, control characters, a repeated
/// key, a passed limit — and anything libyaml or the event path would
/// reject is a bail-out (``YAMLIndexBail``), never an error of its own.
///
/// Columns are counted in bytes: everything before a node on its line is
/// indentation or `- `, which is ASCII, so bytes and libyaml's characters
/// agree wherever a column is compared.
// Invariants: `base ..< base + count` is the input's bytes, which the
// caller keeps alive while the scanner runs (a `LoadedBytes`); `classes`
// and `stops` point at 256-entry static tables, indexed by a byte. A byte is
// read below `count` only: the line and scalar loops are bounded by it. A
// scalar or key is a range `start ..< start + length` within `0 ..< count`
// (a decoded key's, within `decodedKeys`), asserted where its bytes are
// formed.
struct YAMLIndexScanner {
    let base: UnsafePointer<UInt8>
    let count: Int
    let schema: YAMLReadingOptions.Schema
    let limits: IngredientLimits
    let classes: UnsafePointer<ByteClass>
    let stops: UnsafePointer<UInt8>

    var position = 0
    /// Where the current line begins: a node's column is its offset from here.
    var lineStart = 0
    private var nodes = 0

    /// An open block collection.
    private struct Frame {
        var isMapping: Bool
        /// The column of its keys, or of its entries' `-`.
        var column: Int
        /// A sequence whose `-` stand at the column of the key whose value it
        /// is (`key:` then `- item` below it): it ends at the first line of
        /// that column that is no entry.
        var isIndentless: Bool
        var elements = 0
        /// Mappings: where its keys begin in `keys`.
        var keyStart: Int
        /// Mappings: its keys as `String`s in `keySets`, once it has many or
        /// one that is not ASCII; -1 before.
        var keySet = -1
        /// Mappings: one bit per hash of each key's fingerprint, so that
        /// most new keys are known to be new without comparing.
        var keyBits: UInt64 = 0
        /// Mappings: where its decoded keys begin in `decodedKeys`.
        var decodedKeyStart: Int
        /// It is the value at the record path's keys so far (see `recordKeys`).
        var isOnRecordPath = false
        /// It is the sequence whose entries are the records.
        var holdsRecords = false
    }

    /// A key of an open mapping, for finding a repeated one.
    private struct Key {
        /// Length, first, middle and last byte: most keys differ here.
        var fingerprint: UInt64
        var start: Int
        var length: Int
        /// Its bytes are in `decodedKeys`, not the input.
        var isDecoded: Bool
    }

    /// The open collections and their keys, in hand-managed buffers: every
    /// key and value reads or writes them, and an `Array` would check its
    /// uniqueness at each write (1% of a YAML bake's instructions). A class,
    /// so that they are freed once: a copy of the scanner would share them,
    /// and none is made (each road makes its scanners and keeps them).
    private final class Stacks {
        @exclusivity(unchecked) var frames = GrowableBuffer<Frame>(capacity: 16)
        @exclusivity(unchecked) var keys = GrowableBuffer<Key>(capacity: 64)

        deinit {
            frames.deallocate()
            keys.deallocate()
        }
    }

    private let stacks = Stacks()
    private var frames: GrowableBuffer<Frame> {
        @inline(__always) get { stacks.frames }
        @inline(__always) nonmutating _modify { yield &stacks.frames }
    }
    private var keys: GrowableBuffer<Key> {
        @inline(__always) get { stacks.keys }
        @inline(__always) nonmutating _modify { yield &stacks.keys }
    }
    private var keySets: [Set<String>] = []
    private var decodedKeys: [UInt8] = []
    /// The last key or the last `-` has no value yet on its line: it comes
    /// on the lines below, or is null.
    private var awaitingValue = false
    /// Where the null of an empty value is located: just after its `:` or `-`.
    private var awaitingOffset = 0
    /// A scalar was the whole document: only comments may follow.
    private var rootIsScalar = false
    /// Something other than blank lines and comments has been read.
    private var readAnything = false
    /// Reading records: the keys of the record path before its final `[*]`
    /// (`["users"]` for `users[*]`); the sequence at those keys holds the
    /// records, and the scan stops at each of its entries (`recordEntry`).
    var recordKeys: [String]?
    /// Where the `-` of the record that begins next stands, once the scan
    /// stopped there.
    var recordEntry: Int?
    /// Reading one record: the scan stops, at its line's start, at the
    /// first line that is indented no more than this (the record's `-`).
    private var stopColumn = -1
    /// Reading one record: the collections around it, which count toward
    /// the depth limit as they do when the whole document is read.
    var depthOffset = 0
    /// Where the document's (or the record's) root node begins; -1 before.
    private(set) var rootOffset = -1
    /// Whether anything but blank lines and comments was read: an empty
    /// stretch between document markers is no document.
    var readsAnything: Bool { readAnything }
    /// Escapes decoded: the bytes of the last scalar that has any.
    let scratch = ScratchBytes()

    /// Keys a mapping compares one by one before it keeps them in a set.
    private static let linearKeys = 48
    /// libyaml gives up on a simple key longer than 1,024 characters; a
    /// little less, in bytes, keeps clear of that edge.
    static let maximumKeySpan = 1_000

    init(bytes: UnsafeRawBufferPointer, options: YAMLReadingOptions) {
        // An empty buffer may have no address; none is read, since `count` is 0.
        base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(ScratchBytes.noBytes)
        count = bytes.count
        schema = options.schema
        limits = options.limits
        classes = UnsafePointer(ByteClass.table)
        stops = UnsafePointer(ByteClass.stops)
    }

    // MARK: - Lines

    /// Reads the whole input through `writer`, of an index begun on it.
    mutating func build(into writer: IngredientIndex.UncheckedWriter) throws(YAMLIndexBail) {
        try checkStart()
        try scanLines(into: writer)
        try finish(into: writer)
    }

    /// A byte order mark is left to the event path.
    func checkStart() throws(YAMLIndexBail) {
        if count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { throw YAMLIndexBail() }
    }

    /// Reads lines until the input ends, or — reading records — until a
    /// record begins (`recordEntry`) or the record read ends.
    mutating func scanLines(into writer: IngredientIndex.UncheckedWriter) throws(YAMLIndexBail) {
        while position < count {
            if recordEntry != nil { return }
            lineStart = position
            var p = position
            while p < count, base[p] == UInt8(ascii: " ") { p += 1 }
            let column = p - lineStart
            guard p < count else {
                position = p
                break
            }
            let byte = base[p]
            if byte == UInt8(ascii: "\n") {
                position = p + 1
                continue
            }
            position = p
            if byte == UInt8(ascii: "#") {
                try skipComment()
                continue
            }
            if column <= stopColumn {
                // The record read ends before this line.
                position = lineStart
                return
            }
            if column == 0, byte == UInt8(ascii: "-") || byte == UInt8(ascii: "."), isDocumentMarker(p) {
                // A leading `---` is allowed; any other marker begins or ends
                // a document, and one document is read here.
                guard byte == UInt8(ascii: "-"), !readAnything else { throw YAMLIndexBail() }
                position = p + 3
                readAnything = true
                try finishLine()
                continue
            }
            readAnything = true
            if rootIsScalar { throw YAMLIndexBail() }

            if awaitingValue, let top = frames.last {
                if column > top.column {
                    // The value below its key or `-`.
                    awaitingValue = false
                    try node(into: writer)
                    continue
                }
                if column == top.column, top.isMapping, isEntry(p) {
                    // `key:` and then `- item` at the key's column.
                    awaitingValue = false
                    try openFrame(mapping: false, indentless: true, at: p, into: writer)
                    if frames[frames.count - 1].holdsRecords {
                        recordEntry = p
                        return
                    }
                    try entry(into: writer)
                    continue
                }
                try appendNull(at: awaitingOffset, into: writer)
            }
            // Close the collections that end before this column.
            while let top = frames.last,
                top.column > column || (top.column == column && top.isIndentless && !isEntry(p))
            {
                try closeFrame(into: writer)
            }
            guard let top = frames.last else {
                // The document's root; once it has ended, nothing may follow.
                guard nodes == 0 else { throw YAMLIndexBail() }
                try node(into: writer)
                continue
            }
            guard top.column == column else { throw YAMLIndexBail() }
            if top.isMapping {
                try keyAndValue(into: writer)
            } else {
                guard isEntry(p) else { throw YAMLIndexBail() }
                if top.holdsRecords {
                    recordEntry = p
                    return
                }
                try entry(into: writer)
            }
        }
    }

    /// Ends the document (or the record): the value still awaited is null,
    /// and the open collections close.
    mutating func finish(into writer: IngredientIndex.UncheckedWriter) throws(YAMLIndexBail) {
        if awaitingValue { try appendNull(at: awaitingOffset, into: writer) }
        while !frames.isEmpty { try closeFrame(into: writer) }
        // An empty document (or stream) is null, as the event path reads it.
        if nodes == 0 { try appendNull(at: 0, into: writer) }
    }

    /// Reads through `writer` the record whose node begins at `node` (after
    /// its `- `, on the line that begins at `lineStart`), a sequence entry at
    /// `entryColumn` inside `depth` collections, with the rules the whole
    /// document is read with: the record ends before the first line that is
    /// indented no more than its `-` (where `position` is left), and every
    /// state of the record before is forgotten, its memory kept.
    mutating func buildRecord(
        at node: Int, lineStart: Int, entryColumn: Int, depth: Int, into writer: IngredientIndex.UncheckedWriter
    ) throws(YAMLIndexBail) {
        position = node
        self.lineStart = lineStart
        stopColumn = entryColumn
        depthOffset = depth
        nodes = 0
        frames.removeAll()
        keys.removeAll()
        keySets.removeAll(keepingCapacity: true)
        decodedKeys.removeAll(keepingCapacity: true)
        awaitingValue = false
        rootIsScalar = false
        readAnything = true
        // A record whose node is below its `-` (`-` alone on its line) is
        // left to the event path.
        guard !atLineEnd() else { throw YAMLIndexBail() }
        try self.node(into: writer)
        try scanLines(into: writer)
        try finish(into: writer)
    }

    /// The number of open collections.
    var depth: Int { frames.count }

    /// Whether the line at column 0 from `p` is `---` or `...` and a blank.
    @inline(__always)
    private func isDocumentMarker(_ p: Int) -> Bool {
        guard p + 2 < count, base[p + 1] == base[p], base[p + 2] == base[p] else { return false }
        return p + 3 == count || base[p + 3] == UInt8(ascii: " ") || base[p + 3] == UInt8(ascii: "\n")
            || base[p + 3] == UInt8(ascii: "\t") || base[p + 3] == UInt8(ascii: "\r")
    }

    /// Whether a sequence entry begins at `p`: `-` and a space or a line end.
    @inline(__always)
    func isEntry(_ p: Int) -> Bool {
        guard base[p] == UInt8(ascii: "-") else { return false }
        return p + 1 == count || base[p + 1] == UInt8(ascii: " ") || base[p + 1] == UInt8(ascii: "\n")
    }

    /// After a node: spaces, then a comment (after a space) or the line's end.
    @inline(__always)
    private mutating func finishLine() throws(YAMLIndexBail) {
        let before = position
        while position < count, base[position] == UInt8(ascii: " ") { position += 1 }
        guard position < count else { return }
        switch base[position] {
        case UInt8(ascii: "\n"):
            position += 1
        case UInt8(ascii: "#") where position > before || (position > 0 && base[position - 1] == UInt8(ascii: " ")):
            try skipComment()
        default:
            throw YAMLIndexBail()
        }
    }

    /// Skips a comment from its `#` through the line break, checking its
    /// characters as libyaml's reader checks every character.
    private mutating func skipComment() throws(YAMLIndexBail) {
        var p = position + 1
        while p < count {
            let byte = base[p]
            if byte == UInt8(ascii: "\n") {
                position = p + 1
                return
            }
            switch classes[Int(byte)] {
            case .invalid: throw YAMLIndexBail()
            case .nonASCII: p += try Self.validateUTF8(base, count, at: p)
            default: p += 1
            }
        }
        position = p
    }

    // MARK: - Nodes

    /// Reads the node that begins at `position`, the first on its line or
    /// after `- `: a sequence entry opens a sequence at this column, a key
    /// a mapping, and a scalar is a value.
    private mutating func node(into writer: IngredientIndex.UncheckedWriter) throws(YAMLIndexBail) {
        if nodes == 0 { rootOffset = position }
        // `- - x` opens a sequence per `-`: a loop, not a recursion, so that
        // no line nests the call stack.
        while isEntry(position) {
            try openFrame(mapping: false, indentless: false, at: position, into: writer)
            if frames[frames.count - 1].holdsRecords {
                recordEntry = position
                return
            }
            if try stepOverEntryIndicator() { return }
        }
        let start = position
        let scalar = try scanScalar(keyAllowed: true)
        if scalar.isKey {
            try openFrame(mapping: true, indentless: false, at: start, into: writer)
            try addKey(scalar, into: writer)
            try valueAfterKey(into: writer)
            return
        }
        if frames.isEmpty { rootIsScalar = true }
        try appendValue(scalar, into: writer)
        try finishLine()
    }

    /// Reads `- ` and what follows it on the line; `position` is at the `-`
    /// of an entry of the innermost sequence.
    private mutating func entry(into writer: IngredientIndex.UncheckedWriter) throws(YAMLIndexBail) {
        if try stepOverEntryIndicator() { return }
        try node(into: writer)
    }

    /// Steps over the `-` at `position` and the spaces after it; `true`
    /// when the line ends there, the entry's value then awaited on the
    /// lines below.
    @inline(__always)
    private mutating func stepOverEntryIndicator() throws(YAMLIndexBail) -> Bool {
        position += 1
        while position < count, base[position] == UInt8(ascii: " ") { position += 1 }
        guard atLineEnd() else { return false }
        awaitValue(at: position)
        try finishLine()
        return true
    }

    /// Reads `key: value` in the innermost mapping, at its column.
    private mutating func keyAndValue(into writer: IngredientIndex.UncheckedWriter) throws(YAMLIndexBail) {
        let scalar = try scanScalar(keyAllowed: true)
        guard scalar.isKey else { throw YAMLIndexBail() }
        try addKey(scalar, into: writer)
        try valueAfterKey(into: writer)
    }

    /// Reads what follows a key's `:` on its line: a scalar or an empty
    /// flow collection, or nothing (the value is below, or null).
    private mutating func valueAfterKey(into writer: IngredientIndex.UncheckedWriter) throws(YAMLIndexBail) {
        let colon = position
        position += 1
        while position < count, base[position] == UInt8(ascii: " ") { position += 1 }
        if atLineEnd() {
            awaitValue(at: colon + 1)
            try finishLine()
            return
        }
        let scalar = try scanScalar(keyAllowed: false)
        try appendValue(scalar, into: writer)
        try finishLine()
    }

    /// Whether the line has nothing more at `position` (after spaces): its
    /// end, or a comment.
    @inline(__always)
    private func atLineEnd() -> Bool {
        guard position < count else { return true }
        let byte = base[position]
        return byte == UInt8(ascii: "\n")
            || (byte == UInt8(ascii: "#") && position > 0 && base[position - 1] == UInt8(ascii: " "))
    }

    @inline(__always)
    private mutating func awaitValue(at offset: Int) {
        awaitingValue = true
        awaitingOffset = offset
    }

    // MARK: - Collections

    /// Opens a collection whose first key or `-` is at `offset`.
    private mutating func openFrame(
        mapping: Bool, indentless: Bool, at offset: Int, into writer: IngredientIndex.UncheckedWriter
    ) throws(YAMLIndexBail) {
        // The event path's limits: depth counted at each container's start,
        // nodes as the index builder counts them.
        guard frames.count + depthOffset < limits.maximumDepth else { throw YAMLIndexBail() }
        try countNode()
        noteValue()
        if mapping { writer.beginDictionary(at: offset) } else { writer.beginArray(at: offset) }
        var frame = Frame(
            isMapping: mapping, column: offset - lineStart, isIndentless: indentless, keyStart: keys.count,
            decodedKeyStart: decodedKeys.count)
        if let recordKeys { try placeOnRecordPath(&frame, keys: recordKeys) }
        frames.append(frame)
    }

    /// Marks a collection that is the value at the record path's keys so
    /// far, and the sequence that holds the records. A path that goes
    /// otherwise than through mappings to that sequence (a sequence where a
    /// key is next, records in a mapping) is left to the event path.
    private func placeOnRecordPath(_ frame: inout Frame, keys recordKeys: [String]) throws(YAMLIndexBail) {
        let depth = frames.count
        if depth > 0 {
            // The parent mapping's latest key is the one this is the value of,
            // compared as the event path compares keys: as `String`s.
            let parent = frames[depth - 1]
            guard parent.isOnRecordPath, parent.isMapping, depth - 1 < recordKeys.count, let key = keys.last,
                text(of: key) == recordKeys[depth - 1]
            else { return }
        }
        frame.isOnRecordPath = true
        guard depth == recordKeys.count else {
            if !frame.isMapping { throw YAMLIndexBail() }
            return
        }
        guard !frame.isMapping else { throw YAMLIndexBail() }
        frame.holdsRecords = true
    }

    private mutating func closeFrame(into writer: IngredientIndex.UncheckedWriter) throws(YAMLIndexBail) {
        let frame = frames.removeLast()
        if frame.isMapping {
            if frame.keySet >= 0 { keySets.removeLast() }
            if decodedKeys.count > frame.decodedKeyStart { decodedKeys.removeSubrange(frame.decodedKeyStart...) }
            keys.setCount(frame.keyStart)
        }
        do { try writer.endContainer(elements: frame.elements) } catch { throw YAMLIndexBail() }
    }

    @inline(__always)
    private mutating func countNode() throws(YAMLIndexBail) {
        nodes += 1
        if nodes > limits.maximumNodes { throw YAMLIndexBail() }
    }

    /// Counts a value (a key's, or an entry) in the innermost collection.
    @inline(__always)
    private mutating func noteValue() {
        if !frames.isEmpty { frames[frames.count - 1].elements += 1 }
    }

    // MARK: - Keys

    /// Appends a key of the innermost mapping; a key it holds already is a
    /// bail-out, so that the event path applies the duplicate key policy.
    private mutating func addKey(_ scalar: Scalar, into writer: IngredientIndex.UncheckedWriter) throws(YAMLIndexBail) {
        let top = frames.count - 1
        let bytes = bytes(of: scalar)
        if scalar.style == .plain, bytes.count == 2, bytes[0] == UInt8(ascii: "<"), bytes[1] == UInt8(ascii: "<") {
            // A merge key.
            throw YAMLIndexBail()
        }
        // The event path compares keys as `String`s, whose equality is
        // canonical equivalence: bytes decide only among ASCII keys.
        if frames[top].keySet < 0, !scalar.isASCII || keys.count - frames[top].keyStart >= Self.linearKeys {
            var set = Set<String>(minimumCapacity: 2 * (keys.count - frames[top].keyStart + 1))
            for i in frames[top].keyStart..<keys.count { set.insert(text(of: keys[i])) }
            keySets.append(set)
            frames[top].keySet = keySets.count - 1
        }
        let fingerprint = Self.fingerprint(bytes)
        if frames[top].keySet >= 0 {
            guard keySets[keySets.count - 1].insert(String(decoding: bytes, as: UTF8.self)).inserted else {
                throw YAMLIndexBail()
            }
        } else {
            let bit: UInt64 = 1 << ((fingerprint &* 0x9E37_79B9_7F4A_7C15) >> 58)
            if frames[top].keyBits & bit != 0 {
                var i = frames[top].keyStart
                while i < keys.count {
                    if keys[i].fingerprint == fingerprint, bytesEqual(keys[i], bytes) { throw YAMLIndexBail() }
                    i += 1
                }
            }
            frames[top].keyBits |= bit
        }
        // In place, a quoted key's bytes begin after its quote.
        var start = scalar.style == .plain ? scalar.start : scalar.start + 1
        if scalar.isDecoded {
            start = decodedKeys.count
            decodedKeys.append(contentsOf: bytes)
        }
        keys.append(Key(fingerprint: fingerprint, start: start, length: bytes.count, isDecoded: scalar.isDecoded))
        try appendString(scalar, into: writer)
    }

    @inline(__always)
    private static func fingerprint(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let n = bytes.count
        guard n > 0 else { return 0 }
        return UInt64(n) << 32 | UInt64(bytes[0]) << 16 | UInt64(bytes[n >> 1]) << 8 | UInt64(bytes[n - 1])
    }

    @inline(__always)
    private func bytesEqual(_ key: Key, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard key.length == bytes.count else { return false }
        guard key.length > 0 else { return true }
        assert(
            key.start >= 0 && key.start + key.length <= (key.isDecoded ? decodedKeys.count : count),
            "a key outside its bytes")
        if key.isDecoded {
            return decodedKeys.withUnsafeBytes {
                memcmp($0.baseAddress! + key.start, bytes.baseAddress!, key.length) == 0
            }
        }
        return memcmp(base + key.start, bytes.baseAddress!, key.length) == 0
    }

    private func text(of key: Key) -> String {
        assert(
            key.start >= 0 && key.start + key.length <= (key.isDecoded ? decodedKeys.count : count),
            "a key outside its bytes")
        if key.isDecoded {
            return decodedKeys.withUnsafeBufferPointer {
                String(decoding: $0[key.start..<key.start + key.length], as: UTF8.self)
            }
        }
        return String(decoding: UnsafeBufferPointer(start: base + key.start, count: key.length), as: UTF8.self)
    }

    // MARK: - Values

    @inline(__always)
    private mutating func appendNull(
        at offset: Int, into writer: IngredientIndex.UncheckedWriter
    ) throws(YAMLIndexBail) {
        awaitingValue = false
        try countNode()
        noteValue()
        writer.null(at: offset)
    }

    /// Appends a scalar that stands as a value: a plain one as the schema
    /// resolves it, a quoted one as a string, `[]` and `{}` as empty
    /// collections.
    private mutating func appendValue(
        _ scalar: Scalar, into writer: IngredientIndex.UncheckedWriter
    ) throws(YAMLIndexBail) {
        switch scalar.style {
        case .emptyArray, .emptyDictionary:
            guard frames.count + depthOffset < limits.maximumDepth else { throw YAMLIndexBail() }
            try countNode()
            noteValue()
            if scalar.style == .emptyArray {
                writer.emptyArray(at: scalar.start)
            } else {
                writer.emptyDictionary(at: scalar.start)
            }
            return
        case .singleQuoted, .doubleQuoted:
            try countNode()
            noteValue()
            try appendString(scalar, into: writer)
            return
        case .plain:
            break
        }
        try countNode()
        noteValue()
        assert(
            scalar.start >= 0 && scalar.length > 0 && scalar.start + scalar.length <= count,
            "a plain scalar outside the input")
        let bytes = UnsafeRawBufferPointer(start: base + scalar.start, count: scalar.length)
        let first = bytes[0]
        let numeric = YAMLScalarResolver.isDigit(first) || first == UInt8(ascii: "-") || first == UInt8(ascii: "+")
        // The event path refuses a number longer than the limit: left to it,
        // whatever the text turns out to be.
        if numeric, bytes.count > limits.maximumNumberLength { throw YAMLIndexBail() }
        if numeric, first != UInt8(ascii: "+"), let isInteger = Self.jsonNumber(bytes) {
            // A JSON literal is what the resolver classifies it as, read from
            // the same bytes when the bake asks: no conversion now.
            writer.number(literalAt: scalar.start, count: scalar.length, isInteger: isInteger)
            return
        }
        guard let resolved = YAMLScalarResolver.resolvePlainUnlessString(bytes, schema: schema) else {
            do { try writer.string(bytesAt: scalar.start, count: scalar.length) } catch {
                throw YAMLIndexBail()
            }
            return
        }
        switch resolved {
        case .null: writer.null(at: scalar.start)
        case .bool(let flag): writer.bool(flag, at: scalar.start)
        case .integer, .float, .exactNumber:
            do { try writer.number(resolved, at: scalar.start, textAtOffset: true) } catch {
                throw YAMLIndexBail()
            }
        case .string, .array, .dictionary:
            // The resolver makes nothing else of a plain scalar.
            throw YAMLIndexBail()
        }
    }

    /// Appends a key, or a quoted value, as a string.
    @inline(__always)
    private func appendString(_ scalar: Scalar, into writer: IngredientIndex.UncheckedWriter) throws(YAMLIndexBail) {
        do {
            switch scalar.style {
            case .plain:
                try writer.string(bytesAt: scalar.start, count: scalar.length)
            case .singleQuoted, .doubleQuoted:
                if scalar.isDecoded {
                    try writer.string(decoded: scratch.bytes, at: scalar.start)
                } else {
                    try writer.string(bytesAfterQuoteAt: scalar.start, count: scalar.length)
                }
            case .emptyArray, .emptyDictionary:
                throw YAMLIndexBail()
            }
        } catch {
            throw YAMLIndexBail()
        }
    }

    /// Whether `bytes` are a JSON number literal, and if so whether it is
    /// an integer (no fraction, no exponent); `nil` when they are not one.
    @inline(__always)
    static func jsonNumber(_ bytes: UnsafeRawBufferPointer) -> Bool? {
        let n = bytes.count
        var i = 0
        if bytes[0] == UInt8(ascii: "-") { i = 1 }
        guard i < n else { return nil }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            guard YAMLScalarResolver.isDigit(bytes[i]) else { return nil }
            while i < n, YAMLScalarResolver.isDigit(bytes[i]) { i += 1 }
        }
        var isInteger = true
        if i < n, bytes[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            let digits = i
            while i < n, YAMLScalarResolver.isDigit(bytes[i]) { i += 1 }
            guard i > digits else { return nil }
        }
        if i < n, bytes[i] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            i += 1
            if i < n, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
            let digits = i
            while i < n, YAMLScalarResolver.isDigit(bytes[i]) { i += 1 }
            guard i > digits else { return nil }
        }
        return i == n ? isInteger : nil
    }
}
