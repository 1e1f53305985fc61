internal import CLibXML2
import EasyBake
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libxml2 needs one process-wide initialisation before parsers run on
/// several threads; Swift runs a global's initializer exactly once.
private let libxml2Initialized: Void = { xmlInitParser() }()

/// Drives libxml2's SAX2 push parser and turns its callbacks into
/// `IngredientEvent`s, queued until ``next()`` pulls them.
///
/// The input is read in chunks of ``chunkSize`` bytes and handed to
/// `xmlParseChunk` in slices of ``sliceSize`` bytes, one slice only when the
/// queue is empty, so memory stays bounded by one slice's events whatever
/// the document's size, and a value the consumer skips is mostly parsed in
/// skipping mode (no events are made for it). libxml2 never sees the whole
/// document at once, which also keeps it clear of its "Huge input lookup"
/// refusal.
///
/// Safety is configured per parser context, never through libxml2's globals:
/// the parser runs without `NOENT`, `DTDLOAD`, `DTDATTR`, `DTDVALID`, `HUGE`
/// and `XINCLUDE`, with `NONET`; the SAX handler has no external-subset
/// loader, refuses every entity resolution (`resolveEntity`), refuses
/// references to external entities in `getEntity` and `getParameterEntity`,
/// and counts each internal-entity reference against the expansion budget.
/// Errors arrive through the context's structured error callback, so
/// nothing is printed.
final class XMLParserDriver {
    static let chunkSize = 1 << 16
    /// How much of a chunk libxml2 is handed at once.
    static let sliceSize = 1 << 10

    private struct Frame {
        /// Whether `beginDictionary` was emitted for the element (it has
        /// attributes or a child element).
        var opened: Bool
        var hasChildElements: Bool
        /// The empty value EasyBake's marker says the element holds
        /// (``XMLEmptyMarker``), if it has one.
        var empty: XMLEmptyMarker.Kind? = nil
    }

    /// One entry of the name cache: the addresses of an interned
    /// qualifier (prefix or URI) and local name, and the key made of them.
    private struct NameSlot {
        var qualifier: UInt = 0
        var local: UInt = 0
        var attribute = false
        /// Whether the qualifier is a prefix kept because it is bound to
        /// no namespace (``XMLSourceOptions/NamespaceMode/resolveToURIs``
        /// with ``XMLSourceOptions/acceptsNamespaceErrors``).
        var unresolved = false
        var name: String?
    }

    /// An event waiting for ``next()``, with `line << 32 | column` of
    /// where libxml2 stood when it was made.
    private struct QueuedEvent {
        var event: IngredientEvent
        var position: UInt64
    }

    /// The state the SAX callbacks change for every element and text run.
    ///
    /// It lives behind a pointer (``state``) rather than in stored
    /// properties: every access to a stored `var` of a class pays Swift's
    /// dynamic exclusivity check (`swift_beginAccess`), which callgrind
    /// measured at about a third of the source's instructions.
    private struct State {
        var failure: EasyBakeError? {
            didSet { failed = failure != nil }
        }
        /// `failure != nil`, checked first in every callback without
        /// copying the error.
        var failed = false
        var events = ContiguousArray<QueuedEvent>()
        var head = 0
        var lastPosition: UInt64 = 1 << 32 | 1
        /// Whether the event ``next()`` returned last was a key (the queue
        /// keeps only a placeholder once an event is returned).
        var lastEventWasKey = false
        /// How many events the callbacks made, for tests that check that
        /// skipped input makes none.
        var eventsMade = 0
        var frames = ContiguousArray<Frame>()
        var pendingText = XMLTextBuffer()
        var rootSeen = false
        /// Whether the callbacks are skipping a value (see ``skipValue()``):
        /// they then keep only the frame count, the text length and the
        /// limit checks, and make no strings and no events.
        var skipping = false
        /// While skipping: the frame count at which the skipped value ends
        /// (the index of the element whose value is skipped), or `-1` when
        /// the whole document is skipped.
        var skipEndDepth = 0
        /// While skipping: the length of the current run of skipped text,
        /// checked against the string limit as reading checks `pendingText`.
        var skippedTextBytes = 0
        var expansion = 0
        var deepestEntityNesting = 0
        /// Names by the addresses libxml2 interned them at, direct-mapped.
        var names = ContiguousArray(repeating: NameSlot(), count: XMLParserDriver.nameCacheSize)
        /// XML 1.1 only: prefixes undeclared (`xmlns:p=""`) on the start tag
        /// being parsed, which libxml2 2.9 reports as an error and otherwise
        /// ignores (it keeps the outer binding).
        var pendingUndeclarations: [String] = []
        /// Whether an XML 1.1 document has undeclared a prefix: from then
        /// on ``prefixScopes`` is kept and every prefix used is looked up.
        var tracksUndeclarations = false
        /// Prefix declarations and undeclarations by the frame count of the
        /// element that makes them (kept once ``tracksUndeclarations``).
        var prefixScopes: [(depth: Int, prefix: String, undeclared: Bool)] = []
        /// The markup of the elements ``XMLSourceOptions/markupElements`` names.
        var markup = XMLMarkupCapture(names: [])
    }

    let options: XMLSourceOptions
    let limits: IngredientLimits
    let sourceName: String

    private var reader: ChunkReader
    private var context: xmlParserCtxtPtr?
    private let chunk: UnsafeMutableRawBufferPointer
    /// Bytes of the chunk buffer not yet handed to libxml2.
    private var pendingRange: Range<Int>
    private var inputBytes = 0
    private var inputDone = false

    private let state: UnsafeMutablePointer<State>
    private static let nameCacheSize = 1024

    // Accessors that reach the state through its pointer, without an
    // exclusivity check (see `State`).
    private var failure: EasyBakeError? {
        _read { yield state.pointee.failure }
        _modify { yield &state.pointee.failure }
    }
    private var failed: Bool { state.pointee.failed }
    private var events: ContiguousArray<QueuedEvent> {
        _read { yield state.pointee.events }
        _modify { yield &state.pointee.events }
    }
    private var head: Int {
        get { state.pointee.head }
        set { state.pointee.head = newValue }
    }
    private var lastPosition: UInt64 {
        get { state.pointee.lastPosition }
        set { state.pointee.lastPosition = newValue }
    }
    private var frames: ContiguousArray<Frame> {
        _read { yield state.pointee.frames }
        _modify { yield &state.pointee.frames }
    }
    private var pendingText: XMLTextBuffer {
        _read { yield state.pointee.pendingText }
        _modify { yield &state.pointee.pendingText }
    }
    private var rootSeen: Bool {
        get { state.pointee.rootSeen }
        set { state.pointee.rootSeen = newValue }
    }
    private var skipping: Bool {
        get { state.pointee.skipping }
        set { state.pointee.skipping = newValue }
    }
    private var skipEndDepth: Int {
        get { state.pointee.skipEndDepth }
        set { state.pointee.skipEndDepth = newValue }
    }
    private var skippedTextBytes: Int {
        get { state.pointee.skippedTextBytes }
        set { state.pointee.skippedTextBytes = newValue }
    }
    private var expansion: Int {
        get { state.pointee.expansion }
        set { state.pointee.expansion = newValue }
    }
    private var deepestEntityNesting: Int {
        get { state.pointee.deepestEntityNesting }
        set { state.pointee.deepestEntityNesting = newValue }
    }

    private let attributePrefix: String
    private let textKey: String

    init(input: IngredientInput, options: XMLSourceOptions) throws(EasyBakeError) {
        _ = libxml2Initialized
        self.options = options
        self.limits = options.limits
        self.sourceName = input.name
        self.attributePrefix = options.attributePrefix
        self.textKey = options.textKey
        reader = try input.openReader()
        chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        pendingRange = 0..<0
        state = .allocate(capacity: 1)
        state.initialize(to: State())
        state.pointee.markup = XMLMarkupCapture(names: options.markupElements)

        // The first chunk: check its declared encoding, and give libxml2 its
        // first four bytes to detect the encoding from. (Every stored
        // property is set by now, so a throw runs deinit, which frees the
        // chunk.)
        var filled = 0
        while filled < chunk.count {
            let count = try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: chunk[filled...]))
            if count == 0 { break }
            filled += count
        }
        inputBytes = filled
        if filled > limits.maximumInputBytes {
            throw EasyBakeError.limit("maximumInputBytes", limits.maximumInputBytes,
                                      at: SourceLocation.locate(offset: limits.maximumInputBytes,
                                                                in: UnsafeRawBufferPointer(rebasing: chunk[..<filled]),
                                                                sourceName: sourceName))
        }
        try XMLEncodingCheck.check(UnsafeRawBufferPointer(rebasing: chunk[..<filled]), sourceName: sourceName)

        var handler = xmlSAXHandler()
        xmlSAXVersion(&handler, 2)
        Self.install(into: &handler)
        let head = min(4, filled)
        let saved = easybake_xml_silence()
        defer { easybake_xml_restore(saved) }
        let created = withUnsafePointer(to: &handler) { handlerPointer in
            input.name.withCString { name in
                xmlCreatePushParserCtxt(
                    UnsafeMutablePointer(mutating: handlerPointer), nil,
                    chunk.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(head), name)
            }
        }
        guard let created else {
            throw EasyBakeError(.io, "libxml2 could not create a parser context (out of memory)")
        }
        context = created
        // Explicit options for this context only: no entity substitution, no
        // DTD loading, no network, no XInclude, libxml2's limits kept. A
        // declaration that binds a prefix to the namespace it has in scope
        // already changes nothing, and is no attribute (NSCLEAN): so kept
        // markup, which declares the prefixes it uses, writes back in place
        // without adding any.
        xmlCtxtUseOptions(created, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NSCLEAN.rawValue))
        created.pointee._private = Unmanaged.passUnretained(self).toOpaque()
        pendingRange = head..<filled
    }

    deinit {
        if let context {
            if let document = context.pointee.myDoc { xmlFreeDoc(document) }
            context.pointee.myDoc = nil
            xmlFreeParserCtxt(context)
        }
        chunk.deallocate()
        state.pointee.pendingText.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    // MARK: Pulling

    /// The input bytes handed to libxml2 so far.
    var bytesRead: Int { inputBytes - pendingRange.count }

    /// How many events the callbacks have made so far.
    var eventsMade: Int { state.pointee.eventsMade }

    var location: SourceLocation {
        if let failure, let location = failure.location { return location }
        return SourceLocation(sourceName: sourceName, line: Int(lastPosition >> 32), column: Int(lastPosition & 0xFFFF_FFFF))
    }

    func next() throws(EasyBakeError) -> IngredientEvent? {
        // After an error the queued events (read before it) are dropped:
        // the error repeats on every call.
        if failed, let failure { throw failure }
        while head == events.count {
            if inputDone && context == nil { return nil }
            events.removeAll(keepingCapacity: true)
            head = 0
            try feed()
        }
        // The event is moved out of the queue, leaving a payload-free
        // placeholder, rather than copied (a retain now and a release when
        // the queue is emptied).
        let index = head
        head = index + 1
        return events.withUnsafeMutableBufferPointer { queue in
            let slot = queue.baseAddress! + index
            lastPosition = slot.pointee.position
            let event = (slot.pointer(to: \.event)!).move()
            (slot.pointer(to: \.event)!).initialize(to: .endArray)
            if case .key = event { state.pointee.lastEventWasKey = true } else { state.pointee.lastEventWasKey = false }
            return event
        }
    }

    /// Skips the value that the next call to ``next()`` would begin.
    ///
    /// Events already queued are stepped over as the default
    /// `skipValue()` would read them. When the value goes on past the
    /// queue, the callbacks switch to skipping (``skipping``) until the
    /// element that holds the value ends: libxml2 still parses every byte
    /// (so well-formedness, entity and limit errors still throw, here), but
    /// no name, text, attribute or event is made for the skipped part.
    func skipValue() throws(EasyBakeError) {
        if failed, let failure { throw failure }
        var depth = 0
        repeat {
            if head == events.count {
                if depth > 0 {
                    try skip(openContainers: depth)
                    return
                }
                if head > 0, state.pointee.lastEventWasKey {
                    // The last event read was an element's key and nothing
                    // of its value is queued: the parser stands inside that
                    // element, the innermost frame.
                    try skip(fromFrame: frames.count - 1)
                    return
                }
                if head == 0, !rootSeen, frames.isEmpty, !inputDone {
                    // Nothing read yet: the value is the whole document.
                    try skip(fromFrame: -1)
                    return
                }
                // Another place (a key or an end comes next): step over
                // one event, read as usual.
                guard let event = try next() else { return }
                switch event {
                case .beginArray, .beginDictionary: depth += 1
                case .endArray, .endDictionary: depth -= 1
                case .key, .scalar: break
                }
                continue
            }
            switch events[head].event {
            case .beginArray, .beginDictionary: depth += 1
            case .endArray, .endDictionary: depth -= 1
            case .key, .scalar: break
            }
            lastPosition = events[head].position
            head += 1
            state.pointee.lastEventWasKey = false
        } while depth > 0
    }

    /// Skips the rest of the container whose begin event was read last;
    /// see ``skipValue()``.
    func skipRestOfContainer() throws(EasyBakeError) {
        if failed, let failure { throw failure }
        var depth = 1
        repeat {
            if head == events.count {
                if inputDone && context == nil {
                    throw EasyBakeError.syntax("unexpected end of input inside a container", at: location)
                }
                try skip(openContainers: depth)
                return
            }
            switch events[head].event {
            case .beginArray, .beginDictionary: depth += 1
            case .endArray, .endDictionary: depth -= 1
            case .key, .scalar: break
            }
            lastPosition = events[head].position
            head += 1
            state.pointee.lastEventWasKey = false
        } while depth > 0
    }

    /// Skips the rest of a value of which every queued event was read and
    /// `openContainers` containers are still open: the innermost open
    /// containers of the parser, the document's dictionary and one per
    /// opened element frame.
    private func skip(openContainers: Int) throws(EasyBakeError) {
        var remaining = openContainers
        var index = frames.count
        while remaining > 0, index > 0 {
            index -= 1
            if frames[index].opened { remaining -= 1 }
        }
        try skip(fromFrame: remaining > 0 ? -1 : index)
    }

    /// Skips until the element at frame `index` ends (its value produces no
    /// event), or to the end of the document when `index` is `-1`.
    private func skip(fromFrame index: Int) throws(EasyBakeError) {
        pendingText.removeAll()
        state.pointee.lastEventWasKey = false
        skippedTextBytes = 0
        skipEndDepth = index
        skipping = true
        while skipping {
            if head == events.count {
                events.removeAll(keepingCapacity: true)
                    head = 0
            }
            if inputDone && context == nil { break }
            try feed()
        }
    }

    /// Hands libxml2 the next chunk (or the end of input), which queues the
    /// events of that chunk.
    private func feed() throws(EasyBakeError) {
        guard let context else { return }
        let saved = easybake_xml_silence()
        defer { easybake_xml_restore(saved) }
        if pendingRange.isEmpty, !inputDone {
            let count = try reader.read(into: chunk)
            if count == 0 {
                inputDone = true
                xmlParseChunk(context, nil, 0, 1)
            } else {
                inputBytes += count
                if inputBytes > limits.maximumInputBytes {
                    fail(.limit("maximumInputBytes", limits.maximumInputBytes, at: currentLocation(context)), context)
                } else {
                    pendingRange = 0..<count
                }
            }
        }
        if !pendingRange.isEmpty {
            // A slice of the buffer at a time, so that few events are made
            // ahead of the consumer: a value it skips soon after is then
            // mostly parsed in skipping mode, without strings or events.
            let range = pendingRange.lowerBound..<min(pendingRange.upperBound, pendingRange.lowerBound + Self.sliceSize)
            pendingRange = range.upperBound..<pendingRange.upperBound
            xmlParseChunk(context, (chunk.baseAddress! + range.lowerBound).assumingMemoryBound(to: CChar.self),
                          Int32(range.count), 0)
        }
        if failed, let failure { throw failure }
        if inputDone {
            if context.pointee.wellFormed == 0 || !frames.isEmpty || !rootSeen {
                let error = failure ?? EasyBakeError.syntax(
                    rootSeen ? "unexpected end of input inside an element" : "the document has no root element",
                    at: currentLocation(context))
                failure = error
                throw error
            }
            if let document = context.pointee.myDoc { xmlFreeDoc(document) }
            context.pointee.myDoc = nil
            xmlFreeParserCtxt(context)
            self.context = nil
        }
    }

    // MARK: Errors and positions

    /// Records the first error and stops the parser that hit it; later
    /// callbacks are ignored.
    fileprivate func fail(_ error: EasyBakeError, _ context: xmlParserCtxtPtr) {
        if !failed { failure = error }
        xmlStopParser(context)
    }

    fileprivate func currentLocation(_ context: xmlParserCtxtPtr) -> SourceLocation {
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
    private func location(line: Int, column: Int, context: xmlParserCtxtPtr?) -> SourceLocation {
        var result = SourceLocation(sourceName: sourceName, line: max(line, 1), column: max(column, 1))
        if let excerpt = Self.excerpt(context: context, column: column) { result.lineText = excerpt }
        return result
    }

    /// The text around libxml2's current position: the whole line when its
    /// start is still buffered and the column agrees, else `nil`.
    static func excerpt(context: xmlParserCtxtPtr?, column: Int) -> String? {
        guard let input = context?.pointee.input, let base = input.pointee.base,
              var cur = input.pointee.cur, let end = input.pointee.end, cur >= base, end >= cur else { return nil }
        // At the end of a line (or of the input) the error concerns the line
        // just left.
        if cur > base, cur == end || cur.pointee == 0x0A { cur -= 1 }
        var start = cur
        while start > base, start[-1] != 0x0A, cur - start < 400 { start -= 1 }
        let atLineStart = start == base ? (input.pointee.consumed == 0 && base == input.pointee.base) : start[-1] == 0x0A
        guard atLineStart else { return nil }
        var stop = cur
        while stop < end, stop.pointee != 0x0A, stop.pointee != 0x0D, stop - start < 400 { stop += 1 }
        let text = String(decoding: UnsafeBufferPointer(start: start, count: stop - start), as: UTF8.self)
        // The caret must land inside the line (or just after it).
        guard column >= 1, column <= text.unicodeScalars.count + 1 else { return nil }
        return text
    }

    fileprivate func reportError(_ error: xmlErrorPtr) {
        guard !failed else { return }
        let details = error.pointee
        if Int(details.code) == Int(XML_WAR_UNDECLARED_ENTITY.rawValue) {
            refuseUndeclaredEntity(details)
            return
        }
        let isNamespaceError = details.domain == Int32(XML_FROM_NAMESPACE.rawValue)
            && (Int(XML_NS_ERR_XML_NAMESPACE.rawValue)...Int(XML_NS_ERR_COLON.rawValue)).contains(Int(details.code))
        if isNamespaceError {
            if options.acceptsNamespaceErrors { return }
            if Int(details.code) == Int(XML_NS_ERR_XML_NAMESPACE.rawValue), let prefix = details.str1,
               let text = details.message, String(cString: text).contains("Empty XML namespace"),
               isXML11(details.ctxt?.assumingMemoryBound(to: xmlParserCtxt.self)) {
                // XML 1.1 undeclares the prefix; libxml2 2.9 knows only
                // Namespaces in XML 1.0. The use of the prefix inside the
                // element is checked in `startElement`.
                state.pointee.pendingUndeclarations.append(String(cString: prefix))
                state.pointee.tracksUndeclarations = true
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
            message = Int(details.code) == Int(XML_ERR_CDATA_NOT_FINISHED.rawValue)
                ? "CDATA section not finished" : "malformed XML (libxml2 error \(details.code))"
        }
        while let last = message.last, last.isWhitespace { message.removeLast() }
        let context = details.ctxt?.assumingMemoryBound(to: xmlParserCtxt.self)
        var location = location(line: Int(details.line), column: Int(details.int2), context: context)
        if location.lineText == nil, let context, let input = context.pointee.input,
           let cur = input.pointee.cur, let end = input.pointee.end, cur <= end {
            let snippet = String(decoding: UnsafeBufferPointer(start: cur, count: min(40, end - cur)), as: UTF8.self)
                .prefix(while: { $0 != "\n" })
            if !snippet.isEmpty { message += " (near \(String(snippet).debugDescription))" }
        }
        location.sourceName = sourceName
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

    /// A reference to a general entity that the internal subset does not
    /// declare, in a document with an external DTD (or unread parameter
    /// entities) that might declare it. XML 1.0 makes this a validity
    /// matter, not a well-formedness one, and libxml2 only warns and drops
    /// the reference; since external DTDs are never read, the text would be
    /// lost silently, so the document is refused instead.
    ///
    /// Undeclared *parameter* entities are left alone: a non-validating
    /// processor may skip them (XML 1.0 §5.1).
    private func refuseUndeclaredEntity(_ details: xmlError) {
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

    // MARK: Events

    @inline(__always)
    private func emit(_ event: IngredientEvent, _ position: UInt64) {
        events.append(QueuedEvent(event: event, position: position))
        state.pointee.eventsMade &+= 1
    }

    @inline(__always)
    private static func position(_ context: xmlParserCtxtPtr) -> UInt64 {
        guard let input = context.pointee.input else { return 1 << 32 | 1 }
        return UInt64(UInt32(truncatingIfNeeded: max(input.pointee.line, 1))) << 32
            | UInt64(UInt32(truncatingIfNeeded: max(input.pointee.col, 1)))
    }

    private func name(
        local: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?, attribute: Bool
    ) -> String {
        // libxml2 interns names, prefixes and URIs in the context's
        // dictionary, so their addresses identify them.
        var qualifier: UnsafePointer<xmlChar>? = switch options.namespaces {
        case .keepPrefixes: prefix
        case .resolveToURIs: uri
        case .strip: nil
        }
        // An undeclared prefix (read only with acceptsNamespaceErrors) has
        // no URI to resolve to: it is kept as written.
        let unresolved = qualifier == nil && prefix != nil && options.namespaces == .resolveToURIs
        if unresolved { qualifier = prefix }
        let qualifierBits = UInt(bitPattern: qualifier)
        let localBits = UInt(bitPattern: local)
        // Multiplicative hashing of the two addresses picks the slot.
        let mixed = (localBits &* 0x9E37_79B9_7F4A_7C15) ^ (qualifierBits &* 0xC2B2_AE3D_27D4_EB4F) ^ (attribute ? 1 : 0)
            ^ (unresolved ? 2 : 0)
        let slot = Int(truncatingIfNeeded: (mixed &* 0x9E37_79B9_7F4A_7C15) >> 54) & (Self.nameCacheSize - 1)
        let cached = state.pointee.names[slot]
        if let name = cached.name, cached.local == localBits, cached.qualifier == qualifierBits,
           cached.attribute == attribute, cached.unresolved == unresolved {
            return name
        }
        var text = attribute ? attributePrefix : ""
        if let qualifier {
            let q = String(cString: qualifier)
            text += options.namespaces == .resolveToURIs && !unresolved ? "{\(q)}" : "\(q):"
        }
        text += String(cString: local)
        state.pointee.names[slot] = NameSlot(
            qualifier: qualifierBits, local: localBits, attribute: attribute, unresolved: unresolved, name: text)
        return text
    }

    @inline(__always)
    private static func isXMLWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// The pending text as a value: trimmed when asked, `nil` when absent.
    private func pendingValue(droppingWhitespaceOnly: Bool) -> String? {
        if pendingText.isEmpty { return nil }
        var start = 0
        var end = pendingText.count
        if options.trimsText || droppingWhitespaceOnly {
            while start < end, Self.isXMLWhitespace(pendingText[start]) { start += 1 }
            while end > start, Self.isXMLWhitespace(pendingText[end - 1]) { end -= 1 }
            if start == end { return nil }
            if !options.trimsText { start = 0; end = pendingText.count }
        }
        return pendingText.string(start..<end)
    }

    /// Emits text that precedes or follows child elements as a `#text` entry.
    private func flushText(droppingWhitespaceOnly: Bool, _ position: UInt64) {
        if let text = pendingValue(droppingWhitespaceOnly: droppingWhitespaceOnly) {
            emit(.key(textKey), position)
            emit(.scalar(.string(text)), position)
        }
        pendingText.removeAll()
    }

    fileprivate func startElement(
        _ context: xmlParserCtxtPtr,
        local: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?,
        namespaceCount: Int, namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        guard !failed else { return }
        let position = Self.position(context)
        // The document dictionary, then one level per element.
        if frames.count + 2 > limits.maximumDepth {
            fail(.limit("maximumDepth", limits.maximumDepth, at: currentLocation(context)), context)
            return
        }
        if !options.acceptsNamespaceErrors {
            if namespaceCount > 0, let namespaces,
               !checkDeclarations(context, namespaceCount: namespaceCount, namespaces: namespaces) {
                return
            }
            if state.pointee.tracksUndeclarations,
               !checkUndeclaredPrefixes(context, prefix: prefix, namespaceCount: namespaceCount, namespaces: namespaces,
                                        attributeCount: attributeCount, attributes: attributes) {
                return
            }
        }
        if state.pointee.markup.isActive,
           !captureStartTag(context, local: local, prefix: prefix, uri: uri, namespaceCount: namespaceCount, namespaces: namespaces,
                            attributeCount: attributeCount, attributes: attributes) {
            return
        }
        if skipping {
            skipStartElement(context, attributeCount: attributeCount, attributes: attributes)
            return
        }
        if frames.isEmpty {
            emit(.beginDictionary, position)
            rootSeen = true
        } else {
            let parent = frames.count - 1
            if let empty = frames[parent].empty {
                fail(XMLEmptyMarker.hasContent(empty, at: currentLocation(context)), context)
                return
            }
            if !frames[parent].opened {
                emit(.beginDictionary, position)
                frames[parent].opened = true
            }
            flushText(droppingWhitespaceOnly: true, position)
            frames[parent].hasChildElements = true
        }
        // Names become keys: they count against the string limit as JSON
        // and YAML keys do (libxml2's own cap is 50,000 bytes).
        let elementName = name(local: local, prefix: prefix, uri: uri, attribute: false)
        if elementName.utf8.count > limits.maximumStringBytes {
            fail(.limit("maximumStringBytes", limits.maximumStringBytes, at: currentLocation(context)), context)
            return
        }
        emit(.key(elementName), position)

        // EasyBake's marker of an empty value, and the declaration of its
        // namespace, are no attributes of the element.
        var empty: XMLEmptyMarker.Kind?
        var markerAttribute = -1
        if let attributes {
            for i in 0..<attributeCount where XMLEmptyMarker.isNamespace(attributes[5 * i + 2]) {
                guard XMLEmptyMarker.isMarker(local: attributes[5 * i], uri: attributes[5 * i + 2]) else {
                    fail(XMLEmptyMarker.unknownAttribute(attributes[5 * i], at: currentLocation(context)), context)
                    return
                }
                guard let value = attributes[5 * i + 3], let valueEnd = attributes[5 * i + 4],
                      let kind = XMLEmptyMarker.Kind(bytes: UnsafeRawBufferPointer(start: value, count: valueEnd - value))
                else {
                    fail(XMLEmptyMarker.unknownValue(attributes[5 * i + 3], attributes[5 * i + 4], at: currentLocation(context)), context)
                    return
                }
                empty = kind
                markerAttribute = i
            }
        }
        let markerDeclarations = options.keepsNamespaceDeclarations
            ? (0..<namespaceCount).count { XMLEmptyMarker.isNamespace(namespaces?[2 * $0 + 1]) } : 0
        let declarations = options.keepsNamespaceDeclarations ? namespaceCount : 0
        let keptAttributes = attributeCount - (markerAttribute >= 0 ? 1 : 0)
        if empty != nil, keptAttributes > 0 {
            fail(XMLEmptyMarker.hasContent(empty!, at: currentLocation(context)), context)
            return
        }
        // A captured element is a dictionary, to hold its markup and text.
        let captured = empty == nil && !state.pointee.markup.names.isEmpty && state.pointee.markup.names.contains(elementName)
        let opened = declarations - markerDeclarations > 0 || keptAttributes > 0 || captured
        if opened {
            emit(.beginDictionary, position)
            if let namespaces {
                for i in 0..<declarations where !XMLEmptyMarker.isNamespace(namespaces[2 * i + 1]) {
                    let declaredPrefix = namespaces[2 * i]
                    let declaredURI = namespaces[2 * i + 1].map { String(cString: $0) } ?? ""
                    let key = attributePrefix + (declaredPrefix.map { "xmlns:" + String(cString: $0) } ?? "xmlns")
                    emit(.key(key), position)
                    emit(.scalar(.string(declaredURI)), position)
                }
            }
            if let attributes {
                for i in 0..<attributeCount where i != markerAttribute {
                    let base = 5 * i
                    guard let attributeLocal = attributes[base], let value = attributes[base + 3],
                          let valueEnd = attributes[base + 4] else { continue }
                    let length = valueEnd - value
                    if length > limits.maximumStringBytes {
                        fail(.limit("maximumStringBytes", limits.maximumStringBytes, at: currentLocation(context)), context)
                        return
                    }
                    let key = name(local: attributeLocal, prefix: attributes[base + 1], uri: attributes[base + 2],
                                   attribute: true)
                    if key.utf8.count - attributePrefix.utf8.count > limits.maximumStringBytes {
                        fail(.limit("maximumStringBytes", limits.maximumStringBytes, at: currentLocation(context)), context)
                        return
                    }
                    guard let text = attributeValue(context, value, length) else { return }
                    emit(.key(key), position)
                    emit(.scalar(.string(text)), position)
                }
            }
        }
        frames.append(Frame(opened: opened, hasChildElements: false, empty: empty))
        pendingText.removeAll()
        if captured { state.pointee.markup.begin(depth: frames.count) }
    }

    /// An attribute's value with its references replaced.
    ///
    /// Without `XML_PARSE_NOENT`, libxml2 hands SAX2 attribute values with
    /// entity references still in them (`&#38;` for `&amp;`), as its tree
    /// builder does, the replacement is done here the same way; it goes
    /// through the `getEntity` hook, so it is charged to the expansion budget.
    private func attributeValue(_ context: xmlParserCtxtPtr, _ value: UnsafePointer<xmlChar>, _ length: Int) -> String? {
        if memchr(value, 0x26, length) == nil {
            return String(decoding: UnsafeBufferPointer(start: value, count: length), as: UTF8.self)
        }
        guard let decoded = xmlStringLenDecodeEntities(context, value, Int32(length), Int32(XML_SUBSTITUTE_REF), 0, 0, 0)
        else {
            if !failed {
                fail(.syntax("cannot replace the references in an attribute value", at: currentLocation(context)), context)
            }
            return nil
        }
        defer { easybake_xml_free(decoded) }
        guard !failed else { return nil }
        let text = String(cString: decoded)
        if text.utf8.count > limits.maximumStringBytes {
            fail(.limit("maximumStringBytes", limits.maximumStringBytes, at: currentLocation(context)), context)
            return nil
        }
        return text
    }

    /// Writes a start tag into the markup captures open around it.
    private func captureStartTag(
        _ context: xmlParserCtxtPtr, local: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?,
        namespaceCount: Int, namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) -> Bool {
        var declared: [(prefix: [UInt8]?, uri: [UInt8])] = []
        if let namespaces {
            for i in 0..<namespaceCount {
                declared.append((namespaces[2 * i].map(XMLMarkupCapture.bytes), namespaces[2 * i + 1].map(XMLMarkupCapture.bytes) ?? []))
            }
        }
        var written: [(name: XMLMarkupCapture.Name, value: [UInt8])] = []
        if let attributes {
            for i in 0..<attributeCount {
                guard let attributeLocal = attributes[5 * i], let value = attributes[5 * i + 3], let valueEnd = attributes[5 * i + 4]
                else { continue }
                guard let text = attributeValue(context, value, valueEnd - value) else { return false }
                written.append((XMLMarkupCapture.name(local: attributeLocal, prefix: attributes[5 * i + 1], uri: attributes[5 * i + 2]),
                                Array(text.utf8)))
            }
        }
        state.pointee.markup.startTag(
            depth: frames.count + 1, name: XMLMarkupCapture.name(local: local, prefix: prefix, uri: uri),
            namespaces: declared, attributes: written)
        return checkMarkupLimit(context)
    }

    /// Fails when a captured element's markup outgrows the string limit.
    private func checkMarkupLimit(_ context: xmlParserCtxtPtr) -> Bool {
        guard state.pointee.markup.longestMarkup > limits.maximumStringBytes else { return true }
        fail(.limit("maximumStringBytes", limits.maximumStringBytes, at: currentLocation(context)), context)
        return false
    }

    /// A start tag inside a skipped value: the frame and the limits only.
    private func skipStartElement(
        _ context: xmlParserCtxtPtr, attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        if frames.isEmpty { rootSeen = true }
        if let attributes {
            for i in 0..<attributeCount {
                guard let value = attributes[5 * i + 3], let valueEnd = attributes[5 * i + 4] else { continue }
                if valueEnd - value > limits.maximumStringBytes {
                    fail(.limit("maximumStringBytes", limits.maximumStringBytes, at: currentLocation(context)), context)
                    return
                }
            }
        }
        frames.append(Frame(opened: false, hasChildElements: false))
        skippedTextBytes = 0
    }

    /// An end tag inside a skipped value; the end of the element whose
    /// value is skipped ends the skip, and produces no event itself.
    private func skipEndElement(_ context: xmlParserCtxtPtr) {
        skippedTextBytes = 0
        guard frames.count == skipEndDepth else { return }
        skipping = false
        let position = Self.position(context)
        lastPosition = position
        if frames.isEmpty { emit(.endDictionary, position) }
    }

    fileprivate func endElement(_ context: xmlParserCtxtPtr) {
        guard !failed, let frame = frames.popLast() else { return }
        if state.pointee.tracksUndeclarations {
            let depth = frames.count
            while let last = state.pointee.prefixScopes.last, last.depth >= depth { state.pointee.prefixScopes.removeLast() }
        }
        let captured = state.pointee.markup.isActive ? state.pointee.markup.end(depth: frames.count + 1) : nil
        if skipping {
            skipEndElement(context)
            return
        }
        let position = Self.position(context)
        if let empty = frame.empty {
            guard pendingValue(droppingWhitespaceOnly: true) == nil else {
                fail(XMLEmptyMarker.hasContent(empty, at: currentLocation(context)), context)
                return
            }
            switch empty {
            case .array:
                emit(.beginArray, position)
                emit(.endArray, position)
            case .dictionary:
                emit(.beginDictionary, position)
                emit(.endDictionary, position)
            case .string:
                emit(.scalar(.string("")), position)
            }
        } else if frame.opened {
            flushText(droppingWhitespaceOnly: frame.hasChildElements, position)
            if let captured {
                emit(.key(XMLSourceOptions.innerXMLKey), position)
                emit(.scalar(.string(captured.markup)), position)
                emit(.key(XMLSourceOptions.textContentKey), position)
                emit(.scalar(.string(captured.text)), position)
            }
            emit(.endDictionary, position)
        } else {
            let value = pendingValue(droppingWhitespaceOnly: false)
            emit(.scalar(value.map(Ingredients.string) ?? .null), position)
        }
        pendingText.removeAll()
        if frames.isEmpty { emit(.endDictionary, position) }
    }

    fileprivate func characters(_ context: xmlParserCtxtPtr, _ text: UnsafePointer<xmlChar>, _ length: Int) {
        guard !failed, !frames.isEmpty, length > 0 else { return }
        if state.pointee.markup.isActive {
            state.pointee.markup.text(UnsafeBufferPointer(start: text, count: length))
            guard checkMarkupLimit(context) else { return }
        }
        if skipping {
            skippedTextBytes += length
            if skippedTextBytes > limits.maximumStringBytes {
                fail(.limit("maximumStringBytes", limits.maximumStringBytes, at: currentLocation(context)), context)
            }
            return
        }
        if pendingText.count + length > limits.maximumStringBytes {
            fail(.limit("maximumStringBytes", limits.maximumStringBytes, at: currentLocation(context)), context)
            return
        }
        pendingText.append(text, count: length)
    }

    /// Looks an entity up for libxml2, refusing external ones and charging
    /// internal ones against the expansion budget.
    fileprivate func entity(
        _ context: xmlParserCtxtPtr, named name: UnsafePointer<xmlChar>?, parameter: Bool
    ) -> xmlEntityPtr? {
        guard !failed, let name else {
            xmlStopParser(context)
            return nil
        }
        deepestEntityNesting = max(deepestEntityNesting, Int(context.pointee.depth))
        let found = parameter ? xmlSAX2GetParameterEntity(context, name) : xmlSAX2GetEntity(context, name)
        guard let found else { return nil }
        switch found.pointee.etype {
        case XML_INTERNAL_PREDEFINED_ENTITY:
            return found
        case XML_INTERNAL_GENERAL_ENTITY, XML_INTERNAL_PARAMETER_ENTITY:
            expansion += max(1, Int(found.pointee.length))
            if expansion > limits.maximumExpansion {
                let what = parameter ? "%" : "&"
                var error = EasyBakeError.limit("maximumExpansion", limits.maximumExpansion, at: currentLocation(context))
                error.message += " while expanding the entity reference \(what)\(String(cString: name));"
                    + " each reference costs the length of its replacement text"
                fail(error, context)
                return nil
            }
            return found
        default:
            let system = found.pointee.SystemID.map { String(cString: $0) } ?? "?"
            let what = parameter ? "%\(String(cString: name));" : "&\(String(cString: name));"
            fail(EasyBakeError(
                .forbidden,
                "the reference \(what) names an external entity (\(system.debugDescription)); external entities are never loaded",
                location: currentLocation(context)), context)
            return nil
        }
    }

    fileprivate func refuseResolution(
        _ context: xmlParserCtxtPtr, publicID: UnsafePointer<xmlChar>?, systemID: UnsafePointer<xmlChar>?
    ) {
        let system = systemID.map { String(cString: $0) } ?? publicID.map { String(cString: $0) } ?? "?"
        fail(EasyBakeError(
            .forbidden, "the document asks to load the external resource \(system.debugDescription); external entities and DTDs are never loaded",
            location: currentLocation(context)), context)
    }

    // MARK: The SAX handler

    private static func install(into handler: inout xmlSAXHandler) {
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
    fileprivate static func withDriver(
        _ ctx: UnsafeMutableRawPointer?, _ body: (xmlParserCtxtPtr, XMLParserDriver) -> Void
    ) {
        guard let ctx else { return }
        let context = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
        guard let opaque = context.pointee._private else { return }
        // The parser runs inside a method of the driver, which keeps it
        // alive: no retain and release per callback.
        Unmanaged<XMLParserDriver>.fromOpaque(opaque)._withUnsafeGuaranteedRef { body(context, $0) }
    }

    /// ``withDriver(_:_:)`` for the rarer callbacks that return a value.
    @inline(__always)
    private static func resolve(_ ctx: UnsafeMutableRawPointer?) -> (xmlParserCtxtPtr, XMLParserDriver)? {
        guard let ctx else { return nil }
        let context = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
        guard let opaque = context.pointee._private else { return nil }
        return (context, Unmanaged<XMLParserDriver>.fromOpaque(opaque).takeUnretainedValue())
    }
}

// MARK: Namespace well-formedness

/// What libxml2 2.9 leaves unchecked of Namespaces in XML 1.0 §7 (and of
/// 1.1's undeclaring of prefixes); the rest arrives as its namespace errors
/// in ``XMLParserDriver/reportError(_:)``.
extension XMLParserDriver {
    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"
    static let xmlnsNamespace = "http://www.w3.org/2000/xmlns/"

    /// Whether the document declares version 1.1 (libxml2 reads it by 1.0's
    /// rules, after a warning).
    fileprivate func isXML11(_ context: xmlParserCtxtPtr?) -> Bool {
        guard let version = context?.pointee.version else { return false }
        return String(cString: version) == "1.1"
    }

    private func namespaceError(_ message: String, _ context: xmlParserCtxtPtr) {
        fail(.syntax("namespace error: " + message, at: currentLocation(context)), context)
    }

    /// The declarations libxml2 made in scope for an element. Those written
    /// in the start tag were checked by libxml2 already (one that breaks a
    /// rule is reported and not made); those that come from attribute
    /// defaults of the internal subset were not.
    fileprivate func checkDeclarations(
        _ context: xmlParserCtxtPtr, namespaceCount: Int, namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>
    ) -> Bool {
        for i in 0..<namespaceCount {
            let prefix = namespaces[2 * i].map { String(cString: $0) }
            let uri = namespaces[2 * i + 1].map { String(cString: $0) } ?? ""
            let written = prefix.map { "xmlns:" + $0 } ?? "xmlns"
            if prefix == "xmlns" {
                namespaceError("the prefix xmlns must not be declared", context)
            } else if prefix == "xml", uri != Self.xmlNamespace {
                namespaceError("the prefix xml can only be bound to \(Self.xmlNamespace), not \(uri.debugDescription)", context)
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
    fileprivate func checkUndeclaredPrefixes(
        _ context: xmlParserCtxtPtr, prefix: UnsafePointer<xmlChar>?,
        namespaceCount: Int, namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) -> Bool {
        let depth = frames.count
        if let namespaces {
            for i in 0..<namespaceCount {
                if let declared = namespaces[2 * i] {
                    state.pointee.prefixScopes.append((depth, String(cString: declared), false))
                }
            }
        }
        for undeclared in state.pointee.pendingUndeclarations {
            state.pointee.prefixScopes.append((depth, undeclared, true))
        }
        state.pointee.pendingUndeclarations.removeAll()
        func isUndeclared(_ prefix: UnsafePointer<xmlChar>?) -> String? {
            guard let prefix else { return nil }
            let name = String(cString: prefix)
            guard let scope = state.pointee.prefixScopes.last(where: { $0.prefix == name }), scope.undeclared else { return nil }
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
    fileprivate func checkDeclaredName(_ context: xmlParserCtxtPtr, _ name: UnsafePointer<xmlChar>?, _ what: String) {
        guard !failed, !options.acceptsNamespaceErrors, let name, !Self.isQualifiedName(name) else { return }
        namespaceError("\(what) \(String(cString: name)) is not a qualified name (at most one colon, between a prefix and a local name)", context)
    }

    /// Refuses a notation name with a colon in an unparsed entity's
    /// declaration (libxml2 checks the names of notation declarations).
    fileprivate func checkNotationName(_ context: xmlParserCtxtPtr, _ name: UnsafePointer<xmlChar>?) {
        guard !failed, !options.acceptsNamespaceErrors, let name, strchr(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self), 0x3A) != nil
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
