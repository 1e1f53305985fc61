import EasyBake

/// The bytes of the text run being gathered by the SAX callbacks.
///
/// A manually managed buffer (``GrowableBuffer``) rather than `[UInt8]`: it
/// is appended to for every text callback and emptied for every element,
/// and `Array`'s uniqueness checks and `removeAll(keepingCapacity:)` (a
/// `replaceSubrange`) showed up in callgrind profiles of the source. The
/// owner frees it with ``deallocate()``.
// What `bytes(_:)` returns is good until the next append or `removeAll()`,
// which may move or free the memory.
struct XMLTextBuffer {
    private var buffer = GrowableBuffer<UInt8>(capacity: initialCapacity)

    private static let initialCapacity = 256
    /// Capacity kept after a run; a larger buffer (after a huge text node)
    /// is given back when emptied.
    private static let retainedCapacity = 1 << 16

    var count: Int { buffer.count }

    var isEmpty: Bool { buffer.isEmpty }

    subscript(index: Int) -> UInt8 {
        @inline(__always) get { buffer[index] }
    }

    /// Appends libxml2's bytes (never the buffer's own, which growing would
    /// free).
    @inline(__always)
    mutating func append(_ bytes: UnsafePointer<UInt8>, count length: Int) {
        buffer.append(bytes, count: length)
    }

    @inline(__always)
    mutating func removeAll() {
        if buffer.capacity > Self.retainedCapacity {
            buffer.removeAll(shrinkingTo: Self.initialCapacity)
        } else {
            buffer.removeAll()
        }
    }

    /// The bytes `range` as a string (libxml2 hands over valid UTF-8).
    func string(_ range: Range<Int>) -> String {
        assert(range.lowerBound >= 0 && range.upperBound <= count, "text bytes out of range")
        return String(
            decoding: UnsafeBufferPointer(start: buffer.base + range.lowerBound, count: range.count), as: UTF8.self)
    }

    /// The bytes `range`, valid until the buffer is next changed.
    func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        assert(range.lowerBound >= 0 && range.upperBound <= count, "text bytes out of range")
        return UnsafeRawBufferPointer(start: buffer.base + range.lowerBound, count: range.count)
    }

    func deallocate() { buffer.deallocate() }
}
