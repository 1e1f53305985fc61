import Foundation

// MARK: - Building

extension IngredientIndex {
    /// Starts an index of a document or record read from `input`.
    package mutating func begin(input: LoadedBytes, sourceName: String?) {
        removeAll()
        storage.input = input
        storage.inputBase = input.buffer.baseAddress
        storage.sourceName = sourceName
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
            do throws(EasyBakeError) { try appendString(decoded: UnsafeRawBufferPointer(utf8), at: offset) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Appends a number literal of `length` bytes at `offset` in the input.
    @inlinable
    package mutating func appendNumber(at offset: Int, length: Int, isInteger: Bool) {
        uniqueStorage.appendNumber(at: offset, length: length, isInteger: isInteger)
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
            let storage = uniqueStorage
            var text = text
            let start = text.withUTF8 { storage.appendToArena(UnsafeRawBufferPointer($0)) }
            guard storage.arenaCount <= UInt32.max else { throw Self.tooLarge("number", at: offset) }
            let isInteger = !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
            let head = (isInteger ? Kind.integer : Kind.float).rawValue | Self.arenaFlag
            storage.append(Entry(
                head: UInt64(head) << 56 | UInt64(offset), length: UInt32(storage.arenaCount - start), aux: UInt32(start)))
            return
        default:
            preconditionFailure("appendNumber takes a number")
        }
        let head = kind.rawValue | Self.inlineFlag
        uniqueStorage.append(Entry(
            head: UInt64(head) << 56 | UInt64(offset), length: UInt32(truncatingIfNeeded: bits),
            aux: UInt32(truncatingIfNeeded: bits >> 32)))
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
        uniqueStorage.reserve(entries)
    }

    /// The number of containers opened and not yet closed.
    package var openContainerCount: Int { storage.openContainers.count }

    /// Appends copies of the entries at `range` (a value and all it holds;
    /// spans are relative, so a copy reads as the original).
    mutating func appendCopy(of range: Range<Int>) {
        let storage = uniqueStorage
        storage.reserve(range.count)
        (storage.entries + storage.count).initialize(from: storage.entries + range.lowerBound, count: range.count)
        storage.count += range.count
    }

    /// Replaces the entries from `position` on with `replacement`.
    mutating func replaceEntries(from position: Int, with replacement: ContiguousArray<Entry>) {
        let storage = uniqueStorage
        storage.count = position
        storage.reserve(replacement.count)
        replacement.withUnsafeBufferPointer { (storage.entries + position).initialize(from: $0.baseAddress!, count: $0.count) }
        storage.count += replacement.count
    }

    @usableFromInline
    static func tooLarge(_ what: String, at offset: Int) -> EasyBakeError {
        EasyBakeError(
            .limitExceeded, "a \(what) at byte \(offset) is larger than one index holds (4 GiB of bytes or 2³² entries)")
    }
}

// MARK: - Building, on the storage

extension IngredientIndex.Storage {
    @inlinable
    package func appendLiteral(_ kind: IngredientIndex.Kind, at offset: Int) {
        append(IngredientIndex.Entry(head: UInt64(kind.rawValue) << 56 | UInt64(offset), length: 0, aux: 0))
    }

    @inlinable
    package func appendString(at offset: Int, length: Int) throws(EasyBakeError) {
        guard length <= UInt32.max else { throw IngredientIndex.tooLarge("string", at: offset) }
        append(IngredientIndex.Entry(
            head: UInt64(IngredientIndex.Kind.string.rawValue) << 56 | UInt64(offset), length: UInt32(length), aux: 0))
    }

    package func appendString(decoded bytes: UnsafeRawBufferPointer, at offset: Int) throws(EasyBakeError) {
        guard bytes.count <= UInt32.max, arenaCount + bytes.count <= UInt32.max else {
            throw IngredientIndex.tooLarge("decoded string", at: offset)
        }
        let start = appendToArena(bytes)
        let kind = IngredientIndex.Kind.string.rawValue | IngredientIndex.arenaFlag
        append(IngredientIndex.Entry(head: UInt64(kind) << 56 | UInt64(offset), length: UInt32(bytes.count), aux: UInt32(start)))
    }

    package func appendString(decoded bytes: [UInt8], at offset: Int) throws(EasyBakeError) {
        let failure: EasyBakeError? = bytes.withUnsafeBytes { raw in
            do throws(EasyBakeError) { try appendString(decoded: raw, at: offset) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    @inlinable
    package func appendNumber(at offset: Int, length: Int, isInteger: Bool) {
        // A number literal is bounded by the limits far below 4 GiB.
        let kind = isInteger ? IngredientIndex.Kind.integer : IngredientIndex.Kind.float
        append(IngredientIndex.Entry(
            head: UInt64(kind.rawValue) << 56 | UInt64(offset), length: UInt32(truncatingIfNeeded: length), aux: 0))
    }

    @inlinable
    package func openContainer(_ kind: IngredientIndex.Kind, at offset: Int) {
        openContainers.append(count)
        append(IngredientIndex.Entry(head: UInt64(kind.rawValue) << 56 | UInt64(offset), length: 0, aux: 0))
    }

    /// The bytes of the last entry, a string just appended (a key whose
    /// member a builder may yet leave out).
    package func lastStringUTF8() -> UnsafeRawBufferPointer {
        IngredientIndex.Reader(self).utf8(at: count - 1)
    }

    /// Removes the last entry, a string: a key whose value is left out.
    package func removeLastString() {
        count -= 1
        let head = entries[count].head
        if UInt8(truncatingIfNeeded: head >> 56) & IngredientIndex.arenaFlag != 0 { arenaCount = Int(entries[count].aux) }
    }

    @inlinable
    package func closeContainer(elements: Int) throws(EasyBakeError) {
        let position = openContainers.removeLast()
        let span = count - position - 1
        guard span <= UInt32.max, elements <= UInt32.max else {
            throw IngredientIndex.tooLarge("container", at: Int(truncatingIfNeeded: entries[position].head & IngredientIndex.offsetMask))
        }
        entries[position].length = UInt32(span)
        entries[position].aux = UInt32(elements)
    }
}
