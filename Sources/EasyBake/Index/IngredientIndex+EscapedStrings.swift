#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Strings with backslash escapes stay escaped in the index, as ranges of the
// input, and are decoded when they are read. Decoding them while the index
// was built cost the API-response shape (half its texts written `\uXXXX`)
// an arena of about a quarter of its input, which put its held index at 2.1×
// the input, and the decoding of every string whether or not anyone read
// it. An escaped string is a wide string of the input (its extra holds its
// opening quote and its escaped length) with `escapedFlag`; its decoded
// bytes are never longer than its escaped ones, so a reader decodes it into
// room of the escaped length.

extension IngredientIndex {
    /// Set in a wide string's kind byte when its bytes in the input hold
    /// backslash escapes as JSON writes them (`\n`, `\u00E9`, a surrogate
    /// pair), which the format has checked and a read decodes. The bit is
    /// ``inlineFlag``'s: that one is a number's, this one a string's, and
    /// both say the entry's bytes are not its value as they stand, so that
    /// the tests of either fall out of the fast paths together.
    @usableFromInline static let escapedFlag: UInt8 = 0x40
    /// The kind byte, masked by ``escapedKindMask``, of an escaped string.
    @usableFromInline static let escapedKind: UInt8 = Kind.string.rawValue | wideFlag | escapedFlag
    @usableFromInline static let escapedKindMask: UInt8 = kindMask | wideFlag | escapedFlag
}

/// JSON's backslash escapes, decoded from text a format has already checked
/// (the JSON scanner's string scan): the one decoder of them, for strings
/// kept escaped in an index and for the scanner's own strings.
package enum EscapedText {
    /// Decodes `raw`, the text between a string's quotes, into `output`,
    /// which has room for `raw.count` bytes (decoded text is never longer:
    /// each escape is shorter than what it writes). Returns how many bytes
    /// were written.
    ///
    /// The text must have been checked: the backslash of an escape cut
    /// short or unknown is copied as it stands, a lone surrogate written as
    /// U+FFFD, so that even text that was not checked is read within its
    /// bounds (and ``decoded(_:equals:)`` agrees).
    package static func decode(_ raw: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer) -> Int {
        guard let input = raw.baseAddress else { return 0 }
        let end = raw.count
        var read = 0
        var written = 0
        while read < end {
            // The run before the next backslash is copied whole.
            let run: Int
            if let backslash = memchr(input + read, 0x5C, end - read) {
                run = UnsafeRawPointer(backslash) - (input + read)
            } else {
                run = end - read
            }
            (output + written).copyMemory(from: input + read, byteCount: run)
            read += run
            written += run
            guard read < end else { break }
            guard let (scalar, length) = escape(input, at: read, end: end) else {
                // Unchecked text: the backslash as it stands.
                output.storeBytes(of: 0x5C, toByteOffset: written, as: UInt8.self)
                read += 1
                written += 1
                continue
            }
            read += length
            UTF8Encoding.encode(scalar) { byte in
                output.storeBytes(of: byte, toByteOffset: written, as: UInt8.self)
                written += 1
            }
        }
        return written
    }

    /// Whether `raw`, decoded, is exactly `utf8`: how a key kept escaped is
    /// compared, decoded as it is read, with nothing written, so that the
    /// key lookups that may call this keep what they loaded in registers.
    package static func decoded(_ raw: UnsafeRawBufferPointer, equals utf8: UnsafeRawBufferPointer) -> Bool {
        guard let input = raw.baseAddress else { return utf8.isEmpty }
        let end = raw.count
        var read = 0
        var matched = 0
        while read < end {
            let byte = input.load(fromByteOffset: read, as: UInt8.self)
            guard byte == 0x5C, let (scalar, length) = escape(input, at: read, end: end) else {
                guard matched < utf8.count, utf8[matched] == byte else { return false }
                read += 1
                matched += 1
                continue
            }
            read += length
            var equal = true
            UTF8Encoding.encode(scalar) { byte in
                equal = equal && matched < utf8.count && utf8[matched] == byte
                matched += 1
            }
            guard equal else { return false }
        }
        return matched == utf8.count
    }

    /// The escape whose backslash is at `start`: the scalar it stands for
    /// (U+FFFD for a lone surrogate) and how many bytes it takes; `nil` when
    /// it is cut short or unknown (text that was not checked).
    @inline(__always)
    private static func escape(_ input: UnsafeRawPointer, at start: Int, end: Int) -> (UInt32, Int)? {
        guard start + 1 < end else { return nil }
        switch input.load(fromByteOffset: start + 1, as: UInt8.self) {
        case UInt8(ascii: "\""): return (0x22, 2)
        case UInt8(ascii: "\\"): return (0x5C, 2)
        case UInt8(ascii: "/"): return (0x2F, 2)
        case UInt8(ascii: "b"): return (0x08, 2)
        case UInt8(ascii: "f"): return (0x0C, 2)
        case UInt8(ascii: "n"): return (0x0A, 2)
        case UInt8(ascii: "r"): return (0x0D, 2)
        case UInt8(ascii: "t"): return (0x09, 2)
        case UInt8(ascii: "u"):
            guard let high = hex4(input, at: start + 2, end: end) else { return nil }
            guard high >= 0xD800 && high <= 0xDFFF else { return (high, 6) }
            if high <= 0xDBFF, start + 7 < end,
                input.load(fromByteOffset: start + 6, as: UInt8.self) == 0x5C,
                input.load(fromByteOffset: start + 7, as: UInt8.self) == UInt8(ascii: "u"),
                let low = hex4(input, at: start + 8, end: end), low >= 0xDC00 && low <= 0xDFFF
            {
                return (0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00), 12)
            }
            return (0xFFFD, 6)
        default:
            return nil
        }
    }

    /// The four hex digits at `at`; `nil` when they are not there.
    private static func hex4(_ input: UnsafeRawPointer, at start: Int, end: Int) -> UInt32? {
        guard start + 4 <= end else { return nil }
        var value: UInt32 = 0
        for offset in start..<start + 4 {
            let byte = input.load(fromByteOffset: offset, as: UInt8.self)
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// `raw` decoded, as a `String`.
    package static func string(decoding raw: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: raw.count) { buffer in
            decode(raw, into: UnsafeMutableRawPointer(buffer.baseAddress!))
        }
    }
}

extension IngredientIndex.Reader {
    /// Whether `entry` is a string kept escaped (``IngredientIndex/escapedFlag``).
    @inlinable @inline(__always)
    func isEscaped(_ entry: IngredientIndex.Entry) -> Bool {
        entry.kindByte & IngredientIndex.escapedKindMask == IngredientIndex.escapedKind
    }

    /// Calls `body` with the decoded bytes of the escaped string `entry`.
    @usableFromInline @inline(never)
    func withDecodedUTF8<R>(_ entry: IngredientIndex.Entry, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows
        -> R
    {
        let raw = wideUTF8(entry)
        return try withUnsafeTemporaryAllocation(byteCount: max(raw.count, 1), alignment: 1) { room in
            let count = EscapedText.decode(raw, into: room.baseAddress!)
            return try body(UnsafeRawBufferPointer(start: room.baseAddress!, count: count))
        }
    }

    /// The escaped string `entry` decoded, as a `String`.
    @usableFromInline @inline(never)
    func decodedString(_ entry: IngredientIndex.Entry) -> String {
        EscapedText.string(decoding: wideUTF8(entry))
    }
}

extension IngredientIndex.Storage {
    /// The entry of a string whose `length` bytes after the quote at
    /// `offset` hold escapes the format has checked: wide, with
    /// ``IngredientIndex/escapedFlag``.
    func escapedString(at offset: Int, length: Int) throws(EasyBakeError) -> IngredientIndex.Entry {
        guard offset >= 0, offset < IngredientIndex.startLimit, length <= UInt32.max else {
            throw IngredientIndex.tooLarge("string", at: offset)
        }
        assert(
            inputBase == nil || offset + 1 + length <= inputCount, "an escaped string past the end of the input")
        let extra = appendExtra(
            IngredientIndex.Extra(
                sourceOffset: UInt64(truncatingIfNeeded: offset), low: UInt32(truncatingIfNeeded: length), high: 0))
        return IngredientIndex.Entry(IngredientIndex.escapedKind, payload: UInt64(extra))
    }

    /// The decoded bytes of the escaped string at `position`, written to
    /// the arena's room past its count: readable until the next write.
    func decodedInSpareArena(at position: Int) -> UnsafeRawBufferPointer {
        let reader = IngredientIndex.Reader(self)
        let raw = reader.wideUTF8(entries[position])
        arenaBuffer.reserve(raw.count)
        let room = arena + arenaCount
        return UnsafeRawBufferPointer(start: room, count: EscapedText.decode(raw, into: room))
    }
}
