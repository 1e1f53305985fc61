import CEasyBakeAtomics
import Foundation

// The tree as a view of the index (issue 31, item 7).
//
// A format reads its input into an index (the fast core's one value model)
// and the tree it returns is a view of that index: its root container holds
// the index and where it sits there (its `IndexOrigin`), and nothing more.
// A container's nodes are made from the index on first access, one level at
// a time: its scalars decoded, its arrays and dictionaries again views, each
// of its own place (`IndexTree.elements(ofArrayAt:)`,
// `entries(ofDictionaryAt:)`). So reading a tree costs the index alone, and
// a tree nobody walks holds the index (and the input it points into) and no
// node.
//
// Baking a tree bakes from that index: nothing is rebuilt from the nodes (or
// made, if none was), and a number keeps its text for a `String` property
// (`1e2`, YAML `01234`), exactly as baking straight from the bytes does. The
// root bakes from the index itself; a container deep in it from a copy of
// its own entries (`init(copyingValueAt:of:)`), since a bake may append to
// its index. The origin is a reading aid, no part of the value: equality,
// hashing, description and paths read the nodes (making them first), and
// the first change to a container makes its nodes and drops its origin
// (`makeUnique()` on the array and the dictionary), so a changed tree bakes
// from an index of its nodes, built once, as a tree built by hand does.
//
// A container's nodes are made once, by whichever thread asks first: under
// the tree's lock, after which the container's bit in the tree's bit set is
// set with release ordering; a reader that finds the bit set (acquire
// ordering) reads the nodes without the lock (`IndexTree.fill(_:_:)`).

/// The index of a tree read by a format, shared by every container of that
/// tree, with what says which containers have their nodes made.
@usableFromInline
final class IndexTree: @unchecked Sendable {
    // @unchecked: `index` is never changed; `filled` is written with atomic
    // operations only; the nodes a container makes are written under
    // `filling`, once, before its bit is set.
    /// The index the tree was read into; never changed after (a bake that
    /// appends to it appends to its own copy).
    let index: IngredientIndex
    /// One bit per entry of `index`: set once the container there has made
    /// its nodes.
    private let filled: UnsafeMutablePointer<UInt64>
    /// Held while a container makes its nodes. A lock, not a `Locked`
    /// value: what it guards lives in the containers' storages.
    private let filling = NSLock()

    init(_ index: IngredientIndex) {
        self.index = index
        let words = index.count / 64 + 1
        filled = .allocate(capacity: words)
        filled.initialize(repeating: 0, count: words)
    }

    deinit { filled.deallocate() }

    /// Runs `make` (which stores the nodes of the container at `position`)
    /// unless it ran already, at most once whatever the threads asking.
    func fill(_ position: Int, _ make: () -> Void) {
        assert(position >= 0 && position < index.count, "a container the index does not hold")
        if isFilled(position) { return }
        filling.lock()
        defer { filling.unlock() }
        guard !isFilled(position) else { return }
        make()
        easybake_set_bit(filled, position)
    }

    /// Whether the container at `position` has made its nodes.
    func isFilled(_ position: Int) -> Bool { easybake_bit_is_set(filled, position) != 0 }

    /// The value at `position`: a scalar decoded, or a view of a container.
    func node(at position: Int, _ reader: IngredientIndex.Reader) -> Ingredients {
        switch reader.kind(at: position) {
        case .array:
            .array(IngredientArray(viewing: IndexOrigin(tree: self, position: position)))
        case .dictionary:
            .dictionary(
                IngredientDictionary(
                    viewing: IndexOrigin(tree: self, position: position),
                    isElement: index.traits.contains(.dictionariesAreElements)))
        default:
            reader.scalar(at: position) ?? .null
        }
    }

    /// The elements of the array at `position`.
    func elements(ofArrayAt position: Int) -> ContiguousArray<Ingredients> {
        let reader = index.reader
        var elements = ContiguousArray<Ingredients>()
        elements.reserveCapacity(reader.elementCount(at: position))
        var element = position + 1
        let end = reader.end(of: position)
        while element < end {
            elements.append(node(at: element, reader))
            element = reader.end(of: element)
        }
        return elements
    }

    /// Sets `slot`, a dictionary's value made `-1` when its key was
    /// absent, to `value`: whether the key was absent.
    @inline(__always)
    private static func setIfAbsent(_ slot: inout Int, to value: Int) -> Bool {
        guard slot < 0 else { return false }
        slot = value
        return true
    }

    /// The entries of the dictionary at `position`, and their keys'
    /// positions when there are more than
    /// ``IngredientDictionary/indexThreshold``.
    ///
    /// A key an index holds twice (a JSON index keeps every member; lookups
    /// find the first) keeps its first value, as reading the same input into
    /// a tree under ``DuplicateKeyPolicy/firstWins`` does: every other
    /// policy was applied when the index was read.
    func entries(
        ofDictionaryAt position: Int
    ) -> (entries: ContiguousArray<IngredientDictionary.Element>, keyPositions: [String: Int]?) {
        let reader = index.reader
        let members = reader.elementCount(at: position)
        var entries = ContiguousArray<IngredientDictionary.Element>()
        entries.reserveCapacity(members)
        var key = position + 1
        let end = reader.end(of: position)
        if members <= IngredientDictionary.indexThreshold {
            // A small dictionary asks the index's own lookup, which compares
            // bytes and finds the first, for a key that may repeat one
            // before it: one that agrees with an earlier key in length and
            // first and last bytes (a bit of `seen` each), which few do.
            var seen: UInt64 = 0
            while key < end {
                let bit: UInt64 = reader.withUTF8(at: key) { bytes in
                    1 << UInt64((bytes.count &+ Int(bytes.first ?? 0) &* 3 &+ Int(bytes.last ?? 0) &* 5) & 63)
                }
                if seen & bit == 0 || reader.withUTF8(at: key, { reader.member($0, in: position) }) == key + 1 {
                    seen |= bit
                    entries.append((reader.string(at: key) ?? "", node(at: key + 1, reader)))
                }
                key = reader.end(of: key + 1)
            }
            return (entries, nil)
        }
        var keyPositions = [String: Int](minimumCapacity: members)
        while key < end {
            let name = reader.string(at: key) ?? ""
            // One hash of the key, where a look-up and then an insertion
            // were two (4% of reading an XML tree, whose records have 27
            // keys).
            if Self.setIfAbsent(&keyPositions[name, default: -1], to: entries.count) {
                entries.append((name, node(at: key + 1, reader)))
            }
            key = reader.end(of: key + 1)
        }
        return (entries, entries.count > IngredientDictionary.indexThreshold ? keyPositions : nil)
    }
}

/// The storage of an array or a dictionary, which may be a view of a
/// format's index: what makes its nodes once, on first access.
@usableFromInline
protocol IndexViewStorage: AnyObject {
    /// Where the container sits in the index, while it is a view.
    var origin: IndexOrigin? { get }
    /// Stores the nodes of the container at `position` of `tree`.
    func makeNodes(from tree: IndexTree, at position: Int)
}

extension IndexViewStorage {
    /// Makes the nodes from the index if this container is a view whose
    /// nodes nobody has asked for yet: every read of them goes through here
    /// first.
    @inlinable @inline(__always)
    func fill() {
        if origin != nil { fillFromIndex() }
    }

    @usableFromInline
    func fillFromIndex() {
        guard let origin else { return }
        origin.tree.fill(origin.position) { makeNodes(from: origin.tree, at: origin.position) }
    }
}

/// Where a container of a tree sits in the index a format read it into.
///
/// The index is held, not copied (its storage is shared, copy on write), and
/// it holds the input its strings and numbers point into.
@usableFromInline
struct IndexOrigin: Sendable {
    /// The tree's index, shared by all its containers.
    let tree: IndexTree
    /// The container's entry in the index.
    let position: Int

    /// The index the tree was read into.
    var index: IngredientIndex { tree.index }
}

extension Ingredients {
    /// Where this value sits in the index a format read it into, when it is
    /// an array or a dictionary of a tree read by a format and unchanged
    /// since; `nil` for a scalar, a container built in code, or a changed one.
    var indexOrigin: IndexOrigin? {
        switch self {
        case .array(let array): array.storage.origin
        case .dictionary(let dictionary): dictionary.storage.origin
        default: nil
        }
    }

    /// Whether this value's nodes are made: a scalar's and those of a
    /// container built in code always are; a view's once someone asked for
    /// its elements or entries (what tests of the laziness read).
    var nodesAreMade: Bool {
        guard let origin = indexOrigin else { return true }
        return origin.tree.isFilled(origin.position)
    }

    /// The tree of the value at the root of `index`: a view of it, whose
    /// containers make their nodes on first access (see the top of this
    /// file); what a format's ``IngredientFormat/read(_:)`` returns.
    ///
    /// Nodes are made one container at a time, so a tree's depth costs
    /// heap, never call stack.
    init(viewing index: IngredientIndex) {
        precondition(index.count > 0, "viewing an empty index")
        self = IndexTree(index).node(at: 0, index.reader)
    }
}

extension IngredientIndex {
    /// An index of the value at `position` in `source` alone: its entries
    /// copied (a container's span is relative, so the copy reads as the
    /// original), their bytes still the same input's, bytes of `source`'s
    /// arena copied into this one's; its source name, offsets and element
    /// marks `source`'s.
    ///
    /// What a container deep in a tree bakes from: a bake may append to its
    /// index (a default, a transformer's result, a `[*]`), and appending to
    /// the document's shared index would copy all of it for each record
    /// baked, where this copies the record.
    init(copyingValueAt position: Int, of source: IngredientIndex) {
        self.init()
        let from = source.storage
        let end = source.end(of: position)
        let to = uniqueStorage
        to.input = from.input
        to.inputBase = from.inputBase
        to.inputCount = from.inputCount
        to.sourceName = from.sourceName
        to.offsetsAreLineColumns = from.offsetsAreLineColumns
        to.lineTextInput = from.lineTextInput
        to.traits = from.traits
        to.reserve(end - position)
        for p in position..<end { to.append(to.copy(entryAt: p, of: from)) }
    }
}
