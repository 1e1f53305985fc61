/// The elements of an ``Ingredients/array(_:)-enum.case``: a random-access collection
/// of ``Ingredients`` with value semantics.
///
/// The elements live in a shared, copy-on-write buffer whose release takes
/// nested containers apart iteratively, so a tree nested a million levels
/// deep is freed without recursing (see ``Ingredients``).
public struct IngredientArray: Sendable {
    @usableFromInline
    final class Storage: IndexViewStorage, @unchecked Sendable {
        // Mutated only while uniquely referenced (copy on write), or filled
        // once from `origin` under its tree's lock before anyone reads it
        // (`IndexTree.fill(_:_:)`): what makes the unchecked Sendable
        // conformance sound, and the accesses exclusive without a check at
        // run time (which cost a walk of a tree read by a format a third of
        // its instructions).
        @exclusivity(unchecked) @usableFromInline var elements: ContiguousArray<Ingredients>
        /// Where the array sits in the index a format read it into, while
        /// it is unchanged: what baking reads instead of the elements, and
        /// what they are made from on first access (see
        /// `IngredientIndex+Tree.swift`).
        @exclusivity(unchecked) @usableFromInline var origin: IndexOrigin?

        @usableFromInline
        init(_ elements: ContiguousArray<Ingredients>) {
            self.elements = elements
            origin = nil
        }

        /// A view of the array at `origin`, its elements made on first access.
        init(viewing origin: IndexOrigin) {
            elements = []
            self.origin = origin
        }

        /// Stores the elements of the array at `position` of `tree`; every
        /// read of `elements` calls `fill()` first, which calls this once.
        @usableFromInline
        func makeNodes(from tree: IndexTree, at position: Int) {
            elements = tree.elements(ofArrayAt: position)
        }

        deinit { IngredientTeardown.dismantle(&elements) }
    }

    @usableFromInline var storage: Storage

    /// An empty array.
    public init() { storage = Storage([]) }

    /// An array of the given elements.
    public init<S: Sequence>(_ elements: S) where S.Element == Ingredients {
        storage = Storage(ContiguousArray(elements))
    }

    /// An array that takes ownership of `elements` without copying them.
    @inlinable
    public init(_ elements: ContiguousArray<Ingredients>) { storage = Storage(elements) }

    /// The elements as a Swift array.
    public var elements: [Ingredients] {
        storage.fill()
        return Array(storage.elements)
    }

    /// A view of the array at `origin` (a format's index), its elements made
    /// on first access.
    init(viewing origin: IndexOrigin) { storage = Storage(viewing: origin) }

    /// Makes the storage this array's own before a change; a changed array
    /// no longer reads as its index (a copy starts without the origin, and
    /// the elements are made first).
    @inlinable
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) {
            storage.fill()
            storage = Storage(storage.elements)
        } else if storage.origin != nil {
            storage.fill()
            storage.origin = nil
        }
    }

    /// Adds `element` at the end.
    public mutating func append(_ element: Ingredients) {
        makeUnique()
        storage.elements.append(element)
    }

    /// Adds the elements of `sequence` at the end.
    public mutating func append<S: Sequence>(contentsOf sequence: S) where S.Element == Ingredients {
        makeUnique()
        storage.elements.append(contentsOf: sequence)
    }

    /// Removes and returns the last element, or returns `nil` when empty.
    @discardableResult
    public mutating func popLast() -> Ingredients? {
        makeUnique()
        return storage.elements.popLast()
    }
}

extension IngredientArray: RandomAccessCollection, MutableCollection {
    public typealias Index = Int
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int {
        storage.fill()
        return storage.elements.count
    }
    @inlinable public var count: Int { endIndex }

    @inlinable
    public subscript(position: Int) -> Ingredients {
        get {
            storage.fill()
            return storage.elements[position]
        }
        set {
            makeUnique()
            storage.elements[position] = newValue
        }
    }
}

extension IngredientArray: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Ingredients...) { self.init(elements) }
}

extension IngredientArray: Equatable {
    public static func == (lhs: IngredientArray, rhs: IngredientArray) -> Bool {
        lhs.storage === rhs.storage || Ingredients.structurallyEqual(.array(lhs), .array(rhs))
    }
}

extension IngredientArray: Hashable {
    public func hash(into hasher: inout Hasher) { Ingredients.array(self).hash(into: &hasher) }
}
