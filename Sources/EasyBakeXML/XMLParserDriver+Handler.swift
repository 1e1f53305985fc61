internal import CLibXML2
import EasyBake
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The SAX handler: libxml2's callbacks, each handing on to the driver
// behind the parser context, and the safety hooks for entities.
//
// What the callbacks are handed is libxml2's, valid only during the call
// (names are interned in the context's dictionary, valid as long as the
// context): `startElementNs` gets `namespaceCount` (prefix, URI) pairs, the
// top of the context's `nsTab`, and `attributeCount` groups of 5 pointers
// (local name, prefix, URI, value, value end), with a local name, a value
// and a value end that is not before it; each array is non-nil when its
// count is not 0. `characters` gets `length` bytes, not NUL-terminated.
// The callbacks assert this in debug builds
// (``XMLParserDriver/libxml2Namespaces(_:count:context:)``,
// ``XMLParserDriver/libxml2Attributes(_:count:)``).
extension XMLParserDriver {
    static func install(into handler: inout xmlSAXHandler) {
        handler.startElementNs = {
            ctx, local, prefix, uri, namespaceCount, namespaces, attributeCount, defaulted, attributes in
            assert(namespaceCount >= 0 && attributeCount >= 0, "libxml2 handed a negative count")
            assert(defaulted >= 0 && defaulted <= attributeCount, "more defaulted attributes than attributes")
            assert(namespaceCount == 0 || namespaces != nil, "libxml2 handed namespaces without their array")
            assert(attributeCount == 0 || attributes != nil, "libxml2 handed attributes without their array")
            guard let local else { return }
            XMLParserDriver.withDriver(ctx) { context, driver in
                driver.startElement(
                    context, local: local, prefix: prefix, uri: uri,
                    namespaceCount: Int(namespaceCount), namespaces: namespaces,
                    attributeCount: Int(attributeCount), attributes: attributes)
            }
        }
        handler.endElementNs = { ctx, _, _, _ in
            XMLParserDriver.withDriver(ctx) { context, driver in driver.endElement(context) }
        }
        let characters: charactersSAXFunc = { ctx, text, length in
            assert(length >= 0, "libxml2 handed text of negative length")
            guard let text else { return }
            XMLParserDriver.withDriver(ctx) { context, driver in driver.characters(context, text, Int(length)) }
        }
        handler.characters = characters
        handler.ignorableWhitespace = characters
        handler.cdataBlock = characters
        handler.getEntity = { ctx, name in
            guard let (context, driver) = XMLParserDriver.resolve(ctx) else { return nil }
            return driver.entity(context, named: name, parameter: false)
        }
        handler.getParameterEntity = { ctx, name in
            guard let (context, driver) = XMLParserDriver.resolve(ctx) else { return nil }
            return driver.entity(context, named: name, parameter: true)
        }
        handler.resolveEntity = { ctx, publicID, systemID in
            guard let (context, driver) = XMLParserDriver.resolve(ctx) else { return nil }
            driver.refuseResolution(context, publicID: publicID, systemID: systemID)
            return nil
        }
        handler.serror = { ctx, error in
            guard let error, let (_, driver) = XMLParserDriver.resolve(ctx) else { return }
            driver.reportError(error)
        }
        // No external subset is ever read; SAX1 element callbacks, comments,
        // processing instructions and unresolved references are not needed;
        // the unstructured error channels would print.
        handler.externalSubset = nil
        handler.startElement = nil
        handler.endElement = nil
        handler.comment = nil
        handler.processingInstruction = nil
        handler.reference = nil
        handler.warning = nil
        handler.error = nil
        handler.fatalError = nil
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        installDeclarationChecks(into: &handler)
    }

    /// The parser context behind a callback's `ctx` (libxml2 passes the
    /// context itself, or a context it made to parse an entity's
    /// replacement text, which inherits `_private`) and the driver it
    /// points to.
    @inline(__always)
    static func withDriver(
        _ ctx: UnsafeMutableRawPointer?, _ body: (xmlParserCtxtPtr, XMLParserDriver) -> Void
    ) {
        guard let ctx else { return }
        let context = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
        guard let opaque = context.pointee._private else { return }
        // The parser runs inside a method of the driver, which keeps it
        // alive. Taking the reference costs a retain and a release per
        // callback (about 3% of the instructions of reading XML into a
        // tree, callgrind); the one way around them in the standard library
        // is underscored API, which EasyBake does not use.
        body(context, Unmanaged<XMLParserDriver>.fromOpaque(opaque).takeUnretainedValue())
    }

    /// Whether `namespaces`, handed to `startElementNs` with `count`
    /// declarations, is what libxml2 promises: the last `2 * count` entries
    /// of the context's namespace stack (`nsTab`, `nsNr` entries, two per
    /// binding). For `assert`s only.
    static func libxml2Namespaces(
        _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count: Int, context: xmlParserCtxtPtr
    ) -> Bool {
        let entries = Int(context.pointee.nsNr)
        guard count > 0 else { return entries >= 0 }
        guard let namespaces, let table = context.pointee.nsTab, entries % 2 == 0, 2 * count <= entries else {
            return false
        }
        return namespaces == table + (entries - 2 * count)
    }

    /// Whether `attributes`, handed to `startElementNs` with `count`
    /// attributes, is what libxml2 promises: 5 pointers per attribute, the
    /// local name, the value and its end set, the end not before the value.
    /// For `assert`s only.
    static func libxml2Attributes(_ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count: Int) -> Bool {
        guard count > 0 else { return count == 0 }
        guard let attributes else { return false }
        for i in 0..<count {
            guard attributes[5 * i] != nil, let value = attributes[5 * i + 3], let end = attributes[5 * i + 4],
                end >= value
            else { return false }
        }
        return true
    }

    /// ``withDriver(_:_:)`` for the rarer callbacks that return a value.
    @inline(__always)
    static func resolve(_ ctx: UnsafeMutableRawPointer?) -> (xmlParserCtxtPtr, XMLParserDriver)? {
        guard let ctx else { return nil }
        let context = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
        guard let opaque = context.pointee._private else { return nil }
        return (context, Unmanaged<XMLParserDriver>.fromOpaque(opaque).takeUnretainedValue())
    }
}
