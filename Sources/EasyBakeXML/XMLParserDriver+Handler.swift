internal import CLibXML2
import EasyBake
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The SAX handler: libxml2's callbacks, each handing on to the driver
// behind the parser context, and the safety hooks for entities.
extension XMLParserDriver {
    static func install(into handler: inout xmlSAXHandler) {
        handler.startElementNs = { ctx, local, prefix, uri, namespaceCount, namespaces, attributeCount, _, attributes in
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

    /// ``withDriver(_:_:)`` for the rarer callbacks that return a value.
    @inline(__always)
    static func resolve(_ ctx: UnsafeMutableRawPointer?) -> (xmlParserCtxtPtr, XMLParserDriver)? {
        guard let ctx else { return nil }
        let context = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
        guard let opaque = context.pointee._private else { return nil }
        return (context, Unmanaged<XMLParserDriver>.fromOpaque(opaque).takeUnretainedValue())
    }
}
