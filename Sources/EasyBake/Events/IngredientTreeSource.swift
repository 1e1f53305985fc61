/// An ``IngredientSource`` that reads a tree already in memory.
///
/// Writers consume events, so any tree can be written in any format through
/// this source, and any source can be converted without building a tree.
///
/// ```swift
/// var source = IngredientTreeSource(["id": 1, "tags": ["a"]])
/// while let event = try source.next() { print(event) }
/// ```
public struct IngredientTreeSource: IngredientSource {
    private enum Cursor {
        case array(IngredientArray, next: Int)
        case dictionary(ContiguousArray<IngredientDictionary.Element>, next: Int, valueDue: Bool)
    }

    private var root: Ingredients?
    private var stack: [Cursor] = []
    private var eventCount = 0
    private let sortsKeys: Bool

    /// ``IngredientTraits/markup`` when the tree's root is a dictionary
    /// marked ``IngredientDictionary/isElement``: a tree read from XML
    /// replays as XML reads, with each dictionary one element to `[*]` and
    /// its scalars text; otherwise none.
    public let traits: IngredientTraits
    /// Whether ``traits`` hold ``IngredientTraits/dictionariesAreElements``,
    /// for a reader of the older property.
    public var dictionariesAreElements: Bool { traits.contains(.dictionariesAreElements) }

    /// A source that reads `tree` once.
    ///
    /// - Parameters:
    ///   - tree: the tree to read; containers are shared, not copied.
    ///   - sortingKeys: give each dictionary's entries sorted by key
    ///     (by Unicode scalars) instead of in order, for writers'
    ///     ``WritingOptions/sortedKeys``.
    public init(_ tree: Ingredients, sortingKeys: Bool = false) {
        root = tree
        sortsKeys = sortingKeys
        if case .dictionary(let dictionary) = tree {
            traits = dictionary.isElement ? .markup : []
        } else {
            traits = []
        }
    }

    /// Trees have no text positions; the location counts events instead.
    public var location: SourceLocation {
        SourceLocation(sourceName: "<tree>", line: 1, column: eventCount)
    }

    public mutating func next() throws(EasyBakeError) -> IngredientEvent? {
        eventCount += 1
        if let value = root {
            root = nil
            return open(value)
        }
        guard let top = stack.popLast() else { return nil }
        switch top {
        case .array(let array, let next):
            guard next < array.count else { return .endArray }
            stack.append(.array(array, next: next + 1))
            return open(array[next])
        case .dictionary(let dictionary, let next, let valueDue):
            guard next < dictionary.count else { return .endDictionary }
            if valueDue {
                stack.append(.dictionary(dictionary, next: next + 1, valueDue: false))
                return open(dictionary[next].value)
            }
            stack.append(.dictionary(dictionary, next: next, valueDue: true))
            return .key(dictionary[next].key)
        }
    }

    public mutating func skipValue() throws(EasyBakeError) {
        eventCount += 1
        if root != nil {
            root = nil
            return
        }
        guard let top = stack.popLast() else { return }
        // As the protocol's default: the next value, or at a key or a
        // container's end that one event.
        switch top {
        case .array(let array, let next):
            if next < array.count { stack.append(.array(array, next: next + 1)) }
        case .dictionary(let dictionary, let next, let valueDue):
            guard next < dictionary.count else { return }
            stack.append(.dictionary(dictionary, next: valueDue ? next + 1 : next, valueDue: !valueDue))
        }
    }

    private mutating func open(_ value: Ingredients) -> IngredientEvent {
        switch value {
        case .array(let array):
            stack.append(.array(array, next: 0))
            return .beginArray
        case .dictionary(let dictionary):
            let entries = sortsKeys ? ContiguousArray(dictionary.sortedByKey()) : dictionary.orderedEntries
            stack.append(.dictionary(entries, next: 0, valueDue: false))
            return .beginDictionary
        default:
            return .scalar(value)
        }
    }
}
