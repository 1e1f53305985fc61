// The tree as a view of the index (issue 31, item 7).
//
// A format reads its input into an index (the fast core's one value model)
// and the tree it returns is built from that index, each array and
// dictionary keeping where it sits there (its `IndexOrigin`). Baking a tree
// bakes from that index: nothing is rebuilt from the nodes, and a number
// keeps its text for a `String` property (`1e2`, YAML `01234`), exactly as
// baking straight from the bytes does. The root bakes from the index
// itself; a container deep in it from a copy of its own entries
// (`init(copyingValueAt:of:)`), since a bake may append to its index. The origin is a reading aid, no part
// of the value: equality, hashing, description and paths read the nodes,
// and the first change to a container drops its origin (`makeUnique()` on
// the array and the dictionary), so a changed tree bakes from an index of
// its nodes, built once, as a tree built by hand does.

/// Where a container of a tree sits in the index a format read it into.
///
/// The index is held, not copied (its storage is shared, copy on write), and
/// it holds the input its strings and numbers point into.
@usableFromInline
struct IndexOrigin: Sendable {
    /// The index the tree was built from; never changed after (a bake that
    /// appends to it appends to its own copy).
    let index: IngredientIndex
    /// The container's entry in `index`.
    let position: Int
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

    /// The tree of the value at the root of `index`, its containers keeping
    /// where they sit in `index` (see the top of this file): what a format's
    /// ``IngredientFormat/read(_:)`` returns.
    ///
    /// The index is walked with explicit stacks, so its depth costs heap,
    /// never call stack. A key an index holds twice (a JSON index keeps every
    /// member; lookups find the first) keeps its first value, as reading
    /// the same input into a tree under ``DuplicateKeyPolicy/firstWins`` does:
    /// every other policy was applied when the index was read.
    init(viewing index: IngredientIndex) {
        precondition(index.count > 0, "viewing an empty index")
        let reader = index.reader
        let marksElements = index.dictionariesAreElements
        // One open container: its entry, where its entries end, and where its
        // values (and a dictionary's keys) begin on the shared stacks.
        struct Frame {
            let position: Int
            let end: Int
            let isDictionary: Bool
            let valueStart: Int
            var keys: OpenDictionaryKeys.Slice
        }
        var frames: [Frame] = []
        var values = ContiguousArray<Ingredients>()
        var keys = OpenDictionaryKeys()
        var position = 0
        let rootEnd = reader.end(of: 0)
        while true {
            // Close every container that ends here.
            while let top = frames.last, position == top.end {
                frames.removeLast()
                let origin = IndexOrigin(index: index, position: top.position)
                let closed: Ingredients
                if top.isDictionary {
                    var entries = ContiguousArray<IngredientDictionary.Element>()
                    entries.reserveCapacity(values.count - top.valueStart)
                    for i in 0..<(values.count - top.valueStart) {
                        entries.append((keys[top.keys.start + i], values[top.valueStart + i]))
                    }
                    keys.close(top.keys)
                    closed = .dictionary(
                        IngredientDictionary(
                            uniqueEntries: entries, index: top.keys.index, isElement: marksElements, origin: origin))
                } else {
                    closed = .array(IngredientArray(ContiguousArray(values[top.valueStart...]), origin: origin))
                }
                values.removeSubrange(top.valueStart...)
                guard !frames.isEmpty else {
                    self = closed
                    return
                }
                values.append(closed)
            }
            guard position < rootEnd else { break }
            if let top = frames.indices.last, frames[top].isDictionary {
                // A repeated key: its first value stands. A small
                // dictionary asks the index's own lookup, which compares
                // bytes and finds the first; a large one its keys' hashes.
                let repeated: Bool
                let key = reader.string(at: position) ?? ""
                if reader.elementCount(at: frames[top].position) <= IngredientDictionary.indexThreshold {
                    repeated = reader.member(reader.utf8(at: position), in: frames[top].position) != position + 1
                } else {
                    repeated = keys.position(of: key, in: frames[top].keys) != nil
                }
                if repeated {
                    position = reader.end(of: position + 1)
                    continue
                }
                _ = keys.add(key, to: &frames[top].keys)
                position += 1
            }
            switch reader.kind(at: position) {
            case .array, .dictionary:
                frames.append(
                    Frame(
                        position: position, end: reader.end(of: position),
                        isDictionary: reader.kind(at: position) == .dictionary, valueStart: values.count,
                        keys: keys.open()))
                position += 1
            default:
                // A scalar: the root alone, or a container's element.
                let scalar = reader.scalar(at: position) ?? .null
                guard !frames.isEmpty else {
                    self = scalar
                    return
                }
                values.append(scalar)
                position += 1
            }
        }
        // Only a root container returns, from the loop above.
        preconditionFailure("the index ended inside its root value")
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
        to.dictionariesAreElements = from.dictionariesAreElements
        to.reserve(end - position)
        for p in position..<end {
            var entry = from.entries[p]
            if UInt8(truncatingIfNeeded: entry.head >> 56) & (Self.arenaFlag | Self.inlineFlag) == Self.arenaFlag {
                let bytes = UnsafeRawBufferPointer(start: from.arena + Int(entry.aux), count: Int(entry.length))
                entry.aux = UInt32(truncatingIfNeeded: to.appendToArena(bytes))
            }
            to.append(entry)
        }
    }
}

extension IngredientFormat {
    /// Reads the single value of `input` into an index with
    /// ``readIndex(_:into:)`` and returns its tree, which keeps that index:
    /// baking it is baking the index (see ``Ingredients``).
    func readViewingIndex(_ input: IngredientInput) throws(EasyBakeError) -> Ingredients {
        var index = IngredientIndex()
        try readIndex(input, into: &index)
        return Ingredients(viewing: index)
    }
}
