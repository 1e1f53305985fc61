import Foundation

/// Equality of two byte ranges of the same length, for keys.
///
/// Every key of every record is compared, and most are short: a call of
/// the C library's `memcmp` for each, with the registers saved around it,
/// cost more than the compare (callgrind, a whole `@Bakeable` bake: about
/// 35 instructions of a lookup's 135). Up to 16 bytes, two loads from each
/// side cover the range, overlapping in the middle, with no read outside
/// it; longer ranges go to `memcmp`.
@usableFromInline
enum ShortBytes {
    @inlinable @inline(__always)
    static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        switch count {
        case 8...16:
            let tail = count &- 8
            return a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
                && a.loadUnaligned(fromByteOffset: tail, as: UInt64.self)
                    == b.loadUnaligned(fromByteOffset: tail, as: UInt64.self)
        case 4...7:
            let tail = count &- 4
            return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
                && a.loadUnaligned(fromByteOffset: tail, as: UInt32.self)
                    == b.loadUnaligned(fromByteOffset: tail, as: UInt32.self)
        case 1...3:
            // The first, middle and last bytes: all of up to three.
            let middle = count &>> 1, last = count &- 1
            return a.load(as: UInt8.self) == b.load(as: UInt8.self)
                && a.load(fromByteOffset: middle, as: UInt8.self) == b.load(fromByteOffset: middle, as: UInt8.self)
                && a.load(fromByteOffset: last, as: UInt8.self) == b.load(fromByteOffset: last, as: UInt8.self)
        case 0:
            return true
        default:
            return memcmp(a, b, count) == 0
        }
    }
}
