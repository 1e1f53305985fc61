/// Frees nested containers without recursing on their depth.
///
/// Releasing the root of a deep tree would otherwise release its child, whose
/// release releases its child, and so on: one stack frame per level, which
/// overflows the stack on a tree a hundred thousand levels deep. Instead, the
/// storage being freed moves its children into a worklist, and each child
/// whose storage is uniquely owned gives up its own children the same way
/// before it is released — so every release happens at depth one.
enum IngredientTeardown {
    static func dismantle(_ elements: inout ContiguousArray<Ingredients>) {
        guard elements.contains(where: \.isContainer) else { return }
        var pending = ContiguousArray<Ingredients>()
        swap(&pending, &elements)
        while var node = pending.popLast() {
            node.moveUniqueChildren(into: &pending)
        }
    }
}

extension Ingredients {
    /// Moves the children of a uniquely owned container into `pending`,
    /// leaving the container empty (and this value `.null`).
    fileprivate mutating func moveUniqueChildren(into pending: inout ContiguousArray<Ingredients>) {
        switch self {
        case .array(var array):
            self = .null
            guard isKnownUniquelyReferenced(&array.storage) else { return }
            var children = ContiguousArray<Ingredients>()
            swap(&children, &array.storage.elements)
            pending.append(contentsOf: children.lazy.filter(\.isContainer))
        case .dictionary(var dictionary):
            self = .null
            guard isKnownUniquelyReferenced(&dictionary.storage) else { return }
            var entries = ContiguousArray<IngredientDictionary.Element>()
            swap(&entries, &dictionary.storage.entries)
            dictionary.storage.index = nil
            pending.append(contentsOf: entries.lazy.map(\.value).filter(\.isContainer))
        default:
            return
        }
    }
}
