import EasyBake

/// Writes a tree as XML, iteratively (an explicit stack of work), so that
/// the depth of the tree costs heap, never call stack.
struct XMLWriter {
    private enum Work {
        /// An element: its name, value, nesting level, and whether it starts
        /// on a line of its own when pretty printing.
        case element(name: String, value: Ingredients, level: Int, indented: Bool)
        case text(Ingredients)
        case close(name: String, level: Int, indented: Bool)
    }

    let attributePrefix: String
    let textKey: String
    let options: WritingOptions
    private var out: [UInt8] = []
    /// Whether the root element still has to declare the namespace of the
    /// empty-value marker (``XMLEmptyMarker``): set when the tree holds one.
    private var declaresMarker = false
    /// The marker's prefix: `easybake`, or the first of `easybake1`,
    /// `easybake2`, … that the tree declares nowhere, so that no namespace
    /// declaration of the tree's own changes what the marker means.
    private var markerPrefix = XMLEmptyMarker.prefix

    init(attributePrefix: String, textKey: String, options: WritingOptions) {
        self.attributePrefix = attributePrefix
        self.textKey = textKey
        self.options = options
    }

    mutating func document(_ tree: Ingredients) throws(EasyBakeError) -> [UInt8] {
        out.reserveCapacity(4096)
        append(#"<?xml version="1.0" encoding="UTF-8"?>"#)
        out.append(0x0A)
        let scan = scanForMarker(tree)
        declaresMarker = scan.holdsEmptyValue
        var suffix = 0
        while scan.declaredPrefixes.contains(markerPrefix) {
            suffix += 1
            markerPrefix = XMLEmptyMarker.prefix + String(suffix)
        }
        var stack: [Work] = []
        if case .dictionary(let top) = tree, top.count == 1, isElementKey(top[0].key) {
            switch top[0].value {
            case .array:
                // Repeated roots would make several documents: wrap them.
                stack.append(.element(name: rootName, value: tree, level: 0, indented: false))
            default:
                stack.append(.element(name: top[0].key, value: top[0].value, level: 0, indented: false))
            }
        } else if case .array = tree {
            stack.append(
                .element(
                    name: rootName, value: .dictionary(IngredientDictionary([(key: "item", value: tree)])), level: 0,
                    indented: false))
        } else {
            stack.append(.element(name: rootName, value: tree, level: 0, indented: false))
        }
        while let work = stack.popLast() {
            switch work {
            case .text(let value):
                try appendEscaped(try text(of: value), attribute: false)
            case .close(let name, let level, let indented):
                if indented { newline(level) }
                append("</")
                append(name)
                out.append(UInt8(ascii: ">"))
            case .element(let name, let value, let level, let indented):
                try openElement(name, value, level: level, indented: indented, stack: &stack)
            }
        }
        out.append(0x0A)
        return out
    }

    private var rootName: String { options.rootName ?? "root" }

    /// Whether `tree` holds an empty array, string or dictionary below its
    /// top, which XML writes with ``XMLEmptyMarker`` (kept markup and text
    /// content are no elements, and need none), and the namespace prefixes
    /// the tree declares (`@xmlns:p` keys). Iterative, as the writer is.
    private func scanForMarker(_ tree: Ingredients) -> (holdsEmptyValue: Bool, declaredPrefixes: Set<String>) {
        var holdsEmptyValue = false
        var prefixes = Set<String>()
        let declaration = attributePrefix + "xmlns:"
        var pending = [tree]
        while let value = pending.popLast() {
            switch value {
            case .array(let elements):
                if elements.isEmpty { holdsEmptyValue = true }
                pending.append(contentsOf: elements)
            case .dictionary(let dictionary):
                if dictionary.isEmpty { holdsEmptyValue = true }
                for (key, member) in dictionary where key != XMLReadingOptions.textContentKey {
                    if key == XMLReadingOptions.innerXMLKey {
                        // Kept markup is written as it is: a prefix it
                        // declares, even for the marker's own namespace,
                        // must stay its own, or a reader that drops
                        // redundant declarations would move them.
                        if case .string(let markup) = member { prefixes.formUnion(Self.prefixesDeclared(in: markup)) }
                        continue
                    }
                    if !attributePrefix.isEmpty, key.utf8.starts(with: declaration.utf8) {
                        prefixes.insert(String(decoding: key.utf8.dropFirst(declaration.utf8.count), as: UTF8.self))
                    }
                    pending.append(member)
                }
            case .string(let text):
                if text.isEmpty { holdsEmptyValue = true }
            default:
                break
            }
        }
        return (holdsEmptyValue, prefixes)
    }

    /// The prefixes that `xmlns:prefix=` declarations in `markup` name. Text
    /// that only looks like one adds a prefix the marker then avoids, which
    /// is harmless.
    static func prefixesDeclared(in markup: String) -> Set<String> {
        var prefixes = Set<String>()
        let bytes = Array(markup.utf8)
        let declaration = Array("xmlns:".utf8)
        var i = 0
        while i + declaration.count < bytes.count {
            guard bytes[i..<(i + declaration.count)].elementsEqual(declaration) else {
                i += 1
                continue
            }
            var end = i + declaration.count
            while end < bytes.count, !Self.endsName(bytes[end]) { end += 1 }
            if end > i + declaration.count {
                prefixes.insert(String(decoding: bytes[(i + declaration.count)..<end], as: UTF8.self))
            }
            i = end
        }
        return prefixes
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
            || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "/")
    }

    /// Writes `<name easybake:empty="kind"/>`.
    private mutating func emptyElement(_ name: String, _ kind: XMLEmptyMarker.Kind, level: Int, indented: Bool) {
        if indented { newline(level) }
        out.append(UInt8(ascii: "<"))
        append(name)
        appendMarkerDeclaration()
        append(" \(markerPrefix):\(XMLEmptyMarker.attribute)=\"\(kind.rawValue)\"/>")
    }

    /// The marker's namespace declaration, on the first element written.
    private mutating func appendMarkerDeclaration() {
        guard declaresMarker else { return }
        declaresMarker = false
        append(" xmlns:\(markerPrefix)=\"\(XMLEmptyMarker.namespace)\"")
    }

    private func isElementKey(_ key: String) -> Bool {
        attributeName(key) == nil && key != textKey
    }

    /// The attribute a key names, or `nil` for an element key. The prefix is
    /// matched by its bytes, not with `hasPrefix`, which compares whole
    /// characters: in `@֖` a combining mark joins the `@` into one character
    /// (the fuzzer's finding), yet the source wrote it as `@` and a name.
    private func attributeName(_ key: String) -> String? {
        guard !attributePrefix.isEmpty, key.utf8.starts(with: attributePrefix.utf8) else { return nil }
        return String(decoding: key.utf8.dropFirst(attributePrefix.utf8.count), as: UTF8.self)
    }

    private mutating func openElement(
        _ name: String, _ value: Ingredients, level: Int, indented: Bool, stack: inout [Work]
    ) throws(EasyBakeError) {
        try checkName(name)
        switch value {
        case .array(let elements):
            if elements.isEmpty {
                emptyElement(name, .array, level: level, indented: indented)
                return
            }
            // Repeated elements; an array inside an array holds `item`s.
            for element in elements.reversed() {
                if case .array = element {
                    stack.append(
                        .element(
                            name: name, value: .dictionary(IngredientDictionary([(key: "item", value: element)])),
                            level: level, indented: indented))
                } else {
                    stack.append(.element(name: name, value: element, level: level, indented: indented))
                }
            }
            return
        case .dictionary(let dictionary):
            if dictionary.isEmpty {
                emptyElement(name, .dictionary, level: level, indented: indented)
                return
            }
            if indented { newline(level) }
            out.append(UInt8(ascii: "<"))
            append(name)
            appendMarkerDeclaration()
            var texts: [Ingredients] = []
            var children: [(key: String, value: Ingredients)] = []
            var innerXML: Ingredients?
            let entries = options.sortedKeys ? dictionary.sortedByKey() : Array(dictionary)
            for (key, value) in entries {
                if key == XMLReadingOptions.innerXMLKey {
                    innerXML = value
                } else if key == XMLReadingOptions.textContentKey {
                    // Derived from the content; the content is written.
                    continue
                } else if key == textKey {
                    if case .array(let pieces) = value { texts.append(contentsOf: pieces) } else { texts.append(value) }
                } else if let attribute = attributeName(key) {
                    try checkName(attribute)
                    if case .null = value { continue }
                    out.append(0x20)
                    append(attribute)
                    append("=\"")
                    try appendEscaped(try text(of: value, attribute: attribute), attribute: true)
                    out.append(UInt8(ascii: "\""))
                } else {
                    children.append((key, value))
                }
            }
            if let innerXML {
                // The element's markup as the source read it, in order; its
                // other content keys were made of the same content.
                try appendMarkup(innerXML, of: name)
                return
            }
            texts.removeAll { if case .null = $0 { true } else { false } }
            if texts.isEmpty && children.isEmpty {
                append("/>")
                return
            }
            if !texts.isEmpty && !children.isEmpty {
                throw EasyBakeError(
                    .invalidValue,
                    "the element <\(name)> holds text beside child elements (mixed content), whose order the tree does not keep: "
                        + "writing it would reorder it. Read the XML with XMLReadingOptions.markupElements naming \(name.debugDescription) "
                        + "(easybake --xml-markup \(name)), which keeps its markup in order under \(XMLReadingOptions.innerXMLKey), or write another format"
                )
            }
            out.append(UInt8(ascii: ">"))
            // The content is text alone (several runs written together,
            // as they read back) or child elements alone.
            var content: [Work] = texts.map { .text($0) }
            let childIndented = options.prettyPrinted
            for (key, value) in children {
                // An empty array is one element, marked empty.
                let isEmptyArray = if case .array(let elements) = value { elements.isEmpty } else { false }
                let occurrences: [Ingredients] =
                    if case .array(let elements) = value, !isEmptyArray {
                        elements.elements
                    } else {
                        [value]
                    }
                for occurrence in occurrences {
                    let element: Ingredients =
                        if case .array = occurrence, !isEmptyArray {
                            .dictionary(IngredientDictionary([(key: "item", value: occurrence)]))
                        } else {
                            occurrence
                        }
                    content.append(.element(name: key, value: element, level: level + 1, indented: childIndented))
                }
            }
            stack.append(.close(name: name, level: level, indented: childIndented && !children.isEmpty))
            stack.append(contentsOf: content.reversed())
        case .null:
            if indented { newline(level) }
            out.append(UInt8(ascii: "<"))
            append(name)
            appendMarkerDeclaration()
            append("/>")
        case .string(let text) where text.isEmpty:
            emptyElement(name, .string, level: level, indented: indented)
        default:
            if indented { newline(level) }
            out.append(UInt8(ascii: "<"))
            append(name)
            appendMarkerDeclaration()
            out.append(UInt8(ascii: ">"))
            try appendEscaped(try text(of: value), attribute: false)
            append("</")
            append(name)
            out.append(UInt8(ascii: ">"))
        }
    }

    /// Closes the start tag and writes `markup` (an element's
    /// ``XMLReadingOptions/innerXMLKey``) as its content, then its end tag.
    /// The markup must be well-formed element content: it is read first
    /// (prefixes may be declared outside it), so that the document written
    /// is well formed.
    private mutating func appendMarkup(_ markup: Ingredients, of name: String) throws(EasyBakeError) {
        guard case .string(let text) = markup else {
            throw EasyBakeError(
                .invalidValue,
                "the \(XMLReadingOptions.innerXMLKey) of <\(name)> must be a string of XML markup, found \(markup)")
        }
        var options = XMLReadingOptions(acceptsNamespaceErrors: true)
        options.keepsNamespaceDeclarations = false
        do {
            var source = try XMLIngredientSource(.text("<markup>" + text + "</markup>"), options: options)
            _ = try Ingredients(reading: &source)
        } catch {
            throw EasyBakeError(
                .invalidValue,
                "the \(XMLReadingOptions.innerXMLKey) of <\(name)> is not well-formed XML content: \(error.message)",
                cause: error)
        }
        out.append(UInt8(ascii: ">"))
        append(text)
        append("</")
        append(name)
        out.append(UInt8(ascii: ">"))
    }

    private func text(of value: Ingredients, attribute: String? = nil) throws(EasyBakeError) -> String {
        switch value {
        case .null: return ""
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number): return String(number)
        case .float(let number): return number.description
        case .exactNumber(let literal): return literal
        case .string(let string): return string
        case .array, .dictionary:
            let what = attribute.map { "the attribute \($0.debugDescription)" } ?? "text"
            throw EasyBakeError(
                .invalidValue, "\(what) cannot hold a container (\(value)); XML writes only scalars there")
        }
    }

    private mutating func newline(_ level: Int) {
        guard options.prettyPrinted else { return }
        out.append(0x0A)
        out.append(contentsOf: repeatElement(0x20, count: level * options.indentWidth))
    }

    @inline(__always)
    private mutating func append(_ string: String) {
        out.append(contentsOf: string.utf8)
    }

    /// Appends `string` escaped for text or a double-quoted attribute value.
    /// Whitespace that attribute-value normalization or line-end
    /// normalization would change is written as character references.
    private mutating func appendEscaped(_ string: String, attribute: Bool) throws(EasyBakeError) {
        let utf8 = string.utf8
        var previous2: UInt8 = 0, previous1: UInt8 = 0
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "&"): append("&amp;")
            case UInt8(ascii: "<"): append("&lt;")
            case UInt8(ascii: ">"): append("&gt;")
            case UInt8(ascii: "\"") where attribute: append("&quot;")
            case 0x0D: append("&#13;")
            case 0x0A where attribute: append("&#10;")
            case 0x09 where attribute: append("&#9;")
            case 0x09, 0x0A: out.append(byte)
            case 0..<0x20:
                throw EasyBakeError(
                    .invalidValue,
                    "the character U+\(String(byte, radix: 16, uppercase: true)) cannot appear in XML 1.0 (in \(string.prefix(40).debugDescription))"
                )
            case 0xBE where previous2 == 0xEF && previous1 == 0xBF, 0xBF where previous2 == 0xEF && previous1 == 0xBF:
                throw EasyBakeError(
                    .invalidValue, "the noncharacter U+FFF\(byte == 0xBE ? "E" : "F") cannot appear in XML 1.0")
            default: out.append(byte)
            }
            previous2 = previous1
            previous1 = byte
        }
    }

    /// Checks that `name` is an XML name, so that the output is well formed.
    private func checkName(_ name: String) throws(EasyBakeError) {
        var first = true
        for scalar in name.unicodeScalars {
            let value = scalar.value
            // NameStartChar and NameChar of XML 1.0 (fifth edition), 2.3.
            let isStart =
                switch value {
                case 0x3A, 0x41...0x5A, 0x5F, 0x61...0x7A, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D,
                    0x37F...0x1FFF, 0x200C...0x200D, 0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF,
                    0xF900...0xFDCF, 0xFDF0...0xFFFD, 0x10000...0xEFFFF:
                    true
                default: false
                }
            let isOther =
                switch value {
                case 0x2D, 0x2E, 0x30...0x39, 0xB7, 0x300...0x36F, 0x203F...0x2040: true
                default: false
                }
            if !(isStart || (!first && isOther)) {
                throw EasyBakeError(
                    .invalidValue,
                    "the key \(name.debugDescription) is not an XML name, so it cannot be written as an element or attribute"
                )
            }
            first = false
        }
        if first {
            throw EasyBakeError(.invalidValue, "an empty key cannot be written as an XML element or attribute")
        }
    }
}
