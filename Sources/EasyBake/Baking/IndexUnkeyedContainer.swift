/// An unkeyed container over an array of the index, or over a single value
/// standing in for a one-element array.
struct IndexUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: IndexDecoder
    /// Whether a single value is standing in for a one-element array.
    let isWrappedSingle: Bool
    let elementCount: Int
    /// The position of the next element.
    private var next: Int
    private(set) var currentIndex = 0

    init(decoder: IndexDecoder) {
        self.decoder = decoder
        // A single value where an array is wanted reads as one element: XML
        // has no way to say "a list of one".
        isWrappedSingle = decoder.bake.reader.kind(at: decoder.position) != .array
        elementCount = isWrappedSingle ? 1 : decoder.bake.reader.elementCount(at: decoder.position)
        next = isWrappedSingle ? decoder.position : decoder.position + 1
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elementCount }
    var isAtEnd: Bool { currentIndex >= elementCount }

    mutating func nextDecoder() -> IndexDecoder {
        let offset = currentIndex
        currentIndex += 1
        var position = -1
        if offset < elementCount {
            position = next
            next = decoder.bake.reader.end(of: next)
        }
        return decoder.bake.enter(
            depth: decoder.depth + 1, key: .index(offset), reach: isWrappedSingle ? .none : .element(offset),
            position: position, recipe: decoder.recipe)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw nextDecoder().error(.valueNotFound, expected: "another element") }
        if decoder.bake.isNull(next) {
            _ = nextDecoder()
            return true
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard !isAtEnd else { throw nextDecoder().error(.valueNotFound, expected: "another element") }
        return try nextDecoder().decodeValue(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        try nextDecoder().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try nextDecoder().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { nextDecoder() }
}
