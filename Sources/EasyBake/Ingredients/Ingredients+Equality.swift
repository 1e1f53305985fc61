extension Ingredients: Equatable {
    /// Structural equality: same kind and equal payloads. Dictionaries compare
    /// by key, whatever their order; `NaN` equals `NaN`, so that every tree
    /// equals itself. An integer never equals a float: `1` and `1.0` are
    /// different ingredients, as they are different source text.
    public static func == (lhs: Ingredients, rhs: Ingredients) -> Bool {
        structurallyEqual(lhs, rhs)
    }

    /// Compares two trees with an explicit worklist, so that depth costs heap,
    /// not stack.
    static func structurallyEqual(_ lhs: Ingredients, _ rhs: Ingredients) -> Bool {
        var pending: [(Ingredients, Ingredients)] = [(lhs, rhs)]
        while let (a, b) = pending.popLast() {
            switch (a, b) {
            case (.null, .null):
                continue
            case let (.bool(x), .bool(y)):
                if x != y { return false }
            case let (.integer(x), .integer(y)):
                if x != y { return false }
            case let (.float(x), .float(y)):
                if !(x == y || (x.isNaN && y.isNaN)) { return false }
            case let (.exactNumber(x), .exactNumber(y)):
                if x != y { return false }
            case let (.string(x), .string(y)):
                if x != y { return false }
            case let (.array(x), .array(y)):
                if x.storage === y.storage { continue }
                guard x.count == y.count else { return false }
                for i in 0..<x.count { pending.append((x[i], y[i])) }
            case let (.dictionary(x), .dictionary(y)):
                if x.storage === y.storage { continue }
                guard x.count == y.count else { return false }
                for (key, value) in x {
                    guard let other = y[key] else { return false }
                    pending.append((value, other))
                }
            default:
                return false
            }
        }
        return true
    }
}

extension Ingredients: Hashable {
    /// Hashes the kind and the scalar payloads, descending at most a few
    /// levels into containers: equal trees hash equally, and deep trees hash
    /// in bounded time and stack. Dictionary entries hash independently of
    /// their order, as equality ignores it.
    public func hash(into hasher: inout Hasher) {
        hashShape(into: &hasher, depth: 0)
    }

    private static let maximumHashDepth = 4

    private func hashShape(into hasher: inout Hasher, depth: Int) {
        hasher.combine(kind)
        switch self {
        case .null: break
        case .bool(let b): hasher.combine(b)
        case .integer(let i): hasher.combine(i)
        case .float(let d):
            hasher.combine(d.isNaN ? Double.nan.bitPattern : d.bitPattern == (-0.0).bitPattern ? 0 : d.bitPattern)
        case .exactNumber(let s): hasher.combine(s)
        case .string(let s): hasher.combine(s)
        case .array(let array):
            hasher.combine(array.count)
            guard depth < Self.maximumHashDepth else { return }
            for element in array.prefix(8) { element.hashShape(into: &hasher, depth: depth + 1) }
        case .dictionary(let dictionary):
            hasher.combine(dictionary.count)
            guard depth < Self.maximumHashDepth else { return }
            var combined = 0
            for (key, value) in dictionary {
                var entryHasher = Hasher()
                entryHasher.combine(key)
                value.hashShape(into: &entryHasher, depth: depth + 1)
                combined = combined &+ entryHasher.finalize()
            }
            hasher.combine(combined)
        }
    }
}
