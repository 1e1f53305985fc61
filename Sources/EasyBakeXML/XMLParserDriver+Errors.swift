internal import CLibXML2
import EasyBake
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Errors and positions: libxml2's structured errors, and where each event
// and error is, with the line's text for messages.
extension XMLParserDriver {
    /// Records the first error and stops the parser that hit it; later
    /// callbacks are ignored.
    func fail(_ error: EasyBakeError, _ context: xmlParserCtxtPtr) {
        if !failed { failure = error }
        xmlStopParser(context)
    }

    func currentLocation(_ context: xmlParserCtxtPtr) -> SourceLocation {
        guard let input = context.pointee.input else {
            return SourceLocation(sourceName: sourceName, line: 1, column: 1)
        }
        let line = Int(input.pointee.line)
        let column = Int(input.pointee.col)
        return location(line: line, column: column, context: context)
    }

    /// A location with the text of its line when libxml2 still holds that
    /// line in its buffer (the caret then lines up with `column`); otherwise
    /// without an excerpt.
    ///
    /// The column is the input's as written: in a lenient reading, the
    /// `amp;`s added to bare `&`s are taken out, and a line that had one
    /// gets its excerpt from the rewrite (libxml2 holds the line as
    /// rewritten).
    func location(line: Int, column: Int, context: xmlParserCtxtPtr?) -> SourceLocation {
        var result = SourceLocation(sourceName: sourceName, line: max(line, 1), column: max(column, 1))
        if let repair {
            result.column = max(repair.originalColumn(line: result.line, column: result.column), 1)
            if case .some(let written) = repair.rewrittenLine(result.line) {
                result.lineText = written
                return result
            }
        }
        if let excerpt = Self.excerpt(context: context, column: column) { result.lineText = excerpt }
        return result
    }

    /// The text around libxml2's current position: the whole line when its
    /// start is still buffered and the column agrees, else `nil`.
    static func excerpt(context: xmlParserCtxtPtr?, column: Int) -> String? {
        // libxml2's buffer: `base` ≤ `cur` ≤ `end`, the bytes from `base` to
        // `end` readable; the text read stays inside them.
        guard let input = context?.pointee.input, let base = input.pointee.base,
            var cur = input.pointee.cur, let end = input.pointee.end, cur >= base, end >= cur
        else { return nil }
        // At the end of a line (or of the input) the error concerns the line
        // just left.
        if cur > base, cur == end || cur.pointee == 0x0A { cur -= 1 }
        var start = cur
        while start > base, start[-1] != 0x0A, cur - start < 400 { start -= 1 }
        let atLineStart =
            start == base ? (input.pointee.consumed == 0 && base == input.pointee.base) : start[-1] == 0x0A
        guard atLineStart else { return nil }
        var stop = cur
        while stop < end, stop.pointee != 0x0A, stop.pointee != 0x0D, stop - start < 400 { stop += 1 }
        assert(base <= start && start <= cur && cur <= stop && stop <= end, "an excerpt outside libxml2's buffer")
        let text = String(decoding: UnsafeBufferPointer(start: start, count: stop - start), as: UTF8.self)
        // The caret must land inside the line (or just after it).
        guard column >= 1, column <= text.unicodeScalars.count + 1 else { return nil }
        return text
    }

    func reportError(_ error: xmlErrorPtr) {
        guard !failed else { return }
        let details = error.pointee
        if Int(details.code) == Int(XML_WAR_UNDECLARED_ENTITY.rawValue) {
            refuseUndeclaredEntity(details)
            return
        }
        let isNamespaceError =
            details.domain == Int32(XML_FROM_NAMESPACE.rawValue)
            && (Int(XML_NS_ERR_XML_NAMESPACE.rawValue)...Int(XML_NS_ERR_COLON.rawValue)).contains(Int(details.code))
        if isNamespaceError {
            if options.acceptsNamespaceErrors { return }
            if Int(details.code) == Int(XML_NS_ERR_XML_NAMESPACE.rawValue), let prefix = details.str1,
                let text = details.message, String(cString: text).contains("Empty XML namespace"),
                isXML11(details.ctxt?.assumingMemoryBound(to: xmlParserCtxt.self))
            {
                // XML 1.1 undeclares the prefix; libxml2 2.9 knows only
                // Namespaces in XML 1.0. The use of the prefix inside the
                // element is checked in `startElement`.
                pendingUndeclarations.append(String(cString: prefix))
                tracksUndeclarations = true
                return
            }
        } else {
            // Warnings and recoverable errors (validity problems, and
            // namespace names that are not URI references) do not stop
            // reading.
            guard details.level == XML_ERR_FATAL else { return }
        }
        var message = details.message.map { String(cString: $0) } ?? "malformed XML"
        if isNamespaceError { message = "namespace error: " + message }
        if message.hasPrefix("Unregistered error message") {
            // libxml2 2.9 has no text for a few codes.
            message =
                Int(details.code) == Int(XML_ERR_CDATA_NOT_FINISHED.rawValue)
                ? "CDATA section not finished" : "malformed XML (libxml2 error \(details.code))"
        }
        while let last = message.last, last.isWhitespace { message.removeLast() }
        let context = details.ctxt?.assumingMemoryBound(to: xmlParserCtxt.self)
        var location = location(line: Int(details.line), column: Int(details.int2), context: context)
        // EasyBake's words, which say what was found; else libxml2's, with
        // the text near the error when the line cannot be shown.
        if !isNamespaceError, let reworded = self.message(for: details, context: context) {
            message = reworded
        } else if location.lineText == nil, let context, let input = context.pointee.input,
            let cur = input.pointee.cur, let end = input.pointee.end, cur <= end
        {
            assert(input.pointee.base.map { $0 <= cur } ?? true, "libxml2's position before its buffer")
            // From the input as written where it can be read again: what
            // libxml2 holds past its place depends on the slices it was fed.
            let near =
                placeInInput(context, ahead: 0).map { Array($0.bytes.buffer[$0.offset...].prefix(40)) }
                ?? Array(UnsafeBufferPointer(start: cur, count: min(40, end - cur)))
            let snippet = String(decoding: near, as: UTF8.self).prefix(while: { $0 != "\n" })
            if !snippet.isEmpty { message += " (near \(String(snippet).debugDescription))" }
        }
        if !isNamespaceError, let fault = faultAtCursor(context) {
            // libxml2 stands on a character XML refuses, or on bytes that
            // are not UTF-8: that is the fault, whatever construct libxml2
            // was reading, which depends on how the input was sliced (an
            // attribute's name on one road, the tag's end on another).
            message = fault
        }
        location.sourceName = sourceName
        let inCDATA = context?.pointee.instate == XML_PARSER_CDATA_SECTION
        let isCharacterError = Int(details.code) == Int(XML_ERR_INVALID_CHAR.rawValue)
        if isCharacterError && (inCDATA || message.hasPrefix(Self.notUTF8("")))
            || inCDATA && message == Self.unfinished(.cdata, found: Self.endOfInput),
            let (refused, place) = firstCharacterXMLRefuses(context)
        {
            // libxml2 checks an open CDATA section's text a block at a time,
            // and the blocks depend on how the input was sliced: whether it
            // meets a character it refuses before the input ends, and where
            // it says it stood, differ by road. The character's own place
            // does not; nor do bytes that are not UTF-8, which libxml2 finds
            // where its slices let it look.
            message = refused
            location = place
        } else if message == Self.unfinished(.cdata, found: Self.endOfInput), let end = endOfInputLocation(context) {
            location = end
        }
        let code: EasyBakeError.Code
        switch Int(details.code) {
        case Int(XML_ERR_ENTITY_LOOP.rawValue):
            // libxml2 2.9 reports an entity that refers to itself and an
            // amplifying one (billion laughs) alike; only a self-reference
            // nests entities 40 deep before it stops.
            if deepestEntityNesting >= 20 {
                code = .syntax
                message = "an entity refers to itself, directly or indirectly (\(message))"
            } else {
                code = .limitExceeded
                message = "entity expansion limit exceeded: libxml2 stopped an amplifying entity (\(message))"
            }
        case Int(XML_ERR_UNSUPPORTED_ENCODING.rawValue), Int(XML_ERR_UNKNOWN_ENCODING.rawValue):
            code = .unsupportedEncoding
        default:
            if message.contains("XML_PARSE_HUGE") || message.contains("too long") || message.contains("Huge input") {
                code = .limitExceeded
                if message.hasPrefix("Excessive depth") {
                    message = "element nesting depth limit exceeded: libxml2 refuses nesting deeper than 256 elements"
                }
            } else {
                code = .syntax
            }
        }
        failure = EasyBakeError(code, message, location: location)
        if let context { xmlStopParser(context) }
    }

    /// The first character XML does not allow (XML 1.0 `Char`), or bytes
    /// that are not UTF-8, in the text libxml2 holds and has not yet taken,
    /// from where it stands: in an open CDATA section, the text it has not
    /// yet checked. The message says what was found, at its place in the
    /// input as written (libxml2 does not count lines inside a CDATA section
    /// it hands out a block at a time); `nil` when there is none, or where
    /// the input cannot be read again as written.
    func firstCharacterXMLRefuses(_ context: xmlParserCtxtPtr?) -> (String, SourceLocation)? {
        guard let (message, ahead) = firstFault(context, characters: .max),
            let (bytes, offset) = placeInInput(context, ahead: ahead), offset < bytes.buffer.count
        else { return nil }
        return (message, SourceLocation.locate(offset: offset, in: bytes.buffer, sourceName: sourceName))
    }

    /// What is wrong with the character libxml2 stands on, if XML refuses
    /// it or it is not UTF-8.
    func faultAtCursor(_ context: xmlParserCtxtPtr?) -> String? {
        firstFault(context, characters: 1)?.message
    }

    /// The first character XML refuses, or bytes that are not UTF-8, among
    /// the first `characters` characters libxml2 holds from where it
    /// stands: the message that names it, and how many bytes come before
    /// it. `nil` for none, and for a character cut by the end of what
    /// libxml2 was fed so far, which the rest may complete.
    private func firstFault(_ context: xmlParserCtxtPtr?, characters: Int) -> (message: String, ahead: Int)? {
        guard let input = context?.pointee.input, let cur = input.pointee.cur, let end = input.pointee.end, cur <= end
        else { return nil }
        let text = UnsafeBufferPointer(start: cur, count: end - cur)
        var utf8 = text.makeIterator()
        var decoder = UTF8()
        var ahead = 0
        for _ in 0..<characters {
            switch decoder.decode(&utf8) {
            case .scalarValue(let scalar):
                guard Self.isXMLCharacter(scalar.value) else {
                    return ("expected a character XML allows, found \(Self.codePoint(scalar.value))", ahead)
                }
                ahead += UTF8.width(scalar)
            case .error:
                guard inputDone || !Self.isCutShort(text[ahead...]) else { return nil }
                // The bytes as written: libxml2 may hold fewer of them.
                let shown =
                    placeInInput(context, ahead: ahead).map { Array($0.bytes.buffer[$0.offset...].prefix(4)) }
                    ?? Array(text[ahead...].prefix(4))
                return (Self.notUTF8(bytes: shown), ahead)
            case .emptyInput:
                return nil
            }
        }
        return nil
    }

    /// The input as written and the offset in it of the byte `ahead` bytes
    /// past where libxml2 stands (through a lenient reading's `amp;`s,
    /// which are not in the input); `nil` where the input cannot be read
    /// again as written.
    private func placeInInput(_ context: xmlParserCtxtPtr?, ahead: Int) -> (bytes: LoadedBytes, offset: Int)? {
        guard let input = context?.pointee.input, let base = input.pointee.base, let cur = input.pointee.cur,
            base <= cur, let bytes = rereadableInput(context)
        else { return nil }
        let fed = Int(input.pointee.consumed) + (cur - base) + ahead
        let offset = repair?.originalOffset(fed) ?? fed
        return offset <= bytes.buffer.count ? (bytes, offset) : nil
    }

    /// Whether `bytes` are the start of a UTF-8 character that the next
    /// bytes may complete: a lead byte whose continuation bytes so far are
    /// all there are.
    static func isCutShort<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        guard let lead = bytes.first else { return false }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        return length > bytes.count && bytes.dropFirst().allSatisfy { $0 & 0xC0 == 0x80 }
    }

    /// Whether XML 1.0 allows `value` anywhere in a document (its `Char`).
    static func isXMLCharacter(_ value: UInt32) -> Bool {
        value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
            || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
    }

    /// The end of the whole input, for a CDATA section it leaves open:
    /// libxml2 hands an open section's text out a few hundred bytes at a
    /// time, so where it stands when the input ends depends on how the
    /// input was sliced — one place reading records, another reading
    /// events. The end of the input is the same on every road (and where an
    /// unclosed comment is reported); a lenient reading's rewrite adds
    /// bytes but ends where the input as written ends. `nil`, leaving
    /// libxml2's place, where the input cannot be read again as written:
    /// standard input, an encoding other than UTF-8, or a record read apart.
    func endOfInputLocation(_ context: xmlParserCtxtPtr?) -> SourceLocation? {
        guard inputDone, let bytes = rereadableInput(context) else { return nil }
        return SourceLocation.locate(offset: bytes.buffer.count, in: bytes.buffer, sourceName: sourceName)
    }

    /// The whole input as written, when libxml2 was fed it from its start
    /// (not a record read apart), in UTF-8 (no other encoding converted),
    /// and it can be read again (in memory or a file). A lenient reading's
    /// rewrite is fed too; ``XMLAmpersandRepair/originalOffset(_:)`` maps
    /// its offsets back.
    private func rereadableInput(_ context: xmlParserCtxtPtr?) -> LoadedBytes? {
        guard lineTextInput == nil, input.isInMemory || input.filePath != nil,
            context?.pointee.input?.pointee.buf?.pointee.encoder == nil
        else { return nil }
        return try? input.loadBytes()
    }

    /// A reference to a general entity that the internal subset does not
    /// declare, in a document with an external DTD (or unread parameter
    /// entities) that might declare it. XML 1.0 makes this a validity
    /// matter, not a well-formedness one, and libxml2 only warns and drops
    /// the reference; since external DTDs are never read, the text would be
    /// lost silently, so the document is refused instead.
    ///
    /// Undeclared *parameter* entities are left alone: a non-validating
    /// processor may skip them (XML 1.0 §5.1).
    func refuseUndeclaredEntity(_ details: xmlError) {
        let message = details.message.map { String(cString: $0) } ?? ""
        guard !message.hasPrefix("PEReference") else { return }
        let name = details.str1.map { String(cString: $0) } ?? "?"
        let context = details.ctxt?.assumingMemoryBound(to: xmlParserCtxt.self)
        var location = location(line: Int(details.line), column: Int(details.int2), context: context)
        location.sourceName = sourceName
        failure = EasyBakeError(
            .forbidden,
            "the entity &\(name); is not declared in the internal DTD subset; only the external DTD, which is never loaded, could declare it",
            location: location)
        if let context { xmlStopParser(context) }
    }
}
