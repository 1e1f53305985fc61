internal import CLibXML2
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps the inner markup and the text content of the elements that
/// ``XMLReadingOptions/markupElements`` names, while the parser reads them:
/// the only moment their order is known. A tree keeps an element's children
/// by name and its text runs under `#text`, so it cannot say that
/// `<p>Hello <b>you</b> there</p>` had its bold word in the middle.
///
/// Every element, text run and tag inside a captured element is written
/// into each open capture (captures nest: a captured `div` inside a captured
/// `summary`), as the reader saw it once references are replaced: names
/// with their prefixes as written, namespace declarations on the tags that
/// make them, attribute values and text escaped. A prefix declared outside
/// the captured element is declared again on the first tag inside that uses
/// it (as exclusive XML canonicalization does), so the markup reads on its
/// own; the default namespace is left as written. Comments and processing
/// instructions, which the reader drops, are left out.
struct XMLMarkupCapture {
    private struct Capture {
        /// The frame count of the captured element (its depth).
        let depth: Int
        var markup: [UInt8] = []
        var text: [UInt8] = []
        /// The prefixes the markup declares, by the depth of the tag that
        /// declares them.
        var declared: [(depth: Int, prefix: [UInt8])] = []
    }

    /// A qualified name, with the namespace its prefix is bound to.
    struct Name {
        var prefix: [UInt8]?
        var local: [UInt8]
        var uri: [UInt8]?

        var qualified: [UInt8] {
            guard let prefix else { return local }
            return prefix + [UInt8(ascii: ":")] + local
        }
    }

    /// The element names (as the tree's keys spell them) to capture.
    let names: Set<String>
    private var captures: [Capture] = []
    /// The tag names of the open elements inside captures, by depth, for
    /// their end tags.
    private var tags: [(depth: Int, name: [UInt8])] = []
    /// Whether the last start tag written still waits for its `>` (or `/>`
    /// when the element ends at once).
    private var tagIsOpen = false

    init(names: Set<String>) { self.names = names }

    /// Whether some element is being captured: every event then adds to it.
    @inline(__always) var isActive: Bool { !captures.isEmpty }

    /// The longest markup kept so far, for the string limit.
    var longestMarkup: Int { captures.first.map { $0.markup.count } ?? 0 }

    /// Writes a start tag into every open capture: `depth` is the element's
    /// frame count.
    mutating func startTag(
        depth: Int, name: Name, namespaces: [(prefix: [UInt8]?, uri: [UInt8])],
        attributes: [(name: Name, value: [UInt8])]
    ) {
        guard isActive else { return }
        closeOpenTag()
        var rest: [UInt8] = []
        for attribute in attributes {
            rest.append(0x20)
            rest += attribute.name.qualified
            rest += Array("=\"".utf8)
            Self.escape(attribute.value, attribute: true, into: &rest)
            rest.append(UInt8(ascii: "\""))
        }
        let used = [name] + attributes.map(\.name)
        for index in captures.indices {
            var declarations = namespaces
            // Prefixes bound outside the captured element: declared here.
            for use in used {
                guard let prefix = use.prefix, let uri = use.uri, prefix != Array("xml".utf8),
                    !declarations.contains(where: { $0.prefix == prefix }),
                    !captures[index].declared.contains(where: { $0.prefix == prefix })
                else { continue }
                declarations.append((prefix, uri))
            }
            var tag: [UInt8] = [UInt8(ascii: "<")]
            tag += name.qualified
            for declaration in declarations {
                tag += Array(" xmlns".utf8)
                if let prefix = declaration.prefix {
                    tag.append(UInt8(ascii: ":"))
                    tag += prefix
                    captures[index].declared.append((depth, prefix))
                }
                tag += Array("=\"".utf8)
                Self.escape(declaration.uri, attribute: true, into: &tag)
                tag.append(UInt8(ascii: "\""))
            }
            captures[index].markup += tag + rest
        }
        tags.append((depth, name.qualified))
        tagIsOpen = true
    }

    /// Starts capturing the element at `depth`, whose start tag was read.
    mutating func begin(depth: Int) {
        closeOpenTag()
        captures.append(Capture(depth: depth))
    }

    /// Adds a run of text to every open capture.
    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard isActive else { return }
        closeOpenTag()
        var escaped: [UInt8] = []
        escaped.reserveCapacity(bytes.count)
        Self.escape(bytes, attribute: false, into: &escaped)
        for index in captures.indices {
            captures[index].markup += escaped
            captures[index].text += bytes
        }
    }

    /// The element at `depth` ends: its capture's markup and text when it
    /// is a captured element, after the end tag has gone into any capture
    /// around it.
    mutating func end(depth: Int) -> (markup: String, text: String)? {
        guard isActive else { return nil }
        var finished: (markup: String, text: String)?
        if let last = captures.last, last.depth == depth {
            closeOpenTag()
            captures.removeLast()
            let (markup, text) = Self.trimmed(last.markup, text: last.text)
            finished = (String(decoding: markup, as: UTF8.self), String(decoding: text, as: UTF8.self))
        }
        if let tag = tags.last, tag.depth == depth {
            tags.removeLast()
            var end: [UInt8]
            if tagIsOpen {
                end = Array("/>".utf8)
                tagIsOpen = false
            } else {
                end = Array("</".utf8) + tag.name + [UInt8(ascii: ">")]
            }
            for index in captures.indices {
                captures[index].markup += end
                while let last = captures[index].declared.last, last.depth >= depth {
                    captures[index].declared.removeLast()
                }
            }
        }
        return finished
    }

    /// The markup and text without the white space that only lays out the
    /// content: a run of white space between the captured element's tags
    /// and a tag inside (`<summary type="xhtml">` on one line, its `<div>`
    /// indented on the next) is no part of the markup a reader of
    /// `#innerXML` wants, and a feed reader drops it too. The tree drops
    /// such runs as well (white space beside child elements is no `#text`),
    /// so the trimmed markup writes back to the same tree. White space that
    /// belongs to text (`<p> Hello <b>you</b></p>`, a text-only `<p> x </p>`)
    /// is kept, and the text content loses exactly what the markup does.
    static func trimmed(_ markup: [UInt8], text: [UInt8]) -> (markup: ArraySlice<UInt8>, text: ArraySlice<UInt8>) {
        var start = markup.startIndex
        var end = markup.endIndex
        while start < end, XMLParserDriver.isXMLWhitespace(markup[start]) { start += 1 }
        // Literal `<` and `>` are tags: text has them escaped. White space
        // is written as it is (but for CR, escaped, which ends the run), so
        // a run dropped from the markup is the same run of the text.
        let leading = start < end && markup[start] == UInt8(ascii: "<") ? start - markup.startIndex : 0
        while end > start, XMLParserDriver.isXMLWhitespace(markup[end - 1]) { end -= 1 }
        let trailing = end > start && markup[end - 1] == UInt8(ascii: ">") ? markup.endIndex - end : 0
        return (
            markup[(markup.startIndex + leading)..<(markup.endIndex - trailing)],
            text[(text.startIndex + leading)..<(text.endIndex - trailing)]
        )
    }

    private mutating func closeOpenTag() {
        guard tagIsOpen else { return }
        tagIsOpen = false
        for index in captures.indices { captures[index].markup.append(UInt8(ascii: ">")) }
    }

    /// Escapes text for content or a double-quoted attribute value, so that
    /// the markup reads back to the same text: `&`, `<`, `>` (and `"` and
    /// the whitespace that attribute normalization would change) as
    /// references, a carriage return as one everywhere.
    static func escape<Bytes: Sequence<UInt8>>(_ bytes: Bytes, attribute: Bool, into out: inout [UInt8]) {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "&"): out += Array("&amp;".utf8)
            case UInt8(ascii: "<"): out += Array("&lt;".utf8)
            case UInt8(ascii: ">"): out += Array("&gt;".utf8)
            case UInt8(ascii: "\"") where attribute: out += Array("&quot;".utf8)
            case 0x0D: out += Array("&#13;".utf8)
            case 0x0A where attribute: out += Array("&#10;".utf8)
            case 0x09 where attribute: out += Array("&#9;".utf8)
            default: out.append(byte)
            }
        }
    }

    /// The bytes of a C string from libxml2.
    static func bytes(_ pointer: UnsafePointer<xmlChar>) -> [UInt8] {
        Array(
            UnsafeBufferPointer(
                start: pointer, count: strlen(UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))))
    }

    /// A name from libxml2: its local part, prefix and namespace.
    static func name(
        local: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?
    ) -> Name {
        Name(prefix: prefix.map(bytes), local: bytes(local), uri: uri.map(bytes))
    }
}
