internal import CLibXML2
import EasyBake
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The entity half of a lenient reading (XMLReadingOptions.lenientReferences):
// a reference to an entity the document does not declare gets an entity
// made for it — HTML's characters, or the reference's own text — and a
// warning. The other half, bare `&`s, is XMLAmpersandRepair's.
extension XMLParserDriver {
    /// Every repair of the reading so far, in input order.
    var warnings: [EasyBakeError] {
        let all = (repair?.warnings ?? []) + referenceWarnings
        guard !referenceWarnings.isEmpty, repair?.warnings.isEmpty == false else { return all }
        return all.enumerated().sorted { lhs, rhs in
            let l = lhs.element.location, r = rhs.element.location
            return (l?.line ?? 0, l?.column ?? 0, lhs.offset) < (r?.line ?? 0, r?.column ?? 0, rhs.offset)
        }.map(\.element)
    }

    /// The entity for `name`, which neither XML nor the document declares:
    /// HTML's characters when HTML names it, else the reference's text.
    /// Made once per name, as an internal entity whose replacement text is
    /// character references, so that libxml2 reads it as text in content
    /// and in attribute values alike, and charges it as any internal one.
    func undeclaredEntity(_ context: xmlParserCtxtPtr, named pointer: UnsafePointer<xmlChar>) -> xmlEntityPtr? {
        let name = String(cString: pointer)
        let html = XMLHTMLEntities.characters(named: name)
        if !decodingAttribute { warnUndeclared(name, html: html) }
        let entity: xmlEntityPtr
        if let made = madeEntities[name] {
            entity = made
        } else {
            // Character references only: the replacement is text, never
            // markup, whatever the characters.
            let replacement =
                html.map { $0.unicodeScalars.map { "&#x\(String($0.value, radix: 16, uppercase: true));" }.joined() }
                ?? "&#38;\(name);"
            entity = Self.makeEntity(name: pointer, replacement: replacement)
            madeEntities[name] = entity
        }
        return charge(entity, named: pointer, parameter: false, context) ? entity : nil
    }

    /// Warns, once per position, that the reference `&name;` which libxml2
    /// has just read was repaired.
    private func warnUndeclared(_ name: String, html: String?) {
        guard let context, let input = context.pointee.input else { return }
        // libxml2 stands just after the reference's `;` (of the document's
        // own context: an entity's replacement text has positions of its
        // own).
        let line = Int(input.pointee.line)
        let column = Int(input.pointee.col) - name.unicodeScalars.count - 2
        let key = UInt64(UInt32(truncatingIfNeeded: line)) << 32 | UInt64(UInt32(truncatingIfNeeded: column))
        guard warnedPositions.insert(key).inserted else { return }
        let message: String
        if let html {
            let codes = html.unicodeScalars.map { scalar in
                let hex = String(scalar.value, radix: 16, uppercase: true)
                return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            }
            // The characters themselves only when they show.
            let visible = html.unicodeScalars.allSatisfy { scalar in
                !scalar.properties.isWhitespace
                    && ![.control, .format, .spaceSeparator, .nonspacingMark]
                        .contains(scalar.properties.generalCategory)
            }
            message =
                "the HTML entity \"&\(name);\", which XML does not define, is read as "
                + (visible
                    ? "\(html.debugDescription) (\(codes.joined(separator: " ")))" : codes.joined(separator: " "))
        } else {
            message =
                "the entity \"&\(name);\" is declared nowhere and is no HTML entity; it is kept as the text \"&\(name);\""
        }
        referenceWarnings.append(
            EasyBakeError(.syntax, message, location: location(line: line, column: column, context: context)))
    }

    /// Charges a reference to the internal entity `entity` against the
    /// expansion budget; `false` (and the reading fails) once it is spent.
    func charge(
        _ entity: xmlEntityPtr, named name: UnsafePointer<xmlChar>, parameter: Bool, _ context: xmlParserCtxtPtr
    ) -> Bool {
        expansion += max(1, Int(entity.pointee.length))
        guard expansion > limits.maximumExpansion else { return true }
        let what = parameter ? "%" : "&"
        var error = EasyBakeError.limit(.maximumExpansion, limits.maximumExpansion, at: currentLocation(context))
        error.message +=
            " while expanding the entity reference \(what)\(String(cString: name));"
            + " each reference costs the length of its replacement text"
        fail(error, context)
        return false
    }

    /// An internal general entity of the driver's own (in no document's
    /// table, so libxml2 never frees it): freed with ``freeEntity(_:)``.
    ///
    /// Its name and content are copies the entity owns (`strdup`), so they
    /// outlive the parser's dictionary; `length` is the content's length
    /// in bytes, which libxml2 reads it by (the replacement holds no NUL).
    static func makeEntity(name: UnsafePointer<xmlChar>, replacement: String) -> xmlEntityPtr {
        assert(!replacement.utf8.contains(0), "an entity's replacement text with a NUL")
        assert(replacement.utf8.count <= Int(Int32.max), "an entity's replacement text too long for libxml2")
        let entity = UnsafeMutablePointer<xmlEntity>.allocate(capacity: 1)
        memset(entity, 0, MemoryLayout<xmlEntity>.size)
        entity.pointee.type = XML_ENTITY_DECL
        entity.pointee.etype = XML_INTERNAL_GENERAL_ENTITY
        let copiedName = strdup(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))!
        entity.pointee.name = UnsafePointer(UnsafeRawPointer(copiedName).assumingMemoryBound(to: xmlChar.self))
        let content = strdup(replacement)!
        entity.pointee.content = UnsafeMutableRawPointer(content).assumingMemoryBound(to: xmlChar.self)
        entity.pointee.length = Int32(replacement.utf8.count)
        assert(strlen(content) == replacement.utf8.count, "an entity's length is not its content's")
        return entity
    }

    static func freeEntity(_ entity: xmlEntityPtr) {
        // Only the driver's own entities (makeEntity), never a document's.
        assert(entity.pointee.etype == XML_INTERNAL_GENERAL_ENTITY, "an entity freed that is not the driver's own")
        // libxml2 leaves the children of an entity read by SAX callbacks
        // unbuilt; were any made, they are its own nodes.
        if let children = entity.pointee.children { xmlFreeNodeList(children) }
        free(UnsafeMutableRawPointer(mutating: entity.pointee.name))
        free(entity.pointee.content)
        entity.deallocate()
    }
}
