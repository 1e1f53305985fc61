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
public struct IngredientIndex: Sendable {
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

    @usableFromInline var entries: ContiguousArray<Entry> = []
    /// Bytes the input does not hold: decoded escapes.
    @usableFromInline var arena: [UInt8] = []
    /// The input the entries point into.
    @usableFromInline var input: LoadedBytes?
    /// The input's name, for error locations.
    package private(set) var sourceName: String?
    /// Where each open container's entry is, while the index is built.
    @usableFromInline var openContainers: [Int] = []

    /// An empty index.
    public init() {}

    /// The number of entries: every value, and every key of a dictionary.
    public var count: Int { entries.count }

    /// Empties the index, keeping its memory for the next document or record.
    public mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        arena.removeAll(keepingCapacity: true)
        openContainers.removeAll(keepingCapacity: true)
        input = nil
        sourceName = nil
    }
}

// MARK: - Reading

extension IngredientIndex {
    /// The kind of the entry at `position`.
    @inlinable
    public func kind(at position: Int) -> Kind {
        // Every head was written from a `Kind`, so its raw value is valid.
        Kind(rawValue: UInt8(truncatingIfNeeded: entries[position].head >> 56) & ~Self.flagMask)!
    }

    /// The position of the value after the one at `position` (its next
    /// sibling, or the end of its container): the skip of any value is one
    /// addition.
    @inlinable
    public func end(of position: Int) -> Int {
        let entry = entries[position]
        let kind = UInt8(truncatingIfNeeded: entry.head >> 56)
        if kind == Kind.array.rawValue || kind == Kind.dictionary.rawValue {
            return position &+ 1 &+ Int(entry.length)
        }
        return position &+ 1
    }

    /// The number of elements of the array, or members of the dictionary, at
    /// `position`; 0 for a scalar.
    @inlinable
    public func elementCount(at position: Int) -> Int {
        switch kind(at: position) {
        case .array, .dictionary: Int(entries[position].aux)
        default: 0
        }
    }

    /// The byte offset in the input where the value at `position` begins
    /// (for a string, its opening quote or the format's equivalent), for
    /// error locations.
    @inlinable
    public func sourceOffset(at position: Int) -> Int {
        Int(truncatingIfNeeded: entries[position].head & Self.offsetMask)
    }

    /// The input the index points into.
    public var bytes: LoadedBytes? { input }

    /// A mark of where the value at `position` begins; its line and column
    /// are counted only if asked for.
    public func mark(at position: Int) -> SourceMark? {
        guard let input else { return nil }
        return SourceMark(offset: sourceOffset(at: position), in: input, sourceName: sourceName)
    }

    /// Calls `body` with the UTF-8 bytes of the string, or the text of the
    /// number, at `position`; empty bytes for any other kind.
    @inlinable
    public func withUTF8<R>(at position: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let entry = entries[position]
        let kindByte = UInt8(truncatingIfNeeded: entry.head >> 56)
        let length = Int(entry.length)
        if kindByte & Self.inlineFlag != 0 { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        if kindByte & Self.arenaFlag != 0 {
            return try arena.withUnsafeBytes { arena in
                try body(UnsafeRawBufferPointer(rebasing: arena[Int(entry.aux)..<(Int(entry.aux) + length)]))
            }
        }
        switch Kind(rawValue: kindByte) {
        case .string, .integer, .float:
            guard let base = input?.buffer.baseAddress else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
            return try body(UnsafeRawBufferPointer(start: base + sourceOffset(at: position) + stringPrefix(kindByte), count: length))
        default:
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }

    /// The 64 bits of a number held in its entry; `nil` when the number is
    /// text.
    @inlinable
    func inlineBits(at position: Int) -> UInt64? {
        let entry = entries[position]
        guard UInt8(truncatingIfNeeded: entry.head >> 56) & Self.inlineFlag != 0 else { return nil }
        return UInt64(entry.length) | UInt64(entry.aux) << 32
    }

    /// A string's source offset is its opening quote; its bytes start after it.
    @inlinable
    func stringPrefix(_ kindByte: UInt8) -> Int { kindByte == Kind.string.rawValue ? 1 : 0 }

    /// The string at `position` as a `String`; `nil` for any other kind.
    public func string(at position: Int) -> String? {
        guard kind(at: position) == .string else { return nil }
        return withUTF8(at: position) { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the string at `position` is exactly `utf8`: how a key is
    /// found without making a `String` of it.
    @inlinable
    public func string(at position: Int, equals utf8: UnsafeRawBufferPointer) -> Bool {
        guard kind(at: position) == .string, Int(entries[position].length) == utf8.count else { return false }
        return withUTF8(at: position) { bytes in
            guard utf8.count > 0 else { return true }
            return memcmp(bytes.baseAddress!, utf8.baseAddress!, utf8.count) == 0
        }
    }

    /// The scalar at `position` as ingredients (numbers classified exactly as
    /// every source classifies them); `nil` for a container.
    public func scalar(at position: Int) -> Ingredients? {
        switch kind(at: position) {
        case .null: .null
        case .false: .bool(false)
        case .true: .bool(true)
        case .integer, .float:
            if let bits = inlineBits(at: position) {
                kind(at: position) == .integer ? .integer(Int64(bitPattern: bits)) : .float(Double(bitPattern: bits))
            } else {
                withUTF8(at: position) { Ingredients.number(literal: $0) }
            }
        case .string: .string(withUTF8(at: position) { String(decoding: $0, as: UTF8.self) })
        case .array, .dictionary: nil
        }
    }
}

// MARK: - Building

extension IngredientIndex {
    /// Starts an index of a document or record read from `input`.
    package mutating func begin(input: LoadedBytes, sourceName: String?) {
        removeAll()
        self.input = input
        self.sourceName = sourceName
    }

    /// Appends a scalar that needs no bytes: null, `false` or `true`.
    @inlinable
    package mutating func appendLiteral(_ kind: Kind, at offset: Int) {
        entries.append(Entry(head: UInt64(kind.rawValue) << 56 | UInt64(offset), length: 0, aux: 0))
    }

    /// Appends a string whose bytes are `length` bytes of the input after the
    /// opening quote at `offset`.
    @inlinable
    package mutating func appendString(at offset: Int, length: Int) throws(EasyBakeError) {
        guard length <= UInt32.max else { throw Self.tooLarge("string", at: offset) }
        entries.append(Entry(head: UInt64(Kind.string.rawValue) << 56 | UInt64(offset), length: UInt32(length), aux: 0))
    }

    /// Appends a string whose bytes (decoded escapes) are `bytes`; `offset`
    /// is where it begins in the input.
    package mutating func appendString<Bytes: Collection<UInt8>>(decoded bytes: Bytes, at offset: Int) throws(EasyBakeError) {
        let start = arena.count
        guard bytes.count <= UInt32.max, start + bytes.count <= UInt32.max else {
            throw Self.tooLarge("decoded string", at: offset)
        }
        arena.append(contentsOf: bytes)
        let kind = Kind.string.rawValue | Self.arenaFlag
        entries.append(Entry(head: UInt64(kind) << 56 | UInt64(offset), length: UInt32(bytes.count), aux: UInt32(start)))
    }

    /// Appends a number literal of `length` bytes at `offset` in the input.
    @inlinable
    package mutating func appendNumber(at offset: Int, length: Int, isInteger: Bool) {
        // A number literal is bounded by the limits far below 4 GiB.
        let kind = isInteger ? Kind.integer : Kind.float
        entries.append(Entry(head: UInt64(kind.rawValue) << 56 | UInt64(offset), length: UInt32(truncatingIfNeeded: length), aux: 0))
    }

    /// Appends a number a source has resolved already.
    package mutating func appendNumber(_ value: Ingredients, at offset: Int) throws(EasyBakeError) {
        let kind: Kind
        let bits: UInt64
        switch value {
        case .integer(let integer): (kind, bits) = (.integer, UInt64(bitPattern: integer))
        case .float(let float): (kind, bits) = (.float, float.bitPattern)
        case .exactNumber(let text):
            // Exact text is a number literal; kept as text, it reads back
            // exactly as it was classified.
            let start = arena.count
            arena.append(contentsOf: text.utf8)
            guard arena.count <= UInt32.max else { throw Self.tooLarge("number", at: offset) }
            let isInteger = !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
            let head = (isInteger ? Kind.integer : Kind.float).rawValue | Self.arenaFlag
            entries.append(Entry(head: UInt64(head) << 56 | UInt64(offset), length: UInt32(arena.count - start), aux: UInt32(start)))
            return
        default:
            preconditionFailure("appendNumber takes a number")
        }
        let head = kind.rawValue | Self.inlineFlag
        entries.append(Entry(
            head: UInt64(head) << 56 | UInt64(offset), length: UInt32(truncatingIfNeeded: bits),
            aux: UInt32(truncatingIfNeeded: bits >> 32)))
    }

    /// Opens an array or a dictionary at `offset`; its contents follow until
    /// ``closeContainer(elements:)``.
    @inlinable
    package mutating func openContainer(_ kind: Kind, at offset: Int) {
        openContainers.append(entries.count)
        entries.append(Entry(head: UInt64(kind.rawValue) << 56 | UInt64(offset), length: 0, aux: 0))
    }

    /// Closes the innermost open container, which holds `elements` elements
    /// (members, for a dictionary).
    @inlinable
    package mutating func closeContainer(elements: Int) throws(EasyBakeError) {
        let position = openContainers.removeLast()
        let span = entries.count - position - 1
        guard span <= UInt32.max, elements <= UInt32.max else {
            throw Self.tooLarge("container", at: sourceOffset(at: position))
        }
        entries[position].length = UInt32(span)
        entries[position].aux = UInt32(elements)
    }

    /// The number of containers opened and not yet closed.
    package var openContainerCount: Int { openContainers.count }

    @usableFromInline
    static func tooLarge(_ what: String, at offset: Int) -> EasyBakeError {
        EasyBakeError(
            .limitExceeded, "a \(what) at byte \(offset) is larger than one index holds (4 GiB of bytes or 2³² entries)")
    }
}
