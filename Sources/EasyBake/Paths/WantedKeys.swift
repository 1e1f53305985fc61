/// The keys a streaming reader wants from one dictionary, prepared so that a
/// source can compare raw key bytes instead of building a `String` (and
/// hashing it) for every key it reads.
public struct WantedKeys: Sendable {
    /// The keys, in a fixed order; sources answer with an index into it.
    public let keys: [String]
    /// The UTF-8 bytes of each key, for the format modules' byte matching.
    package let utf8: [[UInt8]]
    /// Whether every key is ASCII. Only then may a source match a key by its
    /// bytes: Swift compares strings by canonical equivalence, so a
    /// non-ASCII key can equal differently encoded text (and "K", U+212A
    /// KELVIN SIGN, equals "K").
    package let isASCII: Bool
    private let positions: [String: Int]

    /// Wanted keys in the given order (without repeats).
    public init(_ keys: [String]) {
        self.keys = keys
        utf8 = keys.map { Array($0.utf8) }
        isASCII = utf8.allSatisfy { $0.allSatisfy { $0 < 0x80 } }
        var positions: [String: Int] = [:]
        for (index, key) in keys.enumerated() { positions[key] = index }
        self.positions = positions
    }

    /// The index of `key`, by `String` equality; `nil` when it is not wanted.
    public func index(of key: String) -> Int? {
        keys.count < 8 ? keys.firstIndex(of: key) : positions[key]
    }

    /// The index of the key whose UTF-8 bytes are `bytes` (ASCII keys only;
    /// see `isASCII`).
    @inline(__always)
    package func index(ofASCII bytes: UnsafeRawBufferPointer) -> Int? {
        search: for (index, candidate) in utf8.enumerated() where candidate.count == bytes.count {
            for offset in 0..<bytes.count where candidate[offset] != bytes[offset] { continue search }
            return index
        }
        return nil
    }
}
