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
/// `IngredientEvent`s, queued until ``next()`` pulls them — or, in
/// ``readIndex(into:filePath:)`` and for a streamed record
/// (``readRecord(startingWith:into:)``), into an index straight away, under
/// the same rules.
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
    /// How much once records are streamed (``readRecord(startingWith:into:)``):
    /// what libxml2 parses past the end of a record, and the next record's
    /// beginning with it, becomes events, so the less the better, down to
    /// where the cost of a call to `xmlParseChunk` shows.
    static let recordSliceSize = 1 << 8

    struct Frame {
        /// Whether `beginDictionary` was emitted for the element (it has
        /// attributes or a child element).
        var opened: Bool
        var hasChildElements: Bool
        /// The empty value EasyBake's marker says the element holds
        /// (``XMLEmptyMarker``), if it has one.
        var empty: XMLEmptyMarker.Kind? = nil
        /// How many namespaces its start tag declares, up to 255 (kept in
        /// what would be padding: a larger frame costs every element).
        var declarations: UInt8 = 0
        /// The element's name as written, interned by libxml2 (valid as
        /// long as the parser context), and the line of its start tag: for
        /// the message of a document cut inside it.
        var local: UnsafePointer<UInt8>? = nil
        var prefix: UnsafePointer<UInt8>? = nil
        var line: Int32 = 0
    }

    /// One entry of the name cache: the addresses of an interned
    /// qualifier (prefix or URI) and local name, and what is known of the
    /// key made of them (the key itself is in ``nameKeys``). Trivial, so
    /// that reading an entry retains nothing.
    struct NameSlot {
        var qualifier: UInt = 0
        var local: UInt = 0
        var attribute = false
        /// Whether the qualifier is a prefix kept because it is bound to
        /// no namespace (``XMLReadingOptions/NamespaceMode/resolveToURIs``
        /// with ``XMLReadingOptions/acceptsNamespaceErrors``).
        var unresolved = false
        /// Whether the entry holds a name.
        var filled = false
        /// The key's length in UTF-8 bytes.
        var byteCount = 0
        /// The key's ID in ``indexBuilder`` once asked for, `-1` before.
        var keyID: Int32 = -1
    }

    /// An event waiting for ``next()``, with `line << 32 | column` of
    /// where libxml2 stood when it was made.
    struct QueuedEvent {
        var event: IngredientEvent
        var position: UInt64
        /// How many elements were open when it was made: for an element's
        /// key, the index its frame gets (``lastKeyFrame``).
        var frame: Int32
    }

    // The reading state, which the SAX callbacks change for every element
    // and text run. A driver is used from one place at a time (see
    // XMLIngredientSource) and no access to these overlaps another, so the
    // runtime's exclusivity checks — about a third of the source's
    // instructions when measured with callgrind — are turned off for them,
    // as the YAML engine does for its state.
    @exclusivity(unchecked) var failure: EasyBakeError? {
        didSet { failed = failure != nil }
    }
    /// `failure != nil`, checked first in every callback without
    /// copying the error.
    @exclusivity(unchecked) var failed = false
    /// Whether ``failure`` was thrown to the reader (see ``next()``).
    @exclusivity(unchecked) var failureGiven = false
    @exclusivity(unchecked) var events = ContiguousArray<QueuedEvent>()
    @exclusivity(unchecked) var head = 0
    @exclusivity(unchecked) var lastPosition: UInt64 = 1 << 32 | 1
    /// Whether the event ``next()`` returned last was a key (the queue
    /// keeps only a placeholder once an event is returned).
    @exclusivity(unchecked) var lastEventWasKey = false
    /// The frame index of the element whose key ``next()`` returned last
    /// (see ``QueuedEvent/frame``).
    @exclusivity(unchecked) var lastKeyFrame: Int32 = 0
    /// How many events the callbacks made, for tests that check that
    /// skipped input makes none.
    @exclusivity(unchecked) var eventsMade = 0
    @exclusivity(unchecked) var frames = GrowableBuffer<Frame>()
    @exclusivity(unchecked) var pendingText = XMLTextBuffer()
    @exclusivity(unchecked) var rootSeen = false
    /// Whether the callbacks are skipping a value (see ``skipValue()``):
    /// they then keep only the frame count, the text length and the
    /// limit checks, and make no strings and no events.
    @exclusivity(unchecked) var skipping = false
    /// While skipping: the frame count at which the skipped value ends
    /// (the index of the element whose value is skipped), or `-1` when
    /// the whole document is skipped.
    @exclusivity(unchecked) var skipEndDepth = 0
    /// While skipping: the length of the current run of skipped text,
    /// checked against the string limit as reading checks `pendingText`.
    @exclusivity(unchecked) var skippedTextBytes = 0
    @exclusivity(unchecked) var expansion = 0
    @exclusivity(unchecked) var deepestEntityNesting = 0
    /// Names by the addresses libxml2 interned them at, direct-mapped.
    @exclusivity(unchecked) var names = ContiguousArray(repeating: NameSlot(), count: XMLParserDriver.nameCacheSize)
    /// The key of each entry of ``names``.
    @exclusivity(unchecked) var nameKeys = ContiguousArray<String>(repeating: "", count: XMLParserDriver.nameCacheSize)
    /// XML 1.1 only: prefixes undeclared (`xmlns:p=""`) on the start tag
    /// being parsed, which libxml2 2.9 reports as an error and otherwise
    /// ignores (it keeps the outer binding).
    @exclusivity(unchecked) var pendingUndeclarations: [String] = []
    /// Whether an XML 1.1 document has undeclared a prefix: from then
    /// on ``prefixScopes`` is kept and every prefix used is looked up.
    @exclusivity(unchecked) var tracksUndeclarations = false
    /// Prefix declarations and undeclarations by the frame count of the
    /// element that makes them (kept once ``tracksUndeclarations``).
    @exclusivity(unchecked) var prefixScopes: [(depth: Int, prefix: String, undeclared: Bool)] = []
    /// The markup of the elements ``XMLReadingOptions/markupElements`` names.
    @exclusivity(unchecked) var markup = XMLMarkupCapture(names: [])
    /// Whether the callbacks build an index (``readIndex(into:filePath:)``) instead
    /// of queueing events.
    @exclusivity(unchecked) var indexing = false
    /// The builder of ``readIndex(into:filePath:)``, while it runs.
    @exclusivity(unchecked) var indexBuilder: XMLIndexBuilder?
    /// The first error of ``indexBuilder`` (the node limit), thrown once
    /// libxml2 has parsed the rest of its slice, unless that fails.
    @exclusivity(unchecked) var indexFailure: EasyBakeError?
    /// `indexFailure != nil`, checked before every call to the builder.
    @exclusivity(unchecked) var indexFailed = false
    /// The ID of ``XMLReadingOptions/textKey`` in ``indexBuilder``.
    @exclusivity(unchecked) var textKeyID: Int32 = 0
    /// Whether the callbacks index one value (a streamed record, see
    /// ``readRecord(startingWith:into:)``) and go back to queueing events
    /// when it closes.
    @exclusivity(unchecked) var indexesOneValue = false
    /// While ``indexesOneValue``: how many of the value's dictionaries are
    /// open (counted here: asking the builder would copy it).
    @exclusivity(unchecked) var openInOneValue = 0
    /// The builder's IDs of the keys of queued events, which a record's
    /// index takes from the queue (``readRecord(startingWith:into:)``):
    /// looked up by the key's `String`, with no bytes copied.
    @exclusivity(unchecked) var queuedKeyIDs: [String: Int32] = [:]
    /// Whether ``readRecord(startingWith:into:)`` indexes records from the
    /// callbacks (`true`) or reads them through events, as tests compare.
    @exclusivity(unchecked) var readsRecordsNatively = true
    /// How many bytes libxml2 is handed at once: ``sliceSize``, or
    /// ``recordSliceSize`` once records are streamed.
    @exclusivity(unchecked) var feedSliceSize = XMLParserDriver.sliceSize

    // A lenient reading (XMLReadingOptions.lenientReferences); all unused
    // by a strict one.
    /// The rewrite of bare `&`s, which libxml2 is fed from.
    @exclusivity(unchecked) var repair: XMLAmpersandRepair?
    /// The rewritten bytes of the last chunk read.
    @exclusivity(unchecked) var repaired: XMLTextBuffer?
    /// Whether the whole input is white space (an empty document).
    @exclusivity(unchecked) var blankInput = false
    /// Whether the reader has returned the end of the input (the rewrite
    /// may still hold its last bytes).
    @exclusivity(unchecked) var rawInputDone = false
    /// The warnings of references to undeclared entities, read as HTML's
    /// characters or kept as text.
    @exclusivity(unchecked) var referenceWarnings: [EasyBakeError] = []
    /// The positions already warned about: libxml2 may parse a start tag
    /// again when its chunk ended inside it.
    @exclusivity(unchecked) var warnedPositions: Set<UInt64> = []
    /// The entities made for undeclared names, by name; freed with the
    /// driver.
    @exclusivity(unchecked) var madeEntities: [String: xmlEntityPtr] = [:]
    /// Whether the driver itself is replacing an attribute's references
    /// (their warnings were given when libxml2 read the value).
    @exclusivity(unchecked) var decodingAttribute = false

    // Records read by other jobs (XMLParserDriver+Deferring.swift); all
    // unused until a record is first deferred.
    /// Whether ``lexer`` follows the bytes libxml2 is fed.
    @exclusivity(unchecked) var lexing = false
    /// Where elements begin and end in the bytes fed, ahead of libxml2.
    ///
    /// Its offsets (`tag_start`, `cut_tag_start`) are into the bytes
    /// `feedBase` points at, below `pendingRange.lowerBound`, and hold only
    /// until the chunk is read again (``forgetLexedTags()`` sets them to
    /// -1); its `depth` is libxml2's element depth once libxml2 has read
    /// every byte lexed (`frames.count` where a record is deferred).
    @exclusivity(unchecked) var lexer = easybake_xml_lexer()
    /// The depth of the records' elements (their frame index + 1), after
    /// whose start tags (and their first child's) a slice of input ends.
    @exclusivity(unchecked) var cutDepth: Int32 = -1
    /// Whether the last slice fed ended just after such a start tag.
    @exclusivity(unchecked) var lastSliceCut = false
    /// Whether records may be deferred at all, once asked (`nil` before).
    @exclusivity(unchecked) var defersRecords: Bool?
    /// Reading a deferred record (a job's driver): how many more elements
    /// enclose the record in its document than here, for the depth limit.
    @exclusivity(unchecked) var depthOffset = 0
    /// Reading a deferred record: the whole document's input, whose lines
    /// a bake error quotes.
    @exclusivity(unchecked) var lineTextInput: IngredientInput?
    /// How much libxml2 is handed at once while a record is indexed
    /// (``readRecord(startingWith:into:)``): a job reading a deferred record
    /// hands it the rest of the record at once.
    @exclusivity(unchecked) var recordSliceSize: Int?
    /// How many records were left to other jobs, for tests.
    @exclusivity(unchecked) var recordsDeferred = 0
    /// The drivers that read this driver's deferred records.
    @exclusivity(unchecked) var recordReaders: XMLDeferredRecordReaders?

    let options: XMLReadingOptions
    let limits: IngredientLimits
    let sourceName: String
    /// The input, which a record's index reads again for the line an
    /// error shows (``IngredientIndex/setLineTextInput(_:)``).
    let input: IngredientInput

    @exclusivity(unchecked) var reader: ChunkReader
    @exclusivity(unchecked) var context: xmlParserCtxtPtr?
    /// The bytes read last: `chunkSize` bytes the driver allocates and frees
    /// in `deinit`; libxml2 is handed slices of it (or of `repaired`, which
    /// the driver owns too) and copies what it keeps, so that they are
    /// written again only once they were all handed over.
    let chunk: UnsafeMutableRawBufferPointer
    /// Bytes of the chunk buffer not yet handed to libxml2: always within
    /// the bytes `feedBase` points at (`chunk`, or `repaired` as filled).
    @exclusivity(unchecked) var pendingRange: Range<Int>
    @exclusivity(unchecked) var inputBytes = 0
    @exclusivity(unchecked) var inputDone = false

    static let nameCacheSize = 1024

    let attributePrefix: String
    let textKey: String

    init(input: IngredientInput, options: XMLReadingOptions) throws(EasyBakeError) {
        _ = libxml2Initialized
        self.options = options
        self.limits = options.limits
        self.sourceName = input.name
        self.input = input
        self.attributePrefix = options.attributePrefix
        self.textKey = options.textKey
        reader = try input.openReader()
        chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        pendingRange = 0..<0
        markup = XMLMarkupCapture(names: options.markupElements)

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
            throw EasyBakeError.inputTooLarge(
                limits.maximumInputBytes, in: UnsafeRawBufferPointer(rebasing: chunk[..<filled]), sourceName: sourceName
            )
        }
        try XMLEncodingCheck.check(UnsafeRawBufferPointer(rebasing: chunk[..<filled]), sourceName: sourceName)
        let firstBytes = UnsafeRawBufferPointer(rebasing: chunk[..<filled])
        blankInput =
            filled < chunk.count
            && firstBytes.dropFirst(XMLEncodingCheck.family(of: firstBytes) == .utf8WithBOM ? 3 : 0).allSatisfy(
                Self.isXMLWhitespace)
        var available = filled
        // The rewrite reads bytes as ASCII: not for UTF-16.
        if options.lenientReferences,
            [.asciiCompatible, .utf8WithBOM].contains(
                XMLEncodingCheck.family(of: UnsafeRawBufferPointer(rebasing: chunk[..<filled])))
        {
            var mended = XMLTextBuffer()
            repair = XMLAmpersandRepair(sourceName: input.name)
            repair!.repair(UnsafeRawBufferPointer(rebasing: chunk[..<filled]), final: false, into: &mended)
            available = mended.count
            repaired = mended
        }

        var handler = xmlSAXHandler()
        xmlSAXVersion(&handler, 2)
        Self.install(into: &handler)
        let head = min(4, available)
        let saved = easybake_xml_silence()
        defer { easybake_xml_restore(saved) }
        let created = withUnsafePointer(to: &handler) { handlerPointer in
            input.name.withCString { name in
                xmlCreatePushParserCtxt(
                    UnsafeMutablePointer(mutating: handlerPointer), nil,
                    feedBase.assumingMemoryBound(to: CChar.self), Int32(head), name)
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
        pendingRange = head..<available
    }

    /// The bytes libxml2 is fed from: the chunk as read, or as rewritten by
    /// a lenient reading.
    var feedBase: UnsafeRawPointer {
        if let repaired { return repaired.bytes(0..<0).baseAddress! }
        return UnsafeRawPointer(chunk.baseAddress!)
    }

    deinit {
        if let context {
            if let document = context.pointee.myDoc { xmlFreeDoc(document) }
            context.pointee.myDoc = nil
            xmlFreeParserCtxt(context)
        }
        chunk.deallocate()
        frames.deallocate()
        indexBuilder?.deallocate()
        pendingText.deallocate()
        repaired?.deallocate()
        for entity in madeEntities.values { Self.freeEntity(entity) }
    }

    // MARK: Pulling

    /// The input bytes handed to libxml2 so far.
    var bytesRead: Int { max(0, inputBytes - pendingRange.count) }

    var location: SourceLocation {
        // The events queued before an error are given first, at their
        // places: the error's place is the source's once it was thrown.
        if failureGiven, let failure, let location = failure.location { return location }
        return location(lastPosition)
    }

    /// The location of a packed event position, in the input as written.
    func location(_ position: UInt64) -> SourceLocation {
        let (line, column) = lineAndColumn(position)
        return SourceLocation(sourceName: sourceName, line: line, column: column)
    }

    /// The line and column of a packed event position, in the input as
    /// written (a lenient reading's repairs undone).
    @inline(__always)
    func lineAndColumn(_ position: UInt64) -> (line: Int, column: Int) {
        let line = Int(position >> 32)
        var column = Int(position & 0xFFFF_FFFF)
        if let repair { column = repair.originalColumn(line: line, column: column) }
        return (line, column)
    }

    func next() throws(EasyBakeError) -> IngredientEvent? {
        // The events queued before an error are what the input holds before
        // it (the callbacks make none once it is met): they are given
        // first, so that a record that ends before the error reads whole
        // however far libxml2 had parsed past it, as a job reading it alone
        // would. Then the error repeats on every call.
        while head == events.count {
            if failed, let failure { throw given(failure) }
            if inputDone && context == nil { return nil }
            events.removeAll(keepingCapacity: true)
            head = 0
            do { try feed() } catch { if head == events.count { throw given(error) } }
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
            if case .key = event {
                lastEventWasKey = true
                lastKeyFrame = slot.pointee.frame
            } else {
                lastEventWasKey = false
            }
            return event
        }
    }

    /// `error`, noted as thrown to the reader.
    func given(_ error: EasyBakeError) -> EasyBakeError {
        failureGiven = true
        return error
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
        var depth = 0
        repeat {
            if head == events.count {
                if depth > 0 {
                    try skip(openContainers: depth)
                    return
                }
                if head > 0, lastEventWasKey {
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
                depth += event.depthChange
                continue
            }
            depth += stepOverQueuedEvent()
        } while depth > 0
    }

    /// Steps over the next queued event without returning it, as reading
    /// it would; returns how it changes the depth of nesting.
    @inline(__always)
    private func stepOverQueuedEvent() -> Int {
        let change = events[head].event.depthChange
        lastPosition = events[head].position
        head += 1
        lastEventWasKey = false
        return change
    }

    /// Skips the rest of the container whose begin event was read last;
    /// see ``skipValue()``.
    func skipRestOfContainer() throws(EasyBakeError) {
        var depth = 1
        repeat {
            if head == events.count {
                if inputDone && context == nil {
                    throw EasyBakeError.syntax("unexpected end of input inside a container", at: location)
                }
                try skip(openContainers: depth)
                return
            }
            depth += stepOverQueuedEvent()
        } while depth > 0
    }

    /// Skips the rest of a value of which every queued event was read and
    /// `openContainers` containers are still open: the innermost open
    /// containers of the parser, the document's dictionary and one per
    /// opened element frame.
    func skip(openContainers: Int) throws(EasyBakeError) {
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
    func skip(fromFrame index: Int) throws(EasyBakeError) {
        if failed, let failure { throw given(failure) }
        pendingText.removeAll()
        lastEventWasKey = false
        skippedTextBytes = 0
        skipEndDepth = index
        skipping = true
        while skipping {
            if head == events.count {
                events.removeAll(keepingCapacity: true)
                head = 0
            }
            if inputDone && context == nil { break }
            if failed, let failure { throw given(failure) }
            // An error past the skipped value's end is met later (see next()).
            do { try feed() } catch { if skipping { throw given(error) } }
        }
    }

    /// Hands libxml2 the next chunk (or the end of input), which queues the
    /// events of that chunk.
    func feed() throws(EasyBakeError) {
        guard let context else { return }
        let saved = easybake_xml_silence()
        defer { easybake_xml_restore(saved) }
        if pendingRange.isEmpty, !inputDone {
            let count = rawInputDone ? 0 : try reader.read(into: chunk)
            if count == 0 {
                if !rawInputDone, repair != nil {
                    // The rewrite's last bytes (an `&` at the very end).
                    repaired!.removeAll()
                    repair!.repair(UnsafeRawBufferPointer(start: nil, count: 0), final: true, into: &repaired!)
                    pendingRange = 0..<repaired!.count
                }
                rawInputDone = true
                if pendingRange.isEmpty {
                    inputDone = true
                    xmlParseChunk(context, nil, 0, 1)
                }
            } else {
                inputBytes += count
                if inputBytes > limits.maximumInputBytes {
                    fail(.limit(.maximumInputBytes, limits.maximumInputBytes, at: currentLocation(context)), context)
                } else if repair != nil {
                    repaired!.removeAll()
                    repair!.repair(UnsafeRawBufferPointer(rebasing: chunk[..<count]), final: false, into: &repaired!)
                    pendingRange = 0..<repaired!.count
                } else {
                    pendingRange = 0..<count
                    if lexing { forgetLexedTags() }
                }
            }
        }
        if !pendingRange.isEmpty {
            // A slice of the buffer at a time, so that few events are made
            // ahead of the consumer: a value it skips soon after is then
            // mostly parsed in skipping mode, without strings or events.
            var range = pendingRange.lowerBound..<min(pendingRange.upperBound, pendingRange.lowerBound + feedSliceSize)
            if lexing { range = range.lowerBound..<lexSlice(range) }
            assert(
                range.lowerBound >= 0 && range.upperBound <= (repaired?.count ?? chunk.count),
                "bytes handed to libxml2 past the end of the buffer read")
            pendingRange = range.upperBound..<pendingRange.upperBound
            xmlParseChunk(
                context, (feedBase + range.lowerBound).assumingMemoryBound(to: CChar.self),
                Int32(range.count), 0)
        }
        if failed, let failure { throw failure }
        if inputDone {
            if context.pointee.wellFormed == 0 || !frames.isEmpty || !rootSeen {
                let error =
                    failure
                    ?? EasyBakeError.syntax(
                        endOfInputMessage(context) ?? "expected a well-formed document, found the end of the input",
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
}
