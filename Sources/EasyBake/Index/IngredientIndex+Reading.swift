import Foundation

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
        IngredientIndex.Kind(rawValue: UInt8(truncatingIfNeeded: entry(position).head >> 56) & ~IngredientIndex.flagMask)!
    }

    /// The position of the value after the one at `position` (its next
    /// sibling, or the end of its container): the skip of any value is one
    /// addition.
    @inlinable
    func end(of position: Int) -> Int {
        let entry = entry(position)
        let kind = UInt8(truncatingIfNeeded: entry.head >> 56)
        if kind == IngredientIndex.Kind.array.rawValue || kind == IngredientIndex.Kind.dictionary.rawValue {
            return position &+ 1 &+ Int(entry.length)
        }
        return position &+ 1
    }

    /// The number of elements of the array, or members of the dictionary, at
    /// `position`; 0 for a scalar.
    @inlinable
    func elementCount(at position: Int) -> Int {
        switch kind(at: position) {
        case .array, .dictionary: Int(entry(position).aux)
        default: 0
        }
    }

    /// The byte offset in the input where the value at `position` begins
    /// (for a string, its opening quote or the format's equivalent), for
    /// error locations.
    @inlinable
    func sourceOffset(at position: Int) -> Int {
        Int(truncatingIfNeeded: entry(position).head & IngredientIndex.offsetMask)
    }

    /// Calls `body` with the UTF-8 bytes of the string, or the text of the
    /// number, at `position`; empty bytes for any other kind.
    @inlinable
    func withUTF8<R>(at position: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(utf8(at: position))
    }

    /// The UTF-8 bytes of the string, or the text of the number, at
    /// `position`; empty for any other kind. Valid while the index is
    /// neither changed nor freed.
    @inlinable
    func utf8(at position: Int) -> UnsafeRawBufferPointer {
        let entry = entry(position)
        let kindByte = UInt8(truncatingIfNeeded: entry.head >> 56)
        let length = Int(entry.length)
        if kindByte & IngredientIndex.inlineFlag != 0 { return UnsafeRawBufferPointer(start: nil, count: 0) }
        if kindByte & IngredientIndex.arenaFlag != 0 {
            return UnsafeRawBufferPointer(start: arena + Int(entry.aux), count: length)
        }
        switch IngredientIndex.Kind(rawValue: kindByte) {
        case .string, .integer, .float:
            guard let base = inputBase else { return UnsafeRawBufferPointer(start: nil, count: 0) }
            return UnsafeRawBufferPointer(start: base + sourceOffset(at: position) + stringPrefix(kindByte), count: length)
        default:
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
    }

    /// The 64 bits of a number held in its entry; `nil` when the number is
    /// text.
    @inlinable
    func inlineBits(at position: Int) -> UInt64? {
        let entry = entry(position)
        guard UInt8(truncatingIfNeeded: entry.head >> 56) & IngredientIndex.inlineFlag != 0 else { return nil }
        return UInt64(entry.length) | UInt64(entry.aux) << 32
    }

    /// A string's source offset is its opening quote; its bytes start after it.
    @inlinable
    func stringPrefix(_ kindByte: UInt8) -> Int { kindByte == IngredientIndex.Kind.string.rawValue ? 1 : 0 }

    /// The string at `position` as a `String`; `nil` for any other kind.
    func string(at position: Int) -> String? {
        guard kind(at: position) == .string else { return nil }
        return withUTF8(at: position) { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the string at `position` is exactly `utf8`: how a key is
    /// found without making a `String` of it.
    @inlinable
    func string(at position: Int, equals utf8: UnsafeRawBufferPointer) -> Bool {
        guard kind(at: position) == .string, Int(entry(position).length) == utf8.count else { return false }
        guard utf8.count > 0 else { return true }
        return memcmp(self.utf8(at: position).baseAddress!, utf8.baseAddress!, utf8.count) == 0
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
                withUTF8(at: position) { Ingredients.number(literal: $0) }
            }
        case .string: .string(withUTF8(at: position) { String(decoding: $0, as: UTF8.self) })
        case .array, .dictionary: nil
        }
    }
}

// MARK: - Reading

extension IngredientIndex {
    /// The kind of the entry at `position`.
    @inlinable
    public func kind(at position: Int) -> Kind { reader.kind(at: position) }

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
        guard let input = storage.input else { return nil }
        return SourceMark(offset: sourceOffset(at: position), in: input, sourceName: sourceName)
    }

    /// Calls `body` with the UTF-8 bytes of the string, or the text of the
    /// number, at `position`; empty bytes for any other kind.
    @inlinable
    public func withUTF8<R>(at position: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(reader.utf8(at: position))
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
