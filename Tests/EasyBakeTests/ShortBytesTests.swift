import Testing

@testable import EasyBake

/// Keys are compared by ``ShortBytes/equal(_:_:count:)``: it must say what
/// `memcmp` says, at every length its loads are chosen by, for a difference
/// at every byte, and read nothing outside the two ranges.
@Suite("Comparing short byte ranges")
struct ShortBytesTests {
    @Test("equal exactly when memcmp says so, a difference at any byte of any length")
    func agreesWithMemcmp() {
        for count in 0...40 {
            // Each range alone in an allocation of its own size, so that a
            // read past it would be a read past the allocation (caught by
            // the address sanitizer, where it runs).
            let a = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 1)
            let b = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 1)
            defer {
                a.deallocate()
                b.deallocate()
            }
            for i in 0..<count {
                a.storeBytes(of: UInt8(truncatingIfNeeded: i &* 37 &+ 11), toByteOffset: i, as: UInt8.self)
                b.storeBytes(of: UInt8(truncatingIfNeeded: i &* 37 &+ 11), toByteOffset: i, as: UInt8.self)
            }
            #expect(ShortBytes.equal(a, b, count: count), "length \(count)")
            for i in 0..<count {
                let kept = b.load(fromByteOffset: i, as: UInt8.self)
                for flip: UInt8 in [0x01, 0x80] {
                    b.storeBytes(of: kept ^ flip, toByteOffset: i, as: UInt8.self)
                    #expect(!ShortBytes.equal(a, b, count: count), "length \(count), byte \(i)")
                    // Only the first `count` bytes are compared.
                    #expect(ShortBytes.equal(a, b, count: i), "length \(i) of \(count)")
                }
                b.storeBytes(of: kept, toByteOffset: i, as: UInt8.self)
            }
        }
    }
}
