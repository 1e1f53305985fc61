/// The keys of the dictionaries a builder has open, to find a key that
/// repeats within one: what the tree builder and the index builder share.
///
/// Keys live in one stack; a dictionary's slice of it is searched linearly
/// while small and through a hash index once it grows past
/// `IngredientDictionary.indexThreshold`, sized as the dictionary's own
/// index would be, since a tree hands it to the dictionary.
struct OpenDictionaryKeys {
    /// Where one open dictionary's keys begin, and its index once it has one.
    struct Slice {
        let start: Int
        var index: [String: Int]?
    }

    private var keys = ContiguousArray<String>()

    /// How many keys the open dictionaries hold together.
    var count: Int { keys.count }

    /// The key at `position` in the stack.
    subscript(position: Int) -> String { keys[position] }

    /// A slice for a dictionary that opens now.
    func open() -> Slice { Slice(start: keys.count, index: nil) }

    /// The position of `key` in `slice` (from its start), if it is there.
    func position(of key: String, in slice: Slice) -> Int? {
        if let index = slice.index { return index[key] }
        var i = slice.start
        while i < keys.count {
            if keys[i] == key { return i - slice.start }
            i += 1
        }
        return nil
    }

    /// Adds `key` to `slice`, the innermost open dictionary; returns its
    /// position from the slice's start.
    mutating func add(_ key: String, to slice: inout Slice) -> Int {
        keys.append(key)
        let position = keys.count - 1 - slice.start
        if slice.index != nil {
            slice.index![key] = position
        } else if keys.count - slice.start > IngredientDictionary.indexThreshold {
            var index = [String: Int](minimumCapacity: keys.count - slice.start)
            for i in slice.start..<keys.count { index[keys[i]] = i - slice.start }
            slice.index = index
        }
        return position
    }

    /// Closes `slice`, the innermost open dictionary.
    mutating func close(_ slice: Slice) { keys.removeSubrange(slice.start...) }
}
