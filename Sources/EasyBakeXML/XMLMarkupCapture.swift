internal import CLibXML2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps the inner markup and the text content of the elements that
/// ``XMLSourceOptions/markupElements`` names, while the parser reads them:
/// the only moment their order is known. A tree keeps an element's children
/// by name and its text runs under `#text`, so it cannot say that
/// `<p>Hello <b>you</b> there</p>` had its bold word in the middle.
///
/// Every element, text run and tag inside a captured element is written
/// into each open capture (captures nest: a captured `div` inside a captured
/// `summary`), as the reader saw it once references are replaced: names
/// with their prefixes as written, namespace declarations on the tags that
/// make them, attribute values and text escaped. Comments and processing
/// instructions, which the reader drops, are left out.
struct XMLMarkupCapture {
    private struct Capture {
        /// The frame count of the captured element (its depth).
        let depth: Int
        var markup: [UInt8] = []
        var text: [UInt8] = []
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
    /// frame count, `name` its qualified name as written.
    mutating func startTag(
        depth: Int, name: [UInt8], namespaces: [(prefix: [UInt8]?, uri: [UInt8])], attributes: [(name: [UInt8], value: [UInt8])]
    ) {
        guard isActive else { return }
        closeOpenTag()
        var tag: [UInt8] = [UInt8(ascii: "<")]
        tag += name
        for declaration in namespaces {
            tag += Array(" xmlns".utf8)
            if let prefix = declaration.prefix { tag.append(UInt8(ascii: ":")); tag += prefix }
            tag += Array("=\"".utf8)
            Self.escape(declaration.uri, attribute: true, into: &tag)
            tag.append(UInt8(ascii: "\""))
        }
        for attribute in attributes {
            tag.append(0x20)
            tag += attribute.name
            tag += Array("=\"".utf8)
            Self.escape(attribute.value, attribute: true, into: &tag)
            tag.append(UInt8(ascii: "\""))
        }
        for index in captures.indices { captures[index].markup += tag }
        tags.append((depth, name))
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
            finished = (String(decoding: last.markup, as: UTF8.self), String(decoding: last.text, as: UTF8.self))
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
            for index in captures.indices { captures[index].markup += end }
        }
        return finished
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
        Array(UnsafeBufferPointer(start: pointer, count: strlen(UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))))
    }

    /// A qualified name as written: `prefix:local`, or `local`.
    static func qualifiedName(local: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?) -> [UInt8] {
        guard let prefix else { return bytes(local) }
        return bytes(prefix) + [UInt8(ascii: ":")] + bytes(local)
    }
}
