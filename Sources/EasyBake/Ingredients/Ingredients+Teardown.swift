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
            // Take the container out of the enum, then clear the enum: the
            // local is then the only reference unless the container is shared
            // with a live tree. (A `switch` on `node` would keep a hidden copy
            // of it alive through the case body and defeat the check.)
            if var array = node.arrayValue {
                node = .null
                guard isKnownUniquelyReferenced(&array.storage) else { continue }
                var children = ContiguousArray<Ingredients>()
                swap(&children, &array.storage.elements)
                pending.append(contentsOf: children.lazy.filter(\.isContainer))
            } else if var dictionary = node.dictionaryValue {
                node = .null
                guard isKnownUniquelyReferenced(&dictionary.storage) else { continue }
                var entries = ContiguousArray<IngredientDictionary.Element>()
                swap(&entries, &dictionary.storage.entries)
                dictionary.storage.index = nil
                pending.append(contentsOf: entries.lazy.map(\.value).filter(\.isContainer))
            }
        }
    }
}
