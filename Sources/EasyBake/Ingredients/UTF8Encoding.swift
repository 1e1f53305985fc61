/// Writing a Unicode scalar as UTF-8, for the format scanners that decode
/// escapes (`\u00E9`, `\x41`, YAML's `\N`) into bytes of their own.
package enum UTF8Encoding {
    /// Passes the UTF-8 bytes of `scalar`, a Unicode scalar value, to `emit`
    /// in order.
    @inlinable @inline(__always)
    package static func encode(_ scalar: UInt32, _ emit: (UInt8) -> Void) {
        switch scalar {
        case 0..<0x80:
            emit(UInt8(scalar))
        case 0x80..<0x800:
            emit(UInt8(0xC0 | scalar >> 6))
            emit(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            emit(UInt8(0xE0 | scalar >> 12))
            emit(UInt8(0x80 | scalar >> 6 & 0x3F))
            emit(UInt8(0x80 | scalar & 0x3F))
        default:
            emit(UInt8(0xF0 | scalar >> 18))
            emit(UInt8(0x80 | scalar >> 12 & 0x3F))
            emit(UInt8(0x80 | scalar >> 6 & 0x3F))
            emit(UInt8(0x80 | scalar & 0x3F))
        }
    }
}
