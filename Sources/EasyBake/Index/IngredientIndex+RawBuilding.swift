extension IngredientIndex.Storage {
    /// The entries as raw memory, for a builder that writes them itself
    /// (the JSON structural build, in C): room for `room` entries from
    /// ``rawEntryCount`` on is made first; returns the entries' first byte
    /// and how many the memory has room for in all. Valid until the storage
    /// grows.
    ///
    /// Such a builder writes the layout of ``IngredientIndex/Entry``
    /// (``rawEntryLayout`` says it: 16 bytes, the head first, then the
    /// length and the auxiliary word), puts the kinds' raw values in the
    /// head's top byte, and then sets ``rawEntryCount``: the entries it
    /// wrote must obey the storage's invariants, as if appended one by one.
    package func rawEntries(room: Int) -> (entries: UnsafeMutableRawPointer, capacity: Int) {
        reserve(room)
        return (UnsafeMutableRawPointer(entries), capacity)
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

    /// Drops every entry and arena byte, so that another builder builds the
    /// value again from its start through the same storage (the index's own
    /// `begin` would copy a storage its builder still holds).
    package func restartBuilding() {
        count = 0
        arenaCount = 0
        openContainers.removeAll()
    }

    /// An entry's size, and where its length and auxiliary word lie in it.
    package static var rawEntryLayout: (size: Int, length: Int, aux: Int) {
        (
            MemoryLayout<IngredientIndex.Entry>.stride,
            MemoryLayout<IngredientIndex.Entry>.offset(of: \.length)!,
            MemoryLayout<IngredientIndex.Entry>.offset(of: \.aux)!
        )
    }

    /// Completes a number a raw builder wrote in place: `length` bytes from
    /// its offset, an integer or a float.
    package func completeNumber(at position: Int, length: Int, isInteger: Bool) {
        assert(position >= 0 && position < count, "a number the storage does not hold")
        let kind = isInteger ? IngredientIndex.Kind.integer : IngredientIndex.Kind.float
        let offset = entries[position].head & IngredientIndex.offsetMask
        entries[position].head = UInt64(kind.rawValue) << 56 | offset
        entries[position].length = UInt32(truncatingIfNeeded: length)
    }

    /// Completes a string a raw builder wrote in place, whose text has
    /// escapes: its decoded bytes go to the arena.
    package func completeString(at position: Int, decoded bytes: UnsafeRawBufferPointer) throws(EasyBakeError) {
        assert(position >= 0 && position < count, "a string the storage does not hold")
        let offset = entries[position].head & IngredientIndex.offsetMask
        entries[position] = try arenaString(bytes, at: Int(offset))
    }
}

extension IngredientIndex {
    /// One entry as it is stored, with its bytes when they live in the
    /// arena: what tests compare to hold two builders of one index to the
    /// same entries, bit for bit.
    package struct StoredEntry: Equatable, Sendable, CustomStringConvertible {
        package var head: UInt64
        package var length: UInt32
        package var aux: UInt32
        package var arenaBytes: [UInt8]?

        package var description: String {
            "\(head >> 56):\(head & IngredientIndex.offsetMask) \(length) \(aux)"
                + (arenaBytes.map { " \(String(decoding: $0, as: UTF8.self).debugDescription)" } ?? "")
        }
    }

    /// Every entry, in order.
    package var storedEntries: [StoredEntry] {
        let reader = reader
        return (0..<count).map { position in
            let entry = storage.entries[position]
            let inArena = UInt8(truncatingIfNeeded: entry.head >> 56) & IngredientIndex.arenaFlag != 0
            return StoredEntry(
                head: entry.head, length: entry.length, aux: inArena ? 0 : entry.aux,
                arenaBytes: inArena ? Array(reader.utf8(at: position)) : nil)
        }
    }
}
