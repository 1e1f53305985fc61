// YAML 1.1's implicit types, for the writer: which plain scalars a YAML 1.1
// reader (PyYAML, SnakeYAML, go-yaml v2 and most of the ecosystem) turns
// into something other than a string.
extension YAMLScalarResolver {
    /// Whether YAML 1.1's implicit types make the plain scalar `bytes`
    /// something other than a string: a boolean (`y`, `no`, `on`…), a null
    /// (`~`, `null`, the empty scalar), an integer (`0b101`, `017`, `0x1F`,
    /// `1_000`, sexagesimal `12:30:00`), a float (`1.5`, `1_0.5`, `.5`,
    /// `190:20:30.15`, `.inf`, `.nan`), a timestamp (`2024-01-01`,
    /// `2001-12-14t21:59:43.10-05:00`), the merge key `<<` or the value key
    /// `=`.
    ///
    /// Errs on the side of "not a string" where YAML 1.1's own definitions
    /// and its readers differ (the spec's float allows a lone `.`, its
    /// readers do not): the writer quotes what this finds, and a quoted
    /// string reads back the same everywhere.
    static func isYAML11NonString(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let first = bytes.first else { return true }
        if isNull(bytes) || bool(bytes, schema: .yaml11) != nil { return true }
        if equals(bytes, "<<") || equals(bytes, "=") { return true }
        switch first {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            return isYAML11Integer(bytes) || isYAML11Float(bytes) || isYAML11Timestamp(bytes)
        default:
            return false
        }
    }

    /// `[-+]?0b[0-1_]+`, `[-+]?0[0-7_]*`, `[-+]?0x[0-9a-fA-F_]+`,
    /// `[-+]?[1-9][0-9_]*` and the sexagesimal `[-+]?[1-9][0-9_]*(:[0-5]?[0-9])+`.
    static func isYAML11Integer(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let n = bytes.count
        var i = 0
        if i < n, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
        guard i < n else { return false }
        if bytes[i] == UInt8(ascii: "0") {
            if i + 1 < n, bytes[i + 1] == UInt8(ascii: "b") || bytes[i + 1] == UInt8(ascii: "x") {
                let radix = bytes[i + 1] == UInt8(ascii: "b") ? 2 : 16
                guard i + 2 < n else { return false }
                return bytes[(i + 2)...].allSatisfy {
                    $0 == UInt8(ascii: "_") || (digitValue($0).map { $0 < radix } ?? false)
                }
            }
            return bytes[(i + 1)...].allSatisfy {
                $0 == UInt8(ascii: "_") || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "7"))
            }
        }
        guard isDigit(bytes[i]) else { return false }
        i = digitsAndUnderscores(bytes, from: i)
        return i == n || sexagesimalEnd(bytes, from: i) == n
    }

    /// `[-+]?([0-9][0-9_]*)?\.[0-9._]*([eE][-+]?[0-9]+)?`, the sexagesimal
    /// `[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*`, `[-+]?\.(inf|Inf|INF)`
    /// and `\.(nan|NaN|NAN)`.
    static func isYAML11Float(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let n = bytes.count
        var i = 0
        if i < n, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
        guard i < n else { return false }
        let special = UnsafeRawBufferPointer(rebasing: bytes[i...])
        if equals(special, ".inf") || equals(special, ".Inf") || equals(special, ".INF") { return true }
        if i == 0, equals(special, ".nan") || equals(special, ".NaN") || equals(special, ".NAN") { return true }
        if isDigit(bytes[i]) {
            i = digitsAndUnderscores(bytes, from: i)
            if i < n, bytes[i] == UInt8(ascii: ":") {
                // Sexagesimal: its fraction is digits and underscores only.
                let end = sexagesimalEnd(bytes, from: i)
                guard end > i, end < n, bytes[end] == UInt8(ascii: ".") else { return false }
                return bytes[(end + 1)...].allSatisfy { isDigit($0) || $0 == UInt8(ascii: "_") }
            }
        }
        guard i < n, bytes[i] == UInt8(ascii: ".") else { return false }
        i += 1
        while i < n, isDigit(bytes[i]) || bytes[i] == UInt8(ascii: ".") || bytes[i] == UInt8(ascii: "_") { i += 1 }
        guard i < n else { return true }
        guard bytes[i] | 0x20 == UInt8(ascii: "e") else { return false }
        i += 1
        if i < n, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
        guard i < n else { return false }
        return bytes[i...].allSatisfy(isDigit)
    }

    /// `yyyy-mm-dd`, or `yyyy-m-d` then `T`, `t` or blanks, `h:mm:ss`, an
    /// optional fraction and an optional zone (`Z`, `+h`, `-hh:mm`, after
    /// optional blanks).
    static func isYAML11Timestamp(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let n = bytes.count
        var i = 0
        func digits(_ minimum: Int, _ maximum: Int) -> Bool {
            var count = 0
            while i < n, count < maximum, isDigit(bytes[i]) {
                i += 1
                count += 1
            }
            return count >= minimum
        }
        func take(_ byte: Character) -> Bool {
            guard i < n, bytes[i] == byte.asciiValue! else { return false }
            i += 1
            return true
        }
        func blanks() -> Int {
            let start = i
            while i < n, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") { i += 1 }
            return i - start
        }
        guard digits(4, 4), take("-"), digits(1, 2), take("-"), digits(1, 2) else { return false }
        // The date alone needs two-digit month and day.
        if i == n { return n == 10 }
        if !(take("T") || take("t")), blanks() == 0 { return false }
        guard digits(1, 2), take(":"), digits(2, 2), take(":"), digits(2, 2) else { return false }
        if take(".") { _ = digits(0, n) }
        if i == n { return true }
        _ = blanks()
        if take("Z") { return i == n }
        guard take("-") || take("+"), digits(1, 2) else { return false }
        if take(":") { guard digits(2, 2) else { return false } }
        return i == n
    }

    private static func digitsAndUnderscores(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var i = start
        while i < bytes.count, isDigit(bytes[i]) || bytes[i] == UInt8(ascii: "_") { i += 1 }
        return i
    }

    /// Where `(:[0-5]?[0-9])+` from `start` ends; `start` when it does not match.
    private static func sexagesimalEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        let n = bytes.count
        var i = start
        while i + 1 < n, bytes[i] == UInt8(ascii: ":"), isDigit(bytes[i + 1]) {
            if i + 2 < n, isDigit(bytes[i + 2]), bytes[i + 1] <= UInt8(ascii: "5") {
                i += 3
            } else {
                i += 2
            }
        }
        return i
    }
}
