import Foundation

// One file of about 650 lines, on purpose: split into a file for the reads
// and one for the appends, the optimizer stopped inlining the entry reads
// (`Kind(rawValue:)` in `kind(at:)`, `utf8(at:)`), which cost a JSON bake
// 1.9% more instructions (callgrind, `bake/json/EasyBake` on 1 MB).

/// A flat index of one document or one record: every value as a fixed-size
/// entry in one contiguous buffer, in document order, pointing back into the
/// input's bytes.
///
/// The index is the fast core's view of a payload. A tree of ``Ingredients``
/// allocates a node per value and a `String` per key and string; the index
/// allocates nothing per value. Strings and numbers stay byte ranges of the
/// input until someone asks for them — most keys are compared as bytes and
/// never become `String`s — and a container records how many entries it
/// spans, so skipping a value of any size is one addition.
///
/// Entries are laid out depth first. A container's entry is followed by its
/// contents: an array's elements, or a dictionary's keys and values
/// alternating (a key is a string entry). The entry after a value's last
/// descendant is its next sibling.
///
/// ```
/// {"id": 7, "tags": ["a"]}
///
/// 0  dictionary  spans 5, 2 members
/// 1  string      "id"
/// 2  integer     7
/// 3  string      "tags"
/// 4  array       spans 1, 1 element
/// 5  string      "a"
/// ```
///
/// One index is reused from record to record: ``removeAll()`` keeps its
/// capacity, so a stream of records costs no allocation once the largest
/// has been seen. Each format's source builds it (the JSON scanner straight
/// from bytes); bytes a source cannot point into — an XML text with
/// entities, decoded — live in the index's own arena. A JSON string with
/// escapes stays a range of the input, decoded when it is read.
// The storage is a class that only a uniquely referenced index writes to
// (copy on write), so an index crosses threads as safely as an `Array`.
public struct IngredientIndex: @unchecked Sendable {
    /// What an entry holds.
    public enum Kind: UInt8, Sendable, Hashable, CaseIterable {
        /// An explicit null.
        case null
        /// The boolean `false`.
        case `false`
        /// The boolean `true`.
        case `true`
        /// A number literal without a fraction or an exponent (it may still
        /// be too large for 64 bits).
        case integer
        /// A number literal with a fraction or an exponent.
        case float
        /// A string, its UTF-8 bytes validated.
        case string
        /// An array.
        case array
        /// A dictionary.
        case dictionary
    }

    /// One value: 8 bytes, a word whose top byte holds the kind and its
    /// flags, and whose 56 bits below hold, by kind:
    ///
    /// - a string or number whose bytes are the input's: its source offset
    ///   (36 bits) above its length in bytes (20 bits);
    /// - a string or number whose bytes are the arena's (``arenaFlag``):
    ///   where they start there (36 bits) above their length (20 bits);
    ///   the 8 bytes before them hold the source offset, unless
    ///   ``unlocatedFlag`` says it is 0 and they are not written;
    /// - `null`, `false`, `true`: the source offset;
    /// - an array or a dictionary: the position of its ``Extra`` (28
    ///   bits), which holds its source offset and element count, above how
    ///   many entries it spans (28 bits); with ``compactFlag``, no extra,
    ///   and its offset before its first element's in place of its
    ///   position;
    /// - anything larger, a number held as its value (``inlineFlag``), and
    ///   a string kept escaped (``escapedFlag``): ``wideFlag`` set, and the
    ///   position of its ``Extra``, which holds the rest.
    ///
    /// Half the 16 bytes an entry took before: writing the index of a large
    /// document is mostly writing fresh memory, so its size is its speed.
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline var word: UInt64

        @inlinable
        init(word: UInt64) { self.word = word }

        @inlinable
        init(_ kindByte: UInt8, payload: UInt64) {
            assert(payload <= IngredientIndex.payloadMask, "an entry's payload past its 56 bits")
            word = UInt64(kindByte) << 56 | payload
        }

        /// The kind and its flags.
        @inlinable var kindByte: UInt8 { UInt8(truncatingIfNeeded: word >> 56) }
        /// The 56 bits below the kind byte.
        @inlinable var payload: UInt64 { word & IngredientIndex.payloadMask }
        /// An array's or a dictionary's: whatever its flags, a kind whose
        /// two low bits (of three) are set.
        @inlinable var isContainer: Bool { kindByte & 0x06 == 0x06 }
        /// A container's extra, or a wide value's.
        @inlinable var extraPosition: Int {
            kindByte & IngredientIndex.wideFlag != 0
                ? Int(truncatingIfNeeded: payload)
                : Int(truncatingIfNeeded: payload >> IngredientIndex.extraShift)
        }
    }

    /// What an entry has no room for: a container's source offset and
    /// element count (and its span, when wide); a wide string's or number's
    /// source offset and length (and its arena start); a number's value.
    @usableFromInline
    struct Extra: Sendable {
        @usableFromInline var sourceOffset: UInt64
        /// A container's element count; a wide value's length, or its
        /// arena start; a number's low 32 bits.
        @usableFromInline var low: UInt32
        /// A wide container's span; a wide arena value's length; a number's
        /// high 32 bits.
        @usableFromInline var high: UInt32

        @inlinable
        init(sourceOffset: UInt64, low: UInt32, high: UInt32) {
            self.sourceOffset = sourceOffset
            self.low = low
            self.high = high
        }
    }

    /// Set in an entry's kind byte when its bytes live in the arena.
    @usableFromInline static let arenaFlag: UInt8 = 0x80
    /// Set in an entry's kind byte when a number is held as its value (a
    /// source that resolved it already: YAML, a tree), its 64 bits in its
    /// ``Extra`` (with ``wideFlag``).
    @usableFromInline static let inlineFlag: UInt8 = 0x40
    /// Set in a string's kind byte when its offset is its first byte, not an
    /// opening quote before it (a YAML plain scalar: see `IngredientIndex+YAML.swift`);
    /// in a resolved number's, when its text begins at its offset in the
    /// input (a YAML plain scalar that is no JSON literal, `01234`).
    @usableFromInline static let unquotedFlag: UInt8 = 0x20
    /// Set in a container's kind byte when it holds no ``Extra``: each of
    /// its elements (and keys) is one entry, so its element count is its
    /// span (half of it for a dictionary), and its payload holds, above its
    /// span, how far its source offset lies before its first element's.
    /// An array of two coordinates is 8 bytes where it was 24. The bit is
    /// ``unquotedFlag``'s, which only strings and numbers carry.
    @usableFromInline static let compactFlag: UInt8 = 0x20
    /// Set when the payload is the position of the entry's ``Extra``.
    @usableFromInline static let wideFlag: UInt8 = 0x10
    /// Set in an arena value's kind byte when its source offset is 0 and
    /// not written before its bytes (a tree's string, an XML name).
    @usableFromInline static let unlocatedFlag: UInt8 = 0x08
    @usableFromInline static let kindMask: UInt8 = 0x07
    @usableFromInline static let payloadMask: UInt64 = (1 << 56) - 1
    /// A string's or number's length: the low 20 bits.
    @usableFromInline static let lengthMask: UInt64 = (1 << 20) - 1
    /// Where the start of a string or number begins in the payload.
    @usableFromInline static let startShift: UInt64 = 20
    /// The first start too far for 36 bits.
    @usableFromInline static let startLimit = 1 << 36
    /// A container's span: the low 28 bits, the position of its extra
    /// above them (the span is read far more often).
    @usableFromInline static let spanMask: UInt64 = (1 << 28) - 1
    @usableFromInline static let extraShift: UInt64 = 28

    /// The entries and the arena, in memory the index manages itself: the
    /// fast core reads them through plain pointers, with no reference
    /// counting or exclusivity check per value. Copy on write keeps
    /// `IngredientIndex` a value.
    // Invariants (asserted where a position or pointer is formed by
    // arithmetic; checked in debug builds only, the hot paths pay nothing):
    // - `entryBuffer` is owned by the storage (a `GrowableBuffer`, freed in
    //   `deinit`), `capacity` entries allocated, the first `count`
    //   initialized (`0 <= count <= capacity`); it lives until the storage
    //   grows (moved to a new allocation) or is freed, so a `Reader` is
    //   good only until the next append.
    // - `arenaBuffer` is owned too: `arenaCapacity` bytes, the first
    //   `arenaCount` written. An arena entry's bytes (and the 8 bytes of its
    //   source offset before them, unless unlocated) lie within `arenaCount`.
    // - `extraBuffer` is owned too; the extra of each container and wide
    //   entry lies within its count. Copies of a value in one index share
    //   their extras (a closed value's extras do not change).
    // - `inputBase ..< inputBase + inputCount` is `input`'s buffer, which
    //   `input` keeps alive; an entry of the input's bytes lies within it
    //   (a string's bytes begin after its opening quote, one byte on).
    // - A container's span counts the entries after it up to its last
    //   descendant, so `position + 1 + span <= count` once it is closed.
    @usableFromInline
    package final class Storage {
        @exclusivity(unchecked) @usableFromInline var entryBuffer: GrowableBuffer<Entry>
        /// Bytes the input does not hold: decoded entities and escapes of
        /// XML and YAML, a tree's strings.
        @exclusivity(unchecked) @usableFromInline var arenaBuffer: GrowableBuffer<UInt8>
        /// What containers and wide entries hold beyond their entry.
        @exclusivity(unchecked) @usableFromInline var extraBuffer: GrowableBuffer<IngredientIndex.Extra>
        /// The input the entries point into, and its first byte.
        @exclusivity(unchecked) @usableFromInline var input: LoadedBytes?
        @exclusivity(unchecked) @usableFromInline var inputBase: UnsafeRawPointer?
        @exclusivity(unchecked) @usableFromInline var inputCount = 0
        /// The input's name, for error locations.
        var sourceName: String?
        /// Whether the entries' source offsets are lines and columns
        /// (``IngredientIndex/lineColumnOffset(line:column:)``) rather than
        /// byte offsets: a source read through a parser that counts lines,
        /// not bytes (XML), into an index without its input.
        var offsetsAreLineColumns = false
        /// For an index of lines and columns: the input, read again only for
        /// the line an error shows (a file or bytes; never standard input).
        var lineTextInput: IngredientInput?
        /// The traits of the source the values were read from (see
        /// ``IngredientSource/traits``).
        var traits: IngredientTraits = []
        /// Where each open container's entry is, while the index is built.
        @exclusivity(unchecked) @usableFromInline var openContainers = GrowableBuffer<Int>()
        /// Working memory a format's builder keeps with an index it builds
        /// again (the JSON structural build's container stack and checks),
        /// so that a stream reusing one index for every record allocates it
        /// once. The core never reads it, and a copy starts without.
        package var builderScratch: AnyObject?
        /// Whether a builder has built into this storage before: a builder
        /// keeps its scratch from the second build on, so that an index
        /// built once (a document's, a tree's, of which a program may keep
        /// thousands) holds none.
        package var hasBeenBuilt = false

        @usableFromInline
        init(capacity: Int = 64, arenaCapacity: Int = 0) {
            entryBuffer = GrowableBuffer(capacity: capacity)
            arenaBuffer = GrowableBuffer(capacity: arenaCapacity)
            // Allocated by the first container: a storage made for a value
            // of scalars (or a placeholder) allocates none.
            extraBuffer = GrowableBuffer(capacity: 0)
        }

        deinit {
            entryBuffer.deallocate()
            arenaBuffer.deallocate()
            extraBuffer.deallocate()
            openContainers.deallocate()
        }

        // The buffers' parts, by the names the builders and readers use.
        @inlinable var entries: UnsafeMutablePointer<Entry> { entryBuffer.base }
        @inlinable var count: Int {
            get { entryBuffer.count }
            set { entryBuffer.setCount(newValue) }
        }
        @inlinable var capacity: Int { entryBuffer.capacity }
        @inlinable var arena: UnsafeMutableRawPointer { UnsafeMutableRawPointer(arenaBuffer.base) }
        @inlinable var arenaCount: Int {
            get { arenaBuffer.count }
            set { arenaBuffer.setCount(newValue) }
        }
        @inlinable var arenaCapacity: Int { arenaBuffer.capacity }
        @inlinable var extras: UnsafeMutablePointer<IngredientIndex.Extra> { extraBuffer.base }

        @usableFromInline
        func copy() -> Storage {
            let copy = Storage(capacity: capacity, arenaCapacity: arenaCapacity)
            copy.entries.initialize(from: entries, count: count)
            copy.count = count
            copy.arena.copyMemory(from: arena, byteCount: arenaCount)
            copy.arenaCount = arenaCount
            copy.extraBuffer.append(extraBuffer.base, count: extraBuffer.count)
            copy.input = input
            copy.inputBase = inputBase
            copy.inputCount = inputCount
            copy.sourceName = sourceName
            copy.offsetsAreLineColumns = offsetsAreLineColumns
            copy.lineTextInput = lineTextInput
            copy.traits = traits
            copy.openContainers.append(openContainers.base, count: openContainers.count)
            return copy
        }

        /// Room for `more` entries after the last.
        @inlinable
        func reserve(_ more: Int) { entryBuffer.reserve(more) }

        // The growth is the storage's own call, not the buffer's: called on
        // the storage, which the appending code (a method of the storage)
        // holds in the self register already, it costs the hot path no
        // register; and the count is read and raised as two accesses of the
        // storage, which compile to an increment in memory. Through the
        // buffer's own `append` every append paid two or three instructions
        // more (callgrind, JSON index of 9 MB: +0.5%).
        @inlinable @inline(__always)
        func append(_ entry: Entry) {
            if entryBuffer.count == entryBuffer.capacity { growEntries() }
            assert(entryBuffer.count < entryBuffer.capacity, "an entry appended past the storage's capacity")
            (entryBuffer.base + entryBuffer.count).initialize(to: entry)
            entryBuffer.count &+= 1
        }

        @usableFromInline @inline(never)
        func growEntries() { entryBuffer.grow(to: entryBuffer.count + 1) }

        /// Appends bytes to the arena (never the arena's own: growing it
        /// would free them); returns where they start.
        func appendToArena(_ bytes: UnsafeRawBufferPointer) -> Int {
            let start = arenaCount
            if let base = bytes.baseAddress, bytes.count > 0 {
                arenaBuffer.append(base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
            }
            return start
        }

        /// Appends an extra; returns its position.
        @inlinable
        func appendExtra(_ extra: IngredientIndex.Extra) -> Int {
            extraBuffer.append(extra)
            return extraBuffer.count &- 1
        }
    }

    @usableFromInline var storage = Storage()

    /// The storage to build the index through, checked for uniqueness once:
    /// a builder that appends many entries (the JSON scanner) appends through
    /// it and through nothing else until it is done.
    package var storageForBuilding: Storage {
        mutating get { uniqueStorage }
    }

    /// The index's memory as plain pointers: what every read goes through.
    /// Valid until the index is next changed (which may move its memory) or
    /// freed. It holds no reference: whoever reads through it keeps the
    /// index (and so its storage and input) alive meanwhile.
    @usableFromInline
    struct Reader {
        @usableFromInline let entries: UnsafeMutablePointer<Entry>
        @usableFromInline let count: Int
        @usableFromInline let arena: UnsafeMutableRawPointer
        @usableFromInline let extras: UnsafeMutablePointer<Extra>
        @usableFromInline let inputBase: UnsafeRawPointer?

        @inlinable
        init(_ storage: Storage) {
            entries = storage.entries
            count = storage.count
            arena = storage.arena
            extras = storage.extras
            inputBase = storage.inputBase
        }
    }

    /// A reader of the index as it is now.
    @inlinable
    var reader: Reader { Reader(storage) }

    /// The storage, copied first if another index shares it.
    @inlinable
    var uniqueStorage: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
            return storage
        }
    }

    /// An empty index.
    public init() {}

    /// The number of entries: every value, and every key of a dictionary.
    @inlinable
    public var count: Int { storage.count }

    /// The input's name, for error locations.
    package var sourceName: String? { storage.sourceName }

    /// The traits of the values the index holds: those of the source it was
    /// read from (``IngredientSource/traits``), or
    /// ``IngredientTraits/dictionariesAreElements`` for a tree whose root is
    /// an element. Paths and baking read the index by them: with
    /// ``IngredientTraits/dictionariesAreElements``, `[*]` takes a
    /// dictionary as one element. Emptying the index clears them; a format
    /// that builds the index itself declares them as it begins
    /// (``write(input:sourceName:limits:traits:_:)``).
    public internal(set) var traits: IngredientTraits {
        get { storage.traits }
        set { uniqueStorage.traits = newValue }
    }

    /// Empties the index, keeping its memory for the next document or record.
    public mutating func removeAll() {
        let storage = uniqueStorage
        Self.removeEntries(of: storage)
        storage.input = nil
        storage.inputBase = nil
        storage.inputCount = 0
        storage.sourceName = nil
    }

    /// Empties `storage` of its entries, keeping the input they refer to.
    private static func removeEntries(of storage: Storage) {
        storage.restartBuilding()
        storage.offsetsAreLineColumns = false
        storage.lineTextInput = nil
        storage.traits = []
    }

    /// The entry at `position`.
    @inlinable
    func entry(_ position: Int) -> Entry {
        precondition(position >= 0 && position < storage.count, "index position out of range")
        return storage.entries[position]
    }
}

// MARK: - Reading, through plain pointers

// The reads live on the reader, a struct of plain pointers, so that the
// fast core reads with no retain, release or exclusivity check per value.

extension IngredientIndex.Reader {
    @inlinable
    func entry(_ position: Int) -> IngredientIndex.Entry {
        precondition(position >= 0 && position < count, "index position out of range")
        return entries[position]
    }

    /// The kind of the entry at `position`.
    @inlinable
    func kind(at position: Int) -> IngredientIndex.Kind {
        // Every head was written from a `Kind`, so its raw value is valid.
        IngredientIndex.Kind(rawValue: entry(position).kindByte & IngredientIndex.kindMask)!
    }

    /// The position of the value after the one at `position` (its next
    /// sibling, or the end of its container): the skip of any value is one
    /// addition.
    @inlinable @inline(__always)
    func end(of position: Int) -> Int { end(of: position, entry: entry(position)) }

    /// ``end(of:)`` of the value at `position`, whose entry is `entry`.
    @inlinable @inline(__always)
    func end(of position: Int, entry: IngredientIndex.Entry) -> Int {
        guard entry.isContainer else { return position &+ 1 }
        if _fastPath(entry.kindByte & IngredientIndex.wideFlag == 0) {
            return position &+ 1
                &+ Int(truncatingIfNeeded: entry.word & IngredientIndex.spanMask)
        }
        return wideEnd(of: position)
    }

    /// ``sourceOffset(at:)`` of a compact container: its first element's,
    /// less the distance its payload holds.
    @usableFromInline @inline(never)
    func compactSourceOffset(at position: Int) -> Int {
        sourceOffset(ofElement: entry(position &+ 1))
            &- Int(truncatingIfNeeded: entry(position).payload >> IngredientIndex.extraShift)
    }

    /// The source offset of `entry`, an element of a compact container (or
    /// of one being closed): a scalar or an empty container, never compact
    /// itself, so its offset is its own.
    @usableFromInline
    func sourceOffset(ofElement entry: IngredientIndex.Entry) -> Int {
        assert(
            !entry.isContainer || entry.kindByte & IngredientIndex.compactFlag == 0,
            "a compact element of a compact container")
        return sourceOffset(ofNonCompact: entry)
    }

    /// ``end(of:)`` of a wide container, whose span is in its extra.
    @usableFromInline @inline(never)
    func wideEnd(of position: Int) -> Int {
        position &+ 1 &+ Int(extras[entry(position).extraPosition].high)
    }

    /// The number of elements of the array, or members of the dictionary, at
    /// `position`; 0 for a scalar.
    @inlinable @inline(__always)
    func elementCount(at position: Int) -> Int {
        let entry = entry(position)
        guard entry.isContainer else { return 0 }
        if entry.kindByte & IngredientIndex.compactFlag != 0 {
            // A dictionary's kind is odd: its span counts keys and values.
            return Int(truncatingIfNeeded: entry.word & IngredientIndex.spanMask) >> Int(entry.kindByte & 1)
        }
        return Int(extras[entry.extraPosition].low)
    }

    /// The byte offset in the input where the value at `position` begins
    /// (for a string, its opening quote or the format's equivalent), for
    /// error locations.
    @inlinable
    func sourceOffset(at position: Int) -> Int {
        let entry = entry(position)
        if entry.isContainer && entry.kindByte & IngredientIndex.compactFlag != 0 {
            return compactSourceOffset(at: position)
        }
        return sourceOffset(ofNonCompact: entry)
    }

    /// ``sourceOffset(at:)`` of an entry that is no compact container.
    @inlinable @inline(__always)
    func sourceOffset(ofNonCompact entry: IngredientIndex.Entry) -> Int {
        let kindByte = entry.kindByte
        if entry.isContainer || kindByte & (IngredientIndex.wideFlag | IngredientIndex.inlineFlag) != 0 {
            return Int(truncatingIfNeeded: extras[entry.extraPosition].sourceOffset)
        }
        if kindByte & IngredientIndex.arenaFlag != 0 {
            if kindByte & IngredientIndex.unlocatedFlag != 0 { return 0 }
            return Int(
                truncatingIfNeeded: UnsafeRawPointer(arena).loadUnaligned(
                    fromByteOffset: Int(truncatingIfNeeded: entry.payload >> IngredientIndex.startShift) - 8,
                    as: UInt64.self))
        }
        return Self.offsetInWord(of: entry)
    }

    /// The source offset of a scalar whose word holds it (neither wide,
    /// inline nor in the arena): a literal's payload is its offset, a
    /// string's or a number's is its offset above its length.
    @inlinable @inline(__always)
    static func offsetInWord(of entry: IngredientIndex.Entry) -> Int {
        if entry.kindByte & IngredientIndex.kindMask < IngredientIndex.Kind.integer.rawValue {
            return Int(truncatingIfNeeded: entry.payload)
        }
        return Int(truncatingIfNeeded: entry.payload >> IngredientIndex.startShift)
    }

    /// Calls `body` with the UTF-8 bytes of the string, or the text of the
    /// number, at `position`; empty bytes for any other kind. A string kept
    /// escaped is decoded for the call.
    @inlinable
    func withUTF8<R>(at position: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let entry = entry(position)
        if _slowPath(isEscaped(entry)) { return try withDecodedUTF8(entry, body) }
        return try body(utf8(at: position))
    }

    /// The UTF-8 bytes of the number's text at `position`, or of the
    /// string's there unless it is kept escaped
    /// (``IngredientIndex/escapedFlag``: ``withUTF8(at:_:)`` decodes it);
    /// empty for any other kind. Valid while the index is neither changed
    /// nor freed.
    @inlinable @inline(__always)
    func utf8(at position: Int) -> UnsafeRawBufferPointer {
        let entry = entry(position)
        let kindByte = entry.kindByte
        let kind = kindByte & IngredientIndex.kindMask
        guard kind >= IngredientIndex.Kind.integer.rawValue, kind <= IngredientIndex.Kind.string.rawValue,
            kindByte & IngredientIndex.inlineFlag == 0
        else {
            assert(!isEscaped(entry), "the bytes of an escaped string read undecoded")
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        if kindByte & IngredientIndex.wideFlag != 0 { return wideUTF8(entry) }
        let start = Int(truncatingIfNeeded: entry.payload >> IngredientIndex.startShift)
        let length = Int(truncatingIfNeeded: entry.word & IngredientIndex.lengthMask)
        if kindByte & IngredientIndex.arenaFlag != 0 {
            return UnsafeRawBufferPointer(start: arena + start, count: length)
        }
        guard let base = inputBase else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: base + start + stringPrefix(kindByte), count: length)
    }

    /// The bytes of a wide string or number (see ``IngredientIndex/Entry``).
    @usableFromInline @inline(never)
    func wideUTF8(_ entry: IngredientIndex.Entry) -> UnsafeRawBufferPointer {
        let extra = extras[entry.extraPosition]
        if entry.kindByte & IngredientIndex.arenaFlag != 0 {
            return UnsafeRawBufferPointer(start: arena + Int(extra.low), count: Int(extra.high))
        }
        guard let base = inputBase else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(
            start: base + Int(truncatingIfNeeded: extra.sourceOffset) + stringPrefix(entry.kindByte),
            count: Int(extra.low))
    }

    /// ``string(at:equals:)`` for a wide string.
    @usableFromInline @inline(never)
    func wideString(_ entry: IngredientIndex.Entry, equals utf8: UnsafeRawBufferPointer) -> Bool {
        guard entry.kindByte & IngredientIndex.kindMask == IngredientIndex.Kind.string.rawValue,
            entry.kindByte & IngredientIndex.wideFlag != 0
        else { return false }
        if isEscaped(entry) { return EscapedText.decoded(wideUTF8(entry), equals: utf8) }
        let bytes = wideUTF8(entry)
        return bytes.count == utf8.count
            && (utf8.count == 0 || memcmp(bytes.baseAddress!, utf8.baseAddress!, utf8.count) == 0)
    }

    /// The 64 bits of a number held as its value; `nil` when the number is
    /// text.
    @inlinable @inline(__always)
    func inlineBits(at position: Int) -> UInt64? {
        let entry = entry(position)
        guard _fastPath(entry.kindByte & IngredientIndex.inlineFlag == 0) else { return extraBits(entry) }
        return nil
    }

    /// The 64 bits of a number held as its value, in its extra.
    @usableFromInline @inline(never)
    func extraBits(_ entry: IngredientIndex.Entry) -> UInt64 {
        let extra = extras[entry.extraPosition]
        return UInt64(extra.low) | UInt64(extra.high) << 32
    }

    /// A string's source offset is its opening quote; its bytes start after
    /// it (whether its entry is wide or not).
    @inlinable
    func stringPrefix(_ kindByte: UInt8) -> Int {
        kindByte & (IngredientIndex.kindMask | IngredientIndex.unquotedFlag | IngredientIndex.arenaFlag)
            == IngredientIndex.Kind.string.rawValue ? 1 : 0
    }

    /// The literal of the number at `position` as the input wrote it
    /// (`1e2`, `1.10`), for a `String` that asks for a number; `nil` for
    /// any other kind, and for a number held as its value only (one a
    /// source resolved from other text, or one from a tree), whose text is
    /// then its value's.
    func numberText(at position: Int, inputCount: Int) -> String? {
        switch kind(at: position) {
        case .integer, .float:
            if entry(position).kindByte & IngredientIndex.unquotedFlag != 0,
                let base = inputBase
            {
                // A plain scalar's number has no quote, space, line end,
                // comment or flow indicator in it: its text runs to the first.
                let start = base + sourceOffset(at: position)
                var length = 0
                while start + length < base + inputCount {
                    switch start.load(fromByteOffset: length, as: UInt8.self) {
                    case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
                        UInt8(ascii: ","),
                        UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "#"):
                        return String(decoding: UnsafeRawBufferPointer(start: start, count: length), as: UTF8.self)
                    default:
                        length += 1
                    }
                }
                return String(decoding: UnsafeRawBufferPointer(start: start, count: length), as: UTF8.self)
            }
            let bytes = utf8(at: position)
            return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
        default:
            return nil
        }
    }

    /// The string at `position` as a `String`; `nil` for any other kind.
    func string(at position: Int) -> String? {
        let entry = entry(position)
        guard entry.kindByte & IngredientIndex.kindMask == IngredientIndex.Kind.string.rawValue else { return nil }
        // A string with the inline bit is kept escaped; testing that bit
        // here lets `utf8(at:)` drop its own tests of the kind and the bit.
        if _slowPath(entry.kindByte & IngredientIndex.escapedFlag != 0) { return decodedString(entry) }
        return String(decoding: utf8(at: position), as: UTF8.self)
    }

    /// Whether the string at `position` is exactly `utf8`: how a key is
    /// found without making a `String` of it.
    ///
    /// Every key of every record is compared so: the entry is read once, and
    /// its bytes found without ``utf8(at:)``'s walk through the kinds.
    @inlinable @inline(__always)
    func string(at position: Int, equals utf8: UnsafeRawBufferPointer) -> Bool {
        string(entry(position), equals: utf8)
    }

    /// ``string(at:equals:)`` of the string whose entry is `entry`.
    @inlinable @inline(__always)
    func string(_ entry: IngredientIndex.Entry, equals utf8: UnsafeRawBufferPointer) -> Bool {
        // One test for the usual case: a string, not wide, of the wanted
        // length (the kind byte but for the flags of where its bytes are,
        // and the length, against what they must be; a length past the
        // entry's field never matches, and goes the wide way).
        let placeFlags =
            UInt64(IngredientIndex.arenaFlag | IngredientIndex.unquotedFlag | IngredientIndex.unlocatedFlag) << 56
        let checked = ~(IngredientIndex.payloadMask ^ IngredientIndex.lengthMask) & ~placeFlags
        let wanted = UInt64(IngredientIndex.Kind.string.rawValue) << 56 | UInt64(truncatingIfNeeded: utf8.count)
        guard entry.word & checked == wanted else {
            return entry.kindByte & (IngredientIndex.kindMask | IngredientIndex.wideFlag)
                == IngredientIndex.Kind.string.rawValue | IngredientIndex.wideFlag && wideString(entry, equals: utf8)
        }
        guard utf8.count > 0 else { return true }
        let kindByte = entry.kindByte
        let offset = Int(truncatingIfNeeded: entry.payload >> IngredientIndex.startShift)
        let start: UnsafeRawPointer
        if kindByte & IngredientIndex.arenaFlag != 0 {
            start = UnsafeRawPointer(arena + offset)
        } else {
            guard let base = inputBase else { return false }
            start = base + offset + stringPrefix(kindByte)
        }
        return ShortBytes.equal(start, utf8.baseAddress!, count: utf8.count)
    }

    /// The value of the integer at `position` when it is one whose literal
    /// has at most 18 digits, or a source resolved it: what ``scalar(at:)``
    /// classifies it as, without the classifier's general walk; `nil` for
    /// any other value, left to ``scalar(at:)``.
    func integer(at position: Int) -> Int64? {
        guard kind(at: position) == .integer else { return nil }
        if let bits = inlineBits(at: position) { return Int64(bitPattern: bits) }
        return NumberClassifier.shortInteger(utf8(at: position))
    }

    /// The value of the number at `position` when it is an integer whose
    /// literal has at most 18 digits, a decimal ``NumberClassifier`` reads
    /// in one division, or a number a source resolved: what ``scalar(at:)``
    /// gives coerced by ``Coercion/double(_:)``, without the classifier's
    /// general walk or an `Ingredients` made; `nil` for any other value,
    /// left to that coercion.
    func double(at position: Int) -> Double? {
        switch kind(at: position) {
        case .integer:
            if let bits = inlineBits(at: position) { return Double(Int64(bitPattern: bits)) }
            return NumberClassifier.shortInteger(utf8(at: position)).map(Double.init)
        case .float:
            if let bits = inlineBits(at: position) { return Double(bitPattern: bits) }
            return NumberClassifier.plainDecimal(utf8(at: position))
        default:
            return nil
        }
    }

    /// The scalar at `position` as ingredients (numbers classified exactly as
    /// every source classifies them); `nil` for a container.
    func scalar(at position: Int) -> Ingredients? {
        switch kind(at: position) {
        case .null: .null
        case .false: .bool(false)
        case .true: .bool(true)
        case .integer, .float:
            if let bits = inlineBits(at: position) {
                kind(at: position) == .integer ? .integer(Int64(bitPattern: bits)) : .float(Double(bitPattern: bits))
            } else {
                Ingredients.number(literal: utf8(at: position))
            }
        case .string:
            // Written out rather than `string(at:)`, which would look at the
            // kind again: every XML scalar comes this way.
            if _slowPath(entry(position).kindByte & IngredientIndex.escapedFlag != 0) {
                .string(decodedString(entry(position)))
            } else {
                .string(String(decoding: utf8(at: position), as: UTF8.self))
            }
        case .array, .dictionary: nil
        }
    }
}

// MARK: - Reading

extension IngredientIndex {
    /// The kind of the entry at `position`.
    @inlinable
    public func kind(at position: Int) -> Kind { reader.kind(at: position) }

    /// The number at `position` as the input wrote it (see
    /// `Reader.numberText(at:inputCount:)`).
    func numberText(at position: Int) -> String? { reader.numberText(at: position, inputCount: storage.inputCount) }

    /// The position of the value after the one at `position` (its next
    /// sibling, or the end of its container): the skip of any value is one
    /// addition.
    @inlinable
    public func end(of position: Int) -> Int { reader.end(of: position) }

    /// The number of elements of the array, or members of the dictionary, at
    /// `position`; 0 for a scalar.
    @inlinable
    public func elementCount(at position: Int) -> Int { reader.elementCount(at: position) }

    /// The byte offset in the input where the value at `position` begins
    /// (for a string, its opening quote or the format's equivalent), for
    /// error locations.
    @inlinable
    public func sourceOffset(at position: Int) -> Int { reader.sourceOffset(at: position) }

    /// The input the index points into.
    public var bytes: LoadedBytes? { storage.input }

    /// A mark of where the value at `position` begins; its line and column
    /// are counted only if asked for.
    public func mark(at position: Int) -> SourceMark? {
        guard let input = storage.input else {
            guard storage.offsetsAreLineColumns else { return nil }
            let offset = sourceOffset(at: position)
            guard offset != 0 else { return nil }
            let location = SourceLocation(
                sourceName: sourceName, line: offset >> Self.columnBits, column: offset & (1 << Self.columnBits - 1))
            guard let input = storage.lineTextInput else { return SourceMark(location) }
            // The line is read again only when the error is shown.
            return SourceMark(deferred: { location.withLineText(from: input) })
        }
        return SourceMark(offset: sourceOffset(at: position), in: input, sourceName: sourceName)
    }

    /// Gives an index whose offsets are lines and columns (written with
    /// `offsetsAreLinesAndColumns`, see
    /// ``beginUncheckedWriting(input:sourceName:traits:offsetsAreLinesAndColumns:)``)
    /// the input an error about one of its values reads that value's line
    /// from, when the error is shown (``mark(at:)``): a file, or bytes in
    /// memory; any other input is not read again, and the error shows no
    /// line. An index of byte offsets finds its lines in the bytes it keeps.
    public mutating func setLineTextInput(_ input: IngredientInput) {
        guard input.filePath != nil || input.isInMemory else { return }
        uniqueStorage.lineTextInput = input
    }

    /// How many bits of a line-and-column source offset hold the column.
    static let columnBits = 24

    /// The source offset that says "line `line`, column `column`" (both
    /// from 1), for an index whose offsets are lines and columns (an XML
    /// index; see
    /// ``beginUncheckedWriting(input:sourceName:traits:offsetsAreLinesAndColumns:)``).
    /// Lines past 2³² and columns past 2²⁴ are clamped; 0 means "unknown".
    public static func lineColumnOffset(line: Int, column: Int) -> Int {
        min(max(line, 0), Int(UInt32.max)) << columnBits | min(max(column, 0), 1 << columnBits - 1)
    }

    /// Calls `body` with the UTF-8 bytes of the string, or the text of the
    /// number, at `position`; empty bytes for any other kind.
    @inlinable
    public func withUTF8<R>(at position: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try reader.withUTF8(at: position, body)
    }

    /// The string at `position` as a `String`; `nil` for any other kind.
    public func string(at position: Int) -> String? { reader.string(at: position) }

    /// Whether the string at `position` is exactly `utf8`: how a key is
    /// found without making a `String` of it.
    @inlinable
    public func string(at position: Int, equals utf8: UnsafeRawBufferPointer) -> Bool {
        reader.string(at: position, equals: utf8)
    }

    /// The scalar at `position` as ingredients (numbers classified exactly as
    /// every source classifies them); `nil` for a container.
    public func scalar(at position: Int) -> Ingredients? { reader.scalar(at: position) }

    @inlinable
    func utf8(at position: Int) -> UnsafeRawBufferPointer { reader.utf8(at: position) }
}

// MARK: - Building

extension IngredientIndex {
    /// Starts an index of a document or record read from `input`.
    package mutating func begin(input: LoadedBytes, sourceName: String?) {
        let storage = uniqueStorage
        Self.removeEntries(of: storage)
        // Record after record of one stream, the input stays: not releasing
        // and retaining it again spares jobs that share it (and its name) a
        // reference count that each of them would write in turn.
        if storage.input !== input {
            storage.input = input
            storage.inputBase = input.buffer.baseAddress
            storage.inputCount = input.buffer.count
        }
        if storage.sourceName != sourceName { storage.sourceName = sourceName }
    }

    /// Appends a scalar that needs no bytes: null, `false` or `true`.
    @inlinable
    package mutating func appendLiteral(_ kind: Kind, at offset: Int) {
        uniqueStorage.appendLiteral(kind, at: offset)
    }

    /// Appends a string whose bytes are `length` bytes of the input after the
    /// opening quote at `offset`.
    @inlinable
    package mutating func appendString(at offset: Int, length: Int) throws(EasyBakeError) {
        try uniqueStorage.appendString(at: offset, length: length)
    }

    /// Appends a string whose bytes (decoded escapes, a tree's string) are
    /// `bytes`; `offset` is where it begins in the input.
    package mutating func appendString(decoded bytes: UnsafeRawBufferPointer, at offset: Int) throws(EasyBakeError) {
        try uniqueStorage.appendString(decoded: bytes, at: offset)
    }

    /// Appends a string (see ``appendString(decoded:at:)-(UnsafeRawBufferPointer,_)``).
    package mutating func appendString(decoded bytes: [UInt8], at offset: Int) throws(EasyBakeError) {
        let failure: EasyBakeError? = bytes.withUnsafeBytes { raw in
            do throws(EasyBakeError) { try appendString(decoded: raw, at: offset) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Appends a string (see ``appendString(decoded:at:)-(UnsafeRawBufferPointer,_)``).
    package mutating func appendString(_ text: String, at offset: Int) throws(EasyBakeError) {
        var text = text
        let failure: EasyBakeError? = text.withUTF8 { utf8 in
            do throws(EasyBakeError) { try appendString(decoded: UnsafeRawBufferPointer(utf8), at: offset) } catch {
                return error
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// Appends a number literal of `length` bytes at `offset` in the input.
    @inlinable
    package mutating func appendNumber(at offset: Int, length: Int, isInteger: Bool) {
        uniqueStorage.appendNumber(at: offset, length: length, isInteger: isInteger)
    }

    /// Appends a number a source has resolved already (see
    /// `Storage.appendNumber(_:at:)`).
    package mutating func appendNumber(_ value: Ingredients, at offset: Int) throws(EasyBakeError) {
        try uniqueStorage.appendNumber(value, at: offset)
    }

    /// Opens an array or a dictionary at `offset`; its contents follow until
    /// ``closeContainer(elements:)``.
    @inlinable
    package mutating func openContainer(_ kind: Kind, at offset: Int) {
        uniqueStorage.openContainer(kind, at: offset)
    }

    /// Closes the innermost open container, which holds `elements` elements
    /// (members, for a dictionary).
    @inlinable
    package mutating func closeContainer(elements: Int) throws(EasyBakeError) {
        try uniqueStorage.closeContainer(elements: elements)
    }

    /// Makes room for `entries` more entries, so that a builder that knows
    /// about how many it will append moves none while it appends.
    package mutating func reserveCapacity(_ entries: Int) {
        let storage = uniqueStorage
        storage.reserve(entries)
        // About one container in eight values, each with an extra.
        storage.extraBuffer.reserve(entries / 8)
    }

    /// Appends copies of the entries at `range` (a value and all it holds;
    /// spans are relative, so a copy reads as the original).
    mutating func appendCopy(of range: Range<Int>) {
        let storage = uniqueStorage
        // The copy goes after the last entry, so it never overlaps the range.
        assert(range.lowerBound >= 0 && range.upperBound <= storage.count, "copying entries the index does not hold")
        storage.reserve(range.count)
        (storage.entries + storage.count).initialize(from: storage.entries + range.lowerBound, count: range.count)
        storage.count += range.count
    }

    /// Replaces the entries from `position` on with `replacement`.
    mutating func replaceEntries(from position: Int, with replacement: ContiguousArray<Entry>) {
        let storage = uniqueStorage
        assert(position >= 0 && position <= storage.count, "replacing entries the index does not hold")
        storage.count = position
        storage.reserve(replacement.count)
        replacement.withUnsafeBufferPointer {
            (storage.entries + position).initialize(from: $0.baseAddress!, count: $0.count)
        }
        storage.count += replacement.count
    }

    @usableFromInline
    static func tooLarge(_ what: String, at offset: Int) -> EasyBakeError {
        EasyBakeError(
            .limitExceeded, "a \(what) at byte \(offset) is larger than one index holds (4 GiB of bytes or 2³² entries)"
        )
    }
}

// MARK: - Building, on the storage

extension IngredientIndex.Storage {
    @inlinable
    package func appendLiteral(_ kind: IngredientIndex.Kind, at offset: Int) {
        assert(offset >= 0 && UInt64(offset) <= IngredientIndex.payloadMask, "a literal's offset past 56 bits")
        append(IngredientIndex.Entry(kind.rawValue, payload: UInt64(truncatingIfNeeded: offset)))
    }

    /// The entry of a string or number of `length` bytes of the input at
    /// `offset`: its offset and length in the entry when they fit, else
    /// in an extra.
    @inlinable @inline(__always)
    func scalarEntry(_ kindByte: UInt8, at offset: Int, length: Int) -> IngredientIndex.Entry {
        if offset < IngredientIndex.startLimit, UInt64(truncatingIfNeeded: length) <= IngredientIndex.lengthMask {
            return IngredientIndex.Entry(
                kindByte,
                payload: UInt64(truncatingIfNeeded: offset) << IngredientIndex.startShift
                    | UInt64(truncatingIfNeeded: length))
        }
        return wideEntry(kindByte, at: offset, length: length)
    }

    @usableFromInline @inline(never)
    func wideEntry(_ kindByte: UInt8, at offset: Int, length: Int) -> IngredientIndex.Entry {
        let extra = appendExtra(
            IngredientIndex.Extra(
                sourceOffset: UInt64(truncatingIfNeeded: offset), low: UInt32(truncatingIfNeeded: length), high: 0))
        return IngredientIndex.Entry(kindByte | IngredientIndex.wideFlag, payload: UInt64(extra))
    }

    @inlinable @inline(__always)
    package func appendString(at offset: Int, length: Int) throws(EasyBakeError) {
        guard length <= UInt32.max else { throw IngredientIndex.tooLarge("string", at: offset) }
        assert(
            offset >= 0 && length >= 0 && (inputBase == nil || offset + 1 + length <= inputCount),
            "a string past the end of the input")
        append(scalarEntry(IngredientIndex.Kind.string.rawValue, at: offset, length: length))
    }

    package func appendString(decoded bytes: UnsafeRawBufferPointer, at offset: Int) throws(EasyBakeError) {
        append(try arenaString(bytes, at: offset))
    }

    /// The entry of a string whose bytes (decoded escapes, a tree's string)
    /// are `bytes`, copied to the arena; `offset` is where it begins in the
    /// input.
    func arenaString(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(EasyBakeError) -> IngredientIndex.Entry {
        try arenaEntry(IngredientIndex.Kind.string.rawValue, bytes, at: offset)
    }

    /// The entry of a value of kind byte `kindByte` whose bytes are `bytes`,
    /// copied to the arena after the source offset `offset` (which is not
    /// written when it is 0: the entry says so).
    func arenaEntry(
        _ kindByte: UInt8, _ bytes: UnsafeRawBufferPointer, at offset: Int
    ) throws(EasyBakeError) -> IngredientIndex.Entry {
        guard bytes.count <= UInt32.max, arenaCount + 8 + bytes.count <= UInt32.max else {
            throw IngredientIndex.tooLarge("decoded string", at: offset)
        }
        if offset != 0 {
            var located = UInt64(truncatingIfNeeded: offset)
            _ = withUnsafeBytes(of: &located) { appendToArena($0) }
        }
        let start = appendToArena(bytes)
        return arenaReference(
            kindByte | IngredientIndex.arenaFlag | (offset == 0 ? IngredientIndex.unlocatedFlag : 0), start: start,
            length: bytes.count, offset: offset)
    }

    /// The entry of the `length` bytes the arena holds from `start`: with
    /// `unlocatedFlag` in `kindByte` they have no source offset before them;
    /// without it, `offset` is the one there.
    func arenaReference(_ kindByte: UInt8, start: Int, length: Int, offset: Int = 0) -> IngredientIndex.Entry {
        assert(start >= 0 && start + length <= arenaCount, "arena bytes the arena does not hold")
        if UInt64(length) <= IngredientIndex.lengthMask {
            return IngredientIndex.Entry(
                kindByte, payload: UInt64(start) << IngredientIndex.startShift | UInt64(length))
        }
        let extra = appendExtra(
            IngredientIndex.Extra(
                sourceOffset: UInt64(truncatingIfNeeded: offset), low: UInt32(truncatingIfNeeded: start),
                high: UInt32(truncatingIfNeeded: length)))
        return IngredientIndex.Entry(kindByte | IngredientIndex.wideFlag, payload: UInt64(extra))
    }

    package func appendString(decoded bytes: [UInt8], at offset: Int) throws(EasyBakeError) {
        let failure: EasyBakeError? = bytes.withUnsafeBytes { raw in
            do throws(EasyBakeError) { try appendString(decoded: raw, at: offset) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    @inlinable @inline(__always)
    package func appendNumber(at offset: Int, length: Int, isInteger: Bool) {
        // A number literal is bounded by the limits far below 4 GiB.
        assert(
            offset >= 0 && length >= 0 && length <= UInt32.max && (inputBase == nil || offset + length <= inputCount),
            "a number past the end of the input")
        let kind = isInteger ? IngredientIndex.Kind.integer : IngredientIndex.Kind.float
        append(scalarEntry(kind.rawValue, at: offset, length: length))
    }

    /// The entry of a container opening at `offset`: its extra, made now,
    /// holds the offset; its span and element count are set when it closes
    /// (``closed(_:span:elements:)``).
    @inlinable @inline(__always)
    func containerEntry(_ kind: IngredientIndex.Kind, at offset: Int) -> IngredientIndex.Entry {
        let extra = appendExtra(
            IngredientIndex.Extra(sourceOffset: UInt64(truncatingIfNeeded: offset), low: 0, high: 0))
        if UInt64(extra) > IngredientIndex.spanMask {
            return IngredientIndex.Entry(kind.rawValue | IngredientIndex.wideFlag, payload: UInt64(extra))
        }
        return IngredientIndex.Entry(kind.rawValue, payload: UInt64(extra) << IngredientIndex.extraShift)
    }

    /// `entry`, a container's, spanning `span` entries and holding
    /// `elements` elements (members, for a dictionary); `nil` when either is
    /// past 2³². With `position`, where the entry is and its contents
    /// follow it in this storage, a container of one entry per element is
    /// made compact (``IngredientIndex/compactFlag``), its extra given back
    /// when it is the last.
    @inlinable @inline(__always)
    func closed(
        _ entry: IngredientIndex.Entry, span: Int, elements: Int, at position: Int? = nil
    ) -> IngredientIndex.Entry? {
        // An empty container has no first element to read: the entry after
        // it may be past the storage's last.
        var firstElement: IngredientIndex.Entry?
        if let position, span > 0 {
            assert(position + span < count, "a container's contents the storage does not hold")
            firstElement = entries[position + 1]
        }
        return closed(entry, span: span, elements: elements, firstElement: firstElement)
    }

    /// ``closed(_:span:elements:at:)`` of a container whose first element
    /// (when it has one, and its contents are in place or copied in order)
    /// is `firstElement`.
    @inlinable @inline(__always)
    func closed(
        _ entry: IngredientIndex.Entry, span: Int, elements: Int, firstElement: IngredientIndex.Entry?
    ) -> IngredientIndex.Entry? {
        assert(entry.isContainer, "closing an entry that is no container")
        assert(entry.kindByte & IngredientIndex.compactFlag == 0, "closing a compact container again")
        if _fastPath(
            entry.kindByte & IngredientIndex.wideFlag == 0
                && UInt64(truncatingIfNeeded: span) <= IngredientIndex.spanMask
                && UInt64(truncatingIfNeeded: elements) <= UInt32.max)
        {
            // A first element of no location (XML's shared keys, a tree's
            // strings) gives no distance: not looked at further.
            let unlocated = IngredientIndex.arenaFlag | IngredientIndex.unlocatedFlag
            if span != 0, span == elements &<< Int(entry.kindByte & 1), let firstElement,
                firstElement.kindByte & unlocated != unlocated,
                let compact = compacted(entry, firstElement: firstElement, span: span)
            {
                return compact
            }
            extras[Int(truncatingIfNeeded: entry.payload >> IngredientIndex.extraShift)].low = UInt32(
                truncatingIfNeeded: elements)
            return IngredientIndex.Entry(word: entry.word & ~IngredientIndex.spanMask | UInt64(span))
        }
        return closedWide(entry, span: span, elements: elements)
    }

    /// The compact entry of the container `entry`, whose `span` entries
    /// are one per element, the first `firstElement`: `nil` when its offset
    /// lies too far before its first element's (or after it: an element of
    /// no location). The JSON structural build (`easybake_json_index`) makes
    /// the same entries.
    @inlinable @inline(__always)
    func compacted(
        _ entry: IngredientIndex.Entry, firstElement: IngredientIndex.Entry, span: Int
    ) -> IngredientIndex.Entry? {
        let extra = Int(truncatingIfNeeded: entry.payload >> IngredientIndex.extraShift)
        // The usual first element, a key or a scalar of the input's bytes,
        // holds its offset in its word: read here, so that a close makes no
        // call (a call per close was +0.2% of instructions on YAML).
        let kindByte = firstElement.kindByte
        let elementOffset =
            kindByte & (IngredientIndex.arenaFlag | IngredientIndex.inlineFlag | IngredientIndex.wideFlag) == 0
                && !firstElement.isContainer
            ? IngredientIndex.Reader.offsetInWord(of: firstElement)
            : IngredientIndex.Reader(self).sourceOffset(ofElement: firstElement)
        let gap = elementOffset - Int(truncatingIfNeeded: extras[extra].sourceOffset)
        guard gap >= 0, UInt64(gap) <= IngredientIndex.spanMask else { return nil }
        if extraBuffer.count == extra + 1 { extraBuffer.setCount(extra) }
        return IngredientIndex.Entry(
            entry.kindByte | IngredientIndex.compactFlag,
            payload: UInt64(gap) << IngredientIndex.extraShift | UInt64(span))
    }

    /// The container at `position`, closed, as an entry that is not compact
    /// (with an extra of its own again): for a builder that closes it once
    /// more, with other contents.
    func uncompacted(at position: Int) -> IngredientIndex.Entry {
        let entry = entries[position]
        guard entry.isContainer, entry.kindByte & IngredientIndex.compactFlag != 0 else { return entry }
        let reader = IngredientIndex.Reader(self)
        let span = reader.end(of: position) - position - 1
        let extra = appendExtra(
            IngredientIndex.Extra(
                sourceOffset: UInt64(truncatingIfNeeded: reader.sourceOffset(at: position)),
                low: UInt32(truncatingIfNeeded: reader.elementCount(at: position)),
                high: UInt32(truncatingIfNeeded: span)))
        let kindByte = entry.kindByte & ~IngredientIndex.compactFlag
        if UInt64(extra) > IngredientIndex.spanMask {
            return IngredientIndex.Entry(kindByte | IngredientIndex.wideFlag, payload: UInt64(extra))
        }
        return IngredientIndex.Entry(kindByte, payload: UInt64(extra) << IngredientIndex.extraShift | UInt64(span))
    }

    /// ``closed(_:span:elements:)`` of a wide container, or one too large.
    @usableFromInline @inline(never)
    func closedWide(_ entry: IngredientIndex.Entry, span: Int, elements: Int) -> IngredientIndex.Entry? {
        guard span >= 0, span <= UInt32.max, elements >= 0, elements <= UInt32.max else { return nil }
        let extra = entry.extraPosition
        extras[extra].low = UInt32(truncatingIfNeeded: elements)
        extras[extra].high = UInt32(truncatingIfNeeded: span)
        return IngredientIndex.Entry(entry.kindByte | IngredientIndex.wideFlag, payload: UInt64(extra))
    }

    /// The entry at `position` of `source` (another storage), as an entry
    /// of this one: made as the builders make it, its arena bytes and its
    /// extra written here.
    func copy(entryAt position: Int, of source: IngredientIndex.Storage) -> IngredientIndex.Entry {
        assert(source !== self, "copying an entry within its own storage")
        let reader = IngredientIndex.Reader(source)
        let entry = reader.entry(position)
        let kindByte = entry.kindByte
        if entry.isContainer {
            // A compact container holds nothing of the source's but its
            // span and the distance to its first element, copied next.
            if kindByte & IngredientIndex.compactFlag != 0 { return entry }
            // A span and a count that fit the source fit here.
            let kind = IngredientIndex.Kind(rawValue: kindByte & IngredientIndex.kindMask)!
            return closed(
                containerEntry(kind, at: reader.sourceOffset(at: position)),
                span: reader.end(of: position) - position - 1, elements: reader.elementCount(at: position)) ?? entry
        }
        if kindByte & IngredientIndex.arenaFlag != 0 {
            let kind =
                kindByte & ~(IngredientIndex.arenaFlag | IngredientIndex.wideFlag | IngredientIndex.unlocatedFlag)
            // The copy's arena holds no more than the source's, which fits.
            return (try? arenaEntry(kind, reader.utf8(at: position), at: reader.sourceOffset(at: position))) ?? entry
        }
        // A number held as its value, or a wide range of the input.
        guard kindByte & IngredientIndex.wideFlag != 0 else { return entry }
        return IngredientIndex.Entry(kindByte, payload: UInt64(appendExtra(source.extras[entry.extraPosition])))
    }

    @inlinable
    package func openContainer(_ kind: IngredientIndex.Kind, at offset: Int) {
        openContainers.append(count)
        append(containerEntry(kind, at: offset))
    }

    /// The bytes of the last entry, a string just appended (a key whose
    /// member a builder may yet leave out).
    @usableFromInline
    func lastStringUTF8() -> UnsafeRawBufferPointer {
        assert(count > 0, "no entry to read")
        let reader = IngredientIndex.Reader(self)
        if reader.isEscaped(entries[count - 1]) { return decodedInSpareArena(at: count - 1) }
        return reader.utf8(at: count - 1)
    }

    /// Removes the last entry, a string: a key whose value is left out.
    @usableFromInline
    package func removeLastString() {
        assert(
            count > 0 && entries[count - 1].kindByte & IngredientIndex.kindMask == IngredientIndex.Kind.string.rawValue,
            "the last entry is no string to remove")
        count -= 1
        let entry = entries[count]
        let kindByte = entry.kindByte
        let wide = kindByte & IngredientIndex.wideFlag != 0
        if kindByte & IngredientIndex.arenaFlag != 0 {
            let start =
                wide
                ? Int(extras[entry.extraPosition].low)
                : Int(truncatingIfNeeded: entry.payload >> IngredientIndex.startShift)
            arenaCount = start - (kindByte & IngredientIndex.unlocatedFlag != 0 ? 0 : 8)
        }
        if wide {
            assert(entry.extraPosition == extraBuffer.count - 1, "a string's extra that is not the last")
            extraBuffer.setCount(entry.extraPosition)
        }
    }

    @inlinable
    package func closeContainer(elements: Int) throws(EasyBakeError) {
        // Checked in release builds too, as the `Array` it replaces did: a
        // builder that closes more than it opened must not read before the
        // buffer.
        precondition(!openContainers.isEmpty, "a container closed that is not open")
        let position = openContainers.removeLast()
        assert(position >= 0 && position < count, "an open container the storage does not hold")
        guard let entry = closed(entries[position], span: count - position - 1, elements: elements, at: position)
        else {
            throw IngredientIndex.tooLarge("container", at: IngredientIndex.Reader(self).sourceOffset(at: position))
        }
        entries[position] = entry
    }
}
