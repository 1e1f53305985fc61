import Foundation

/// The keyed container a `Decodable` model's `init(from:)` gets from the
/// baker: a ``KeyedValueReader`` that finds each key's slot in the plan.
///
/// Keys are found by their bytes: the plan for the coding key type and
/// recipe holds each property's key as UTF-8, its implicit-matching form and
/// its recipe entry, made on the first record and found again on the next
/// by the order the model asks in, so that no `String` is hashed per
/// property per record.
final class IndexKeyedContainer<Key: CodingKey>: KeyedValueReader, KeyedDecodingContainerProtocol {
    init(decoder: IndexDecoder, recipe: Recipe?) {
        super.init(decoder: decoder, recipe: recipe, plan: decoder.bake.plan(for: Key.self, recipe: recipe))
    }

    var allKeys: [Key] {
        usage?.askedForEverything = true
        rootObserver?.noteRootRequest("*")
        var names: [String] = []
        var recipeNames = Set<String>()
        for name in recipe?.properties ?? [] where recipeNames.insert(name).inserted { names.append(name) }
        var members: [String: Int] = [:]
        if isDictionary {
            members.reserveCapacity(bake.reader.elementCount(at: position))
            var member = position + 1
            while member < dictionaryEnd {
                let name = bake.reader.string(at: member) ?? ""
                // One hash per key: the first member of a name is noted
                // through the entry's modify accessor.
                let isFirst = Self.noteFirst(member + 1, in: &members[name, default: -1])
                if !isFirst {
                    payloadKeysRepeat = true
                } else if recipeNames.isEmpty || !recipeNames.contains(name) {
                    names.append(name)
                }
                member = bake.reader.end(of: member + 1)
            }
        }
        payloadKeys = members
        return names.compactMap(Key.init(stringValue:))
    }

    /// Sets `value` to `position` unless a member's position is there already.
    private static func noteFirst(_ position: Int, in value: inout Int) -> Bool {
        guard value < 0 else { return false }
        value = position
        return true
    }

    /// What the plan knows of `key`: found by the order the model asks in.
    @inline(__always)
    private func slot(for key: Key) -> KeyPlan.Slot {
        if payloadKeys != nil { return payloadSlot(named: key.stringValue) }
        return plan.slot(bake.nextAsk(at: depth), named: key.stringValue)
    }

    func contains(_ key: Key) -> Bool { contains({ key }, slot: slot(for: key)) }

    func decodeNil(forKey key: Key) throws -> Bool { try decodeNil({ key }, slot: slot(for: key)) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decode(type, { key }, slot: slot(for: key))
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try string({ key }, slot: slot(for: key)) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try primitive({ key }, slot: slot(for: key), Coercion.bool)
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try double({ key }, slot: slot(for: key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try int({ key }, slot: slot(for: key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try int64({ key }, slot: slot(for: key)) }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try optionalString({ key }, slot: slot(for: key))
    }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try optionalPrimitive({ key }, slot: slot(for: key), Coercion.bool)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try optionalDouble({ key }, slot: slot(for: key))
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try optionalPrimitive({ key }, slot: slot(for: key)) { v throws(CoercionFailure) in
            try Coercion.integer(v, as: Int.self)
        }
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try decodeIfPresent(type, { key }, slot: slot(for: key))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try childDecoder(for: { key }, slot: slot(for: key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try childDecoder(for: { key }, slot: slot(for: key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { try childDecoder(for: { key }, slot: slot(for: key)) }
}
