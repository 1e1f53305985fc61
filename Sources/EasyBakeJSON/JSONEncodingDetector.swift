import EasyBake

/// Tells UTF-16 and UTF-32 JSON apart from UTF-8 and transcodes it.
///
/// RFC 8259 requires UTF-8 between systems, but files written on Windows or
/// by older tools arrive as UTF-16, often with a byte order mark. Reading
/// them as UTF-8 would fail with a misleading "unexpected character" at the
/// first zero byte, so they are recognised by their BOM or, without one, by
/// the pattern of zero bytes in the first four (RFC 4627 §3: the first two
/// characters of a JSON text are ASCII).
enum JSONEncodingDetector {
    enum Encoding { case utf16BE, utf16LE, utf32BE, utf32LE }

    static func detect(_ bytes: UnsafeRawBufferPointer) -> (encoding: Encoding, bomLength: Int)? {
        let n = bytes.count
        func at(_ i: Int) -> UInt8? { i < n ? bytes[i] : nil }
        switch (at(0), at(1), at(2), at(3)) {
        case (0x00, 0x00, 0xFE, 0xFF): return (.utf32BE, 4)
        case (0xFF, 0xFE, 0x00, 0x00): return (.utf32LE, 4)
        case (0xFE, 0xFF, _, _): return (.utf16BE, 2)
        case (0xFF, 0xFE, _, _): return (.utf16LE, 2)
        case (0x00, 0x00, 0x00, .some): return (.utf32BE, 0)
        case (.some(let a), 0x00, 0x00, 0x00) where a != 0: return (.utf32LE, 0)
        case (0x00, .some(let b), _, _) where b != 0: return (.utf16BE, 0)
        case (.some(let a), 0x00, _, _) where a != 0: return (.utf16LE, 0)
        default: return nil
        }
    }

    /// The UTF-8 transcoding of UTF-16/32 input, or `nil` for UTF-8 input.
    static func utf8(from bytes: UnsafeRawBufferPointer, sourceName: String) throws(EasyBakeError) -> [UInt8]? {
        guard let (encoding, bomLength) = detect(bytes) else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        func fail(_ offset: Int, _ what: String) -> EasyBakeError {
            EasyBakeError(
                .unsupportedEncoding, "the input looks like \(what) but is not valid \(what) at byte \(offset)",
                location: SourceLocation(sourceName: sourceName, line: 1, column: 1, byteOffset: offset))
        }
        switch encoding {
        case .utf16BE, .utf16LE:
            let bigEndian = encoding == .utf16BE
            guard (bytes.count - bomLength) % 2 == 0 else { throw fail(bytes.count - 1, "UTF-16") }
            var units: [UInt16] = []
            units.reserveCapacity((bytes.count - bomLength) / 2)
            var i = bomLength
            while i + 1 < bytes.count {
                units.append(
                    bigEndian
                        ? UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]) : UInt16(bytes[i + 1]) << 8 | UInt16(bytes[i]))
                i += 2
            }
            var iterator = units.makeIterator()
            var decoder = UTF16()
            var index = 0
            loop: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar):
                    output.append(contentsOf: UTF8.encode(scalar)!)
                    index += scalar.value > 0xFFFF ? 2 : 1
                case .emptyInput: break loop
                case .error: throw fail(bomLength + index * 2, "UTF-16")
                }
            }
        case .utf32BE, .utf32LE:
            guard (bytes.count - bomLength) % 4 == 0 else { throw fail(bytes.count - 1, "UTF-32") }
            var i = bomLength
            while i + 3 < bytes.count {
                let value =
                    encoding == .utf32BE
                    ? UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8
                        | UInt32(bytes[i + 3])
                    : UInt32(bytes[i + 3]) << 24 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 1]) << 8
                        | UInt32(bytes[i])
                guard let scalar = Unicode.Scalar(value) else { throw fail(i, "UTF-32") }
                output.append(contentsOf: UTF8.encode(scalar)!)
                i += 4
            }
        }
        return output
    }
}
