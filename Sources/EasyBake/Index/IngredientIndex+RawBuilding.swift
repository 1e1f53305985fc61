extension IngredientIndex.Storage {
    /// The entries as raw memory, for a builder that writes them itself
    /// (the JSON structural build, in C): room for `room` entries from
    /// ``rawEntryCount`` on is made first; returns the entries' first byte
    /// and how many the memory has room for in all. Valid until the storage
    /// grows.
    ///
    /// Such a builder writes the layout of ``IngredientIndex/Entry`` (one
    /// 64-bit word each; ``rawEntryLayout`` says the sizes), puts the kinds'
    /// raw values in the top byte, makes each container's and wide entry's
    /// extra in ``rawExtras(room:)``, and then sets ``rawEntryCount`` and
    /// ``rawExtraCount``: the entries it wrote must obey the storage's
    /// invariants, as if appended one by one.
    package func rawEntries(room: Int) -> (entries: UnsafeMutableRawPointer, capacity: Int) {
        reserve(room)
        return (UnsafeMutableRawPointer(entries), capacity)
    }

    /// The extras as raw memory (see ``rawEntries(room:)``).
    package func rawExtras(room: Int) -> (extras: UnsafeMutableRawPointer, capacity: Int) {
        extraBuffer.reserve(room)
        return (UnsafeMutableRawPointer(extras), extraBuffer.capacity)
    }

    /// How many entries the storage holds: a raw builder sets it to what it
    /// wrote, within the room it asked for.
    package var rawEntryCount: Int {
        get { count }
        set {
            assert(newValue >= 0 && newValue <= capacity, "entries written past the storage's room")
            count = newValue
        }
    }

    /// How many extras the storage holds (see ``rawEntryCount``).
    package var rawExtraCount: Int {
        get { extraBuffer.count }
        set {
            assert(newValue >= 0 && newValue <= extraBuffer.capacity, "extras written past the storage's room")
            extraBuffer.setCount(newValue)
        }
    }

    /// Drops every entry, extra and arena byte, so that another builder
    /// builds the value again from its start through the same storage (the
    /// index's own `begin` would copy a storage its builder still holds).
    func restartBuilding() {
        count = 0
        arenaCount = 0
        extraBuffer.setCount(0)
        openContainers.removeAll()
    }

    /// The sizes of an entry and of an extra, and where an extra's two
    /// 32-bit words lie in it.
    package static var rawEntryLayout: (entry: Int, extra: Int, low: Int, high: Int) {
        (
            MemoryLayout<IngredientIndex.Entry>.stride, MemoryLayout<IngredientIndex.Extra>.stride,
            MemoryLayout<IngredientIndex.Extra>.offset(of: \.low)!,
            MemoryLayout<IngredientIndex.Extra>.offset(of: \.high)!
        )
    }

    /// The flags a raw builder sets in a kind byte whose payload is the
    /// position of the entry's extra, and in a compact container's, and the
    /// bits of the payload's parts.
    package static var rawEntryBits:
        (wideFlag: UInt8, compactFlag: UInt8, startShift: Int, extraShift: Int, startLimit: Int)
    {
        (
            IngredientIndex.wideFlag, IngredientIndex.compactFlag, Int(IngredientIndex.startShift),
            Int(IngredientIndex.extraShift), IngredientIndex.startLimit
        )
    }

    /// The length of the string or number a raw builder wrote at `position`.
    @inlinable
    package func rawLength(at position: Int) -> Int {
        IngredientIndex.Reader(self).utf8(at: position).count
    }

    /// Completes a number a raw builder wrote in place: `length` bytes from
    /// its offset, an integer or a float.
    package func completeNumber(at position: Int, length: Int, isInteger: Bool) {
        assert(position >= 0 && position < count, "a number the storage does not hold")
        let kind = isInteger ? IngredientIndex.Kind.integer : IngredientIndex.Kind.float
        let offset = IngredientIndex.Reader(self).sourceOffset(at: position)
        entries[position] = scalarEntry(kind.rawValue, at: offset, length: length)
    }

    /// Marks a string a raw builder wrote in place as kept escaped
    /// (``IngredientIndex/escapedFlag``): its text has escapes, which the
    /// format has checked.
    package func completeEscapedString(at position: Int) throws(EasyBakeError) {
        assert(position >= 0 && position < count, "a string the storage does not hold")
        let entry = entries[position]
        if entry.kindByte & IngredientIndex.wideFlag != 0 {
            // A long string, wide already: its extra holds what an escaped
            // string's does.
            entries[position] = IngredientIndex.Entry(
                entry.kindByte | IngredientIndex.escapedFlag, payload: entry.payload)
            return
        }
        let reader = IngredientIndex.Reader(self)
        entries[position] = try escapedString(
            at: reader.sourceOffset(at: position), length: reader.utf8(at: position).count)
    }
}

extension IngredientIndex {
    /// One entry as its reads see it, with its bytes when they live in the
    /// arena, or are kept escaped (decoded): what tests compare to hold two
    /// builders of one index to the same entries.
    package struct StoredEntry: Equatable, Sendable, CustomStringConvertible {
        /// The kind and its flags.
        package var kindByte: UInt8
        package var sourceOffset: Int
        /// A string's or number's length in bytes; a container's span.
        package var length: Int
        /// A container's element count.
        package var elements: Int
        package var arenaBytes: [UInt8]?

        package var description: String {
            "\(kindByte):\(sourceOffset) \(length) \(elements)"
                + (arenaBytes.map { " \(String(decoding: $0, as: UTF8.self).debugDescription)" } ?? "")
        }
    }

    /// Every entry, in order.
    package var storedEntries: [StoredEntry] {
        let reader = reader
        return (0..<count).map { position in
            let entry = storage.entries[position]
            let inArena = entry.kindByte & IngredientIndex.arenaFlag != 0
            let escaped = reader.isEscaped(entry)
            let length =
                entry.isContainer
                ? reader.end(of: position) - position - 1
                : escaped ? reader.wideUTF8(entry).count : reader.utf8(at: position).count
            return StoredEntry(
                kindByte: entry.kindByte, sourceOffset: reader.sourceOffset(at: position), length: length,
                elements: reader.elementCount(at: position),
                arenaBytes: inArena || escaped ? reader.withUTF8(at: position) { Array($0) } : nil)
        }
    }
}
