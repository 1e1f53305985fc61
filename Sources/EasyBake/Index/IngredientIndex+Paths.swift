extension IngredientIndex.Reader {
    /// The position of the value of the first member of the dictionary at
    /// `dictionary` whose key is `utf8`; `nil` when there is none or the
    /// value there is no dictionary. The first, because a JSON index keeps
    /// a repeated key's members and first wins.
    @inlinable
    func member(_ utf8: UnsafeRawBufferPointer, in dictionary: Int) -> Int? {
        guard kind(at: dictionary) == .dictionary else { return nil }
        var position = dictionary &+ 1
        let end = end(of: dictionary)
        // Checked once, for the whole dictionary, rather than at each of its
        // entries (a quarter of a lookup's instructions): every key and
        // value read below lies before `end`.
        precondition(end <= count, "a dictionary past the end of its index")
        while position &+ 1 < end {
            if string(entries[position], equals: utf8) { return position &+ 1 }
            let value = position &+ 1
            position = self.end(of: value, entry: entries[value])
        }
        return nil
    }

    func member(_ key: String, in dictionary: Int) -> Int? {
        var key = key
        return key.withUTF8 { member(UnsafeRawBufferPointer($0), in: dictionary) }
    }

    /// The position of the value of the first member whose key matches
    /// `name` by letters and digits, case-insensitively (implicit key
    /// matching, ``ImplicitKeyMatching/normalize(_:)``); `normalized` is `name`
    /// normalized.
    func member(matchingImplicitly normalized: [UInt8], in dictionary: Int) -> Int? {
        guard kind(at: dictionary) == .dictionary else { return nil }
        var position = dictionary &+ 1
        let end = end(of: dictionary)
        while position < end {
            if keyMatches(normalized, at: position) { return position &+ 1 }
            position = self.end(of: position &+ 1)
        }
        return nil
    }

    /// Whether the key at `position`, normalized, is `normalized`: ASCII keys
    /// byte by byte with no `String`, any other by the shared rule.
    private func keyMatches(_ normalized: [UInt8], at position: Int) -> Bool {
        withUTF8(at: position) { key -> Bool in
            var next = 0
            for byte in key {
                if byte >= 0x80 {
                    let text = String(decoding: key, as: UTF8.self)
                    return Array(ImplicitKeyMatching.normalize(text).utf8) == normalized
                }
                let folded: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"): folded = byte
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): folded = byte + 0x20
                default: continue
                }
                guard next < normalized.count, normalized[next] == folded else { return false }
                next += 1
            }
            return next == normalized.count
        }
    }

    /// The element at `offset` of the array at `array` (negative counts from
    /// the end); `nil` when out of range.
    func element(_ offset: Int, in array: Int) -> Int? {
        let count = elementCount(at: array)
        let wanted = offset < 0 ? count + offset : offset
        guard wanted >= 0, wanted < count else { return nil }
        var position = array + 1
        for _ in 0..<wanted { position = end(of: position) }
        return position
    }

}

extension IngredientIndex {
    @inlinable
    func member(_ utf8: UnsafeRawBufferPointer, in dictionary: Int) -> Int? { reader.member(utf8, in: dictionary) }
    func member(_ key: String, in dictionary: Int) -> Int? { reader.member(key, in: dictionary) }
    func member(matchingImplicitly normalized: [UInt8], in dictionary: Int) -> Int? {
        reader.member(matchingImplicitly: normalized, in: dictionary)
    }
    func element(_ offset: Int, in array: Int) -> Int? { reader.element(offset, in: array) }

    /// The value at `steps` from `position`, by the rules of
    /// ``Ingredients/resolve(_:)``; a `[*]` gathers its matches into a new
    /// array appended to the index.
    mutating func resolve(_ steps: ArraySlice<IngredientPath.Step>, from position: Int) -> Int? {
        var current = position
        var remaining = steps
        while let step = remaining.popFirst() {
            switch step {
            case .key(let key):
                guard let value = member(key, in: current) else { return nil }
                current = value
            case .index(let offset):
                switch kind(at: current) {
                case .array:
                    guard let value = element(offset, in: current) else { return nil }
                    current = value
                case .null:
                    return nil
                default:
                    guard IngredientPath.findsLoneValue(offset) else { return nil }
                }
            case .everyElement:
                var found: [Int] = []
                switch kind(at: current) {
                case .array:
                    var element = current + 1
                    let end = end(of: current)
                    while element < end {
                        if let value = resolve(remaining, from: element) { found.append(value) }
                        element = self.end(of: element)
                    }
                case .null:
                    break
                case .dictionary where !traits.contains(.dictionariesAreElements):
                    for value in distinctMemberValues(of: current) {
                        if let value = resolve(remaining, from: value) { found.append(value) }
                    }
                default:
                    if let value = resolve(remaining, from: current) { found.append(value) }
                }
                return appendArray(of: found)
            }
        }
        return current
    }

    /// The positions of the values of the dictionary at `dictionary`, in
    /// order, each key's first only (a JSON index keeps a repeated key's
    /// members, and first wins).
    func distinctMemberValues(of dictionary: Int) -> [Int] {
        var values: [Int] = []
        values.reserveCapacity(elementCount(at: dictionary))
        var seen = Set<String>()
        var position = dictionary + 1
        let end = end(of: dictionary)
        while position < end {
            if seen.insert(string(at: position) ?? "").inserted { values.append(position + 1) }
            position = self.end(of: position + 1)
        }
        return values
    }

    /// Appends an array of copies of the values at `positions`; returns its position.
    mutating func appendArray(of positions: [Int]) -> Int {
        let start = count
        let storage = uniqueStorage
        storage.append(storage.containerEntry(.array, at: 0))
        for position in positions { appendCopy(of: position..<end(of: position)) }
        closeContainerEntry(at: start, elements: positions.count)
        return start
    }

    /// Appends a tree (a transformer's result, a recipe's default); returns its position.
    mutating func append(_ value: Ingredients) -> Int {
        let start = count
        // Appending a tree cannot fail but for a 4 GiB string, which no
        // transformer or default makes; such a value reads as null.
        if (try? appendValue(value)) == nil {
            uniqueStorage.count = start
            appendLiteral(.null, at: 0)
        }
        return start
    }
}
