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
            // Take the storage out of the node and drop the node, so that the
            // storage variable holds the only reference this loop has; pattern
            // bindings on the node itself may hold extra references (they do
            // in unoptimized builds) and make a unique storage look shared,
            // which would let its release recurse.
            if var storage = arrayStorage(of: node) {
                node = .null
                guard isKnownUniquelyReferenced(&storage) else { continue }
                var children = ContiguousArray<Ingredients>()
                swap(&children, &storage.elements)
                pending.append(contentsOf: children.lazy.filter(\.isContainer))
            } else if var storage = dictionaryStorage(of: node) {
                node = .null
                guard isKnownUniquelyReferenced(&storage) else { continue }
                var entries = ContiguousArray<IngredientDictionary.Element>()
                swap(&entries, &storage.entries)
                storage.index = nil
                pending.append(contentsOf: entries.lazy.map(\.value).filter(\.isContainer))
            }
        }
    }

    private static func arrayStorage(of node: Ingredients) -> IngredientArray.Storage? {
        if case .array(let array) = node { array.storage } else { nil }
    }

    private static func dictionaryStorage(of node: Ingredients) -> IngredientDictionary.Storage? {
        if case .dictionary(let dictionary) = node { dictionary.storage } else { nil }
    }
}
