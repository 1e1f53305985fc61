/// One place where two trees differ.
public struct IngredientDifference: Sendable, Hashable, CustomStringConvertible {
    /// Where, from the root of both trees.
    public var path: IngredientPath
    /// The value in the first tree, `nil` when absent there.
    public var old: Ingredients?
    /// The value in the second tree, `nil` when absent there.
    public var new: Ingredients?

    /// A difference at `path` between `old` and `new` (`nil`: absent).
    public init(path: IngredientPath, old: Ingredients?, new: Ingredients?) {
        self.path = path
        self.old = old
        self.new = new
    }

    /// `path: old → new`, with `absent` for a missing side:
    /// `tags[1]: absent → "y" (string)`.
    public var description: String {
        "\(path.isRoot ? "<root>" : path.description): \(old?.briefDescription ?? "absent") → \(new?.briefDescription ?? "absent")"
    }
}

extension Ingredients {
    /// The paths where `other` differs from this tree, with both values,
    /// deepest first-differing paths only: two dictionaries are compared key
    /// by key, two arrays element by element (extra elements are absent on
    /// one side), anything else as a whole.
    ///
    /// ```swift
    /// let a: Ingredients = ["name": "Ada", "tags": ["x"]]
    /// let b: Ingredients = ["name": "Ada", "tags": ["x", "y"]]
    /// a.difference(to: b)   // [tags[1]: absent → "y"]
    /// ```
    public func difference(to other: Ingredients) -> [IngredientDifference] {
        var differences: [IngredientDifference] = []
        // Paths as parent links, so that each visited value costs one step,
        // not a copy of its whole path; a path is built only for a difference.
        var steps: [(parent: Int, step: IngredientPath.Step?)] = [(-1, nil)]
        func path(_ node: Int) -> IngredientPath {
            var reversed: [IngredientPath.Step] = []
            var current = node
            while current >= 0, let step = steps[current].step {
                reversed.append(step)
                current = steps[current].parent
            }
            return IngredientPath(reversed.reversed())
        }
        // An explicit stack: trees may be deeper than the call stack.
        var pending: [(node: Int, old: Ingredients?, new: Ingredients?)] = [(0, self, other)]
        while let (node, old, new) = pending.popLast() {
            let start = pending.count
            switch (old, new) {
            case (.dictionary(let a)?, .dictionary(let b)?):
                for (key, value) in a {
                    steps.append((node, .key(key)))
                    pending.append((steps.count - 1, value, b[key]))
                }
                for (key, value) in b where a[key] == nil {
                    steps.append((node, .key(key)))
                    pending.append((steps.count - 1, nil, value))
                }
            case (.array(let a)?, .array(let b)?):
                for index in 0..<max(a.count, b.count) {
                    steps.append((node, .index(index)))
                    pending.append(
                        (steps.count - 1, index < a.count ? a[index] : nil, index < b.count ? b[index] : nil))
                }
            default:
                if old != new { differences.append(IngredientDifference(path: path(node), old: old, new: new)) }
            }
            // Visit children in order.
            pending[start...].reverse()
        }
        return differences
    }

    /// This tree with `update` laid over it: dictionaries merge key by key
    /// (recursively), anything else in `update` replaces what is here —
    /// null included, which clears.
    ///
    /// ```swift
    /// let base: Ingredients = ["name": "Ada", "address": ["town": "London", "zip": "N1"]]
    /// base.merging(["address": ["town": "Paris"]])
    /// // ["name": "Ada", "address": ["town": "Paris", "zip": "N1"]]
    /// ```
    ///
    /// - Parameters:
    ///   - update: the values to lay over this tree.
    ///   - matchingKeysImplicitly: when true, a key of `update`
    ///     replaces a key here whose letters and digits match it
    ///     case-insensitively (`unread_messages` replaces `unreadMessages`), as
    ///     implicit key matching would read them.
    public func merging(_ update: Ingredients, matchingKeysImplicitly: Bool = false) -> Ingredients {
        guard case .dictionary(let base) = self, case .dictionary(let changes) = update else { return update }
        var entries = ContiguousArray<IngredientDictionary.Element>(base)
        var positions: [String: Int] = [:]
        var normalizedPositions: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            if positions[entry.key] == nil { positions[entry.key] = index }
            if matchingKeysImplicitly {
                let normalized = ImplicitKeyMatching.normalize(entry.key)
                if normalizedPositions[normalized] == nil { normalizedPositions[normalized] = index }
            }
        }
        for (key, change) in changes {
            let position =
                positions[key]
                ?? (matchingKeysImplicitly ? normalizedPositions[ImplicitKeyMatching.normalize(key)] : nil)
            if let position {
                let existing = entries[position]
                entries[position] = (
                    existing.key, existing.value.merging(change, matchingKeysImplicitly: matchingKeysImplicitly)
                )
            } else {
                positions[key] = entries.count
                entries.append((key, change))
            }
        }
        return .dictionary(IngredientDictionary(uniqueEntries: entries))
    }

    /// This tree with `value` at `path`, creating dictionaries and arrays on
    /// the way (missing array elements become null). `[*]` sets every
    /// existing element.
    public func setting(_ value: Ingredients, at path: IngredientPath) -> Ingredients {
        setting(value, at: path.steps[...])
    }

    private func setting(_ value: Ingredients, at steps: ArraySlice<IngredientPath.Step>) -> Ingredients {
        guard let step = steps.first else { return value }
        let rest = steps.dropFirst()
        switch step {
        case .key(let key):
            var entries = ContiguousArray<IngredientDictionary.Element>()
            var replaced = false
            if case .dictionary(let dictionary) = self {
                for (existingKey, existing) in dictionary {
                    if existingKey == key {
                        entries.append((key, existing.setting(value, at: rest)))
                        replaced = true
                    } else {
                        entries.append((existingKey, existing))
                    }
                }
            }
            if !replaced { entries.append((key, Ingredients.null.setting(value, at: rest))) }
            return .dictionary(IngredientDictionary(uniqueEntries: entries))
        case .index(let index):
            var elements = ContiguousArray(arrayValue ?? [])
            let resolved = index < 0 ? max(elements.count + index, 0) : index
            while elements.count <= resolved { elements.append(.null) }
            elements[resolved] = elements[resolved].setting(value, at: rest)
            return .array(IngredientArray(elements))
        case .everyElement:
            guard case .array(let array) = self else { return self }
            return .array(IngredientArray(array.map { $0.setting(value, at: rest) }))
        }
    }
}
