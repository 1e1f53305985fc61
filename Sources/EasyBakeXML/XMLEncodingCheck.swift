import EasyBake

/// Compares the encoding that a document's first bytes show with the one its
/// XML declaration names, before libxml2 sees them: libxml2 2.9 silently
/// prefers one over the other in some combinations, while XML 1.0 (4.3.3)
/// makes a contradiction a fatal error.
enum XMLEncodingCheck {
    enum Family: Equatable {
        case utf8WithBOM
        case utf16LittleEndian(bom: Bool)
        case utf16BigEndian(bom: Bool)
        /// UTF-8 without a BOM, or any ASCII-compatible encoding.
        case asciiCompatible
    }

    static func family(of bytes: UnsafeRawBufferPointer) -> Family {
        func at(_ i: Int) -> UInt8? { i < bytes.count ? bytes[i] : nil }
        switch (at(0), at(1), at(2), at(3)) {
        case (0xEF, 0xBB, 0xBF, _): return .utf8WithBOM
        case (0xFF, 0xFE, _, _): return .utf16LittleEndian(bom: true)
        case (0xFE, 0xFF, _, _): return .utf16BigEndian(bom: true)
        case (0x3C, 0x00, 0x3F, 0x00): return .utf16LittleEndian(bom: false)
        case (0x00, 0x3C, 0x00, 0x3F): return .utf16BigEndian(bom: false)
        default: return .asciiCompatible
        }
    }

    /// The encoding named by the XML declaration at the start of `bytes`
    /// (read as ASCII, or as ASCII in UTF-16 code units), with the column of
    /// its value, or `nil` when there is no declaration or it names none.
    static func declaredEncoding(in bytes: UnsafeRawBufferPointer, family: Family) -> (name: String, column: Int)? {
        var ascii: [UInt8] = []
        ascii.reserveCapacity(256)
        switch family {
        case .utf16LittleEndian(let bom), .utf16BigEndian(let bom):
            let littleEndian = if case .utf16LittleEndian = family { true } else { false }
            var i = bom ? 2 : 0
            while i + 1 < bytes.count, ascii.count < 256 {
                let (low, high) = littleEndian ? (bytes[i], bytes[i + 1]) : (bytes[i + 1], bytes[i])
                if high != 0 || low >= 0x80 { break }
                ascii.append(low)
                i += 2
            }
        case .utf8WithBOM, .asciiCompatible:
            var i = family == .utf8WithBOM ? 3 : 0
            while i < bytes.count, ascii.count < 256, bytes[i] < 0x80 {
                ascii.append(bytes[i])
                i += 1
            }
        }
        let text = String(decoding: ascii, as: UTF8.self)
        guard text.hasPrefix("<?xml"), let end = text.range(of: "?>") else { return nil }
        let declaration = text[..<end.lowerBound]
        guard let keyword = declaration.range(of: "encoding") else { return nil }
        var rest = declaration[keyword.upperBound...].drop(while: {
            $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r"
        })
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let value = rest.dropFirst().prefix(while: { $0 != quote })
        let column = text.distance(from: text.startIndex, to: value.startIndex) + 1
        return (String(value), column)
    }

    /// Throws when the declared encoding contradicts the bytes.
    static func check(_ bytes: UnsafeRawBufferPointer, sourceName: String) throws(EasyBakeError) {
        let family = family(of: bytes)
        guard let (declared, column) = declaredEncoding(in: bytes, family: family) else { return }
        let name = declared.uppercased()
        let isUTF16 =
            name == "UTF-16" || name == "UTF16" || name == "UTF-16LE" || name == "UTF-16BE"
            || name == "ISO-10646-UCS-2" || name == "UCS-2"
        let isUTF8 = name == "UTF-8" || name == "UTF8"
        let found: String
        switch family {
        case .utf16LittleEndian(let bom), .utf16BigEndian(let bom):
            if isUTF16 { return }
            found = bom ? "UTF-16 (it starts with a UTF-16 byte order mark)" : "UTF-16"
        case .utf8WithBOM:
            if isUTF8 { return }
            found = "UTF-8 (it starts with a UTF-8 byte order mark)"
        case .asciiCompatible:
            if !isUTF16 { return }
            found = "an 8-bit encoding (UTF-16 needs a byte order mark or 16-bit code units)"
        }
        throw EasyBakeError(
            .syntax,
            "the XML declaration names the encoding \(declared.debugDescription), but the document is \(found)",
            location: SourceLocation(sourceName: sourceName, line: 1, column: column))
    }
}
