// Appending trees: a tree made in code (or a transformer's result, a
// recipe's default) becomes entries, walked directly.

extension IngredientIndex {
    /// The index of a tree: when the tree is a container read by a format
    /// and unchanged, the index it was read into (its root), or a copy of
    /// its entries there (see `IngredientIndex+Tree.swift`); else an index
    /// of its nodes.
    package init(_ tree: Ingredients) {
        if let origin = tree.indexOrigin {
            self =
                origin.position == 0
                ? origin.index : IngredientIndex(copyingValueAt: origin.position, of: origin.index)
            return
        }
        self.init()
        append(tree: tree)
    }

    /// Appends a tree, walking it directly: its dictionaries hold each key
    /// once, so no policy applies, and an explicit stack keeps any depth off
    /// the call stack.
    ///
    /// Into an empty index, a tree whose root is a dictionary marked
    /// ``IngredientDictionary/isElement`` makes an index of elements whose
    /// scalars are text (``IngredientTraits/markup``).
    mutating func append(tree: Ingredients) {
        if count == 0, case .dictionary(let root) = tree, root.isElement { traits = .markup }
        // Each open container: its entry's position, its elements or
        // members, and which of them comes next.
        enum Open {
            case array(position: Int, elements: IngredientArray, next: Int)
            case dictionary(position: Int, members: IngredientDictionary, next: Int)
        }
        var stack: [Open] = []
        var pending: Ingredients? = tree
        while true {
            if let value = pending {
                pending = nil
                switch value {
                case .array(let elements):
                    stack.append(.array(position: count, elements: elements, next: 0))
                    appendContainerEntry(.array)
                case .dictionary(let members):
                    stack.append(.dictionary(position: count, members: members, next: 0))
                    appendContainerEntry(.dictionary)
                default:
                    // A scalar cannot fail but for a string over 4 GiB,
                    // which no tree in memory this side of 4 GiB holds.
                    try? appendScalar(value)
                }
            }
            guard let top = stack.popLast() else { return }
            switch top {
            case .array(let position, let elements, let next):
                if next < elements.count {
                    stack.append(.array(position: position, elements: elements, next: next + 1))
                    pending = elements[next]
                } else {
                    closeContainerEntry(at: position, elements: elements.count)
                }
            case .dictionary(let position, let members, let next):
                if next < members.count {
                    stack.append(.dictionary(position: position, members: members, next: next + 1))
                    let member = members[next]
                    try? appendString(member.key, at: 0)
                    pending = member.value
                } else {
                    closeContainerEntry(at: position, elements: members.count)
                }
            }
        }
    }

    /// Appends the entry of a tree's container, closed by
    /// ``closeContainerEntry(at:elements:)`` once its contents are appended.
    private mutating func appendContainerEntry(_ kind: Kind) {
        let storage = uniqueStorage
        storage.append(storage.containerEntry(kind, at: 0))
    }

    /// Closes the container at `position`, which holds `elements` elements
    /// (or members) and everything after it. A tree in memory holds fewer
    /// than 2³² values, so it always fits.
    mutating func closeContainerEntry(at position: Int, elements: Int) {
        let storage = uniqueStorage
        if let closed = storage.closed(
            storage.entries[position], span: storage.count - position - 1, elements: elements, at: position)
        {
            storage.entries[position] = closed
        }
    }

    /// Appends a value of a tree, scalar or container.
    mutating func appendValue(_ value: Ingredients) throws(EasyBakeError) {
        switch value {
        case .array, .dictionary: append(tree: value)
        default: try appendScalar(value)
        }
    }

    /// Appends a scalar of a tree (a container is appended whole).
    mutating func appendScalar(_ value: Ingredients) throws(EasyBakeError) {
        switch value {
        case .null: appendLiteral(.null, at: 0)
        case .bool(let flag): appendLiteral(flag ? .true : .false, at: 0)
        case .integer, .float, .exactNumber: try appendNumber(value, at: 0)
        case .string(let text): try appendString(text, at: 0)
        case .array, .dictionary: append(tree: value)
        }
    }
}
