import Foundation

/// A value under construction. Containers are reference nodes so that nested
/// containers handed out by `Encoder` write into their parent.
final class EncodingNode {
    enum Kind { case empty, value, dictionary, array }

    // Separate stored properties rather than an enum with payloads, so that
    // adding a child mutates in place instead of copying the collection.
    private(set) var kind: Kind = .empty
    private var scalar: Ingredients = .null
    private var keys: [String] = []
    private var children: [String: EncodingNode] = [:]
    private var elements: [EncodingNode] = []

    var elementCount: Int { elements.count }
    /// The recipe of the ``Bakeable`` type encoded here, for decomposition.
    var typeRecipe: Recipe?

    /// The keys and children of a dictionary node, in order.
    var orderedChildren: [(key: String, node: EncodingNode)] {
        keys.compactMap { key in children[key].map { (key, $0) } }
    }
    /// The elements of an array node.
    var elementNodes: [EncodingNode] { elements }

    func set(_ value: Ingredients) {
        kind = .value
        scalar = value
    }

    func finish() -> Ingredients? {
        switch kind {
        case .empty: return nil
        case .value: return scalar
        case .dictionary:
            var entries = ContiguousArray<IngredientDictionary.Element>()
            entries.reserveCapacity(keys.count)
            for key in keys {
                if let value = children[key]?.finish() { entries.append((key, value)) }
            }
            return .dictionary(IngredientDictionary(uniqueEntries: entries))
        case .array:
            return .array(IngredientArray(elements.map { $0.finish() ?? .null }))
        }
    }

    func child(forKey key: String) -> EncodingNode {
        makeDictionary()
        if let existing = children[key] { return existing }
        let node = EncodingNode()
        keys.append(key)
        children[key] = node
        return node
    }

    func appendChild() -> EncodingNode {
        makeArray()
        let node = EncodingNode()
        elements.append(node)
        return node
    }

    func makeDictionary() {
        guard kind != .dictionary else { return }
        kind = .dictionary
        keys = []
        children = [:]
    }

    func makeArray() {
        guard kind != .array else { return }
        kind = .array
        elements = []
    }

    /// The node tree of a whole value.
    static func encodeRoot(_ value: some Encodable) throws(EasyBakeError) -> EncodingNode {
        let root = EncodingNode()
        do {
            try encode(value, into: root, codingPath: [])
        } catch let error as EasyBakeError {
            throw error
        } catch {
            throw EasyBakeError(.invalidValue, "cannot encode \(type(of: value)): \(error)", cause: error)
        }
        return root
    }

    /// Encodes `value`, giving Foundation's types the forms the baker reads.
    static func encode<T: Encodable>(_ value: T, into node: EncodingNode, codingPath: [any CodingKey]) throws {
        switch value {
        case let date as Date:
            guard DateFormats.isRepresentable(date.timeIntervalSince1970) else {
                throw EasyBakeError(
                    .numberOutOfRange,
                    "cannot encode the date at \(CodingPathText.render(codingPath)): "
                        + DateFormats.outOfRange(date.timeIntervalSince1970),
                    path: IngredientPath(codingPath.map { $0.intValue.map { .index($0) } ?? .key($0.stringValue) }))
            }
            node.set(.string(DateFormats.formatISO8601(date)))
        case let url as URL: node.set(.string(url.absoluteString))
        case let data as Data: node.set(.string(data.base64EncodedString()))
        case let uuid as UUID: node.set(.string(uuid.uuidString))
        case let decimal as Decimal:
            let text = decimal.description
            node.set(Ingredients.number(literal: text) ?? .exactNumber(text))
        case let ingredients as Ingredients: node.set(ingredients)
        default:
            if let bakeable = T.self as? any Bakeable.Type { node.typeRecipe = try bakeable.bakingRecipe }
            try value.encode(to: IngredientEncoder(node: node, codingPath: codingPath))
        }
    }

    static func number(_ value: Double, codingPath: [any CodingKey]) throws -> Ingredients {
        guard value.isFinite else {
            throw EasyBakeError(
                .invalidValue,
                "cannot encode \(value) at \(CodingPathText.render(codingPath)): ingredients hold finite numbers only")
        }
        return .float(value)
    }
}
