import EasyBake

/// Writes ingredient events as JSON text: compact or pretty, keys in source
/// order or sorted. Iterative, so any depth a source can produce is written
/// without recursion.
///
/// ```swift
/// var source = IngredientTreeSource(["b": 1, "a": [true, .null]])
/// let bytes = try JSONWriter(options: .init(prettyPrinted: true)).write(&source)
/// ```
public struct JSONWriter: Sendable {
    /// How the output is laid out.
    public var options: WritingOptions

    /// A writer with `options`: compact, keys in order, by default.
    public init(options: WritingOptions = WritingOptions()) { self.options = options }

    /// The JSON text of the next value of `source`.
    ///
    /// - Throws: the source's errors; `EasyBakeError.Code.invalidValue` for
    ///   a non-finite number (JSON has none); `EasyBakeError.Code.syntax`
    ///   for events out of order.
    public func write(_ source: inout some IngredientSource) throws(EasyBakeError) -> [UInt8] {
        if options.sortedKeys {
            // Sorting needs a whole object at hand: build the value, then walk
            // it with each object's keys sorted.
            var sorted = IngredientTreeSource(
                try Ingredients(reading: &source, duplicateKeys: source.duplicateKeyPolicy), sortingKeys: true)
            return try writeEvents(&sorted)
        }
        return try writeEvents(&source)
    }

    /// The JSON text of a tree.
    public func write(_ tree: Ingredients) throws(EasyBakeError) -> [UInt8] {
        var source = IngredientTreeSource(tree)
        return try write(&source)
    }

    private func writeEvents(_ source: inout some IngredientSource) throws(EasyBakeError) -> [UInt8] {
        var output = JSONOutput(pretty: options.prettyPrinted, indentWidth: max(options.indentWidth, 0))
        // Open containers: whether an object, and how many members so far.
        var stack: [(isObject: Bool, count: Int)] = []
        var afterKey = false
        var wroteValue = false

        func beginValue(_ source: inout some IngredientSource) throws(EasyBakeError) {
            if afterKey {
                afterKey = false
                return
            }
            guard let top = stack.last else {
                guard !wroteValue else {
                    throw EasyBakeError.syntax("a second top-level value cannot be written", at: source.location)
                }
                return
            }
            guard !top.isObject else {
                throw EasyBakeError.syntax("expected a key before a value in an object", at: source.location)
            }
            if top.count > 0 { output.byte(UInt8(ascii: ",")) }
            output.newline(depth: stack.count)
            stack[stack.count - 1].count += 1
        }

        while true {
            guard let event = try source.next() else { break }
            switch event {
            case .key(let key):
                guard let top = stack.last, top.isObject, !afterKey else {
                    throw EasyBakeError.syntax("a key can only begin an object member", at: source.location)
                }
                if top.count > 0 { output.byte(UInt8(ascii: ",")) }
                output.newline(depth: stack.count)
                stack[stack.count - 1].count += 1
                output.string(key)
                output.byte(UInt8(ascii: ":"))
                if options.prettyPrinted { output.byte(UInt8(ascii: " ")) }
                afterKey = true
            case .beginDictionary, .beginArray:
                try beginValue(&source)
                let isObject = event == .beginDictionary
                output.byte(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
                stack.append((isObject, 0))
            case .endDictionary, .endArray:
                guard let top = stack.popLast(), top.isObject == (event == .endDictionary), !afterKey else {
                    throw EasyBakeError.syntax("\(event) does not close the open container", at: source.location)
                }
                if top.count > 0 { output.newline(depth: stack.count) }
                output.byte(top.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                if stack.isEmpty { wroteValue = true }
            case .scalar(let value):
                try beginValue(&source)
                try output.scalar(value, at: source)
                if stack.isEmpty { wroteValue = true }
            }
            if stack.isEmpty && wroteValue { break }
        }
        guard stack.isEmpty, !afterKey else {
            throw EasyBakeError.syntax("the events ended inside an open container", at: source.location)
        }
        return output.bytes
    }
}

/// The byte buffer JSON is written into.
struct JSONOutput {
    var bytes: [UInt8] = []
    let pretty: Bool
    let indentWidth: Int

    init(pretty: Bool, indentWidth: Int) {
        self.pretty = pretty
        self.indentWidth = indentWidth
        bytes.reserveCapacity(4096)
    }

    @inline(__always) mutating func byte(_ byte: UInt8) { bytes.append(byte) }

    @inline(__always) mutating func newline(depth: Int) {
        guard pretty else { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * indentWidth))
    }

    mutating func scalar(_ value: Ingredients, at source: some IngredientSource) throws(EasyBakeError) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .integer(let integer): bytes.append(contentsOf: String(integer).utf8)
        case .exactNumber(let text): bytes.append(contentsOf: text.utf8)
        case .float(let number):
            guard number.isFinite else {
                throw EasyBakeError(
                    .invalidValue, "JSON has no \(number); only finite numbers can be written",
                    location: source.location)
            }
            // Swift prints the shortest text that reads back as the same
            // Double, and keeps ".0" on whole numbers, so floats stay floats.
            bytes.append(contentsOf: number.description.utf8)
        case .string(let text): string(text)
        case .array, .dictionary:
            throw EasyBakeError.syntax("a scalar event cannot hold a container", at: source.location)
        }
    }

    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for (index, byte) in utf8.enumerated()
            where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
                case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
                case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
                case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
                case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
                case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: #"\u00"#.utf8)
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0xF)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
