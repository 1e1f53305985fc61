import Testing

@testable import EasyBake

@Suite("The growable buffer of the fast core")
struct GrowableBufferTests {
    @Test("values appended one by one survive every growth, in order")
    func appendsAcrossGrowth() {
        var buffer = GrowableBuffer<Int>()
        defer { buffer.deallocate() }
        for value in 0..<1000 { buffer.append(value * 3) }
        #expect(buffer.count == 1000)
        #expect(buffer.capacity >= 1000)
        #expect(Array(buffer.values) == (0..<1000).map { $0 * 3 })
        #expect(buffer[999] == 2997)
        #expect(buffer.last == 2997)
    }

    @Test("an empty buffer holds no memory until its first append")
    func emptyBufferAllocatesLazily() {
        var buffer = GrowableBuffer<Int32>()
        #expect(buffer.capacity == 0)
        #expect(buffer.isEmpty)
        #expect(buffer.last == nil)
        #expect(buffer.values.isEmpty)
        buffer.append(7)
        #expect(buffer.capacity >= 1)
        #expect(Array(buffer.values) == [7])
        buffer.deallocate()
        // Freeing a buffer that never held memory frees nothing.
        GrowableBuffer<Int32>().deallocate()
    }

    @Test("removeLast and popLast give the values back last first; popLast of an empty buffer is nil")
    func removesFromTheEnd() {
        var buffer = GrowableBuffer<Int>(capacity: 2)
        defer { buffer.deallocate() }
        for value in [1, 2, 3] { buffer.append(value) }
        #expect(buffer.removeLast() == 3)
        #expect(buffer.popLast() == 2)
        #expect(buffer.popLast() == 1)
        #expect(buffer.popLast() == nil)
        #expect(buffer.isEmpty)
    }

    @Test("a value is changed in place through the subscript")
    func writesInPlace() {
        struct Pair: Equatable {
            var first: Int
            var second: Bool
        }
        var buffer = GrowableBuffer<Pair>()
        defer { buffer.deallocate() }
        buffer.append(Pair(first: 1, second: false))
        buffer.append(Pair(first: 2, second: false))
        buffer[1].second = true
        buffer[0].first += 40
        #expect(Array(buffer.values) == [Pair(first: 41, second: false), Pair(first: 2, second: true)])
    }

    @Test("a run of bytes is appended as a copy, growing the buffer as needed")
    func appendsRuns() {
        var buffer = GrowableBuffer<UInt8>(capacity: 4)
        defer { buffer.deallocate() }
        let text = Array("hello, growable world".utf8)
        text.withUnsafeBufferPointer { buffer.append($0.baseAddress!, count: $0.count) }
        text.withUnsafeBufferPointer { buffer.append($0.baseAddress!, count: 5) }
        #expect(String(decoding: buffer.values, as: UTF8.self) == "hello, growable worldhello")
        buffer.reserve(100)
        #expect(buffer.capacity >= buffer.count + 100)
        #expect(String(decoding: buffer.values, as: UTF8.self) == "hello, growable worldhello")
    }

    @Test("emptying with a capacity to keep gives back a larger buffer's memory, and keeps a smaller one's")
    func shrinksWhenEmptied() {
        var buffer = GrowableBuffer<UInt8>(capacity: 16)
        defer { buffer.deallocate() }
        for byte in 0..<200 { buffer.append(UInt8(byte)) }
        buffer.removeAll(shrinkingTo: 256)
        #expect(buffer.isEmpty)
        #expect(buffer.capacity >= 200)
        for byte in 0..<1000 { buffer.append(UInt8(truncatingIfNeeded: byte)) }
        buffer.removeAll(shrinkingTo: 256)
        #expect(buffer.isEmpty)
        #expect(buffer.capacity == 256)
        buffer.append(9)
        #expect(Array(buffer.values) == [9])
    }

    @Test("a buffer past 4 MiB (in huge pages where the system offers them) holds its values as any other")
    func largeBufferKeepsValues() {
        var buffer = GrowableBuffer<(UInt64, UInt64)>()
        defer { buffer.deallocate() }
        let count = 400_000  // 6.4 MB of 16-byte values: grown past the 4 MiB threshold
        for value in 0..<UInt64(count) { buffer.append((value, ~value)) }
        #expect(buffer.count == count)
        #expect(buffer.capacity * MemoryLayout<(UInt64, UInt64)>.stride >= 4 << 20)
        #expect(
            buffer.values.enumerated().allSatisfy {
                $0.element.0 == UInt64($0.offset) && $0.element.1 == ~UInt64($0.offset)
            })
    }
}
