internal import CLibXML2
import EasyBake

// libxml2's messages in the shape of EasyBake's other readers: what was
// expected and what was found ("expected '>' to end the start tag <a>,
// found the end of the input"), at the line and column libxml2 reports,
// with the line and a caret. libxml2's own words name its functions
// ("xmlParseEntityRef: no name"), leave out what was found, and call every
// document cut short "Extra content at the end of the document" when a
// push parser is told the input has ended.
extension XMLParserDriver {
    /// The message for libxml2's error `details`, or `nil` to keep
    /// libxml2's words (namespace errors, and codes no malformed or cut
    /// document meets).
    func message(for details: xmlError, context: xmlParserCtxtPtr?) -> String? {
        let original = details.message.map { String(cString: $0) } ?? ""
        let first = details.str1.map { String(cString: $0) }
        let second = details.str2.map { String(cString: $0) }
        let found = found(context)
        let bareAmpersand =
            "(XML writes a lone & as &amp;; lenientReferences, or --xml-lenient, reads a feed's bare & as text)"
        switch Int(details.code) {
        case Int(XML_ERR_DOCUMENT_EMPTY.rawValue):
            // libxml2 has read the text it found before any element.
            if blankInput, let cut = endOfInputMessage(context) { return cut }
            let text = Self.token(Self.rest(context))
            return "expected a root element (a start tag such as <feed>), found "
                + (text == Self.endOfInput ? "text outside any element" : text)
        case Int(XML_ERR_DOCUMENT_END.rawValue):
            if let cut = endOfInputMessage(context) { return cut }
            return "expected the end of the input after the root element (a document has one), found \(found)"
        case Int(XML_ERR_GT_REQUIRED.rawValue):
            if let first { return "expected '>' or '/>' to end the start tag <\(first), found \(found)" }
            return "expected '>' to end the end tag, found \(found)"
        case Int(XML_ERR_TAG_NAME_MISMATCH.rawValue):
            return
                "expected the end tag </\(first ?? "?")> of the element that starts at line \(details.int1), found </\(second ?? "?")>"
        case Int(XML_ERR_TAG_NOT_FINISHED.rawValue):
            return
                "expected the end tag </\(first ?? "?")> of the element that starts at line \(details.int1), found \(found)"
        case Int(XML_ERR_ATTRIBUTE_WITHOUT_VALUE.rawValue):
            return "expected '=' and a quoted value after the attribute name \(first ?? "?"), found \(found)"
        case Int(XML_ERR_ATTRIBUTE_NOT_STARTED.rawValue):
            return "expected a quoted attribute value (\" or '), found \(found)"
        case Int(XML_ERR_ATTRIBUTE_NOT_FINISHED.rawValue):
            return "expected a quote to end the attribute value, found \(found)"
        case Int(XML_ERR_ATTRIBUTE_REDEFINED.rawValue):
            return "expected each attribute once in a start tag, found \(first ?? "?") again"
        case Int(XML_ERR_LT_IN_ATTRIBUTE.rawValue):
            return "expected '&lt;' for a '<' in an attribute value, found '<'"
        case Int(XML_ERR_SPACE_REQUIRED.rawValue):
            if original.hasPrefix("attributes construct error") {
                return "expected a space, '>' or '/>' after an attribute value, found \(found)"
            }
            if original.hasPrefix("ParsePI"), let first {
                return "expected a space or '?>' after the processing instruction's target \(first), found \(found)"
            }
            return "expected a space, found \(found)"
        case Int(XML_ERR_COMMENT_NOT_FINISHED.rawValue):
            return Self.unfinished(.comment, found: found)
        case Int(XML_ERR_HYPHEN_IN_COMMENT.rawValue):
            return "expected '>' after '--' (a comment cannot hold '--'), found \(found)"
        case Int(XML_ERR_CDATA_NOT_FINISHED.rawValue):
            return Self.unfinished(.cdata, found: found)
        case Int(XML_ERR_MISPLACED_CDATA_END.rawValue):
            return "expected ']]&gt;' for ']]>' in text, found ']]>'"
        case Int(XML_ERR_PI_NOT_STARTED.rawValue):
            return "expected a processing instruction's target name after '<?', found \(found)"
        case Int(XML_ERR_PI_NOT_FINISHED.rawValue):
            return Self.unfinished(.processingInstruction, found: found)
        case Int(XML_ERR_RESERVED_XML_NAME.rawValue):
            // libxml2 says so too of a declaration cut short.
            if found == Self.endOfInput {
                return "expected the rest of the XML declaration (<?xml version=\"1.0\"?>), found the end of the input"
            }
            return "expected the XML declaration <?xml …?> only at the very start of the document, found one here"
        case Int(XML_ERR_NAME_REQUIRED.rawValue):
            if original.hasPrefix("xmlParseEntityRef") {
                return "expected an entity name after '&', found \(found) \(bareAmpersand)"
            }
            if original.hasPrefix("StartTag") { return "expected an element name after '<', found \(found)" }
            if original.hasPrefix("error parsing attribute name") {
                return "expected an attribute name, '>' or '/>', found \(found)"
            }
            if original.hasPrefix("xmlParseDocTypeDecl") {
                return "expected the root element's name after '<!DOCTYPE', found \(found)"
            }
            return "expected a name, found \(found)"
        case Int(XML_ERR_ENTITYREF_SEMICOL_MISSING.rawValue):
            return "expected ';' to end the entity reference, found \(found) \(bareAmpersand)"
        case Int(XML_ERR_UNDECLARED_ENTITY.rawValue):
            return
                "expected a declared entity, found &\(first ?? "?"); (XML declares only &amp; &lt; &gt; &quot; &apos;;"
                + " lenientReferences, or --xml-lenient, reads HTML's entities such as &nbsp;)"
        case Int(XML_ERR_INVALID_DEC_CHARREF.rawValue):
            return "expected decimal digits and ';' in a character reference (&#233;), found \(found)"
        case Int(XML_ERR_INVALID_HEX_CHARREF.rawValue):
            return "expected hexadecimal digits and ';' in a character reference (&#xE9;), found \(found)"
        case Int(XML_ERR_INVALID_CHAR.rawValue):
            if original.hasPrefix("Input is not proper UTF-8"), let bytes = original.range(of: "Bytes: ") {
                // libxml2 names no character here (its number is 0): the
                // bytes it shows are what it found.
                return Self.notUTF8(
                    original[bytes.upperBound...].split(whereSeparator: \.isWhitespace).prefix(4).joined(separator: " ")
                )
            }
            let character = Self.codePoint(UInt32(truncatingIfNeeded: details.int1))
            if original.hasPrefix("xmlParseCharRef") {
                return "expected a reference to a character XML allows, found one to \(character)"
            }
            return "expected a character XML allows, found \(character)"
        case Int(XML_ERR_VERSION_MISSING.rawValue):
            return "expected version=\"1.0\" in the XML declaration, found \(found)"
        case Int(XML_ERR_EQUAL_REQUIRED.rawValue):
            return "expected '=' after the name, found \(found)"
        case Int(XML_ERR_STRING_NOT_STARTED.rawValue):
            return "expected a quoted value (\" or '), found \(found)"
        case Int(XML_ERR_STRING_NOT_CLOSED.rawValue):
            return "expected a quote to end the value, found \(found)"
        case Int(XML_ERR_UNKNOWN_VERSION.rawValue):
            return "expected the XML version 1.0 in the XML declaration, found \(first.map { "'\($0)'" } ?? found)"
        case Int(XML_ERR_UNSUPPORTED_ENCODING.rawValue):
            return
                "expected an encoding libxml2 converts (UTF-8, UTF-16, ISO-8859-1, …), found \(first.map { "'\($0)'" } ?? found)"
        default:
            return nil
        }
    }

    /// The message for a document that ends where more is expected, from
    /// what libxml2 was left holding when told the input had ended: a
    /// construct cut short, or an element never closed. `nil` when the
    /// input has not ended.
    func endOfInputMessage(_ context: xmlParserCtxtPtr?) -> String? {
        guard inputDone else { return nil }
        var rest = Self.rest(context).drop(while: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
        if rest.count > 12 { rest = rest.prefix(12) }
        let end = "found \(Self.endOfInput)"
        let text = String(rest)
        // What libxml2 was reading when the input ended, where it has
        // consumed the construct's opening already.
        switch context?.pointee.instate {
        case XML_PARSER_CDATA_SECTION: return Self.unfinished(.cdata, found: Self.endOfInput)
        case XML_PARSER_COMMENT: return Self.unfinished(.comment, found: Self.endOfInput)
        case XML_PARSER_PI: return Self.unfinished(.processingInstruction, found: Self.endOfInput)
        case XML_PARSER_DTD: return "expected ']>' to end the document type declaration, \(end)"
        default: break
        }
        if text.hasPrefix("<!--") { return Self.unfinished(.comment, found: Self.endOfInput) }
        if text.hasPrefix("<![CDATA[") || "<![CDATA[".hasPrefix(text) && text.count > 2 {
            return Self.unfinished(.cdata, found: Self.endOfInput)
        }
        if text.hasPrefix("<?") { return Self.unfinished(.processingInstruction, found: Self.endOfInput) }
        if text.hasPrefix("<!") { return "expected '>' to end the declaration, \(end)" }
        if text.hasPrefix("</") { return "expected '>' to end the end tag, \(end)" }
        if text.hasPrefix("<") { return "expected an element name and '>' after '<', \(end)" }
        if text.hasPrefix("&") { return "expected a reference (&name; or &#number;) after '&', \(end)" }
        if let open = frames.last {
            return
                "expected the end tag </\(Self.name(of: open))> of the element that starts at line \(open.line), \(end)"
        }
        if !rootSeen {
            return blankInput
                ? "the document is empty: expected a root element, \(end)"
                : "expected a root element (a start tag such as <feed>), \(end)"
        }
        return nil
    }

    /// What libxml2 stands at, for "found …": the end of the input, a
    /// character, or the short run of text that starts there (a tag, a
    /// word).
    func found(_ context: xmlParserCtxtPtr?) -> String {
        let rest = Self.rest(context)
        guard !rest.isEmpty else { return Self.endOfInput }
        if inputDone, rest.count < 40, !rest.contains(">"), let state = context?.pointee.instate,
            ![XML_PARSER_CONTENT, XML_PARSER_EPILOG, XML_PARSER_MISC, XML_PARSER_PROLOG].contains(state)
        {
            // Inside markup that the input ends before closing: what is
            // left is a part of it, and the end of the input is the fault.
            return Self.endOfInput
        }
        return Self.token(rest)
    }

    /// The character or short run of text that `rest` starts with.
    static func token(_ rest: Substring) -> String {
        guard let first = rest.unicodeScalars.first else { return endOfInput }
        switch first {
        case " ": return "a space"
        case "\n", "\r": return "a line break"
        case "\t": return "a tab"
        default: break
        }
        if first.value < 0x20 || first.value == 0x7F { return codePoint(first.value) }
        // A run up to white space, ending after a '>' or before a '<'.
        var run = ""
        for scalar in rest.unicodeScalars {
            if scalar == " " || scalar == "\n" || scalar == "\r" || scalar == "\t" || scalar.value < 0x20 { break }
            if scalar == "<", !run.isEmpty { break }
            run.unicodeScalars.append(scalar)
            if scalar == ">" || run.unicodeScalars.count >= 16 { break }
        }
        return run.unicodeScalars.count == 1 ? "'\(run)'" : run.debugDescription
    }

    static let endOfInput = "the end of the input"

    /// The constructs that end with a sequence of their own.
    enum Construct: String {
        case comment = "'-->' to end the comment"
        case cdata = "']]>' to end the CDATA section"
        case processingInstruction = "'?>' to end the processing instruction"
    }

    /// A construct left open: `expected '-->' to end the comment, found …`.
    static func unfinished(_ construct: Construct, found: String) -> String {
        "expected \(construct.rawValue), found \(found)"
    }

    /// Up to 40 bytes of the input from where libxml2 stands.
    static func rest(_ context: xmlParserCtxtPtr?) -> Substring {
        guard let input = context?.pointee.input, let cur = input.pointee.cur, let end = input.pointee.end, cur <= end
        else {
            return ""
        }
        var count = min(40, end - cur)
        // Whole characters only.
        while count > 0, count < end - cur, cur[count] & 0xC0 == 0x80 { count -= 1 }
        return String(decoding: UnsafeBufferPointer(start: cur, count: count), as: UTF8.self)[...]
    }

    /// The message of bytes that are not UTF-8, `bytes` as libxml2 shows
    /// them (`0xDE 0xDE 0xDE 0xDE`, the first four from the fault).
    static func notUTF8(_ bytes: String) -> String {
        "expected UTF-8 text (or the encoding the XML declaration names), found the bytes \(bytes)"
    }

    /// ``notUTF8(_:)`` of the first four bytes of `bytes`, as libxml2 shows them.
    static func notUTF8<Bytes: Collection<UInt8>>(bytes: Bytes) -> String {
        notUTF8(
            bytes.prefix(4).map { "0x" + (($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true)) }
                .joined(separator: " "))
    }

    /// `U+0001`.
    static func codePoint(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// An open element's name as written (`atom:link`).
    static func name(of frame: Frame) -> String {
        guard let local = frame.local else { return "?" }
        let localName = String(cString: local)
        guard let prefix = frame.prefix else { return localName }
        return String(cString: prefix) + ":" + localName
    }
}
