import Foundation

extension Ingredients {
    /// The ingredients of an `Encodable` value: a dictionary keyed by its
    /// coding keys, arrays for its sequences, and the same scalar forms the
    /// baker reads back — `Date` as canonical ISO 8601 text, `URL` as its
    /// absolute string, `Data` as base64, `Decimal` as an exact number,
    /// `UUID` as its string. `nil` optionals are left out.
    ///
    /// ```swift
    /// let tree = try Ingredients(encoding: user)   // ["name": "Ada", "age": 36]
    /// ```
    /// - Throws: ``EasyBakeError/Code/invalidValue`` when the value encodes
    ///   nothing, or a non-finite floating-point number.
    public init(encoding value: some Encodable) throws(EasyBakeError) {
        guard let tree = try EncodingNode.encodeRoot(value).finish() else {
            throw EasyBakeError(.invalidValue, "\(type(of: value)) encoded no value")
        }
        self = tree
    }
}

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
    var orderedChildren: [(key: String, node: EncodingNode)] { keys.compactMap { key in children[key].map { (key, $0) } } }
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
                .invalidValue, "cannot encode \(value) at \(CodingPathText.render(codingPath)): ingredients hold finite numbers only")
        }
        return .float(value)
    }
}

struct IngredientEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeDictionary()
        return KeyedEncodingContainer(KeyedIngredientEncoder<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return UnkeyedIngredientEncoder(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleIngredientEncoder(node: node, codingPath: codingPath)
    }
}

struct SingleIngredientEncoder: SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    func encodeNil() { node.set(.null) }
    func encode(_ value: Bool) { node.set(.bool(value)) }
    func encode(_ value: String) { node.set(.string(value)) }
    func encode(_ value: Double) throws { node.set(try EncodingNode.number(value, codingPath: codingPath)) }
    func encode(_ value: Float) throws {
        // Through the shortest text of the Float, so 0.1 stays 0.1, not 0.10000000149.
        let number = Ingredients.number(literal: value.description)
        guard let number, value.isFinite else { return try encode(Double(value)) }
        node.set(number)
    }
    func encode(_ value: Int) { node.set(.integer(Int64(value))) }
    func encode(_ value: Int8) { node.set(.integer(Int64(value))) }
    func encode(_ value: Int16) { node.set(.integer(Int64(value))) }
    func encode(_ value: Int32) { node.set(.integer(Int64(value))) }
    func encode(_ value: Int64) { node.set(.integer(value)) }
    func encode(_ value: UInt) { encodeUnsigned(UInt64(value)) }
    func encode(_ value: UInt8) { node.set(.integer(Int64(value))) }
    func encode(_ value: UInt16) { node.set(.integer(Int64(value))) }
    func encode(_ value: UInt32) { node.set(.integer(Int64(value))) }
    func encode(_ value: UInt64) { encodeUnsigned(value) }
    func encode<T: Encodable>(_ value: T) throws { try EncodingNode.encode(value, into: node, codingPath: codingPath) }

    private func encodeUnsigned(_ value: UInt64) {
        node.set(Int64(exactly: value).map(Ingredients.integer) ?? .exactNumber(String(value)))
    }
}

struct KeyedIngredientEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    private func single(_ key: Key) -> SingleIngredientEncoder {
        SingleIngredientEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
    }

    mutating func encodeNil(forKey key: Key) { single(key).encodeNil() }
    mutating func encode(_ value: Bool, forKey key: Key) { single(key).encode(value) }
    mutating func encode(_ value: String, forKey key: Key) { single(key).encode(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try single(key).encode(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try single(key).encode(value) }
    mutating func encode(_ value: Int, forKey key: Key) { single(key).encode(value) }
    mutating func encode(_ value: Int8, forKey key: Key) { single(key).encode(value) }
    mutating func encode(_ value: Int16, forKey key: Key) { single(key).encode(value) }
    mutating func encode(_ value: Int32, forKey key: Key) { single(key).encode(value) }
    mutating func encode(_ value: Int64, forKey key: Key) { single(key).encode(value) }
    mutating func encode(_ value: UInt, forKey key: Key) { single(key).encode(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) { single(key).encode(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) { single(key).encode(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) { single(key).encode(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) { single(key).encode(value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try single(key).encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = node.child(forKey: key.stringValue)
        child.makeDictionary()
        return KeyedEncodingContainer(KeyedIngredientEncoder<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.child(forKey: key.stringValue)
        child.makeArray()
        return UnkeyedIngredientEncoder(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        IngredientEncoder(node: node.child(forKey: "super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        IngredientEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
    }
}

struct UnkeyedIngredientEncoder: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    var count: Int { node.elementCount }

    private func single() -> SingleIngredientEncoder {
        SingleIngredientEncoder(node: node.appendChild(), codingPath: codingPath + [IndexKey(count)])
    }

    mutating func encodeNil() { single().encodeNil() }
    mutating func encode(_ value: Bool) { single().encode(value) }
    mutating func encode(_ value: String) { single().encode(value) }
    mutating func encode(_ value: Double) throws { try single().encode(value) }
    mutating func encode(_ value: Float) throws { try single().encode(value) }
    mutating func encode(_ value: Int) { single().encode(value) }
    mutating func encode(_ value: Int8) { single().encode(value) }
    mutating func encode(_ value: Int16) { single().encode(value) }
    mutating func encode(_ value: Int32) { single().encode(value) }
    mutating func encode(_ value: Int64) { single().encode(value) }
    mutating func encode(_ value: UInt) { single().encode(value) }
    mutating func encode(_ value: UInt8) { single().encode(value) }
    mutating func encode(_ value: UInt16) { single().encode(value) }
    mutating func encode(_ value: UInt32) { single().encode(value) }
    mutating func encode(_ value: UInt64) { single().encode(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try single().encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = node.appendChild()
        child.makeDictionary()
        return KeyedEncodingContainer(KeyedIngredientEncoder<NestedKey>(node: child, codingPath: codingPath + [IndexKey(count - 1)]))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = node.appendChild()
        child.makeArray()
        return UnkeyedIngredientEncoder(node: child, codingPath: codingPath + [IndexKey(count - 1)])
    }

    mutating func superEncoder() -> any Encoder {
        IngredientEncoder(node: node.appendChild(), codingPath: codingPath + [IndexKey(count - 1)])
    }
}
