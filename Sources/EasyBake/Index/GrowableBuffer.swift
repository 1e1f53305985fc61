#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A growable buffer of trivial values in memory its owner frees
/// (``deallocate()``): the one kind of hand-managed memory of the fast core
/// and the formats — the index's entries and arena, the builders' stacks,
/// the XML reader's frames and text, the YAML scanner's scratch bytes.
///
/// It is read and written through a plain pointer, with no uniqueness check,
/// retain or exclusivity check per access, which an `Array` pays and which
/// showed in callgrind profiles of every one of those places. Its bounds are
/// asserted: a debug build checks every access, a release build none.
///
/// A large buffer (from 4 MiB) is allocated in huge pages where the system
/// offers them: writing it otherwise costs a page fault per 4 KiB, which
/// took as long as scanning a large JSON document into its index.
// Invariants: `base` holds `capacity` values, allocated here and freed by
// the owner once (the buffer is a struct copied freely, so it cannot free
// itself; whoever owns it frees it in its `deinit` or when done); the first
// `count` are initialized, `0 <= count <= capacity`; values are read and
// written at `0 ..< count` only. `Element` is trivial (asserted), so values
// are dropped by lowering `count`, with nothing to deinitialize, and moved
// by copying their bytes.
@usableFromInline
package struct GrowableBuffer<Element> {
    /// The first value; valid until the buffer next grows or is freed.
    /// Only the buffer sets it, and `capacity` (they are settable for its
    /// inlinable growth).
    @usableFromInline package var base: UnsafeMutablePointer<Element>
    /// How many values the buffer holds. Lowering it drops the values above
    /// (they are trivial); raising it is for a writer that initialized the
    /// values up to the new count through ``base`` after ``reserve(_:)``.
    @usableFromInline package var count: Int
    /// How many values the memory holds.
    @usableFromInline package var capacity: Int

    /// An empty buffer with room for `capacity` values; with none, it
    /// allocates nothing until the first append (an index's storage is
    /// made per record, and not every buffer of it is used).
    @inlinable
    package init(capacity: Int = 0) {
        assert(_isPOD(Element.self), "a buffer of values that need deinitializing")
        self.capacity = max(capacity, 0)
        count = 0
        base = capacity > 0 ? Self.allocate(capacity) : Self.noMemory
    }

    /// Where a buffer without memory points: never read (it holds no
    /// value) nor freed.
    @inlinable
    static var noMemory: UnsafeMutablePointer<Element> {
        UnsafeMutablePointer(bitPattern: MemoryLayout<Element>.alignment).unsafelyUnwrapped
    }

    /// Frees the memory; the buffer is not used again.
    @inlinable
    package func deallocate() {
        if capacity > 0 { base.deallocate() }
    }

    /// Whether the buffer holds no value.
    @inlinable
    package var isEmpty: Bool { count == 0 }

    /// The value at `position`, read and written in place.
    @inlinable
    package subscript(position: Int) -> Element {
        @inline(__always) unsafeAddress {
            assert(position >= 0 && position < count, "a buffer position out of range")
            return UnsafePointer(base + position)
        }
        @inline(__always) nonmutating unsafeMutableAddress {
            assert(position >= 0 && position < count, "a buffer position out of range")
            return base + position
        }
    }

    /// The last value, `nil` when there is none.
    @inlinable
    package var last: Element? {
        @inline(__always) get { count > 0 ? base[count &- 1] : nil }
    }

    /// The values, valid until the buffer next grows or is freed.
    @inlinable
    package var values: UnsafeBufferPointer<Element> {
        @inline(__always) get { UnsafeBufferPointer(start: base, count: count) }
    }

    @inlinable @inline(__always)
    package mutating func append(_ value: Element) {
        if count == capacity { grow(to: count &+ 1) }
        assert(count < capacity, "a value appended past the buffer's capacity")
        (base + count).initialize(to: value)
        count &+= 1
    }

    /// Appends `length` values copied from `values`, which must not be the
    /// buffer's own (growing it would free them).
    @inlinable @inline(__always)
    package mutating func append(_ values: UnsafePointer<Element>, count length: Int) {
        assert(length >= 0, "fewer than no values appended")
        reserve(length)
        assert(
            UnsafePointer(base + capacity) <= values || values + length <= UnsafePointer(base),
            "the buffer's own values appended to it")
        (base + count).initialize(from: values, count: length)
        count &+= length
    }

    /// Removes and returns the last value; the buffer must not be empty.
    @inlinable @inline(__always)
    @discardableResult
    package mutating func removeLast() -> Element {
        assert(count > 0, "a value removed from an empty buffer")
        count &-= 1
        return base[count]
    }

    /// Removes and returns the last value, `nil` when there is none.
    @inlinable @inline(__always)
    package mutating func popLast() -> Element? {
        guard count > 0 else { return nil }
        return removeLast()
    }

    /// Sets how many values the buffer holds: fewer drops the values above
    /// (they are trivial); more is for a writer that initialized them
    /// through ``base`` after ``reserve(_:)``.
    @inlinable @inline(__always)
    package mutating func setCount(_ newCount: Int) {
        assert(newCount >= 0 && newCount <= capacity, "a buffer count out of range")
        count = newCount
    }

    /// Drops every value, keeping the memory.
    @inlinable @inline(__always)
    package mutating func removeAll() { count = 0 }

    /// Makes room for `more` values after the last, so that a writer that
    /// knows about how many it will append moves none while it appends.
    @inlinable @inline(__always)
    mutating func reserve(_ more: Int) {
        if count &+ more > capacity { grow(to: count + more) }
    }

    /// Moves the values to memory for at least `needed` (at least twice
    /// the capacity, so that appending one by one costs amortized constant
    /// time).
    // Inlinable but never inlined: specialized where it is called, so that
    // an append's rare call to it needs no generic metadata, and kept out
    // of the hot loops that append.
    @inlinable @inline(never)
    mutating func grow(to needed: Int) {
        assert(needed > capacity, "growing a buffer that has room")
        let newCapacity = max(needed, capacity * 2, 8)
        let moved = Self.allocate(newCapacity)
        moved.moveInitialize(from: base, count: count)
        deallocate()
        base = moved
        capacity = newCapacity
    }

    /// Gives a buffer grown past `capacity` values back for a new one of
    /// that many, emptying it: a stream's buffer that one huge value grew
    /// does not keep its memory for the small ones after it.
    package mutating func removeAll(shrinkingTo capacity: Int) {
        count = 0
        guard self.capacity > capacity else { return }
        deallocate()
        self.capacity = max(capacity, 0)
        base = capacity > 0 ? Self.allocate(capacity) : Self.noMemory
    }

    /// Room for `capacity` values: in huge pages from 4 MiB, where the
    /// system offers them.
    @inlinable
    static func allocate(_ capacity: Int) -> UnsafeMutablePointer<Element> {
        let bytes = capacity * MemoryLayout<Element>.stride
        guard bytes >= 4 << 20 else { return .allocate(capacity: capacity) }
        return hugePageMemory(byteCount: bytes).bindMemory(to: Element.self, capacity: capacity)
    }
}

/// `byteCount` bytes aligned to a huge page (2 MiB on x86-64 and arm64
/// Linux), which the system is asked to back with huge pages. Not generic,
/// so that every buffer's growth, specialized in each module, calls the
/// same code.
///
/// Writing a fresh index costs a page fault per page: with 4 KiB pages
/// that took about as long as scanning JSON. Measured on the 200 MB
/// benchmark file (release harness, ten runs each, interleaved, medians):
/// the index alone 0.337 s in 4 KiB pages, 0.235 s in huge pages; a whole
/// `@Bakeable` bake 1.59 s against 1.47 s (means 1.59 and 1.55). The
/// price, on this virtual machine: now and then a huge page is memory the
/// host has not backed yet, which it must first back and zero, and one run
/// of the index in ten took 1.2 s (the mean of the ten, 0.38 s, was above
/// the 4 KiB pages' 0.35 s). The kernel found its huge pages without
/// compacting memory throughout (`compact_stall` stayed 0).
@usableFromInline
func hugePageMemory(byteCount: Int) -> UnsafeMutableRawPointer {
    let raw = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 1 << 21)
    #if os(Linux)
        _ = madvise(raw, byteCount, MADV_HUGEPAGE)
    #endif
    return raw
}
