/// The entries of an ``Ingredients/dictionary(_:)-enum.case``: unique string keys in
/// insertion (source) order, each mapped to a value.
///
/// Lookups scan small dictionaries linearly and use a hash index once a
/// dictionary holds more than 24 keys, which keeps the many
/// small objects of a typical payload compact.
///
/// Two dictionaries are equal when they hold the same keys with equal values,
/// whatever their order; iteration always follows insertion order.
///
/// A dictionary read from an XML element is marked ``isElement``: a path's
/// `[*]` takes it as one element (a lone `<item>`), where it gives any other
/// dictionary's values.
public struct IngredientDictionary: Sendable {
    /// A key and its value.
    public typealias Element = (key: String, value: Ingredients)

    /// The number of keys above which a dictionary keeps a hash index.
    static let indexThreshold = 24

    @usableFromInline
    final class Storage: IndexViewStorage, @unchecked Sendable {
        // Mutated only while uniquely referenced (copy on write), or filled
        // once from `origin` under its tree's lock before anyone reads it
        // (`IndexTree.fill(_:_:)`): the accesses are exclusive without a
        // check at run time (see `IngredientArray.Storage`).
        @exclusivity(unchecked) @usableFromInline var entries: ContiguousArray<Element>
        @exclusivity(unchecked) @usableFromInline var index: [String: Int]?
        @exclusivity(unchecked) @usableFromInline var isElement: Bool
        /// Where the dictionary sits in the index a format read it into,
        /// while it is unchanged: what baking reads instead of the entries,
        /// and what they are made from on first access (see
        /// `IngredientIndex+Tree.swift`).
        @exclusivity(unchecked) @usableFromInline var origin: IndexOrigin?

        @usableFromInline
        init(_ entries: ContiguousArray<Element>, index: [String: Int]?, isElement: Bool = false) {
            self.entries = entries
            self.index = index
            self.isElement = isElement
            origin = nil
        }

        /// A view of the dictionary at `origin`, its entries made on first
        /// access.
        init(viewing origin: IndexOrigin, isElement: Bool) {
            entries = []
            index = nil
            self.isElement = isElement
            self.origin = origin
        }

        /// Stores the entries of the dictionary at `position` of `tree`;
        /// every read of `entries` or `index` calls `fill()` first, which
        /// calls this once.
        @usableFromInline
        func makeNodes(from tree: IndexTree, at position: Int) {
            (entries, index) = tree.entries(ofDictionaryAt: position)
        }

        deinit {
            if entries.contains(where: { $0.value.isContainer }) {
                var values = ContiguousArray(entries.lazy.map(\.value))
                entries = []
                IngredientTeardown.dismantle(&values)
            }
        }

        /// The position of `key`; the entries are made first.
        @inlinable
        func position(of key: String) -> Int? {
            fill()
            if let index { return index[key] }
            return entries.firstIndex { $0.key == key }
        }

        func rebuildIndexIfNeeded() {
            guard entries.count > IngredientDictionary.indexThreshold else {
                index = nil
                return
            }
            var built = [String: Int](minimumCapacity: entries.count)
            for (offset, entry) in entries.enumerated() { built[entry.key] = offset }
            index = built
        }
    }

    @usableFromInline var storage: Storage

    /// An empty dictionary.
    public init() { storage = Storage([], index: nil) }

    /// A dictionary of the given entries in their order.
    ///
    /// When a key repeats, the first occurrence wins, matching the default
    /// ``DuplicateKeyPolicy/firstWins`` of the sources.
    public init<S: Sequence>(_ entries: S) where S.Element == Element {
        storage = Storage([], index: nil)
        for (key, value) in entries where storage.position(of: key) == nil {
            appendNew(key: key, value: value)
        }
    }

    /// A dictionary of entries the caller guarantees to have unique keys.
    ///
    /// - Precondition: no key occurs twice in `entries`.
    package init(uniqueEntries entries: ContiguousArray<Element>) {
        storage = Storage(entries, index: nil)
        storage.rebuildIndexIfNeeded()
    }

    /// A dictionary of unique entries with the index of their positions that
    /// the caller built anyway (a tree builder checking for repeated keys):
    /// the keys are not hashed a second time.
    ///
    /// - Precondition: no key occurs twice in `entries`, and `index` maps
    ///   each key to its position when given; `nil` when there are at most
    ///   `indexThreshold` entries.
    init(uniqueEntries entries: ContiguousArray<Element>, index: [String: Int]?, isElement: Bool = false) {
        if let index, entries.count > IngredientDictionary.indexThreshold, index.count == entries.count {
            storage = Storage(entries, index: index, isElement: isElement)
        } else {
            storage = Storage(entries, index: nil, isElement: isElement)
            storage.rebuildIndexIfNeeded()
        }
    }

    /// A view of the dictionary at `origin` (a format's index), its entries
    /// made on first access.
    init(viewing origin: IndexOrigin, isElement: Bool) {
        storage = Storage(viewing: origin, isElement: isElement)
    }

    /// Makes the storage this dictionary's own before a change; a changed
    /// dictionary no longer reads as its index (a copy starts without the
    /// origin, and the entries are made first).
    @inlinable
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) {
            storage.fill()
            storage = Storage(storage.entries, index: storage.index, isElement: storage.isElement)
        } else if storage.origin != nil {
            storage.fill()
            storage.origin = nil
        }
    }

    /// The entries in order, made first if this is a view of an index.
    var orderedEntries: ContiguousArray<Element> {
        storage.fill()
        return storage.entries
    }

    /// Whether the dictionary is one XML element (the XML source marks the
    /// dictionaries it reads), which paths treat as a lone occurrence of a
    /// repeatable element: `channel.item[*]` finds a single `<item>` as one
    /// element, as `[0]` and `[-1]` do. Any other dictionary gives its
    /// values, in order, to `[*]` (as JSONPath and jq do), so that
    /// `events[*].name` reads every event of a dictionary keyed by ids.
    ///
    /// The mark is no part of the contents: equal dictionaries may differ in it.
    public var isElement: Bool {
        get { storage.isElement }
        set {
            guard newValue != storage.isElement else { return }
            makeUnique()
            storage.isElement = newValue
        }
    }

    /// The value for `key`, or `nil` when absent. Setting `nil` removes the key;
    /// setting a new key appends it at the end.
    public subscript(key: String) -> Ingredients? {
        get {
            // `position(of:)` makes the entries of a view first.
            guard let position = storage.position(of: key) else { return nil }
            return storage.entries[position].value
        }
        set {
            makeUnique()
            if let position = storage.position(of: key) {
                if let newValue {
                    storage.entries[position].value = newValue
                } else {
                    storage.entries.remove(at: position)
                    storage.rebuildIndexIfNeeded()
                }
            } else if let newValue {
                appendNew(key: key, value: newValue)
            }
        }
    }

    /// Appends an entry whose key is known not to be present yet.
    @usableFromInline
    mutating func appendNew(key: String, value: Ingredients) {
        makeUnique()
        storage.entries.append((key, value))
        if storage.index != nil {
            storage.index![key] = storage.entries.count - 1
        } else if storage.entries.count > Self.indexThreshold {
            storage.rebuildIndexIfNeeded()
        }
    }

    /// Whether `key` is present.
    public func contains(key: String) -> Bool { storage.position(of: key) != nil }

    /// The position of `key` in iteration order.
    public func index(forKey key: String) -> Int? { storage.position(of: key) }

    /// The keys in order.
    public var keys: [String] { orderedEntries.map(\.key) }

    /// The values in key order.
    public var values: [Ingredients] { orderedEntries.map(\.value) }

    /// The entries sorted by key (by Unicode scalar values), for canonical output.
    public func sortedByKey() -> [Element] {
        orderedEntries.sorted { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) }
    }
}

extension IngredientDictionary: RandomAccessCollection {
    public typealias Index = Int
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int {
        storage.fill()
        return storage.entries.count
    }
    @inlinable public var count: Int { endIndex }
    @inlinable public subscript(position: Int) -> Element {
        storage.fill()
        return storage.entries[position]
    }
}

extension IngredientDictionary: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, Ingredients)...) {
        self.init(elements.lazy.map { (key: $0.0, value: $0.1) })
    }
}

extension IngredientDictionary: Equatable {
    public static func == (lhs: IngredientDictionary, rhs: IngredientDictionary) -> Bool {
        lhs.storage === rhs.storage || Ingredients.structurallyEqual(.dictionary(lhs), .dictionary(rhs))
    }
}

extension IngredientDictionary: Hashable {
    public func hash(into hasher: inout Hasher) { Ingredients.dictionary(self).hash(into: &hasher) }
}
