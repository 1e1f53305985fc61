import Foundation

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
/// from bytes); bytes a source cannot point into — a JSON string with
/// escapes, decoded — live in the index's own arena.
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

    /// One value: 16 bytes.
    @usableFromInline
    struct Entry: Sendable {
        /// The kind (with ``IngredientIndex/arenaFlag``) in the top byte, the
        /// byte offset of the value in the input below it.
        @usableFromInline var head: UInt64
        /// Strings and numbers: their length in bytes. Containers: how many
        /// entries they span.
        @usableFromInline var length: UInt32
        /// Containers: their element count (members, for a dictionary).
        /// Values in the arena: their offset there.
        @usableFromInline var aux: UInt32

        @inlinable
        init(head: UInt64, length: UInt32, aux: UInt32) {
            self.head = head
            self.length = length
            self.aux = aux
        }
    }

    /// Set in an entry's kind byte when its bytes live in the arena.
    @usableFromInline static let arenaFlag: UInt8 = 0x80
    /// Set in an entry's kind byte when a number is held in the entry
    /// itself (a source that resolved it already: YAML, a tree), its 64 bits
    /// in `length` (low half) and `aux` (high half).
    @usableFromInline static let inlineFlag: UInt8 = 0x40
    @usableFromInline static let flagMask: UInt8 = arenaFlag | inlineFlag
    @usableFromInline static let offsetMask: UInt64 = (1 << 56) - 1

    /// The entries and the arena, in memory the index manages itself: the
    /// fast core reads them through plain pointers, with no reference
    /// counting or exclusivity check per value. Copy on write keeps
    /// `IngredientIndex` a value.
    @usableFromInline
    package final class Storage {
        @exclusivity(unchecked) @usableFromInline var entries: UnsafeMutablePointer<Entry>
        @exclusivity(unchecked) @usableFromInline var count = 0
        @exclusivity(unchecked) @usableFromInline var capacity: Int
        /// Bytes the input does not hold: decoded escapes, a tree's strings.
        @exclusivity(unchecked) @usableFromInline var arena: UnsafeMutableRawPointer
        @exclusivity(unchecked) @usableFromInline var arenaCount = 0
        @exclusivity(unchecked) @usableFromInline var arenaCapacity: Int
        /// The input the entries point into, and its first byte.
        @exclusivity(unchecked) @usableFromInline var input: LoadedBytes?
        @exclusivity(unchecked) @usableFromInline var inputBase: UnsafeRawPointer?
        /// The input's name, for error locations.
        var sourceName: String?
        /// Whether the dictionaries are XML elements (see
        /// ``IngredientSource/dictionariesAreElements``).
        var dictionariesAreElements = false
        /// Where each open container's entry is, while the index is built.
        @exclusivity(unchecked) @usableFromInline var openContainers: [Int] = []

        @usableFromInline
        init(capacity: Int = 64, arenaCapacity: Int = 256) {
            self.capacity = max(capacity, 1)
            self.arenaCapacity = max(arenaCapacity, 1)
            entries = .allocate(capacity: self.capacity)
            arena = .allocate(byteCount: self.arenaCapacity, alignment: 8)
        }

        deinit {
            entries.deallocate()
            arena.deallocate()
        }

        @usableFromInline
        func copy() -> Storage {
            let copy = Storage(capacity: capacity, arenaCapacity: arenaCapacity)
            copy.entries.initialize(from: entries, count: count)
            copy.count = count
            copy.arena.copyMemory(from: arena, byteCount: arenaCount)
            copy.arenaCount = arenaCount
            copy.input = input
            copy.inputBase = inputBase
            copy.sourceName = sourceName
            copy.dictionariesAreElements = dictionariesAreElements
            copy.openContainers = openContainers
            return copy
        }

        /// Room for `more` entries after the last.
        @inlinable
        func reserve(_ more: Int) {
            guard count &+ more > capacity else { return }
            grow(to: count + more)
        }

        @usableFromInline
        func grow(to needed: Int) {
            let newCapacity = max(needed, capacity * 2)
            let moved = UnsafeMutablePointer<Entry>.allocate(capacity: newCapacity)
            moved.moveInitialize(from: entries, count: count)
            entries.deallocate()
            entries = moved
            capacity = newCapacity
        }

        @inlinable
        func append(_ entry: Entry) {
            if count == capacity { grow(to: count + 1) }
            (entries + count).initialize(to: entry)
            count &+= 1
        }

        /// Appends bytes to the arena; returns where they start.
        func appendToArena(_ bytes: UnsafeRawBufferPointer) -> Int {
            let start = arenaCount
            if arenaCount + bytes.count > arenaCapacity {
                let newCapacity = max(arenaCount + bytes.count, arenaCapacity * 2)
                let moved = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 8)
                moved.copyMemory(from: arena, byteCount: arenaCount)
                arena.deallocate()
                arena = moved
                arenaCapacity = newCapacity
            }
            if let base = bytes.baseAddress, bytes.count > 0 { (arena + start).copyMemory(from: base, byteCount: bytes.count) }
            arenaCount += bytes.count
            return start
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
    /// freed.
    @usableFromInline
    struct Reader {
        @usableFromInline let entries: UnsafeMutablePointer<Entry>
        @usableFromInline let count: Int
        @usableFromInline let arena: UnsafeMutableRawPointer
        @usableFromInline let inputBase: UnsafeRawPointer?

        @inlinable
        init(_ storage: Storage) {
            entries = storage.entries
            count = storage.count
            arena = storage.arena
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

    /// Whether the index's dictionaries are elements, one each to `[*]`: it
    /// was read from a source whose ``IngredientSource/dictionariesAreElements``
    /// (XML), or from a tree whose root is an element.
    package var dictionariesAreElements: Bool {
        get { storage.dictionariesAreElements }
        set { uniqueStorage.dictionariesAreElements = newValue }
    }

    /// Empties the index, keeping its memory for the next document or record.
    public mutating func removeAll() {
        let storage = uniqueStorage
        storage.count = 0
        storage.arenaCount = 0
        storage.openContainers.removeAll(keepingCapacity: true)
        storage.input = nil
        storage.inputBase = nil
        storage.sourceName = nil
        storage.dictionariesAreElements = false
    }

    /// The entry at `position`.
    @inlinable
    func entry(_ position: Int) -> Entry {
        precondition(position >= 0 && position < storage.count, "index position out of range")
        return storage.entries[position]
    }
}
