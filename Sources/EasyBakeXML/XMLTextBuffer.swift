#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The bytes of the text run being gathered by the SAX callbacks.
///
/// A manually managed buffer rather than `[UInt8]`: it is appended to for
/// every text callback and emptied for every element, and `Array`'s
/// uniqueness checks and `removeAll(keepingCapacity:)` (a `replaceSubrange`)
/// showed up in callgrind profiles of the source. The owner frees it with
/// ``deallocate()``.
// Invariants: `base` holds `capacity` bytes, allocated by the buffer and
// freed by its owner once; the first `count` are written,
// `0 <= count <= capacity`. Bytes are read at `0 ..< count` only, and what
// `bytes(_:)` returns is good until the next append or `removeAll()`,
// which may move or free the memory.
struct XMLTextBuffer {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    /// Capacity kept after a run; a larger buffer (after a huge text node)
    /// is given back when emptied.
    private static let retainedCapacity = 1 << 16

    init() {
        capacity = 256
        base = .allocate(capacity: capacity)
    }

    var isEmpty: Bool { count == 0 }

    subscript(index: Int) -> UInt8 {
        @inline(__always) get {
            assert(index >= 0 && index < count, "a text byte out of range")
            return base[index]
        }
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafePointer<UInt8>, count length: Int) {
        assert(length >= 0, "fewer than no bytes appended")
        if count + length > capacity { grow(to: count + length) }
        assert(count + length <= capacity, "text appended past the buffer's capacity")
        // libxml2's bytes, never the buffer's own, which growing would free.
        assert(bytes + length <= base || bytes >= base + capacity, "the buffer's bytes appended to it")
        (base + count).update(from: bytes, count: length)
        count += length
    }

    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    mutating func removeAll() {
        count = 0
        if capacity > Self.retainedCapacity {
            base.deallocate()
            capacity = 256
            base = .allocate(capacity: capacity)
        }
    }

    /// The bytes `range` as a string (libxml2 hands over valid UTF-8).
    func string(_ range: Range<Int>) -> String {
        assert(range.lowerBound >= 0 && range.upperBound <= count, "text bytes out of range")
        return String(decoding: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count), as: UTF8.self)
    }

    /// The bytes `range`, valid until the buffer is next changed.
    func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        assert(range.lowerBound >= 0 && range.upperBound <= count, "text bytes out of range")
        return UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    func deallocate() { base.deallocate() }
}
