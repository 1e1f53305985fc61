import EasyBake

/// The YAML format: ``YAMLIngredientSource`` to read, ``YAMLWriter`` to write.
///
/// ```swift
/// FormatRegistry.shared.register(YAMLFormat())
/// let fixture = try YAMLFormat().read(.file("Fixtures/yaml/users.yaml"))
/// ```
public struct YAMLFormat: IngredientFormat {
    /// The limits every source of this format enforces.
    public var limits: IngredientLimits
    /// The duplicate-key policy of its sources. Default reject, as YAML requires.
    public var duplicateKeyPolicy: DuplicateKeyPolicy

    public init(limits: IngredientLimits = .default, duplicateKeyPolicy: DuplicateKeyPolicy = .reject) {
        self.limits = limits
        self.duplicateKeyPolicy = duplicateKeyPolicy
    }

    public var name: String { "yaml" }
    public var fileExtensions: [String] { ["yaml", "yml"] }

    public func makeSource(for input: IngredientInput) throws(EasyBakeError) -> any IngredientSource {
        try YAMLIngredientSource(input: input, limits: limits, duplicateKeyPolicy: duplicateKeyPolicy)
    }

    /// Reads a single-document stream; an empty stream is null.
    ///
    /// - Throws: ``EasyBakeError/Code/syntax`` for a stream of several
    ///   documents (read those with ``readDocuments(_:)``).
    public func read(_ input: IngredientInput) throws(EasyBakeError) -> Ingredients {
        var source = try YAMLIngredientSource(input: input, limits: limits, duplicateKeyPolicy: duplicateKeyPolicy)
        guard let tree = try Ingredients.read(from: &source) else { return .null }
        if try source.next() != nil {
            throw EasyBakeError.syntax(
                "expected one YAML document, found another; read streams of documents with YAMLFormat.readDocuments",
                at: source.location)
        }
        return tree
    }

    /// Every document of a YAML stream, in order.
    public func readDocuments(_ input: IngredientInput) throws(EasyBakeError) -> [Ingredients] {
        var source = try YAMLIngredientSource(input: input, limits: limits, duplicateKeyPolicy: duplicateKeyPolicy)
        var documents: [Ingredients] = []
        while let document = try Ingredients.read(from: &source) { documents.append(document) }
        return documents
    }

    public func write(_ source: inout some IngredientSource, options: WritingOptions) throws(EasyBakeError) -> [UInt8] {
        try YAMLWriter(options: options).write(&source)
    }
}

/// Writes ingredients as block-style YAML, quoting every string that would
/// otherwise read back as something else (`"true"`, `"12"`, `""`, `"a: b"`).
public struct YAMLWriter: Sendable {
    public var options: WritingOptions

    public init(options: WritingOptions = WritingOptions()) { self.options = options }

    /// The YAML text of the next value of `source`.
    public func write(_ source: inout some IngredientSource) throws(EasyBakeError) -> [UInt8] {
        write(try Ingredients(reading: &source, duplicateKeys: source.duplicateKeyPolicy))
    }

    /// Work items: a value to write at an indentation (inline when its line
    /// already holds "key: " or "- "), or text.
    private enum Item { case value(Ingredients, depth: Int, inline: Bool), text(String) }

    /// The YAML text of a tree.
    public func write(_ tree: Ingredients) -> [UInt8] {
        var output: [UInt8] = []
        let indent = max(options.indentWidth, 1)
        var pending: [Item] = [.value(tree, depth: 0, inline: false)]
        while let item = pending.popLast() {
            switch item {
            case .text(let text):
                output.append(contentsOf: text.utf8)
            case .value(let value, let depth, let inline):
                let pad = String(repeating: " ", count: depth * indent)
                switch value {
                case .dictionary(let dictionary) where !dictionary.isEmpty:
                    let entries = options.sortedKeys ? dictionary.sortedByKey() : Array(dictionary)
                    var items: [Item] = []
                    for (index, entry) in entries.enumerated() {
                        let linePrefix = (index == 0 && inline) ? "" : (inline || depth > 0 || index > 0 ? pad : "")
                        items.append(.text(linePrefix + Self.scalarText(.string(entry.key)) + ":"))
                        if entry.value.isContainer && !Self.isEmptyContainer(entry.value) {
                            items.append(.text("\n"))
                            items.append(.value(entry.value, depth: depth + 1, inline: false))
                        } else {
                            items.append(.text(" "))
                            items.append(.value(entry.value, depth: depth + 1, inline: true))
                            items.append(.text("\n"))
                        }
                    }
                    pending.append(contentsOf: items.reversed())
                case .array(let array) where !array.isEmpty:
                    var items: [Item] = []
                    for (index, element) in array.enumerated() {
                        items.append(.text(((index == 0 && inline) ? "" : pad) + "- "))
                        if element.isContainer && !Self.isEmptyContainer(element) {
                            items.append(.value(element, depth: depth + 1, inline: true))
                        } else {
                            items.append(.value(element, depth: depth + 1, inline: true))
                            items.append(.text("\n"))
                        }
                    }
                    pending.append(contentsOf: items.reversed())
                case .dictionary:
                    output.append(contentsOf: "{}".utf8)
                    if depth == 0 { output.append(UInt8(ascii: "\n")) }
                case .array:
                    output.append(contentsOf: "[]".utf8)
                    if depth == 0 { output.append(UInt8(ascii: "\n")) }
                default:
                    output.append(contentsOf: Self.scalarText(value).utf8)
                    if depth == 0 && !inline { output.append(UInt8(ascii: "\n")) }
                }
            }
        }
        return output
    }

    static func isEmptyContainer(_ value: Ingredients) -> Bool {
        switch value {
        case .array(let array): array.isEmpty
        case .dictionary(let dictionary): dictionary.isEmpty
        default: false
        }
    }

    static func scalarText(_ value: Ingredients) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number): return String(number)
        case .exactNumber(let text): return text
        case .float(let number):
            if number.isNaN { return ".nan" }
            if number.isInfinite { return number < 0 ? "-.inf" : ".inf" }
            return number.description
        case .string(let text):
            return needsQuotes(text) ? quoted(text) : text
        default:
            return value.description
        }
    }

    /// Whether a string must be quoted to read back as the same string.
    static func needsQuotes(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return true }
        if YAMLScalars.resolve(text) != .string(text) { return true }
        if "-?:,[]{}#&*!|>'\"%@`".unicodeScalars.contains(first) || first == " " || last == " " { return true }
        if text.contains(": ") || text.contains(" #") || text.hasSuffix(":") { return true }
        for scalar in text.unicodeScalars where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0xFEFF
            || (scalar.value >= 0x80 && scalar.value < 0xA0) || scalar.value == 0x2028 || scalar.value == 0x2029 {
            return true
        }
        return false
    }

    /// A double-quoted scalar with YAML's escapes.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\u{0}": result += "\\0"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (scalar.value >= 0x80 && scalar.value < 0xA0)
                    || scalar.value == 0xFEFF || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
