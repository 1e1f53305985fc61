import CEasyBakeScanning
import EasyBake

/// How the scanner looks for the next byte that matters — the end of a
/// string's plain text, the end of a run of whitespace.
///
/// Most of a JSON document's bytes sit in such runs, so they are found many
/// bytes at a time: sixteen at once with the vector instructions every
/// target machine has (SSE2 on x86-64, NEON on arm64, as C intrinsics in
/// `CEasyBakeScanning`, which needs no library), or eight at once in a
/// plain 64-bit word. Both find exactly the same byte; the word scan is the
/// portable fallback, kept callable so that tests run every input through
/// both. (Swift's own `SIMD` types compile these comparisons lane by lane.)
package enum JSONByteScanning: Sendable, Hashable, CaseIterable {
    /// Sixteen bytes at a time in vector registers.
    case vector
    /// Eight bytes at a time in a 64-bit word.
    case word
}

extension JSONScanner {
    /// The first byte from `start` on that ends a string's plain text: a
    /// quote, a backslash, a control character or a non-ASCII byte; `count`
    /// when there is none.
    @inline(__always)
    func firstSpecialStringByte(from start: Int) -> Int {
        var i = start
        if scanning == .vector {
            i = easybake_string_special(base, i, count)
            if i &+ 16 <= count { return i }
        }
        return firstSpecialStringByteByWords(from: i)
    }

    /// ``firstSpecialStringByte(from:)`` eight bytes at a time.
    @inline(__always)
    func firstSpecialStringByteByWords(from start: Int) -> Int {
        var i = start
        #if _endian(little)
            // A byte is flagged when it is a quote, a backslash, below 0x20 or at
            // least 0x80. The zero-byte test may also flag bytes after a true
            // hit, never before one, so the lowest flag (the first byte, on a
            // little-endian machine) is exact.
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            let raw = UnsafeRawPointer(base)
            while i &+ 8 <= count {
                let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let quotes = word ^ (ones &* 0x22)
                let backslashes = word ^ (ones &* 0x5C)
                var flags = (quotes &- ones) & ~quotes
                flags |= (backslashes &- ones) & ~backslashes
                flags |= (word &- ones &* 0x20) & ~word
                flags = (flags | word) & highs
                if flags != 0 { return i &+ flags.trailingZeroBitCount >> 3 }
                i &+= 8
            }
        #endif
        while i < count {
            let byte = base[i]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { return i }
            i += 1
        }
        return count
    }

    /// Steps over JSON whitespace (space, tab, line feed, carriage return).
    /// Compact JSON has none or one byte of it, which the first test
    /// settles; indentation is skipped a vector or a word at a time.
    @inline(__always)
    mutating func skipWhitespace() {
        guard position < count, Self.isWhitespace(base[position]) else { return }
        position += 1
        guard position < count, Self.isWhitespace(base[position]) else { return }
        if scanning == .vector {
            position = easybake_whitespace_end(base, position, count)
            if position &+ 16 <= count { return }
        } else {
            #if _endian(little)
                // A word of eight spaces is the common case of indentation.
                let raw = UnsafeRawPointer(base)
                while position &+ 8 <= count,
                    raw.loadUnaligned(fromByteOffset: position, as: UInt64.self) == 0x2020_2020_2020_2020
                {
                    position &+= 8
                }
            #endif
        }
        while position < count, Self.isWhitespace(base[position]) { position += 1 }
    }

    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
