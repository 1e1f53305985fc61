import EasyBake

// Scalars on one line, as libyaml's scanner reads them in block context.
extension YAMLIndexScanner {
    /// A scalar read from its line.
    struct Scalar {
        enum Style { case plain, singleQuoted, doubleQuoted, emptyArray, emptyDictionary }
        var style: Style
        /// Plain: its first byte. Quoted: the opening quote. `[]`, `{}`: the bracket.
        var start: Int
        /// Its text's length in bytes, decoded when ``isDecoded``.
        var length: Int
        /// Its text is in the scanner's scratch bytes (escapes decoded), not
        /// in place.
        var isDecoded = false
        var isASCII = true
        /// A `:` and a blank follow it on its line: it is a key, and the
        /// scanner stands at the `:`.
        var isKey = false
    }

    /// The text of `scalar`, valid until the next scalar is read.
    @inline(__always)
    func bytes(of scalar: Scalar) -> UnsafeRawBufferPointer {
        switch scalar.style {
        case .plain: UnsafeRawBufferPointer(start: base + scalar.start, count: scalar.length)
        case .singleQuoted, .doubleQuoted:
            scalar.isDecoded
                ? scratch.bytes : UnsafeRawBufferPointer(start: base + scalar.start + 1, count: scalar.length)
        case .emptyArray, .emptyDictionary: UnsafeRawBufferPointer(start: nil, count: 0)
        }
    }

    /// Reads the scalar at `position`. Where `keyAllowed` (the first node
    /// of a line, or after `- `) a scalar followed by `: ` is a key;
    /// elsewhere (after `key: `) that is an error libyaml reports, and a
    /// bail-out here.
    mutating func scanScalar(keyAllowed: Bool) throws(YAMLIndexBail) -> Scalar {
        let start = position
        var scalar: Scalar
        switch base[start] {
        case UInt8(ascii: "\""):
            scalar = try scanDoubleQuoted()
        case UInt8(ascii: "'"):
            scalar = try scanSingleQuoted()
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            let isArray = base[start] == UInt8(ascii: "[")
            guard start + 1 < count, base[start + 1] == (isArray ? UInt8(ascii: "]") : UInt8(ascii: "}")) else {
                throw YAMLIndexBail()
            }
            position = start + 2
            scalar = Scalar(style: isArray ? .emptyArray : .emptyDictionary, start: start, length: 0)
        case UInt8(ascii: "-"):
            // `-` and a blank is an entry, where no entry may begin.
            guard !isEntry(start) else { throw YAMLIndexBail() }
            return try scanPlain(keyAllowed: keyAllowed)
        case UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"),
            UInt8(ascii: "#"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"),
            UInt8(ascii: ">"), UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"):
            // Indicators: complex keys, flow content, comments, anchors,
            // aliases, tags, block scalars, directives, reserved.
            throw YAMLIndexBail()
        default:
            return try scanPlain(keyAllowed: keyAllowed)
        }
        // After a quoted scalar or `[]`: a `:` and a blank make it a key.
        var p = position
        while p < count, base[p] == UInt8(ascii: " ") { p += 1 }
        if p < count, base[p] == UInt8(ascii: ":"),
            p + 1 == count || base[p + 1] == UInt8(ascii: " ") || base[p + 1] == UInt8(ascii: "\n")
        {
            // A collection as a key is an error of the event path.
            guard keyAllowed, scalar.style == .singleQuoted || scalar.style == .doubleQuoted,
                p - start <= Self.maximumKeySpan
            else { throw YAMLIndexBail() }
            position = p
            scalar.isKey = true
        }
        return scalar
    }

    /// A plain scalar: up to `: `, ` #` or the line's end, its trailing
    /// spaces left out.
    private mutating func scanPlain(keyAllowed: Bool) throws(YAMLIndexBail) -> Scalar {
        let start = position
        var p = start
        var end = start
        var isASCII = true
        var isKey = false
        scan: while true {
            // Runs of bytes that are text and nothing else, then one to look at.
            let run = p
            while p < count, stops[Int(base[p])] & ByteClass.stopsPlain == 0 { p += 1 }
            if p != run { end = p }
            guard p < count else { break }
            switch classes[Int(base[p])] {
            case .ordinary, .doubleQuote, .singleQuote, .backslash:
                p += 1
                end = p
            case .space:
                p += 1
            case .colon:
                if p + 1 == count || base[p + 1] == UInt8(ascii: " ") || base[p + 1] == UInt8(ascii: "\n") {
                    isKey = true
                    break scan
                }
                p += 1
                end = p
            case .hash:
                if base[p - 1] == UInt8(ascii: " ") { break scan }
                p += 1
                end = p
            case .newline:
                break scan
            case .nonASCII:
                isASCII = false
                p += try Self.validateUTF8(base, count, at: p)
                end = p
            case .invalid:
                throw YAMLIndexBail()
            }
        }
        if isKey {
            guard keyAllowed, p - start <= Self.maximumKeySpan else { throw YAMLIndexBail() }
        }
        position = p
        // A lone `-` is no plain scalar to the event path (libyaml lets it
        // through where it cannot be an entry), unless `: ` makes it a key.
        guard end - start <= limits.maximumStringBytes, isKey || end - start != 1 || base[start] != UInt8(ascii: "-")
        else {
            throw YAMLIndexBail()
        }
        return Scalar(style: .plain, start: start, length: end - start, isASCII: isASCII, isKey: isKey)
    }

    /// A double-quoted scalar that closes on its line, its escapes decoded.
    private mutating func scanDoubleQuoted() throws(YAMLIndexBail) -> Scalar {
        let open = position
        var p = open + 1
        var isASCII = true
        // Most strings have no escape: their bytes stay where they are.
        while true {
            while p < count, stops[Int(base[p])] & ByteClass.stopsDoubleQuoted == 0 { p += 1 }
            guard p < count else { throw YAMLIndexBail() }
            switch classes[Int(base[p])] {
            case .doubleQuote:
                position = p + 1
                let length = p - open - 1
                guard length <= limits.maximumStringBytes else { throw YAMLIndexBail() }
                return Scalar(style: .doubleQuoted, start: open, length: length, isASCII: isASCII)
            case .backslash:
                return try scanDoubleQuotedEscapes(open: open, from: p, isASCII: isASCII)
            case .nonASCII:
                isASCII = false
                p += try Self.validateUTF8(base, count, at: p)
            case .newline, .invalid:
                throw YAMLIndexBail()
            case .ordinary, .space, .colon, .hash, .singleQuote:
                p += 1
            }
        }
    }

    /// The rest of a double-quoted scalar from its first `\` at `from`,
    /// decoded into the scratch bytes.
    private mutating func scanDoubleQuotedEscapes(open: Int, from: Int, isASCII: Bool) throws(YAMLIndexBail) -> Scalar {
        var isASCII = isASCII
        scratch.removeAll()
        scratch.append(base + open + 1, count: from - open - 1)
        var p = from
        while true {
            guard p < count else { throw YAMLIndexBail() }
            let byte = base[p]
            switch classes[Int(byte)] {
            case .doubleQuote:
                position = p + 1
                guard scratch.count <= limits.maximumStringBytes else { throw YAMLIndexBail() }
                return Scalar(
                    style: .doubleQuoted, start: open, length: scratch.count, isDecoded: true, isASCII: isASCII)
            case .backslash:
                guard p + 1 < count else { throw YAMLIndexBail() }
                let code = base[p + 1]
                p += 2
                var hexDigits = 0
                switch code {
                case UInt8(ascii: "0"): scratch.append(0)
                case UInt8(ascii: "a"): scratch.append(0x07)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "v"): scratch.append(0x0B)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "e"): scratch.append(0x1B)
                case UInt8(ascii: " "), UInt8(ascii: "\""), UInt8(ascii: "/"), UInt8(ascii: "\\"): scratch.append(code)
                case UInt8(ascii: "N"): appendScalar(0x85, &isASCII)
                case UInt8(ascii: "_"): appendScalar(0xA0, &isASCII)
                case UInt8(ascii: "L"): appendScalar(0x2028, &isASCII)
                case UInt8(ascii: "P"): appendScalar(0x2029, &isASCII)
                case UInt8(ascii: "x"): hexDigits = 2
                case UInt8(ascii: "u"): hexDigits = 4
                case UInt8(ascii: "U"): hexDigits = 8
                default:
                    // A line continuation, an escaped tab, or an escape libyaml
                    // refuses.
                    throw YAMLIndexBail()
                }
                guard hexDigits > 0 else { continue }
                guard p + hexDigits <= count else { throw YAMLIndexBail() }
                var value: UInt32 = 0
                for i in 0..<hexDigits {
                    guard let digit = YAMLScalarResolver.digitValue(base[p + i]) else { throw YAMLIndexBail() }
                    value = value << 4 | UInt32(digit)
                }
                p += hexDigits
                guard value < 0xD800 || (value > 0xDFFF && value <= 0x10FFFF) else { throw YAMLIndexBail() }
                appendScalar(value, &isASCII)
            case .nonASCII:
                isASCII = false
                let length = try Self.validateUTF8(base, count, at: p)
                scratch.append(base + p, count: length)
                p += length
            case .newline, .invalid:
                throw YAMLIndexBail()
            case .ordinary, .space, .colon, .hash, .singleQuote:
                scratch.append(byte)
                p += 1
            }
        }
    }

    /// Appends the UTF-8 of `value`, a Unicode scalar value, to the scratch bytes.
    private func appendScalar(_ value: UInt32, _ isASCII: inout Bool) {
        if value >= 0x80 { isASCII = false }
        UTF8Encoding.encode(value) { scratch.append($0) }
    }

    /// A single-quoted scalar that closes on its line; `''` is a quote.
    private mutating func scanSingleQuoted() throws(YAMLIndexBail) -> Scalar {
        let open = position
        var p = open + 1
        var isASCII = true
        var decoded = false
        while true {
            guard p < count else { throw YAMLIndexBail() }
            let byte = base[p]
            switch classes[Int(byte)] {
            case .singleQuote:
                if p + 1 < count, base[p + 1] == UInt8(ascii: "'") {
                    if !decoded {
                        decoded = true
                        scratch.removeAll()
                        scratch.append(base + open + 1, count: p - open - 1)
                    }
                    scratch.append(byte)
                    p += 2
                    continue
                }
                position = p + 1
                let length = decoded ? scratch.count : p - open - 1
                guard length <= limits.maximumStringBytes else { throw YAMLIndexBail() }
                return Scalar(style: .singleQuoted, start: open, length: length, isDecoded: decoded, isASCII: isASCII)
            case .nonASCII:
                isASCII = false
                let length = try Self.validateUTF8(base, count, at: p)
                if decoded { scratch.append(base + p, count: length) }
                p += length
            case .newline, .invalid:
                throw YAMLIndexBail()
            case .ordinary, .space, .colon, .hash, .doubleQuote, .backslash:
                if decoded { scratch.append(byte) }
                p += 1
            }
        }
    }

    /// The length of the UTF-8 sequence at `p`, which begins with a byte
    /// over 0x7F, when it is well formed and a character libyaml reads as
    /// content. C1 controls, `U+0085`, `U+2028` and `U+2029` (line breaks
    /// to libyaml), `U+FEFF` and the noncharacters `U+FFFE`, `U+FFFF` are
    /// bail-outs.
    ///
    /// Static, with the bytes as arguments: a method would copy the whole
    /// scanner on every call from a mutating one.
    static func validateUTF8(_ base: UnsafePointer<UInt8>, _ count: Int, at p: Int) throws(YAMLIndexBail) -> Int {
        let lead = UInt32(base[p])
        @inline(__always) func continuation(_ i: Int) throws(YAMLIndexBail) -> UInt32 {
            guard i < count, base[i] & 0xC0 == 0x80 else { throw YAMLIndexBail() }
            return UInt32(base[i] & 0x3F)
        }
        switch lead {
        case 0xC2...0xDF:
            let value = (lead & 0x1F) << 6 | (try continuation(p + 1))
            guard value >= 0xA0 else { throw YAMLIndexBail() }
            return 2
        case 0xE0...0xEF:
            let value = (lead & 0x0F) << 12 | (try continuation(p + 1)) << 6 | (try continuation(p + 2))
            guard value >= 0x800, value < 0xD800 || value > 0xDFFF, value != 0x2028, value != 0x2029, value != 0xFEFF,
                value < 0xFFFE
            else { throw YAMLIndexBail() }
            return 3
        case 0xF0...0xF4:
            let value =
                (lead & 0x07) << 18 | (try continuation(p + 1)) << 12 | (try continuation(p + 2)) << 6
                | (try continuation(p + 3))
            guard value >= 0x10000, value <= 0x10FFFF else { throw YAMLIndexBail() }
            return 4
        default:
            throw YAMLIndexBail()
        }
    }
}

/// What a byte is to the native YAML scanner.
enum ByteClass: UInt8 {
    case ordinary, space, colon, hash, newline, doubleQuote, singleQuote, backslash
    /// A control character (tab and carriage return included: outside the
    /// subset) or DEL.
    case invalid
    /// The first or a later byte of a multi-byte UTF-8 sequence.
    case nonASCII

    /// In ``stops``: the byte ends a run of a plain scalar's text.
    static let stopsPlain: UInt8 = 1
    /// In ``stops``: the byte ends a run of a double-quoted scalar's text.
    static let stopsDoubleQuoted: UInt8 = 2

    /// For every byte value, which runs of text it ends: the scanners' inner
    /// loops skip ordinary text with one load and test per byte.
    nonisolated(unsafe) static let stops: UnsafeMutablePointer<UInt8> = {
        let stops = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        for byte in 0..<256 {
            var value: UInt8 = 0
            switch table[byte] {
            case .space, .colon, .hash: value = stopsPlain
            case .doubleQuote, .backslash: value = stopsDoubleQuoted
            case .newline, .invalid, .nonASCII: value = stopsPlain | stopsDoubleQuoted
            case .ordinary, .singleQuote: value = 0
            }
            (stops + byte).initialize(to: value)
        }
        return stops
    }()

    /// The class of every byte value, made once.
    nonisolated(unsafe) static let table: UnsafeMutablePointer<ByteClass> = {
        let table = UnsafeMutablePointer<ByteClass>.allocate(capacity: 256)
        for byte in 0..<256 {
            let value: ByteClass =
                switch UInt8(byte) {
                case UInt8(ascii: " "): .space
                case UInt8(ascii: ":"): .colon
                case UInt8(ascii: "#"): .hash
                case UInt8(ascii: "\n"): .newline
                case UInt8(ascii: "\""): .doubleQuote
                case UInt8(ascii: "'"): .singleQuote
                case UInt8(ascii: "\\"): .backslash
                case 0..<0x20, 0x7F: .invalid
                case 0x80...: .nonASCII
                default: .ordinary
                }
            (table + byte).initialize(to: value)
        }
        return table
    }()
}

/// Bytes a scanner decodes a scalar into, kept from scalar to scalar.
// A class, so that the scanner (a struct copied freely) shares one and the
// memory is freed once, when the last copy goes.
final class ScratchBytes {
    @exclusivity(unchecked) private var buffer = GrowableBuffer<UInt8>(capacity: 256)

    /// A byte for a buffer without an address to point at.
    nonisolated(unsafe) static let noBytes: UnsafeMutablePointer<UInt8> = .allocate(capacity: 1)

    deinit { buffer.deallocate() }

    var count: Int { buffer.count }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(buffer.values) }

    func removeAll() { buffer.removeAll() }

    @inline(__always)
    func append(_ byte: UInt8) { buffer.append(byte) }

    func append(_ source: UnsafePointer<UInt8>, count more: Int) { buffer.append(source, count: more) }
}
