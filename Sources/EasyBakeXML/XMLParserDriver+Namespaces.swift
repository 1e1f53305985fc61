internal import CLibXML2
import EasyBake
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: Namespace well-formedness

/// What libxml2 2.9 leaves unchecked of Namespaces in XML 1.0 §7 (and of
/// 1.1's undeclaring of prefixes); the rest arrives as its namespace errors
/// in ``XMLParserDriver/reportError(_:)``.
extension XMLParserDriver {
    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"
    static let xmlnsNamespace = "http://www.w3.org/2000/xmlns/"

    /// Whether the document declares version 1.1 (libxml2 reads it by 1.0's
    /// rules, after a warning).
    func isXML11(_ context: xmlParserCtxtPtr?) -> Bool {
        guard let version = context?.pointee.version else { return false }
        return String(cString: version) == "1.1"
    }

    func namespaceError(_ message: String, _ context: xmlParserCtxtPtr) {
        fail(.syntax("namespace error: " + message, at: currentLocation(context)), context)
    }

    /// The declarations libxml2 made in scope for an element. Those written
    /// in the start tag were checked by libxml2 already (one that breaks a
    /// rule is reported and not made); those that come from attribute
    /// defaults of the internal subset were not.
    func checkDeclarations(
        _ context: xmlParserCtxtPtr, namespaceCount: Int, namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>
    ) -> Bool {
        // `namespaces` holds 2 × `namespaceCount` pointers (prefix, URI), libxml2's.
        assert(namespaceCount >= 0, "a negative count of namespace declarations")
        for i in 0..<namespaceCount {
            let prefix = namespaces[2 * i].map { String(cString: $0) }
            let uri = namespaces[2 * i + 1].map { String(cString: $0) } ?? ""
            let written = prefix.map { "xmlns:" + $0 } ?? "xmlns"
            if prefix == "xmlns" {
                namespaceError("the prefix xmlns must not be declared", context)
            } else if prefix == "xml", uri != Self.xmlNamespace {
                namespaceError(
                    "the prefix xml can only be bound to \(Self.xmlNamespace), not \(uri.debugDescription)", context)
            } else if prefix != "xml", uri == Self.xmlNamespace {
                namespaceError("\(written) binds \(Self.xmlNamespace), which belongs to the prefix xml alone", context)
            } else if uri == Self.xmlnsNamespace {
                namespaceError("\(written) binds \(Self.xmlnsNamespace), which nothing may be bound to", context)
            } else if prefix != nil, uri.isEmpty, !isXML11(context) {
                namespaceError("\(written)=\"\" undeclares a prefix, which only XML 1.1 allows", context)
            } else {
                continue
            }
            return false
        }
        return true
    }

    /// XML 1.1, once a prefix was undeclared: records the element's
    /// declarations and undeclarations, and refuses a prefix used where it
    /// is undeclared.
    func checkUndeclaredPrefixes(
        _ context: xmlParserCtxtPtr, prefix: UnsafePointer<xmlChar>?,
        namespaceCount: Int, namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) -> Bool {
        assert(namespaceCount == 0 || namespaces != nil, "namespace declarations without their array")
        assert(attributeCount == 0 || attributes != nil, "attributes without their array")
        let depth = frames.count
        if let namespaces {
            for i in 0..<namespaceCount {
                if let declared = namespaces[2 * i] {
                    prefixScopes.append((depth, String(cString: declared), false))
                }
            }
        }
        for undeclared in pendingUndeclarations {
            prefixScopes.append((depth, undeclared, true))
        }
        pendingUndeclarations.removeAll()
        func isUndeclared(_ prefix: UnsafePointer<xmlChar>?) -> String? {
            guard let prefix else { return nil }
            let name = String(cString: prefix)
            guard let scope = prefixScopes.last(where: { $0.prefix == name }), scope.undeclared else { return nil }
            return name
        }
        var used = isUndeclared(prefix)
        if used == nil, let attributes {
            for i in 0..<attributeCount where used == nil { used = isUndeclared(attributes[5 * i + 1]) }
        }
        guard let used else { return true }
        namespaceError("the prefix \(used) is used where xmlns:\(used)=\"\" has undeclared it", context)
        return false
    }

    /// Whether a name of a declaration is a qualified name: no colon, or
    /// one between a prefix and a local part that can start a name. (The
    /// name is an XML name already, so only its local part's first
    /// character needs a look.)
    static func isQualifiedName(_ name: UnsafePointer<xmlChar>) -> Bool {
        let length = strlen(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))
        let bytes = UnsafeBufferPointer(start: name, count: length)
        // A colon found is inside the name, so `colon + 1` is at most its end.
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return true }
        guard colon > 0, colon < length - 1, !bytes[(colon + 1)...].contains(UInt8(ascii: ":")) else { return false }
        let local = String(decoding: bytes[(colon + 1)...], as: UTF8.self)
        guard let first = local.unicodeScalars.first else { return false }
        switch first.value {
        case 0x30...0x39, 0x2D, 0x2E, 0xB7, 0x300...0x36F, 0x203F...0x2040: return false
        default: return true
        }
    }

    /// Refuses a name of the internal subset that is not a qualified name
    /// (`what` says which).
    func checkDeclaredName(_ context: xmlParserCtxtPtr, _ name: UnsafePointer<xmlChar>?, _ what: String) {
        guard !failed, !options.acceptsNamespaceErrors, let name, !Self.isQualifiedName(name) else { return }
        namespaceError(
            "\(what) \(String(cString: name)) is not a qualified name (at most one colon, between a prefix and a local name)",
            context)
    }

    /// Refuses a notation name with a colon in an unparsed entity's
    /// declaration (libxml2 checks the names of notation declarations).
    func checkNotationName(_ context: xmlParserCtxtPtr, _ name: UnsafePointer<xmlChar>?) {
        guard !failed, !options.acceptsNamespaceErrors, let name,
            strchr(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self), 0x3A) != nil
        else { return }
        namespaceError("the notation name \(String(cString: name)) has a colon", context)
    }

    /// The internal subset's hooks that check names, each handing on to
    /// libxml2's own SAX2 handler.
    static func installDeclarationChecks(into handler: inout xmlSAXHandler) {
        handler.internalSubset = { ctx, name, externalID, systemID in
            XMLParserDriver.withDriver(ctx) { context, driver in
                driver.checkDeclaredName(context, name, "the document type name")
            }
            xmlSAX2InternalSubset(ctx, name, externalID, systemID)
        }
        handler.elementDecl = { ctx, name, type, content in
            XMLParserDriver.withDriver(ctx) { context, driver in
                driver.checkDeclaredName(context, name, "the declared element name")
            }
            xmlSAX2ElementDecl(ctx, name, type, content)
        }
        handler.attributeDecl = { ctx, element, name, type, defaultType, defaultValue, tree in
            XMLParserDriver.withDriver(ctx) { context, driver in
                driver.checkDeclaredName(context, element, "the element name of an attribute-list declaration")
                driver.checkDeclaredName(context, name, "the declared attribute name")
            }
            xmlSAX2AttributeDecl(ctx, element, name, type, defaultType, defaultValue, tree)
        }
        handler.unparsedEntityDecl = { ctx, name, publicID, systemID, notation in
            XMLParserDriver.withDriver(ctx) { context, driver in driver.checkNotationName(context, notation) }
            xmlSAX2UnparsedEntityDecl(ctx, name, publicID, systemID, notation)
        }
    }
}
