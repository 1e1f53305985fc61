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

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
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

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let child = node.appendChild()
        child.makeDictionary()
        return KeyedEncodingContainer(
            KeyedIngredientEncoder<NestedKey>(node: child, codingPath: codingPath + [IndexKey(count - 1)]))
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
