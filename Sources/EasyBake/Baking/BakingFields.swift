import Foundation

/// The fields an ``IndexBakeable`` model bakes from: its value in the index,
/// read property by property, each named by the index of its key in the
/// model's ``IndexBakeable/bakingKeys``.
///
/// It is the keyed container a `Decodable` model's `init(from:)` gets from
/// the baker, with nothing boxed and no key hashed or compared: each method
/// applies the recipe, implicit key matching, the coercions and the
/// missing-value strategy as `KeyedDecodingContainer`'s method of the same
/// name does when EasyBake bakes, and throws the same ``EasyBakeError``.
///
/// Nested models that are ``IndexBakeable`` themselves, and arrays of them,
/// bake through their own initializer; any other `Decodable` value decodes
/// through the baker's `Decoder`, as it would inside `init(from:)`.
///
/// Each method's type argument may be left out, to be inferred from what the
/// result is assigned to, which is how `@Bakeable`'s initializer asks:
/// `self.sku = try fields.decode(key: 0)`. Naming no type, it compiles in an
/// extension of a nested type whose properties name the types beside it.
public struct BakingFields {
    let reader: KeyedValueReader

    init(_ reader: KeyedValueReader) {
        self.reader = reader
    }

    @inline(__always)
    private func slot(_ key: Int) -> KeyPlan.Slot { reader.plan.fieldSlot(key) }

    /// No coding key: the reader names the key by its slot.
    private static func noKey() -> (any CodingKey)? { nil }

    // MARK: Plain values

    /// The string for the key at `key`.
    public func decode(_ type: String.Type = String.self, key: Int) throws -> String {
        try reader.string(Self.noKey, slot: slot(key))
    }
    /// The boolean for the key at `key`.
    public func decode(_ type: Bool.Type = Bool.self, key: Int) throws -> Bool {
        try reader.primitive(Self.noKey, slot: slot(key), Coercion.bool)
    }
    /// The integer for the key at `key`.
    public func decode(_ type: Int.Type = Int.self, key: Int) throws -> Int {
        try reader.int(Self.noKey, slot: slot(key))
    }
    /// The 64-bit integer for the key at `key`.
    public func decode(_ type: Int64.Type = Int64.self, key: Int) throws -> Int64 {
        try reader.int64(Self.noKey, slot: slot(key))
    }
    /// The number for the key at `key`.
    public func decode(_ type: Double.Type = Double.self, key: Int) throws -> Double {
        try reader.double(Self.noKey, slot: slot(key))
    }
    /// The date for the key at `key`.
    public func decode(_ type: Date.Type = Date.self, key: Int) throws -> Date {
        try reader.date(Self.noKey, slot: slot(key))
    }
    /// The URL for the key at `key`.
    public func decode(_ type: URL.Type = URL.self, key: Int) throws -> URL {
        try reader.primitive(Self.noKey, slot: slot(key), Coercion.url)
    }

    /// The string for the key at `key`, or `nil` for none.
    public func decodeIfPresent(_ type: String.Type = String.self, key: Int) throws -> String? {
        try reader.optionalString(Self.noKey, slot: slot(key))
    }
    /// The boolean for the key at `key`, or `nil` for none.
    public func decodeIfPresent(_ type: Bool.Type = Bool.self, key: Int) throws -> Bool? {
        try reader.optionalPrimitive(Self.noKey, slot: slot(key), Coercion.bool)
    }
    /// The integer for the key at `key`, or `nil` for none.
    public func decodeIfPresent(_ type: Int.Type = Int.self, key: Int) throws -> Int? {
        try reader.optionalPrimitive(Self.noKey, slot: slot(key)) { v throws(CoercionFailure) in
            try Coercion.integer(v, as: Int.self)
        }
    }
    /// The number for the key at `key`, or `nil` for none.
    public func decodeIfPresent(_ type: Double.Type = Double.self, key: Int) throws -> Double? {
        try reader.optionalDouble(Self.noKey, slot: slot(key))
    }
    /// The date for the key at `key`, or `nil` for none.
    public func decodeIfPresent(_ type: Date.Type = Date.self, key: Int) throws -> Date? {
        try reader.optionalDate(Self.noKey, slot: slot(key))
    }
    /// The URL for the key at `key`, or `nil` for none.
    public func decodeIfPresent(_ type: URL.Type = URL.self, key: Int) throws -> URL? {
        try reader.optionalPrimitive(Self.noKey, slot: slot(key), Coercion.url)
    }

    // MARK: Models that bake from the index

    /// The nested model for the key at `key`, baked through its own initializer.
    public func decode<T: IndexBakeable>(_ type: T.Type = T.self, key: Int) throws -> T {
        try reader.decodeIndexBakeable(type, Self.noKey, slot: slot(key))
    }

    /// The nested model for the key at `key`, or `nil` for none.
    public func decodeIfPresent<T: IndexBakeable>(_ type: T.Type = T.self, key: Int) throws -> T? {
        try reader.decodeIndexBakeableIfPresent(type, Self.noKey, slot: slot(key))
    }

    /// The array of models for the key at `key`, each baked through its own
    /// initializer.
    public func decode<T: IndexBakeable>(_ type: [T].Type = [T].self, key: Int) throws -> [T] {
        try reader.decodeIndexBakeableArray(T.self, Self.noKey, slot: slot(key))
    }

    /// The array of models for the key at `key`, or `nil` for none.
    public func decodeIfPresent<T: IndexBakeable>(_ type: [T].Type = [T].self, key: Int) throws -> [T]? {
        try reader.decodeIndexBakeableArrayIfPresent(T.self, Self.noKey, slot: slot(key))
    }

    // MARK: Any other value

    /// The value for the key at `key`, decoded through the baker's `Decoder`.
    public func decode<T: Decodable>(_ type: T.Type = T.self, key: Int) throws -> T {
        try reader.decode(type, Self.noKey, slot: slot(key))
    }

    /// The value for the key at `key` decoded through the baker's
    /// `Decoder`, or `nil` for none.
    public func decodeIfPresent<T: Decodable>(_ type: T.Type = T.self, key: Int) throws -> T? {
        try reader.decodeIfPresent(type, Self.noKey, slot: slot(key))
    }
}
