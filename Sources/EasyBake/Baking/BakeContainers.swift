import Foundation

extension BakeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value == nil || value!.isNull }

    /// Coerces this decoder's value, turning a failure into a full error.
    func coerce<T>(_ type: T.Type, _ body: (Ingredients) throws(CoercionFailure) -> T) throws -> T {
        let value = try scalar(type)
        do {
            return try body(value)
        } catch {
            throw self.error(error.code, expected: error.expected, found: value, detail: error.detail)
        }
    }

    func decode(_ type: Bool.Type) throws -> Bool { try coerce(type, Coercion.bool) }
    func decode(_ type: String.Type) throws -> String { try coerce(type, Coercion.string) }
    func decode(_ type: Double.Type) throws -> Double { try coerce(type, Coercion.double) }
    func decode(_ type: Float.Type) throws -> Float { try coerce(type, Coercion.float) }
    func decode(_ type: Int.Type) throws -> Int { try coerce(type) { v throws(CoercionFailure) in try Coercion.integer(v, as: type) } }
    func decode(_ type: Int8.Type) throws -> Int8 { try coerce(type) { v throws(CoercionFailure) in try Coercion.integer(v, as: type) } }
    func decode(_ type: Int16.Type) throws -> Int16 { try coerce(type) { v throws(CoercionFailure) in try Coercion.integer(v, as: type) } }
    func decode(_ type: Int32.Type) throws -> Int32 { try coerce(type) { v throws(CoercionFailure) in try Coercion.integer(v, as: type) } }
    func decode(_ type: Int64.Type) throws -> Int64 { try coerce(type) { v throws(CoercionFailure) in try Coercion.integer(v, as: type) } }
    func decode(_ type: UInt.Type) throws -> UInt { try coerce(type) { v throws(CoercionFailure) in try Coercion.integer(v, as: type) } }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try coerce(type) { v throws(CoercionFailure) in try Coercion.integer(v, as: type) } }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try coerce(type) { v throws(CoercionFailure) in try Coercion.integer(v, as: type) } }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try coerce(type) { v throws(CoercionFailure) in try Coercion.integer(v, as: type) } }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try coerce(type) { v throws(CoercionFailure) in try Coercion.integer(v, as: type) } }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}

// Foundation types that the decoder coerces itself instead of letting them
// decode through their own Codable shape.
extension BakeDecoder {
    func decode(_ type: Date.Type) throws -> Date { try coerce(type, Coercion.date) }
    func decode(_ type: URL.Type) throws -> URL { try coerce(type, Coercion.url) }
    func decode(_ type: Decimal.Type) throws -> Decimal { try coerce(type, Coercion.decimal) }
    func decode(_ type: Data.Type) throws -> Data { try coerce(type, Coercion.data) }
    func decode(_ type: UUID.Type) throws -> UUID { try coerce(type, Coercion.uuid) }
}

/// Finds keys by their letters and digits, case-insensitively, built on the
/// first miss of an exact lookup.
final class ImplicitKeyIndex {
    private let dictionary: IngredientDictionary
    private var index: [String: String]?

    init(_ dictionary: IngredientDictionary) { self.dictionary = dictionary }

    static func normalize(_ key: String) -> String {
        var normalized = String.UnicodeScalarView()
        for scalar in key.unicodeScalars {
            if scalar.isASCII {
                let v = scalar.value
                if (0x30...0x39).contains(v) || (0x61...0x7A).contains(v) {
                    normalized.append(scalar)
                } else if (0x41...0x5A).contains(v) {
                    normalized.append(Unicode.Scalar(v + 0x20)!)
                }
            } else {
                normalized.append(contentsOf: String(scalar).lowercased().unicodeScalars)
            }
        }
        return String(normalized)
    }

    func key(matching name: String) -> String? {
        if index == nil {
            var built: [String: String] = [:]
            for key in dictionary.keys {
                let normalized = Self.normalize(key)
                if built[normalized] == nil { built[normalized] = key }
            }
            index = built
        }
        return index![Self.normalize(name)]
    }
}

final class BakeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: BakeDecoder
    let dictionary: IngredientDictionary?
    let recipe: Recipe?
    private let implicitKeys: ImplicitKeyIndex?
    /// The tally of which recipe keys the model asks for.
    private let usage: RecipeUsage?
    /// Whether this container notes the names it is asked for: only the
    /// first container to apply a recipe does (every element of an array of
    /// models asks for the same names).
    private let notesNames: Bool

    init(decoder: BakeDecoder, dictionary: IngredientDictionary?, recipe: Recipe?) {
        self.decoder = decoder
        self.dictionary = dictionary
        self.recipe = recipe
        if let recipe, let (usage, isFirst) = decoder.context.usage(of: recipe, by: decoder) {
            self.usage = usage
            notesNames = isFirst
        } else {
            usage = nil
            notesNames = false
        }
        implicitKeys = decoder.context.options.implicitKeyMatching ? dictionary.map(ImplicitKeyIndex.init) : nil
    }

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        usage?.askedForEverything = true
        if decoder.depth == 0, decoder.context.unmappedRootRequests != nil {
            decoder.context.unmappedRootRequests!.insert("*")
        }
        var names = recipe?.properties ?? []
        if let dictionary { names.append(contentsOf: dictionary.keys) }
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }.compactMap(Key.init(stringValue:))
    }

    /// The value for `key` and how it was reached: a recipe entry first, then
    /// the exact key, then implicit matching, then a recipe default.
    private func lookup(_ key: Key) throws -> (value: Ingredients, path: IngredientPath)? {
        let name = key.stringValue
        if notesNames { usage!.properties.append(name) }
        let keyIndex = recipe?.keyIndex[name]
        if let keyIndex { usage?.asked[keyIndex] = true }
        if let recipe, let keyIndex, keyIndex < recipe.entries.count {
            let entry = recipe.entries[keyIndex]
            guard let root = decoder.value else { return nil }
            do {
                guard let value = try recipe.processedValue(for: entry, in: root) else { return nil }
                return (value, entry.path)
            } catch {
                var located = error
                located.path = decoder.ingredientPath.appending(entry.path)
                located.baking = .init(
                    modelType: decoder.context.modelTypeName,
                    property: CodingPathText.render(codingPath + [key]), found: located.baking?.found)
                throw located
            }
        }
        if decoder.depth == 0, decoder.context.unmappedRootRequests != nil {
            decoder.context.unmappedRootRequests!.insert(name)
        }
        if let dictionary {
            if let value = dictionary[name] { return (value, [.key(name)]) }
            if let matched = implicitKeys?.key(matching: name), let value = dictionary[matched] {
                return (value, [.key(matched)])
            }
        }
        if let fallback = recipe?.defaults[name] { return (fallback, IngredientPath()) }
        return nil
    }

    private func childDecoder(for key: Key) throws -> BakeDecoder {
        let found = try lookup(key)
        return BakeDecoder(
            value: found?.value, parent: decoder, key: key, path: found?.path ?? [.key(key.stringValue)],
            recipe: recipe?.nested[key.stringValue])
    }

    func contains(_ key: Key) -> Bool { (try? lookup(key)) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let found = try lookup(key) else { return true }
        return found.value.isNull
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if let value = try inPlace(type, key) { return value }
        return try decodeThroughChild(type, forKey: key)
    }

    private func decodeThroughChild<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let child = try childDecoder(for: key)
        if child.value == nil || child.value!.isNull, let empty = try emptyValue(type, for: child) { return empty }
        return try child.decodeValue(type)
    }

    /// Dates and URLs (and the primitives reached through generic code)
    /// coerce in place too; `nil` for every other type.
    private func inPlace<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        let identity: Any.Type = T.self
        // Each branch has just checked that T is the type it returns.
        if identity == Date.self { return unsafeBitCast(try primitive(key, Coercion.date), to: T.self) }
        if identity == URL.self { return unsafeBitCast(try primitive(key, Coercion.url), to: T.self) }
        if identity == String.self { return unsafeBitCast(try primitive(key, Coercion.string), to: T.self) }
        if identity == Double.self { return unsafeBitCast(try primitive(key, Coercion.double), to: T.self) }
        if identity == Bool.self { return unsafeBitCast(try primitive(key, Coercion.bool), to: T.self) }
        if identity == Int.self {
            return unsafeBitCast(try primitive(key) { v throws(CoercionFailure) in try Coercion.integer(v, as: Int.self) }, to: T.self)
        }
        return nil
    }

    // Primitives coerce in place, without a child decoder per property; any
    // value that is missing, null or does not coerce takes the generic road,
    // which reports it (or fills an empty value) the one way it always does.

    func decode(_ type: String.Type, forKey key: Key) throws -> String { try primitive(key, Coercion.string) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try primitive(key, Coercion.bool) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try primitive(key, Coercion.double) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try primitive(key) { v throws(CoercionFailure) in try Coercion.integer(v, as: Int.self) }
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try primitive(key) { v throws(CoercionFailure) in try Coercion.integer(v, as: Int64.self) }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optionalPrimitive(key, Coercion.string) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optionalPrimitive(key, Coercion.bool) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optionalPrimitive(key, Coercion.double) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try optionalPrimitive(key) { v throws(CoercionFailure) in try Coercion.integer(v, as: Int.self) }
    }

    // Inlined into each concrete `decode`, so that `T` is known there: left
    // generic, every call looked up `Optional<T>`'s metadata at run time.
    @inline(__always)
    private func primitive<T: Decodable>(_ key: Key, _ coerce: (Ingredients) throws(CoercionFailure) -> T) throws -> T {
        if let found = try lookup(key), !found.value.isNull, let value = try? coerce(found.value) { return value }
        return try decodeThroughChild(T.self, forKey: key)
    }

    @inline(__always)
    private func optionalPrimitive<T: Decodable>(_ key: Key, _ coerce: (Ingredients) throws(CoercionFailure) -> T) throws -> T? {
        guard let found = try lookup(key), !found.value.isNull else { return nil }
        if let value = try? coerce(found.value) { return value }
        return try decodeIfPresentThroughChild(T.self, forKey: key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let identity: Any.Type = T.self
        if identity == Date.self { return try optionalPrimitive(key, Coercion.date).map { unsafeBitCast($0, to: T.self) } }
        if identity == URL.self { return try optionalPrimitive(key, Coercion.url).map { unsafeBitCast($0, to: T.self) } }
        return try decodeIfPresentThroughChild(type, forKey: key)
    }

    private func decodeIfPresentThroughChild<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let child = try childDecoder(for: key)
        guard let value = child.value, !value.isNull else { return nil }
        return try child.decodeValue(type)
    }

    /// Under ``Baker/MissingValueStrategy/emptyValue``, the empty value of a
    /// type that has one, reported as a warning.
    private func emptyValue<T>(_ type: T.Type, for child: BakeDecoder) throws -> T? {
        guard decoder.context.options.missingValues == .emptyValue else { return nil }
        let empty: Any? = switch type {
        case is Bool.Type: false
        case is String.Type: ""
        case is Int.Type: 0
        case is Int64.Type: Int64(0)
        case is Int32.Type: Int32(0)
        case is UInt.Type: UInt(0)
        case is Double.Type: 0.0
        case is Float.Type: Float(0)
        case is Decimal.Type: Decimal(0)
        default: (T.self as? any EmptyInitializable.Type)?.emptyValue
        }
        guard let empty = empty as? T else { return nil }
        var warning = child.missing(T.self)
        warning.message = "filled with an empty value: " + warning.message
        decoder.context.warnings.append(warning)
        return empty
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try childDecoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try childDecoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { try childDecoder(for: key) }
}

/// Collections with an empty value, for ``Baker/MissingValueStrategy/emptyValue``.
protocol EmptyInitializable { static var emptyValue: Any { get } }
extension Array: EmptyInitializable { static var emptyValue: Any { [Element]() } }
extension Dictionary: EmptyInitializable { static var emptyValue: Any { [Key: Value]() } }
extension Set: EmptyInitializable { static var emptyValue: Any { Set<Element>() } }

struct BakeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: BakeDecoder
    let elements: IngredientArray
    /// Whether a single value is standing in for a one-element array.
    let isWrappedSingle: Bool
    private(set) var currentIndex = 0

    init(decoder: BakeDecoder, elements: IngredientArray, isWrappedSingle: Bool) {
        self.decoder = decoder
        self.elements = elements
        self.isWrappedSingle = isWrappedSingle
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    mutating func nextDecoder() -> BakeDecoder {
        let index = currentIndex
        currentIndex += 1
        return BakeDecoder(
            value: index < elements.count ? elements[index] : nil, parent: decoder, key: IndexKey(index),
            path: isWrappedSingle ? IngredientPath() : [.index(index)], recipe: decoder.recipe)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw nextDecoder().error(.valueNotFound, expected: "another element", found: nil) }
        if elements[currentIndex].isNull {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard !isAtEnd else { throw nextDecoder().error(.valueNotFound, expected: "another element", found: nil) }
        return try nextDecoder().decodeValue(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try nextDecoder().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try nextDecoder().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { nextDecoder() }
}
