import EasyBake

/// Builds an index straight from libxml2's callbacks, with no
/// `IngredientEvent` and no `String` per key or text: how the XML reader
/// fills the fast core, through the core's public
/// ``IngredientIndex/UncheckedWriter`` (the writes a format vouches for), as
/// a format outside the package could.
///
/// It holds exactly what the index's builder from events would build from
/// the same values under ``DuplicateKeyPolicy/collect`` (the policy of every
/// source of elements): each key once, in order of first appearance, a
/// repeated key's values gathered into an array in document order, a value
/// that is itself an array kept as one element. It counts nodes as the tree
/// builder does (one per dictionary, array and scalar) and reports the node
/// limit the same way: the caller turns a `false` into
/// ``nodeLimitError(at:)`` at the value's location.
///
/// Keys are small integers (``keyID(_:)-(UnsafeRawBufferPointer)``) that
/// the caller looks up once per distinct name and caches, so finding a
/// repeated key hashes and compares no bytes. Repeats that follow each other
/// (`<tags>a</tags><tags>b</tags>`, the usual case in XML) are gathered in
/// place (``IngredientIndex/UncheckedWriter/beginGathering(valueAt:)``); a
/// dictionary whose repeats are apart is rewritten once, when it closes
/// (``IngredientIndex/UncheckedWriter/gatherRepeatedKeys(ofDictionaryAt:members:distinctKeys:scratch:)``).
///
/// Its stacks are `GrowableBuffer`s, the package's one hand-managed buffer
/// (a `package` type, not index API): a format outside the package would
/// keep them in arrays or buffers of its own.
///
/// ```swift
/// var builder = XMLIndexBuilder(building: &index, maximumNodes: limits.maximumNodes)
/// defer { builder.deallocate() }
/// let name = builder.keyID("name")
/// _ = builder.beginDictionary()          // {
/// try builder.key(name)                  //   "name":
/// _ = try builder.string(bytes)          //   "…"
/// try builder.endDictionary()            // }
/// ```
struct XMLIndexBuilder {
    typealias Member = IngredientIndex.UncheckedWriter.Member

    /// One open dictionary.
    private struct Frame {
        /// The position of its entry.
        let position: Int
        /// Where its distinct keys begin in `openKeys`.
        let keyStart: Int
        /// Where its members begin in `members`.
        let memberStart: Int
        /// The distinct key (from `keyStart`) of its last member; `-1` before any.
        var lastKey = -1
        /// The position of its last member's value (a gathered array, once gathered).
        var lastValue = 0
        /// Whether a key repeated apart from its previous member.
        var needsRewrite = false
    }

    /// A key held by an open dictionary, and what ``firstPositions``
    /// held for its ID before (restored when the dictionary closes).
    private struct OpenKey {
        let id: Int32
        let saved: Int32
    }

    /// The bytes of one interned key, and the index's shared copy of them
    /// once written (`nil` before).
    private struct KeyName {
        let start: Int
        let count: Int
        var shared: IngredientIndex.UncheckedWriter.SharedString?
    }

    // Called for every key and value: the state lives in manually
    // managed stacks (`GrowableBuffer`), read and written through plain
    // pointers, with no uniqueness check or retain per access; and the
    // builder is a struct its owner keeps in place, so that calling it
    // retains nothing either. The owner frees it with `deallocate()`.
    private var writer: IngredientIndex.UncheckedWriter
    /// What ``detach()`` points the builder at, so that it holds no index's
    /// memory between two values of a stream (memory held twice would be
    /// copied by the index's next change): made once, with the builder.
    private let detached = IngredientIndex.UncheckedWriter()
    /// The memory a dictionary's rewrite works in, kept for the next.
    private var scratch = IngredientIndex.UncheckedWriter.GatheringScratch()
    private let locatedByLines: Bool
    private let sourceName: String?
    private let maximumNodes: Int
    private var nodes = 0
    private var frames = GrowableBuffer<Frame>()
    /// The members of the open dictionaries: which distinct key each has,
    /// and whether its value is an array of repeats gathered in place.
    private var members = GrowableBuffer<Member>()
    /// The distinct keys of the open dictionaries, innermost last.
    private var openKeys = GrowableBuffer<OpenKey>()
    /// For each key ID, the position in `openKeys` of its innermost
    /// occurrence, or stale: a sparse set, so that finding a key in the
    /// innermost dictionary is one look-up whatever its size.
    private var firstPositions = GrowableBuffer<Int32>()
    private var keyNames = GrowableBuffer<KeyName>()
    private var keyIDs: [[UInt8]: Int32] = [:]
    private var keyBytes = GrowableBuffer<UInt8>()
    /// The position of the gathered array the next value joins, or `-1`.
    private var gathering = -1
    /// Where the next value begins in the input, as the index's source
    /// offset (a line and column, see
    /// ``IngredientIndex/lineColumnOffset(line:column:)``); 0 when unknown.
    var valueOffset = 0

    /// Frees the builder's memory; it is not used again.
    func deallocate() {
        frames.deallocate()
        members.deallocate()
        openKeys.deallocate()
        firstPositions.deallocate()
        keyNames.deallocate()
        keyBytes.deallocate()
    }

    /// A builder of `index` (emptied first), marked with XML's traits
    /// (``IngredientTraits/markup``). The index must not be
    /// read or changed otherwise until the builder is done and dropped.
    /// With `locatedByLines`, the ``valueOffset``s given are lines and
    /// columns (``IngredientIndex/lineColumnOffset(line:column:)``), which
    /// ``IngredientIndex/mark(at:)`` turns into locations in `sourceName`:
    /// how a bake error on an XML index gets its line and column.
    init(
        building index: inout IngredientIndex, maximumNodes: Int, locatedByLines: Bool = false,
        sourceName: String? = nil
    ) {
        writer = index.beginUncheckedWriting(
            sourceName: sourceName, traits: .markup,
            offsetsAreLinesAndColumns: locatedByLines)
        self.locatedByLines = locatedByLines
        self.sourceName = sourceName
        self.maximumNodes = maximumNodes
    }

    /// Makes the builder fill `index` next (emptied first, its memory
    /// kept), as a new builder would, but keeping the key IDs it gave
    /// out: so one builder serves value after value of a stream (XML's
    /// records) and its callers' cached IDs stay good. The node count
    /// starts again: the node limit holds for each value.
    mutating func restart(building index: inout IngredientIndex) {
        writer = index.beginUncheckedWriting(
            sourceName: sourceName, traits: .markup,
            offsetsAreLinesAndColumns: locatedByLines)
        nodes = 0
        frames.count = 0
        members.count = 0
        openKeys.count = 0
        gathering = -1
        valueOffset = 0
        // A value that failed may have left keys open; and each key is
        // written to the new index afresh.
        for id in 0..<keyNames.count {
            firstPositions[id] = Int32.max
            keyNames[id].shared = nil
        }
    }

    /// Lets go of the index being built, which the builder must not
    /// change again until ``restart(building:)``: a builder that held an
    /// index's memory between two values of a stream would have it
    /// copied by the index's next change.
    mutating func detach() {
        writer = detached
    }

    /// Makes room at once for the index of a document of about
    /// `inputBytes` bytes, so that the index's memory, which would
    /// double again and again, is copied less.
    func reserve(forInputBytes inputBytes: Int) {
        // About one entry per 12 bytes of markup, and a third of the
        // bytes as text; at most 64 MiB of each, so that a large
        // document of long texts does not get room it never fills.
        let bytes = max(inputBytes, 0)
        writer.reserve(entries: min(bytes / 12, 1 << 22), arenaBytes: min(bytes / 3, 1 << 26))
    }

    /// Whether every dictionary opened was closed (or none opened).
    var isEmpty: Bool { frames.count == 0 }

    /// The error for passing the node limit, at `location` (the value's),
    /// worded by the one limit error every builder uses.
    func nodeLimitError(at location: SourceLocation) -> EasyBakeError {
        EasyBakeError.limit(.maximumNodes, maximumNodes, at: location)
    }

    // MARK: Keys

    /// The ID of the key made of `bytes` (UTF-8): the same bytes give the
    /// same ID. Hashes the bytes; callers cache the ID per name.
    mutating func keyID(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        let key = [UInt8](bytes)
        if let id = keyIDs[key] { return id }
        let id = Int32(keyNames.count)
        keyNames.append(KeyName(start: keyBytes.count, count: key.count))
        key.withUnsafeBufferPointer { if let base = $0.baseAddress { keyBytes.append(base, count: $0.count) } }
        firstPositions.append(Int32.max)
        keyIDs[key] = id
        return id
    }

    /// The ID of the key `key` (see ``keyID(_:)-(UnsafeRawBufferPointer)``).
    mutating func keyID(_ key: String) -> Int32 {
        var key = key
        return key.withUTF8 { keyID(UnsafeRawBufferPointer($0)) }
    }

    /// The key with ID `id` in the innermost dictionary: its value is the
    /// next value. A key the dictionary holds already is not written
    /// again: the value joins the first one's (gathered into an array).
    mutating func key(_ id: Int32) throws(EasyBakeError) {
        assert(frames.count > 0, "a key outside a dictionary")
        assert(id >= 0 && Int(id) < keyNames.count, "a key ID this builder did not give out")
        let top = frames.count - 1
        let frame = frames[top]
        let found = Int(firstPositions[Int(id)])
        if found >= frame.keyStart, found < openKeys.count, openKeys[found].id == id {
            let distinct = found - frame.keyStart
            if distinct == frame.lastKey {
                // The previous member has this key: its value becomes
                // (or already is) an array the next value joins.
                if !members[members.count - 1].isGathered {
                    writer.beginGathering(valueAt: frame.lastValue)
                    members[members.count - 1].isGathered = true
                }
                gathering = frame.lastValue
                return
            }
            try finishGathered(top)
            frames[top].needsRewrite = true
            frames[top].lastKey = distinct
            members.append(Member(key: Int32(distinct)))
            // The key is written again, so that the members still read
            // as key and value, and dropped by the rewrite.
            try appendKey(id)
            return
        }
        try finishGathered(top)
        openKeys.append(OpenKey(id: id, saved: firstPositions[Int(id)]))
        firstPositions[Int(id)] = Int32(openKeys.count - 1)
        let distinct = openKeys.count - 1 - frame.keyStart
        frames[top].lastKey = distinct
        members.append(Member(key: Int32(distinct)))
        try appendKey(id)
    }

    private mutating func appendKey(_ id: Int32) throws(EasyBakeError) {
        var name = keyNames[Int(id)]
        if name.shared == nil {
            // Written to the index once per index; every entry of the key
            // points at the same bytes.
            name.shared = try writer.share(UnsafeRawBufferPointer(start: keyBytes.base + name.start, count: name.count))
            keyNames[Int(id)] = name
        }
        writer.string(name.shared!)
    }

    // MARK: Values

    /// Counts a value against the node limit and notes where it starts
    /// in its dictionary; `false` when the limit is passed.
    @inline(__always)
    private mutating func beginValue() -> Bool {
        nodes &+= 1
        if nodes > maximumNodes { return false }
        if gathering >= 0 {
            writer.addGatheredElement(toArrayAt: gathering)
            gathering = -1
        } else if frames.count > 0 {
            frames[frames.count - 1].lastValue = writer.count
        }
        return true
    }

    /// Opens a dictionary: the next value of the innermost one, or the
    /// top value. `false` when it passes the node limit.
    mutating func beginDictionary() -> Bool {
        guard beginValue() else { return false }
        frames.append(Frame(position: writer.count, keyStart: openKeys.count, memberStart: members.count))
        writer.beginDictionary(at: valueOffset)
        return true
    }

    /// Closes the innermost dictionary.
    mutating func endDictionary() throws(EasyBakeError) {
        assert(frames.count > 0, "a dictionary closed that was not open")
        let top = frames.count - 1
        let frame = frames[top]
        try finishGathered(top)
        let memberCount = members.count - frame.memberStart
        let distinctCount = openKeys.count - frame.keyStart
        try writer.endContainer(elements: memberCount)
        if frame.needsRewrite {
            try writer.gatherRepeatedKeys(
                ofDictionaryAt: frame.position,
                members: UnsafeBufferPointer(start: members.base + frame.memberStart, count: memberCount),
                distinctKeys: distinctCount, scratch: &scratch)
        }
        var i = openKeys.count
        while i > frame.keyStart {
            i -= 1
            firstPositions[Int(openKeys[i].id)] = openKeys[i].saved
        }
        openKeys.count -= distinctCount
        members.count -= memberCount
        frames.count -= 1
    }

    /// A string value; `false` when it passes the node limit.
    mutating func string(_ bytes: UnsafeRawBufferPointer) throws(EasyBakeError) -> Bool {
        guard beginValue() else { return false }
        try writer.string(decoded: bytes, at: valueOffset)
        return true
    }

    /// A null value; `false` when it passes the node limit.
    mutating func null() -> Bool {
        guard beginValue() else { return false }
        writer.null(at: valueOffset)
        return true
    }

    /// An empty array or dictionary; `false` when it passes the node limit.
    mutating func emptyContainer(_ kind: IngredientIndex.Kind) -> Bool {
        assert(kind == .array || kind == .dictionary, "an empty container of no container kind")
        guard beginValue() else { return false }
        if kind == .array { writer.emptyArray(at: valueOffset) } else { writer.emptyDictionary(at: valueOffset) }
        return true
    }

    // MARK: Gathering

    /// Closes the innermost dictionary's last member once no more values
    /// join it, when it is a gathered array.
    @inline(__always)
    private mutating func finishGathered(_ top: Int) throws(EasyBakeError) {
        guard frames[top].lastKey >= 0, members[members.count - 1].isGathered else { return }
        try writer.endGathering(arrayAt: frames[top].lastValue)
    }
}
