/// What a keyed container learned about one key type under one recipe:
/// for each key the model asks for, in the order it asks, its bytes and its
/// recipe entry. Made on the first record, reused for every record after it.
// Invariants: `slots` (a ``GrowableBuffer``) and `fieldSlots` (when set,
// `fieldCount` slots) are the plan's own, freed with it. A slot's byte pointers point into `owned`,
// which the plan frees with it too: a slot is good as long as its plan.
final class KeyPlan {
    /// One key the model asks for: plain values and pointers into memory the
    /// plan owns, so that finding and reading it costs no reference count.
    struct Slot {
        /// The name as UTF-8.
        let utf8: UnsafeRawBufferPointer
        /// The recipe's key index for the name (-1: none), and its entry
        /// index (-1: none; a default has a key but no entry).
        let keyIndex: Int
        let entryIndex: Int
        let hasTransformer: Bool
        /// Whether the recipe reads the property's empty text as no value.
        let emptyAsNil: Bool
        /// The recipe's one-key path of the entry, as UTF-8: the common case.
        let entryKey: UnsafeRawBufferPointer?
        /// Where the slot's name and its other parts are in the plan.
        let ordinal: Int
        /// Whether the recipe has a default for the property, and puts it
        /// in for null too: known here, so that a value found needs no
        /// look at the recipe (a shared object, whose reference count
        /// several baking threads would contend for).
        var hasDefault = false
        var defaultsForNull = false
        /// Whether the recipe makes the property's array lossy.
        var lossy = false
        /// Whether the entry's path is `#key` (``IngredientPath/ownKey``).
        var readsOwnKey = false
        /// Whether no other slot looks up the same key bytes, so that the
        /// member after the last one found may be taken without looking at
        /// those before it: a member before it has another slot's key, so a
        /// repeated key's first member (first wins) cannot be among them.
        var cursorSafe = false

        /// The bytes of the key this slot looks up exactly, if any.
        var lookupKey: UnsafeRawBufferPointer? { entryIndex >= 0 ? entryKey : utf8 }
    }

    let recipe: Recipe?
    /// The slots, in memory the plan owns.
    @exclusivity(unchecked) private var slots = GrowableBuffer<Slot>()
    /// For each slot, by its ordinal: its name, the name normalized for
    /// implicit key matching, its nested recipe and its entry's path.
    // Read on every key asked: unchecked, since a class's array property
    // would be checked for exclusive access each time.
    @exclusivity(unchecked) private(set) var names: [String] = []
    @exclusivity(unchecked) private(set) var normalized: [[UInt8]] = []
    @exclusivity(unchecked) private(set) var nested: [Recipe?] = []
    @exclusivity(unchecked) private(set) var entryPaths: [IngredientPath] = []
    private var byName: [String: Int] = [:]
    /// For an ``IndexBakeable`` model's plan: the slot of each of its baking
    /// keys, by the key's index, made with the plan.
    @exclusivity(unchecked) private var fieldSlots: UnsafeMutablePointer<Slot>?
    private(set) var fieldCount = 0
    /// The bytes the slots point to.
    private var owned: [UnsafeMutableRawBufferPointer] = []

    init(recipe: Recipe?) {
        self.recipe = recipe
    }

    /// The plan of an ``IndexBakeable`` model, whose initializer names each
    /// key by its index in `fields`, the model's baking keys.
    convenience init(recipe: Recipe?, fields: [String]) {
        self.init(recipe: recipe)
        for name in fields { _ = slowSlot(named: name) }
        // Copied once all are made: a later slot may mark an earlier one.
        let copied = UnsafeMutablePointer<Slot>.allocate(capacity: max(fields.count, 1))
        assert(fields.allSatisfy { byName[$0].map { $0 < slots.count } == true }, "a baking key without a slot")
        for (index, name) in fields.enumerated() { (copied + index).initialize(to: slots[byName[name]!]) }
        fieldSlots = copied
        fieldCount = fields.count
    }

    /// The slot of an ``IndexBakeable`` model's `index`-th baking key.
    @inline(__always)
    func fieldSlot(_ index: Int) -> Slot {
        precondition(index >= 0 && index < fieldCount, "a baking key index out of range")
        return fieldSlots.unsafelyUnwrapped[index]
    }

    deinit {
        if let fieldSlots {
            fieldSlots.deinitialize(count: fieldCount)
            fieldSlots.deallocate()
        }
        slots.deallocate()
        for bytes in owned { bytes.deallocate() }
    }

    /// The slot for the `ordinal`-th key asked, named `name`: the slot of
    /// that ordinal when its name matches (models ask in the same order for
    /// every record), found by name otherwise.
    @inline(__always)
    func slot(_ ordinal: Int, named name: String) -> Slot {
        assert(ordinal >= 0, "a key asked before the first")
        if ordinal < slots.count, names[ordinal] == name { return slots[ordinal] }
        return slowSlot(named: name)
    }

    private func slowSlot(named name: String) -> Slot {
        if let found = byName[name] { return slots[found] }
        let keyIndex = recipe?.keyIndex[name]
        var entry: Recipe.Entry?
        if let recipe, let keyIndex, keyIndex < recipe.entries.count { entry = recipe.entries[keyIndex] }
        var entryKey: UnsafeRawBufferPointer?
        // `#key` falls back on the value's own key: not a plain member lookup.
        if let entry, entry.path.steps.count == 1, case .key(let key) = entry.path.steps[0], entry.path != .ownKey {
            entryKey = copy(key)
        }
        let slot = Slot(
            utf8: copy(name), keyIndex: keyIndex ?? -1, entryIndex: entry == nil ? -1 : keyIndex!,
            hasTransformer: entry?.transformer != nil, emptyAsNil: recipe?.emptyAsNil.contains(name) ?? false,
            entryKey: entryKey, ordinal: slots.count, hasDefault: recipe?.defaults[name] != nil,
            defaultsForNull: recipe?.defaultsForNull ?? false, lossy: recipe?.lossy.contains(name) ?? false,
            readsOwnKey: entry?.path == .ownKey)
        slots.append(slot)
        markCursorSafety(ofLast: slot)
        byName[name] = slot.ordinal
        names.append(name)
        normalized.append(Array(ImplicitKeyMatching.normalize(name).utf8))
        nested.append(recipe?.nested[name])
        entryPaths.append(entry?.path ?? IngredientPath())
        return slot
    }

    /// Marks the new last slot, and any earlier slot it shares a key with,
    /// by whether its key is looked up by no other slot: one pass per new
    /// slot, since a dictionary keyed by ids makes a slot per id.
    private func markCursorSafety(ofLast slot: Slot) {
        let last = slots.count - 1
        guard let key = slot.lookupKey else { return }
        var unique = true
        for i in 0..<last {
            if let other = slots[i].lookupKey, other.elementsEqual(key) {
                slots[i].cursorSafe = false
                unique = false
            }
        }
        slots[last].cursorSafe = unique
    }

    private func copy(_ text: String) -> UnsafeRawBufferPointer {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(text.utf8.count, 1), alignment: 1)
        _ = bytes.initializeMemory(as: UInt8.self, from: text.utf8)
        owned.append(bytes)
        return UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[..<text.utf8.count])
    }
}
