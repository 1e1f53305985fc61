@_spi(EasyBakeFormats) import EasyBake
import EasyBakePathGrammar

/// The byte-level JSON grammar as a pull state machine.
// Invariants: `base ..< base + inputCount` is `storage`'s buffer (or one
// byte never read, for empty input), alive as long as the scanner holds
// `storage`; `0 <= position <= count <= inputCount`. A byte is read at an
// offset below `count` only: every loop over the bytes is bounded by
// `count` (or stops at a byte found before it), and whoever moves `count`
// or `position` asserts the order (JSON Lines, byte ranges, deferred values).
struct JSONScanner {
    enum Expect {
        case value  // any value (top level or after ':' or ',' in an array)
        case firstKeyOrEnd  // after '{'
        case key  // after ',' in an object
        case firstValueOrEnd  // after '['
        case afterValue  // ',' or the container's end, or the end of input
        case end  // after the top-level value
    }

    let storage: LoadedBytes
    let base: UnsafePointer<UInt8>
    /// Where scanning stops: the end of the input, or for JSON Lines the
    /// end of the line being read.
    var count: Int
    /// The size of the whole input, for locating errors.
    let inputCount: Int
    /// What the scanner calls the place where `count` stops it.
    var endName = "the end of the input"
    var position = 0
    var eventStart = 0
    var expect = Expect.value
    /// The open containers: true for an object.
    var containers: [Bool] = []
    let limits: IngredientLimits
    let sourceName: String
    /// How runs of plain bytes are found (``JSONByteScanning``).
    var scanning = JSONByteScanning.preferred {
        didSet { structuralLevel = structuralLevelChoice ?? scanning.structuralLevel }
    }
    /// The structural pass's level when a test picks one; `nil`: the one
    /// ``scanning`` runs (see `JSONScanner+Structure.swift`).
    var structuralLevelChoice: Int32? {
        didSet { structuralLevel = structuralLevelChoice ?? scanning.structuralLevel }
    }
    /// The level of the structural pass the skips run: 0 (byte by byte,
    /// which the skips leave to the byte walk) or a vector one. Kept, not
    /// asked for, as every skip reads it.
    private(set) var structuralLevel = JSONByteScanning.preferred.structuralLevel
    /// For a byte range of a top-level array's elements: where they are.
    var elementRange: ElementRange?
    /// Whether a value read to be pruned is first built whole over JSON's
    /// structure, up to ``unprunedEntryLimit`` entries (the default); tests
    /// turn it off to prune every value in C.
    var buildsSmallValuesWhole = true

    init(bytes: LoadedBytes, limits: IngredientLimits, sourceName: String) throws(EasyBakeError) {
        var loaded = bytes
        if let transcoded = try JSONEncodingDetector.utf8(from: bytes.buffer, sourceName: sourceName) {
            loaded = LoadedBytes(copying: transcoded)
        }
        storage = loaded
        // An empty buffer may have no base address; point at a byte that is never read.
        base = loaded.buffer.baseAddress.map { $0.assumingMemoryBound(to: UInt8.self) } ?? JSONScanner.emptyByte
        count = loaded.buffer.count
        inputCount = count
        self.limits = limits
        self.sourceName = sourceName
        containers.reserveCapacity(64)
        if count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { position = 3 }
    }

    nonisolated(unsafe) private static let emptyByte: UnsafePointer<UInt8> = {
        let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        pointer.initialize(to: 0)
        return UnsafePointer(pointer)
    }()

    // MARK: Errors

    func location(of offset: Int) -> SourceLocation {
        SourceLocation.locate(
            offset: offset, in: UnsafeRawBufferPointer(start: base, count: inputCount), sourceName: sourceName)
    }

    func syntax(_ message: String, at offset: Int) -> EasyBakeError {
        EasyBakeError.syntax(message, at: location(of: offset))
    }

    /// "found 'x'" or "found the end of the input".
    func found(at offset: Int) -> String {
        guard offset < count else { return endName }
        let byte = base[offset]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    // MARK: Events

    @inline(__always)
    mutating func next(materializing: Bool) throws(EasyBakeError) -> IngredientEvent? {
        skipWhitespace()
        eventStart = position
        switch expect {
        case .value:
            return try value(materializing: materializing)
        case .firstKeyOrEnd:
            if position < count, base[position] == UInt8(ascii: "}") { return endContainer(.endDictionary) }
            return try key(materializing: materializing, afterComma: false)
        case .key:
            return try key(materializing: materializing, afterComma: true)
        case .firstValueOrEnd:
            if position < count, base[position] == UInt8(ascii: "]") { return endContainer(.endArray) }
            if endsElementRange() { return closeElementRange() }
            return try value(materializing: materializing)
        case .afterValue:
            guard let isObject = containers.last else {
                expect = .end
                return try next(materializing: materializing)
            }
            guard position < count else {
                throw syntax(
                    "expected ',' or '\(isObject ? "}" : "]")' after \(isObject ? "an object member" : "an array element"), found \(endName)",
                    at: position)
            }
            let byte = base[position]
            if byte == UInt8(ascii: ",") {
                position += 1
                skipWhitespace()
                eventStart = position
                if isObject {
                    return try key(materializing: materializing, afterComma: true)
                }
                if endsElementRange() { return closeElementRange() }
                if position < count, base[position] == UInt8(ascii: "]") {
                    throw syntax("expected a value after ',', found ']' (trailing commas are not JSON)", at: position)
                }
                return try value(materializing: materializing)
            }
            if isObject && byte == UInt8(ascii: "}") { return endContainer(.endDictionary) }
            if !isObject && byte == UInt8(ascii: "]") { return endContainer(.endArray) }
            throw syntax(
                "expected ',' or '\(isObject ? "}" : "]")' after \(isObject ? "an object member" : "an array element"), found \(found(at: position))",
                at: position)
        case .end:
            guard position >= count else {
                throw syntax("expected \(endName) after the JSON value, found \(found(at: position))", at: position)
            }
            return nil
        }
    }

    @inline(__always)
    mutating func endContainer(_ event: IngredientEvent) -> IngredientEvent {
        position += 1
        containers.removeLast()
        expect = .afterValue
        return event
    }

    private mutating func key(materializing: Bool, afterComma: Bool) throws(EasyBakeError) -> IngredientEvent {
        guard position < count, base[position] == UInt8(ascii: "\"") else {
            if afterComma, position < count, base[position] == UInt8(ascii: "}") {
                throw syntax("expected a string key after ',', found '}' (trailing commas are not JSON)", at: position)
            }
            throw syntax(
                "expected a string key\(afterComma ? "" : " or '}'"), found \(found(at: position))", at: position)
        }
        let name = try string(materializing: materializing)
        skipWhitespace()
        guard position < count, base[position] == UInt8(ascii: ":") else {
            throw syntax("expected ':' after an object key, found \(found(at: position))", at: position)
        }
        position += 1
        expect = .value
        return .key(name)
    }

    private mutating func value(materializing: Bool) throws(EasyBakeError) -> IngredientEvent {
        guard position < count else {
            throw syntax("expected a JSON value, found \(endName)", at: position)
        }
        let byte = base[position]
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard containers.count < limits.maximumDepth else {
                throw EasyBakeError.limit(.maximumDepth, limits.maximumDepth, at: location(of: position))
            }
            position += 1
            let isObject = byte == UInt8(ascii: "{")
            containers.append(isObject)
            expect = isObject ? .firstKeyOrEnd : .firstValueOrEnd
            if elementRange != nil, !isObject { jumpToElementRange() }
            return isObject ? .beginDictionary : .beginArray
        case UInt8(ascii: "\""):
            let text = try string(materializing: materializing)
            expect = .afterValue
            return .scalar(materializing ? .string(text) : .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number = try self.number(materializing: materializing)
            expect = .afterValue
            return .scalar(number)
        case UInt8(ascii: "t"):
            try literal("true")
            return .scalar(.bool(true))
        case UInt8(ascii: "f"):
            try literal("false")
            return .scalar(.bool(false))
        case UInt8(ascii: "n"):
            try literal("null")
            return .scalar(.null)
        default:
            throw syntax("expected a JSON value, found \(found(at: position))", at: position)
        }
    }

    mutating func literal(_ word: StaticString) throws(EasyBakeError) {
        let length = word.utf8CodeUnitCount
        let expected = word.utf8Start
        var i = 0
        while i < length {
            guard position + i < count, base[position + i] == expected[i] else {
                throw syntax("expected '\(word)', found \(found(at: position + i))", at: position)
            }
            i += 1
        }
        position += length
        expect = .afterValue
    }

    // MARK: Numbers

    mutating func number(materializing: Bool) throws(EasyBakeError) -> Ingredients {
        let start = position
        _ = try scanNumber()
        guard materializing else { return .null }
        return Ingredients.number(literal: UnsafeRawBufferPointer(start: base + start, count: position - start))
    }

    /// Reads the number at `position`, checking its grammar and its length;
    /// returns whether it is an integer literal (no fraction, no exponent).
    @inline(__always)
    mutating func scanNumber() throws(EasyBakeError) -> Bool {
        let start = position
        let scan = JSONNumberGrammar.scan(base, from: start, count: count)
        position = scan.end
        if let failure = scan.failure {
            switch failure {
            case .missingDigit:
                throw syntax("expected a digit after '-', found \(found(at: position))", at: position)
            case .leadingZero:
                throw syntax(
                    "expected '.', 'e' or the end of the number after a leading 0 (leading zeros are not JSON)",
                    at: position)
            case .missingFractionDigit:
                throw syntax("expected a digit after the decimal point, found \(found(at: position))", at: position)
            case .missingExponentDigit:
                throw syntax("expected a digit in the exponent, found \(found(at: position))", at: position)
            }
        }
        let length = position - start
        guard length <= limits.maximumNumberLength else {
            throw EasyBakeError.limit(.maximumNumberLength, limits.maximumNumberLength, at: location(of: start))
        }
        return scan.isInteger
    }

    // MARK: Strings

    /// Reads a string starting at its opening quote. Without `materializing`
    /// it checks the string and returns "".
    mutating func string(materializing: Bool) throws(EasyBakeError) -> String {
        let open = position
        position += 1
        let start = position
        // Fast path: plain ASCII up to the closing quote, eight bytes at a time.
        position = firstSpecialStringByte(from: start)
        if position < count, base[position] == UInt8(ascii: "\"") {
            let length = position - start
            try checkStringLength(length, at: open)
            position += 1
            guard materializing else { return "" }
            return String(decoding: UnsafeBufferPointer(start: base + start, count: length), as: UTF8.self)
        }
        return try slowString(open: open, start: start, materializing: materializing)
    }

    func checkStringLength(_ length: Int, at offset: Int) throws(EasyBakeError) {
        guard length <= limits.maximumStringBytes else {
            throw EasyBakeError.limit(.maximumStringBytes, limits.maximumStringBytes, at: location(of: offset))
        }
    }

    /// Strings with escapes or non-ASCII text: validates UTF-8 and escapes,
    /// then decodes the escapes as an index's escaped strings are decoded.
    private mutating func slowString(open: Int, start: Int, materializing: Bool) throws(EasyBakeError) -> String {
        let hasEscapes = try scanSlowString(open: open, start: start)
        guard materializing else { return "" }
        let text = UnsafeRawBufferPointer(start: base + start, count: position - 1 - start)
        return hasEscapes ? EscapedText.string(decoding: text) : String(decoding: text, as: UTF8.self)
    }

    /// Scans the rest of a string from `position` (inside it, at the first
    /// byte the fast path stopped at) past its closing quote, validating
    /// UTF-8 and escapes. Nothing is decoded: a string with escapes is
    /// decoded when it is read (``EscapedText``).
    ///
    /// - Returns: whether the string had escapes.
    mutating func scanSlowString(open: Int, start: Int) throws(EasyBakeError) -> Bool {
        var hasEscapes = false
        while true {
            guard position < count else {
                throw syntax("expected '\"' to close the string that begins here, found \(endName)", at: open)
            }
            let byte = base[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 {
                throw syntax(
                    "expected '\\u\(String(format4: byte))' for a control character in a string, found it raw",
                    at: position)
            }
            if byte < 0x80 {
                if byte == UInt8(ascii: "\\") {
                    hasEscapes = true
                    try checkEscape()
                } else {
                    position = firstSpecialStringByte(from: position + 1)
                }
                continue
            }
            try validateUTF8Sequence()
            // Plain ASCII after a multi-byte sequence is skipped in bulk too.
            position = firstSpecialStringByte(from: position)
        }
        let length = position - start
        try checkStringLength(length, at: open)
        position += 1
        return hasEscapes
    }

    /// Checks one multi-byte UTF-8 sequence at `position` (RFC 3629: no
    /// overlong forms, no surrogates, nothing above U+10FFFF) and steps over it.
    @inline(__always)
    private mutating func validateUTF8Sequence() throws(EasyBakeError) {
        let lead = base[position]
        let length: Int
        var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default:
            throw syntax(
                "expected UTF-8 text, found the invalid byte 0x\(String(lead, radix: 16, uppercase: true))",
                at: position)
        }
        guard position + length <= count else {
            throw syntax("expected UTF-8 text, found a sequence cut short by \(endName)", at: position)
        }
        let second = base[position + 1]
        guard second >= lower && second <= upper else {
            throw syntax("expected UTF-8 text, found an invalid \(length)-byte sequence", at: position)
        }
        var i = 2
        while i < length {
            guard base[position + i] & 0xC0 == 0x80 else {
                throw syntax("expected UTF-8 text, found an invalid \(length)-byte sequence", at: position)
            }
            i += 1
        }
        position += length
    }

    /// Checks one escape at `position` (the backslash) and steps over it;
    /// ``EscapedText`` decodes it when the string is read.
    private mutating func checkEscape() throws(EasyBakeError) {
        let backslash = position
        guard position + 1 < count else {
            throw syntax("expected an escape after '\\', found \(endName)", at: position)
        }
        let code = base[position + 1]
        position += 2
        switch code {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return
        case UInt8(ascii: "u"):
            let scalar = try hex4(at: backslash)
            if scalar >= 0xD800 && scalar <= 0xDBFF {
                // A high surrogate must be followed by an escaped low one.
                guard position + 1 < count, base[position] == UInt8(ascii: "\\"),
                    base[position + 1] == UInt8(ascii: "u")
                else {
                    throw syntax(
                        "expected '\\u' and a low surrogate after the high surrogate \\u\(String(scalar, radix: 16, uppercase: true)) (lone surrogates are not text)",
                        at: backslash)
                }
                let lowStart = position
                position += 2
                let low = try hex4(at: lowStart)
                guard low >= 0xDC00 && low <= 0xDFFF else {
                    throw syntax(
                        "expected a low surrogate (\\uDC00–\\uDFFF) after a high surrogate, found \\u\(String(low, radix: 16, uppercase: true))",
                        at: lowStart)
                }
            } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                throw syntax(
                    "expected a high surrogate before the low surrogate \\u\(String(scalar, radix: 16, uppercase: true)) (lone surrogates are not text)",
                    at: backslash)
            }
        default:
            throw syntax(
                "expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX, found '\\\(found(at: backslash + 1).trimmingQuotes)'",
                at: backslash)
        }
    }

    private mutating func hex4(at escapeStart: Int) throws(EasyBakeError) -> UInt32 {
        guard position + 4 <= count else {
            throw syntax("expected four hex digits after '\\u', found \(endName)", at: escapeStart)
        }
        var value: UInt32 = 0
        for i in 0..<4 {
            let byte = base[position + i]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw syntax("expected four hex digits after '\\u', found \(found(at: position + i))", at: position + i)
            }
            value = value << 4 | UInt32(digit)
        }
        position += 4
        return value
    }
}

private extension String {
    init(format4 byte: UInt8) {
        let hex = String(byte, radix: 16, uppercase: true)
        self = String(repeating: "0", count: 4 - hex.count) + hex
    }

    var trimmingQuotes: String {
        hasPrefix("'") && hasSuffix("'") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}
