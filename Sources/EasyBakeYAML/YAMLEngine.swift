internal import CYAML
import EasyBake

/// A parser event with the context (key or value) left open: what anchors
/// record and merge keys capture, and what aliases replay.
enum YAMLNodeEvent {
    /// With the node's tag as ``YAMLIngredientSource/currentTag`` shows it.
    case beginMapping(tag: String?)
    case endMapping
    /// With the node's tag as ``YAMLIngredientSource/currentTag`` shows it.
    case beginSequence(tag: String?)
    case endSequence
    case scalar(YAMLScalar)
}

struct YAMLScalar {
    /// The scalar's value when it stands as a value.
    var value: Ingredients
    /// Its text, what it reads as when it stands as a key.
    var text: String
    /// A plain `<<` (or one tagged `!!merge`): a merge key in key position.
    var isMergeKey: Bool
    /// The scalar's tag as ``YAMLIngredientSource/currentTag`` shows it.
    var tag: String? = nil
}

/// The parser and all reading state, in a class so that the libyaml parser
/// has a stable address and is freed once.
final class YAMLEngine {
    let options: YAMLReadingOptions
    /// libyaml's parser: allocated and initialised in `init`, deleted and
    /// freed in `deinit`, used by no one else. It reads `bytes` in place
    /// (the engine keeps them alive as long as the parser), or `chunks`
    /// through its read callback, which writes at most the `size` bytes
    /// libyaml offers. Its token queue (`tokens`) has `start` ≤ `head` ≤
    /// `tail` ≤ `end`, the queued tokens from `head` to `tail`.
    let parser: UnsafeMutablePointer<yaml_parser_t>
    /// The event ``pull()`` parses into: allocated with the engine; its
    /// pointers (a scalar's `value`, of `length` bytes; anchors and tags,
    /// NUL-terminated) are libyaml's and valid only until
    /// `yaml_event_delete`, at the end of `pull()`. Its marks are 0-based,
    /// in characters, the start not after the end, and count from the
    /// bytes libyaml parses (`startOffset`, `startLine` make them the
    /// input's).
    let event: UnsafeMutablePointer<yaml_event_t>
    let sourceName: String
    /// The whole input, when it is in memory: parsed in place, and used for
    /// error excerpts.
    let bytes: LoadedBytes?
    /// The input of chunked reading (files and standard input).
    let chunks: ChunkBox?
    let filePath: String?
    /// Where the bytes libyaml parses begin in the input (not 0 for a byte
    /// range), and how many lines come before them: what its marks and
    /// offsets add to be the whole input's.
    let startOffset: Int
    let startLine: Int

    struct Frame {
        var isMapping: Bool
        var expectingKey = true
        /// Where this mapping's own keys start in `keyStack`.
        var keyStart: Int
        /// Whether a merge key was seen; from then on every key is remembered.
        var merging = false
        /// Set when the mapping had more keys than are remembered before a merge.
        var keysOverflowed = false
        /// The mappings merged in, each as its events from begin to end.
        var merges: [ArraySlice<YAMLNodeEvent>] = []
    }

    /// A capture of the value of a merge key: events go to `buffer` instead
    /// of the output until the value is complete.
    struct Capture {
        var buffer: [YAMLNodeEvent] = []
        /// The frame count at which the merge value ends.
        var depth: Int
    }

    /// An anchored node being recorded.
    struct Recording {
        var name: String
        /// The capture level it records at (0: the output).
        var level: Int
        var depth: Int
        var start: Int
    }

    // The reading state. An engine is used from one place at a time (see
    // YAMLIngredientSource) and no access to these overlaps another, so the
    // runtime's exclusivity checks — a quarter of the instructions per event
    // when measured with callgrind — are turned off for them.
    @exclusivity(unchecked) var frames: [Frame] = []
    @exclusivity(unchecked) var keyStack: [String] = []
    @exclusivity(unchecked) var captures: [Capture] = []
    @exclusivity(unchecked) var recordings: [Recording] = []
    /// Events of the output level while a recording is open there.
    @exclusivity(unchecked) var recordBuffer: [YAMLNodeEvent] = []
    @exclusivity(unchecked) var anchors: [String: [YAMLNodeEvent]] = [:]
    @exclusivity(unchecked) var expansion = 0

    @exclusivity(unchecked) var output: [IngredientEvent] = []
    /// The tags of the events in `output`, index for index; empty while
    /// none of them has one.
    @exclusivity(unchecked) var outputTags: [String?] = []
    /// The tag of the node whose event ``next()`` returned last.
    @exclusivity(unchecked) private(set) var currentTag: String?
    @exclusivity(unchecked) var outputHead = 0
    @exclusivity(unchecked) var replay: [YAMLNodeEvent] = []
    @exclusivity(unchecked) var replayIndex = 0

    /// The depths of containers with an unknown tag, each wrapped in a
    /// single-key mapping whose end follows the container's.
    @exclusivity(unchecked) var wrappers: [Int] = []

    /// Skipping: events are tracked but not output.
    @exclusivity(unchecked) var discarding = false
    @exclusivity(unchecked) var discardDepth = 0

    @exclusivity(unchecked) var documentCount = 0
    /// Read as one document: the first document's value is complete, and
    /// the rest of the stream must be parsed before its last event is
    /// handed out, so that a second document is an error to every reader —
    /// also one that takes a single value and never asks for the end
    /// (`PathMatcher.resolve(from:)`, `Ingredients.read(from:)`).
    @exclusivity(unchecked) var singleDocumentComplete = false
    /// Whether the current document is parsed but not output (another
    /// document was chosen, or a second one met where one is expected).
    @exclusivity(unchecked) var droppingDocument = false
    /// Where the second document begins, for the error of a stream read as
    /// one document.
    @exclusivity(unchecked) var secondDocumentMark: (line: Int, column: Int)?
    /// Whether the last document ended without `...`.
    @exclusivity(unchecked) var previousEndImplicit = false
    /// The input's open collections: a block collection's start column, or
    /// -1 for a flow collection.
    @exclusivity(unchecked) var layout: [Int] = []
    @exclusivity(unchecked) var flowLevel = 0
    @exclusivity(unchecked) var finished = false
    @exclusivity(unchecked) var markLine = 0
    @exclusivity(unchecked) var markColumn = 0

    /// Keys remembered per mapping before a merge key is seen.
    static let rememberedKeys = 1024

    /// An engine over `input`, or over the documents of `input` that begin
    /// in `byteRange` (read as ``YAMLReadingOptions/Documents/all`` reads a
    /// stream, whatever `options` says; see ``YAMLDocumentRange``).
    init(input: IngredientInput, options: YAMLReadingOptions, byteRange: Range<Int>? = nil) throws(EasyBakeError) {
        var options = options
        if byteRange != nil { options.documents = .all }
        self.options = options
        sourceName = input.name
        filePath = input.filePath
        var parsed: Range<Int>?
        if byteRange == nil, !input.isInMemory {
            bytes = nil
            chunks = ChunkBox(reader: try input.openReader(), maximumBytes: options.limits.maximumInputBytes)
        } else {
            let loaded = try input.loadBytes(limits: options.limits)
            bytes = loaded
            chunks = nil
            if let byteRange { parsed = YAMLDocumentRange(byteRange, in: loaded.buffer).bytes }
        }
        startOffset = parsed?.lowerBound ?? 0
        if let parsed, let bytes {
            startLine = YAMLDocumentRange.lines(before: parsed.lowerBound, in: bytes.buffer)
        } else {
            startLine = 0
        }
        parser = .allocate(capacity: 1)
        event = .allocate(capacity: 1)
        event.initialize(to: yaml_event_t())
        guard yaml_parser_initialize(parser) == 1 else {
            parser.deallocate()
            event.deallocate()
            throw EasyBakeError(.io, "libyaml could not allocate a parser")
        }
        if let bytes {
            assert(
                parsed.map { $0.lowerBound >= 0 && $0.upperBound <= bytes.buffer.count } ?? true,
                "a byte range outside the input")
            let buffer = UnsafeRawBufferPointer(rebasing: bytes.buffer[parsed ?? 0..<bytes.buffer.count])
            let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
            // libyaml reads a non-null pointer even for empty input.
            yaml_parser_set_input_string(
                parser, base.map { UnsafePointer($0) } ?? ("" as StaticString).utf8Start, buffer.count)
        } else if let chunks {
            yaml_parser_set_input(
                parser,
                { data, buffer, size, sizeRead in
                    assert(data != nil && buffer != nil && sizeRead != nil, "libyaml asked to read without a buffer")
                    guard let data, let buffer, let sizeRead else { return 0 }
                    let box = Unmanaged<ChunkBox>.fromOpaque(data).takeUnretainedValue()
                    return box.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size), count: sizeRead)
                        ? 1 : 0
                }, Unmanaged.passUnretained(chunks).toOpaque())
        }
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
        event.deallocate()
    }

    // MARK: Pulling events

    func next() throws(EasyBakeError) -> IngredientEvent? {
        while true {
            if singleDocumentComplete { try checkRestOfStream() }
            if outputHead < output.count {
                if outputHead == 0, output.count == 1 {
                    // One event per libyaml event is the common case.
                    currentTag = outputTags.isEmpty ? nil : outputTags.removeLast()
                    return output.removeLast()
                }
                let next = output[outputHead]
                currentTag = outputTags.isEmpty ? nil : outputTags[outputHead]
                outputHead += 1
                if outputHead == output.count {
                    output.removeAll(keepingCapacity: true)
                    outputTags.removeAll(keepingCapacity: true)
                    outputHead = 0
                }
                return next
            }
            if try feedReplayedNode() { continue }
            if finished { return nil }
            try pull()
        }
    }

    /// Skips the value the next call to ``next()`` would begin.
    func skipValue() throws(EasyBakeError) {
        defer { currentTag = nil }
        guard outputHead == output.count, replayIndex == replay.count else {
            // Events already made (merged entries, a replayed alias): skip
            // them by reading, as any source may.
            return try readAndDiscard()
        }
        try drain(fromDepth: 0)
        if singleDocumentComplete { try checkRestOfStream() }
    }

    /// Parses the rest of a stream read as one document, once that
    /// document's value is complete: its end needs no more events, and a
    /// second document is the error of ``multipleDocumentsError()``, thrown
    /// instead of the value's last event (which is dropped).
    func checkRestOfStream() throws(EasyBakeError) {
        singleDocumentComplete = false
        do {
            while !finished { try pull() }
        } catch {
            output.removeAll()
            outputTags.removeAll()
            outputHead = 0
            throw error
        }
    }

    /// Skips the rest of the container the last event began.
    func skipRestOfContainer() throws(EasyBakeError) {
        defer { currentTag = nil }
        guard outputHead == output.count, replayIndex == replay.count else {
            var depth = 1
            while depth > 0 {
                guard let event = try next() else {
                    throw EasyBakeError.syntax("unexpected end of input inside a container", at: currentLocation())
                }
                depth += event.depthChange
            }
            return
        }
        try drain(fromDepth: 1)
        if singleDocumentComplete { try checkRestOfStream() }
        if discardDepth > 0 {
            throw EasyBakeError.syntax("unexpected end of input inside a container", at: currentLocation())
        }
    }

    /// Feeds the next node of the alias being replayed; `false` when no
    /// replay is under way.
    private func feedReplayedNode() throws(EasyBakeError) -> Bool {
        guard replayIndex < replay.count else { return false }
        let next = replay[replayIndex]
        replayIndex += 1
        if replayIndex == replay.count {
            replay = []
            replayIndex = 0
        }
        try feed(next)
        return true
    }

    /// Runs the pipeline with output discarded until the nesting depth,
    /// starting at `depth`, comes back to zero (or the input ends).
    func drain(fromDepth depth: Int) throws(EasyBakeError) {
        discarding = true
        discardDepth = depth
        defer { discarding = false }
        while discarding {
            if try feedReplayedNode() { continue }
            if finished { return }
            try pull()
        }
    }

    func readAndDiscard() throws(EasyBakeError) {
        try IngredientEvent.skipValue(reading: next)
    }

    /// Input bytes libyaml has consumed.
    var bytesRead: Int { startOffset + parser.pointee.offset }

    /// A sequence or a mapping begins (`event`, its start): one rule for
    /// both, its layout checked, its anchor recorded, an unknown tag's
    /// wrapper opened.
    private func beginCollection(_ event: yaml_event_t) throws(EasyBakeError) {
        let mapping = event.type == YAML_MAPPING_START_EVENT
        let flow: Bool
        let anchor: UnsafeMutablePointer<yaml_char_t>?
        let tag: UnsafeMutablePointer<yaml_char_t>?
        if mapping {
            flow = event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
            (anchor, tag) = (event.data.mapping_start.anchor, event.data.mapping_start.tag)
        } else {
            flow = event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
            (anchor, tag) = (event.data.sequence_start.anchor, event.data.sequence_start.tag)
        }
        try enterLayout(flow: flow, event)
        startRecording(anchor)
        try beginWrapper(containerTag: tag)
        let displayed = Self.displayTag(tag)
        try feed(mapping ? .beginMapping(tag: displayed) : .beginSequence(tag: displayed))
    }

    /// A sequence or a mapping ends (`end` is its end node), and the wrapper
    /// of its unknown tag with it.
    private func endCollection(_ end: YAMLNodeEvent) throws(EasyBakeError) {
        try leaveLayout()
        let depth = frames.count
        try feed(end)
        try endWrapper(depth)
    }

    /// A node's tag as written in a reader's terms (see
    /// ``YAMLScalarResolver/display(tag:)``), `nil` for an untagged node.
    static func displayTag(_ tag: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let tag else { return nil }
        return YAMLScalarResolver.display(tag: String(cString: tag))
    }

    /// Parses one libyaml event and feeds it on.
    func pull() throws(EasyBakeError) {
        guard yaml_parser_parse(parser, event) == 1 else { throw parserError() }
        defer { yaml_event_delete(event) }
        let current = event.pointee
        assert(
            current.start_mark.index <= current.end_mark.index
                && (current.start_mark.line, current.start_mark.column)
                    <= (current.end_mark.line, current.end_mark.column),
            "an event that ends before it starts")
        // Marks count characters; the reader's offset counts the bytes of
        // at least as many.
        assert(current.end_mark.index <= parser.pointee.offset, "an event past the bytes libyaml has read")
        markLine = startLine + current.start_mark.line
        markColumn = current.start_mark.column
        switch current.type {
        case YAML_STREAM_START_EVENT:
            if options.documents == .all { try feed(.beginSequence(tag: nil)) }
        case YAML_STREAM_END_EVENT:
            finished = true
            switch options.documents {
            case .all: try feed(.endSequence)
            case .single where documentCount == 0:
                emit(.scalar(YAMLScalar(value: .null, text: "", isMergeKey: false)), asKey: false)
            case .single where documentCount > 1:
                throw multipleDocumentsError()
            case .document(let chosen) where chosen >= documentCount || chosen < 0:
                let held = documentCount == 1 ? "1 document" : "\(documentCount) documents"
                throw EasyBakeError(
                    .valueNotFound,
                    "the YAML stream holds \(held); there is no document \(chosen) (documents count from 0)",
                    location: currentLocation())
            default: break
            }
        case YAML_DOCUMENT_START_EVENT:
            let start = current.data.document_start
            assert(
                (start.tag_directives.start == nil) == (start.tag_directives.end == nil)
                    && (start.tag_directives.start.map { $0 <= start.tag_directives.end! } ?? true),
                "a document's tag directives that end before they start")
            if previousEndImplicit,
                start.version_directive != nil || start.tag_directives.start != start.tag_directives.end
            {
                // libyaml 0.2.5 lets this through; YAML 1.2 does not.
                throw EasyBakeError.syntax(
                    "a directive (%YAML, %TAG) after a document needs a document end marker (...) before it",
                    at: currentLocation())
            }
            documentCount += 1
            switch options.documents {
            case .single where documentCount == 2:
                // Parsed to the end, to count the documents and report any
                // syntax error first; then the stream is refused.
                secondDocumentMark = (markLine, markColumn)
                droppingDocument = true
            case .document(let chosen):
                droppingDocument = documentCount - 1 != chosen
            default: break
            }
        case YAML_DOCUMENT_END_EVENT:
            previousEndImplicit = current.data.document_end.implicit != 0
            anchors.removeAll()
        case YAML_SCALAR_EVENT:
            let data = current.data.scalar
            // libyaml allocates every scalar's value, an empty one too.
            assert(data.value != nil && data.length >= 0, "a scalar without its value")
            if !layout.isEmpty { try checkFlowIndentation() }
            let plain = data.style == YAML_PLAIN_SCALAR_STYLE
            if plain, data.length == 1, data.value?.pointee == UInt8(ascii: "-"), !isFollowedByValueIndicator {
                try rejectLoneDash()
            }
            if discarding || droppingDocument, data.anchor == nil, data.tag == nil, recordings.isEmpty,
                captures.isEmpty,
                data.length <= options.limits.maximumNumberLength
            {
                // Skipping: nothing will look at this scalar's value.
                try feed(.scalar(placeholder(value: data.value, length: data.length, plain: plain)))
                return
            }
            if data.tag == nil, data.anchor == nil {
                // The common case, kept lean: a key needs only its text, a
                // value only its value (an anchored scalar may be replayed in
                // either place, so it takes the full path below).
                try feed(.scalar(fastScalar(value: data.value, length: data.length, plain: plain)))
                return
            }
            var unknownTag: String?
            var scalar = try makeScalar(
                value: data.value, length: data.length, tag: data.tag, plain: plain, unknownTag: &unknownTag)
            scalar.tag = Self.displayTag(data.tag)
            startRecording(data.anchor)
            if let unknownTag, options.unknownTags == .wrap, !inKeyPosition {
                // `!Ref x` reads as {"!Ref": "x"}: the tag stays visible.
                try feed(.beginMapping(tag: nil))
                try feed(.scalar(YAMLScalar(value: .string(unknownTag), text: unknownTag, isMergeKey: false)))
                try feed(.scalar(scalar))
                try feed(.endMapping)
            } else {
                try feed(.scalar(scalar))
            }
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            try beginCollection(current)
        case YAML_SEQUENCE_END_EVENT:
            try endCollection(.endSequence)
        case YAML_MAPPING_END_EVENT:
            try endCollection(.endMapping)
        case YAML_ALIAS_EVENT:
            if !layout.isEmpty { try checkFlowIndentation() }
            try startReplay(name(current.data.alias.anchor))
        default:
            break
        }
    }
}

extension YAMLNodeEvent {
    var isMapping: Bool { if case .beginMapping = self { true } else { false } }
}

/// The chunked input, handed to libyaml's read callback.
final class ChunkBox {
    var reader: ChunkReader
    let maximumBytes: Int
    var total = 0
    /// The error that stopped reading, reported instead of libyaml's.
    private(set) var error: EasyBakeError?

    init(reader: consuming ChunkReader, maximumBytes: Int) {
        self.reader = reader
        self.maximumBytes = maximumBytes
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, count: UnsafeMutablePointer<Int>) -> Bool {
        do {
            let read = try reader.read(into: buffer)
            // libyaml offered `buffer.count` bytes: no more are read into it.
            assert(read >= 0 && read <= buffer.count, "more bytes read than libyaml has room for")
            total += read
            if total > maximumBytes {
                error = EasyBakeError.limit(.maximumInputBytes, maximumBytes, at: nil)
                return false
            }
            count.pointee = read
            return true
        } catch {
            self.error = error
            return false
        }
    }
}
