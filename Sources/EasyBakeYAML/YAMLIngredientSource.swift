internal import CYAML
import EasyBake

/// An `IngredientSource` that reads YAML with the system libyaml, turning
/// its parser events straight into `IngredientEvent`s — no node tree is
/// built, and files and standard input are read in chunks.
///
/// ```swift
/// var source = try YAMLIngredientSource(.file("config.yaml"))
/// let config = try Ingredients(reading: &source)
/// ```
///
/// What it does beyond libyaml's events:
/// - **Scalars** resolve by ``YAMLReadingOptions/schema`` (YAML 1.2 core by
///   default); quoted and block scalars are strings; the standard tags
///   `!!str`, `!!int`, `!!float`, `!!bool`, `!!null`, `!!binary` (its base64
///   text as written) and `!!timestamp` (text) are honoured. A node with an
///   unknown tag keeps its kind by default — a scalar is its text as a
///   string, a sequence an array, a mapping a dictionary — and its tag is
///   given by ``currentTag``; wrapping the node as `{"!Tag": node}` or
///   refusing it are options (see ``YAMLReadingOptions/unknownTags``).
/// - **Aliases** replay the events of their anchored node. Every replayed
///   event counts against `IngredientLimits.maximumExpansion`, so an alias
///   bomb fails fast with `EasyBakeError.Code.limitExceeded` in bounded
///   memory. An alias to an undefined anchor, or to the node that contains
///   it, is a syntax error.
/// - **Merge keys** (`<<: *base`, `<<: [*a, *b]`, or an inline mapping) add
///   the entries of the merged mappings that the mapping does not define
///   itself; among several merged mappings the earlier one wins. Merged
///   entries follow the mapping's own entries. A merge key must come among a
///   mapping's first 1,024 keys (its own keys are remembered only that far).
/// - **Keys** that are scalars of another type become their text (`1: a`
///   reads as key `"1"`); a key that is a sequence or mapping is an error
///   (`EasyBakeError.Code.unsupported`).
/// - **Documents**: one by default, and a stream of several is an error
///   that says how many there are; every document as an array, each in
///   turn, or one chosen by its index on request (see
///   ``YAMLReadingOptions/documents``). The whole stream is parsed either
///   way, so a syntax error in any document is reported.
/// - **Depth** is counted from the events and stops at
///   `IngredientLimits.maximumDepth` — libyaml has no limit of its own.
/// - **Stricter than libyaml** where its events tell: a lone plain `-`
///   (`[-]`), flow content on a new line indented no more than its block
///   collection, and a directive after a document without `...` are syntax
///   errors, as YAML 1.2 says and libyaml 0.2.5 does not check.
/// - **Skipping** (``skipValue()``) drains libyaml's events without
///   resolving or copying scalars.
///
/// Copies of a source share one parser; use each source from one place.
public struct YAMLIngredientSource: IngredientSource, ProgressReporting {
    private let engine: YAMLEngine

    /// A source that reads `input` with `options`.
    ///
    /// Files and standard input are read in chunks; bytes and text are
    /// parsed in place.
    ///
    /// - Throws: `EasyBakeError.Code.io` when the input cannot be opened.
    public init(_ input: IngredientInput, options: YAMLReadingOptions = .init()) throws(EasyBakeError) {
        engine = try YAMLEngine(input: input, options: options)
    }

    /// A source that reads YAML text.
    ///
    /// - Throws: `EasyBakeError.Code.limitExceeded` when the text is longer
    ///   than `limits.maximumInputBytes` of `options`, `EasyBakeError.Code.io`
    ///   when libyaml cannot allocate a parser.
    public init(text: String, options: YAMLReadingOptions = .init()) throws(EasyBakeError) {
        engine = try YAMLEngine(input: .text(text), options: options)
    }

    public mutating func next() throws(EasyBakeError) -> IngredientEvent? {
        try engine.next()
    }

    /// Skips the value the next ``next()`` would begin, without converting
    /// its scalars: libyaml's events are drained, nesting and merge keys are
    /// tracked, but plain scalars are not resolved by the schema and values
    /// are not turned into strings.
    ///
    /// What reading would check is still checked: libyaml's syntax errors,
    /// the depth limit, aliases to undefined anchors and the expansion
    /// budget, tagged scalars that do not fit their tag. An anchor defined
    /// inside the skipped value is recorded in full, so that an alias after
    /// it still resolves.
    ///
    /// - Throws: `EasyBakeError` as ``next()`` would for the skipped input.
    public mutating func skipValue() throws(EasyBakeError) {
        try engine.skipValue()
    }

    /// Skips the rest of the container whose beginning was the last event
    /// read, up to and including its end — natively, as ``skipValue()``
    /// skips, with the same checks.
    ///
    /// - Throws: `EasyBakeError` as ``next()`` would for the skipped input.
    public mutating func skipRestOfContainer() throws(EasyBakeError) {
        try engine.skipRestOfContainer()
    }

    public var location: SourceLocation { engine.currentLocation() }

    /// The tag of the node whose event ``next()`` returned last — a
    /// `.scalar`, a `.key`, or the `.beginDictionary` or `.beginArray` of a
    /// mapping or sequence — as written: `!Ref` for a local tag, `!!str` for
    /// one of YAML's own, `!<tag:example.com,2024:x>` for any other global
    /// tag, `!` for the non-specific tag. `nil` for an untagged node, for
    /// the end of a container, and after a skip.
    ///
    /// Events do not carry tags (every format shares them), so a consumer
    /// that acts on tags — CloudFormation's `!Ref`, `!GetAtt`, `!Sub` —
    /// reads the source's events itself and asks here, whatever
    /// ``YAMLReadingOptions/unknownTags`` says. A node read again through an
    /// alias, or merged in by `<<`, has the tag of the anchored node.
    ///
    /// ```swift
    /// var source = try YAMLIngredientSource(text: "bucket: !Ref Logs\n")
    /// while let event = try source.next() {
    ///     if case .scalar(let value) = event, source.currentTag == "!Ref" {
    ///         print("reference to", value)   // reference to "Logs"
    ///     }
    /// }
    /// ```
    public var currentTag: String? { engine.currentTag }

    /// The line and column libyaml reports, with the excerpt read only when
    /// the location is asked for: finding a line's text means reading the
    /// input again from the start.
    public var mark: SourceMark { engine.currentMark() }

    /// How many bytes of input libyaml has consumed so far, for progress
    /// reporting. libyaml reads a little ahead of the events it has returned.
    public var bytesRead: Int { engine.bytesRead }

    public var duplicateKeyPolicy: DuplicateKeyPolicy { engine.options.duplicateKeys }

    /// The limits the source reads under (``YAMLReadingOptions/limits``).
    public var limits: IngredientLimits { engine.options.limits }

    /// `false`: a YAML stream is read to its end, so that a syntax error in
    /// any document is reported, and — read as one document
    /// (``YAMLReadingOptions/Documents/single``) — a second document is
    /// found, which is an error.
    public var allowsStoppingEarly: Bool { false }
}

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
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let event: UnsafeMutablePointer<yaml_event_t>
    private let sourceName: String
    /// The whole input, when it is in memory: parsed in place, and used for
    /// error excerpts.
    private let bytes: LoadedBytes?
    /// The input of chunked reading (files and standard input).
    private let chunks: ChunkBox?
    private let filePath: String?

    private struct Frame {
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
    private struct Capture {
        var buffer: [YAMLNodeEvent] = []
        /// The frame count at which the merge value ends.
        var depth: Int
    }

    /// An anchored node being recorded.
    private struct Recording {
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
    @exclusivity(unchecked) private var frames: [Frame] = []
    @exclusivity(unchecked) private var keyStack: [String] = []
    @exclusivity(unchecked) private var captures: [Capture] = []
    @exclusivity(unchecked) private var recordings: [Recording] = []
    /// Events of the output level while a recording is open there.
    @exclusivity(unchecked) private var recordBuffer: [YAMLNodeEvent] = []
    @exclusivity(unchecked) private var anchors: [String: [YAMLNodeEvent]] = [:]
    @exclusivity(unchecked) private var expansion = 0

    @exclusivity(unchecked) private var output: [IngredientEvent] = []
    /// The tags of the events in `output`, index for index; empty while
    /// none of them has one.
    @exclusivity(unchecked) private var outputTags: [String?] = []
    /// The tag of the node whose event ``next()`` returned last.
    @exclusivity(unchecked) private(set) var currentTag: String?
    @exclusivity(unchecked) private var outputHead = 0
    @exclusivity(unchecked) private var replay: [YAMLNodeEvent] = []
    @exclusivity(unchecked) private var replayIndex = 0

    /// The depths of containers with an unknown tag, each wrapped in a
    /// single-key mapping whose end follows the container's.
    @exclusivity(unchecked) private var wrappers: [Int] = []

    /// Skipping: events are tracked but not output.
    @exclusivity(unchecked) private var discarding = false
    @exclusivity(unchecked) private var discardDepth = 0

    @exclusivity(unchecked) private var documentCount = 0
    /// Read as one document: the first document's value is complete, and
    /// the rest of the stream must be parsed before its last event is
    /// handed out, so that a second document is an error to every reader —
    /// also one that takes a single value and never asks for the end
    /// (`PathMatcher.resolve(from:)`, `Ingredients.read(from:)`).
    @exclusivity(unchecked) private var singleDocumentComplete = false
    /// Whether the current document is parsed but not output (another
    /// document was chosen, or a second one met where one is expected).
    @exclusivity(unchecked) private var droppingDocument = false
    /// Where the second document begins, for the error of a stream read as
    /// one document.
    @exclusivity(unchecked) private var secondDocumentMark: (line: Int, column: Int)?
    /// Whether the last document ended without `...`.
    @exclusivity(unchecked) private var previousEndImplicit = false
    /// The input's open collections: a block collection's start column, or
    /// -1 for a flow collection.
    @exclusivity(unchecked) private var layout: [Int] = []
    @exclusivity(unchecked) private var flowLevel = 0
    @exclusivity(unchecked) private var finished = false
    @exclusivity(unchecked) private var markLine = 0
    @exclusivity(unchecked) private var markColumn = 0

    /// Keys remembered per mapping before a merge key is seen.
    static let rememberedKeys = 1024

    init(input: IngredientInput, options: YAMLReadingOptions) throws(EasyBakeError) {
        self.options = options
        sourceName = input.name
        filePath = input.filePath
        if !input.isInMemory {
            bytes = nil
            chunks = ChunkBox(reader: try input.openReader(), maximumBytes: options.limits.maximumInputBytes)
        } else {
            let loaded = try input.loadBytes()
            if loaded.buffer.count > options.limits.maximumInputBytes {
                throw EasyBakeError.limit(
                    "maximumInputBytes", options.limits.maximumInputBytes,
                    at: SourceLocation.locate(offset: options.limits.maximumInputBytes, in: loaded.buffer, sourceName: input.name))
            }
            bytes = loaded
            chunks = nil
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
            let buffer = bytes.buffer
            let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
            // libyaml reads a non-null pointer even for empty input.
            yaml_parser_set_input_string(parser, base.map { UnsafePointer($0) } ?? ("" as StaticString).utf8Start, buffer.count)
        } else if let chunks {
            yaml_parser_set_input(parser, { data, buffer, size, sizeRead in
                guard let data, let buffer, let sizeRead else { return 0 }
                let box = Unmanaged<ChunkBox>.fromOpaque(data).takeUnretainedValue()
                return box.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size), count: sizeRead) ? 1 : 0
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
            if replayIndex < replay.count {
                let next = replay[replayIndex]
                replayIndex += 1
                if replayIndex == replay.count {
                    replay = []
                    replayIndex = 0
                }
                try feed(next)
                continue
            }
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
    private func checkRestOfStream() throws(EasyBakeError) {
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
                switch event {
                case .beginArray, .beginDictionary: depth += 1
                case .endArray, .endDictionary: depth -= 1
                case .key, .scalar: break
                }
            }
            return
        }
        try drain(fromDepth: 1)
        if singleDocumentComplete { try checkRestOfStream() }
        if discardDepth > 0 {
            throw EasyBakeError.syntax("unexpected end of input inside a container", at: currentLocation())
        }
    }

    /// Runs the pipeline with output discarded until the nesting depth,
    /// starting at `depth`, comes back to zero (or the input ends).
    private func drain(fromDepth depth: Int) throws(EasyBakeError) {
        discarding = true
        discardDepth = depth
        defer { discarding = false }
        while discarding {
            if replayIndex < replay.count {
                let next = replay[replayIndex]
                replayIndex += 1
                if replayIndex == replay.count {
                    replay = []
                    replayIndex = 0
                }
                try feed(next)
                continue
            }
            if finished { return }
            try pull()
        }
    }

    private func readAndDiscard() throws(EasyBakeError) {
        var depth = 0
        repeat {
            guard let event = try next() else { return }
            switch event {
            case .beginArray, .beginDictionary: depth += 1
            case .endArray, .endDictionary: depth -= 1
            case .key, .scalar: break
            }
        } while depth > 0
    }

    /// Input bytes libyaml has consumed.
    var bytesRead: Int { parser.pointee.offset }

    /// A node's tag as written in a reader's terms (see
    /// ``YAMLScalarResolver/display(tag:)``), `nil` for an untagged node.
    private static func displayTag(_ tag: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let tag else { return nil }
        return YAMLScalarResolver.display(tag: String(cString: tag))
    }

    /// Parses one libyaml event and feeds it on.
    private func pull() throws(EasyBakeError) {
        guard yaml_parser_parse(parser, event) == 1 else { throw parserError() }
        defer { yaml_event_delete(event) }
        let current = event.pointee
        markLine = current.start_mark.line
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
            if previousEndImplicit, start.version_directive != nil || start.tag_directives.start != start.tag_directives.end {
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
            if !layout.isEmpty { try checkFlowIndentation() }
            let plain = data.style == YAML_PLAIN_SCALAR_STYLE
            if plain, data.length == 1, data.value?.pointee == UInt8(ascii: "-") {
                // libyaml 0.2.5 reads `[-]` as a plain "-"; YAML forbids a
                // plain scalar that starts with "-" followed by a space,
                // a line break or a flow indicator.
                throw EasyBakeError.syntax(
                    #"a plain scalar cannot be a lone "-" (quote it, or write a sequence entry as "- value")"#,
                    at: currentLocation())
            }
            if discarding || droppingDocument, data.anchor == nil, data.tag == nil, recordings.isEmpty, captures.isEmpty,
               data.length <= options.limits.maximumNumberLength {
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
            var scalar = try makeScalar(value: data.value, length: data.length, tag: data.tag, plain: plain, unknownTag: &unknownTag)
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
        case YAML_SEQUENCE_START_EVENT:
            try enterLayout(flow: current.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE)
            startRecording(current.data.sequence_start.anchor)
            try beginWrapper(containerTag: current.data.sequence_start.tag)
            try feed(.beginSequence(tag: Self.displayTag(current.data.sequence_start.tag)))
        case YAML_SEQUENCE_END_EVENT:
            leaveLayout()
            let depth = frames.count
            try feed(.endSequence)
            try endWrapper(depth)
        case YAML_MAPPING_START_EVENT:
            try enterLayout(flow: current.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE)
            startRecording(current.data.mapping_start.anchor)
            try beginWrapper(containerTag: current.data.mapping_start.tag)
            try feed(.beginMapping(tag: Self.displayTag(current.data.mapping_start.tag)))
        case YAML_MAPPING_END_EVENT:
            leaveLayout()
            let depth = frames.count
            try feed(.endMapping)
            try endWrapper(depth)
        case YAML_ALIAS_EVENT:
            if !layout.isEmpty { try checkFlowIndentation() }
            try startReplay(name(current.data.alias.anchor))
        default:
            break
        }
    }

    // MARK: Indentation of flow content

    /// Enters a collection of the input (not of a replay): records the column
    /// of a block collection, or counts a flow one.
    @inline(__always)
    private func enterLayout(flow: Bool) throws(EasyBakeError) {
        if !layout.isEmpty { try checkFlowIndentation() }
        if flow {
            flowLevel += 1
            layout.append(-1)
        } else {
            layout.append(markColumn)
        }
    }

    @inline(__always)
    private func leaveLayout() {
        if layout.popLast() == -1 { flowLevel -= 1 }
    }

    /// Flow content continued on a later line must be indented more than the
    /// block collection around it (`key: [a,\nb]` is invalid); libyaml 0.2.5
    /// does not check this.
    @inline(__always)
    private func checkFlowIndentation() throws(EasyBakeError) {
        guard flowLevel > 0 else { return }
        guard let block = layout.last(where: { $0 >= 0 }) else { return }
        if markColumn <= block {
            throw EasyBakeError.syntax(
                "flow content on a new line must be indented more than the block collection it is in (column \(block + 1))",
                at: currentLocation())
        }
    }

    private func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    /// Whether the next node stands as a mapping key.
    private var inKeyPosition: Bool {
        guard let top = frames.last else { return false }
        return top.isMapping && top.expectingKey
    }

    /// An untagged, unanchored scalar: its text in key position, its value
    /// otherwise.
    @inline(__always)
    private func fastScalar(value: UnsafeMutablePointer<yaml_char_t>?, length: Int, plain: Bool) throws(EasyBakeError) -> YAMLScalar {
        if length > options.limits.maximumStringBytes {
            throw EasyBakeError.limit("maximumStringBytes", options.limits.maximumStringBytes, at: currentLocation())
        }
        let raw = UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : length)
        if inKeyPosition {
            let isMergeKey = plain && length == 2 && raw[0] == UInt8(ascii: "<") && raw[1] == UInt8(ascii: "<")
            return YAMLScalar(value: .null, text: String(decoding: raw, as: UTF8.self), isMergeKey: isMergeKey)
        }
        guard plain else { return YAMLScalar(value: .string(String(decoding: raw, as: UTF8.self)), text: "", isMergeKey: false) }
        if length > options.limits.maximumNumberLength, let first = raw.first,
           YAMLScalarResolver.isDigit(first) || first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            if YAMLScalarResolver.number(raw) != nil {
                throw EasyBakeError.limit("maximumNumberLength", options.limits.maximumNumberLength, at: currentLocation())
            }
        }
        return YAMLScalar(value: YAMLScalarResolver.resolvePlain(raw, schema: options.schema), text: "", isMergeKey: false)
    }

    /// A scalar that is being skipped: a key keeps its text (merge keys need
    /// it to decide which merged entries a mapping overrides), a value is
    /// neither resolved nor turned into a string.
    @inline(__always)
    private func placeholder(value: UnsafeMutablePointer<yaml_char_t>?, length: Int, plain: Bool) throws(EasyBakeError) -> YAMLScalar {
        if length > options.limits.maximumStringBytes {
            throw EasyBakeError.limit("maximumStringBytes", options.limits.maximumStringBytes, at: currentLocation())
        }
        guard inKeyPosition else { return YAMLScalar(value: .null, text: "", isMergeKey: false) }
        let raw = UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : length)
        let isMergeKey = plain && length == 2 && raw[0] == UInt8(ascii: "<") && raw[1] == UInt8(ascii: "<")
        return YAMLScalar(value: .null, text: String(decoding: raw, as: UTF8.self), isMergeKey: isMergeKey)
    }

    /// For a container with a tag EasyBake does not know: opens the
    /// single-key mapping that keeps the tag visible (or throws, if unknown
    /// tags are rejected).
    private func beginWrapper(containerTag tag: UnsafeMutablePointer<yaml_char_t>?) throws(EasyBakeError) {
        guard let tag else { return }
        let tagName = String(cString: tag)
        guard !YAMLScalarResolver.isKnownContainerTag(tagName) else { return }
        switch options.unknownTags {
        case .value:
            return
        case .reject:
            throw EasyBakeError(.unsupported, "unknown tag \(YAMLScalarResolver.display(tag: tagName))", location: currentLocation())
        case .wrap:
            // A tagged key is an error either way: let feed() report it.
            if inKeyPosition { return }
            let key = YAMLScalarResolver.display(tag: tagName)
            try feed(.beginMapping(tag: nil))
            try feed(.scalar(YAMLScalar(value: .string(key), text: key, isMergeKey: false)))
            wrappers.append(frames.count + 1)
        }
    }

    /// Closes the wrapper of a container that ended at `depth`, if it has one.
    @inline(__always)
    private func endWrapper(_ depth: Int) throws(EasyBakeError) {
        if let last = wrappers.last, last == depth {
            wrappers.removeLast()
            try feed(.endMapping)
        }
    }

    private func makeScalar(
        value: UnsafeMutablePointer<yaml_char_t>?, length: Int, tag: UnsafeMutablePointer<yaml_char_t>?, plain: Bool,
        unknownTag: inout String?
    ) throws(EasyBakeError) -> YAMLScalar {
        if length > options.limits.maximumStringBytes {
            throw EasyBakeError.limit("maximumStringBytes", options.limits.maximumStringBytes, at: currentLocation())
        }
        let raw = UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : length)
        let text = String(decoding: raw, as: UTF8.self)
        if let tag {
            let tagName = String(cString: tag)
            if tagName == YAMLScalarResolver.tagPrefix + "merge" {
                return YAMLScalar(value: .string(text), text: text, isMergeKey: true)
            }
            let resolved: Ingredients?
            do {
                resolved = try YAMLScalarResolver.resolveTagged(raw, text: text, tag: tagName, schema: options.schema)
            } catch var error {
                error.location = currentLocation()
                throw error
            }
            if let resolved { return YAMLScalar(value: resolved, text: text, isMergeKey: false) }
            let shown = YAMLScalarResolver.display(tag: tagName)
            switch options.unknownTags {
            case .reject:
                throw EasyBakeError(.unsupported, "unknown tag \(shown)", location: currentLocation())
            case .wrap:
                unknownTag = shown
            case .value:
                break
            }
            // A tagged scalar is not resolved by the schema (YAML 1.2 §3.3.2:
            // only untagged plain scalars are): the value as if untagged
            // would be a guess; the text is what was written.
            return YAMLScalar(value: .string(text), text: text, isMergeKey: false)
        }
        guard plain else { return YAMLScalar(value: .string(text), text: text, isMergeKey: false) }
        if length > options.limits.maximumNumberLength, let first = raw.first,
           YAMLScalarResolver.isDigit(first) || first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            if YAMLScalarResolver.number(raw) != nil {
                throw EasyBakeError.limit("maximumNumberLength", options.limits.maximumNumberLength, at: currentLocation())
            }
        }
        let resolved = YAMLScalarResolver.resolvePlain(raw, text: text, schema: options.schema)
        return YAMLScalar(value: resolved, text: text, isMergeKey: length == 2 && text == "<<")
    }

    // MARK: Context

    /// Takes one node event, in its context: keys, merge keys, depth.
    private func feed(_ node: YAMLNodeEvent) throws(EasyBakeError) {
        switch node {
        case .scalar(let scalar):
            if let top = frames.indices.last, frames[top].isMapping, frames[top].expectingKey {
                frames[top].expectingKey = false
                if scalar.isMergeKey {
                    try beginMerge(inFrame: top)
                    return
                }
                rememberKey(scalar.text, inFrame: top)
                emit(node, asKey: true)
                try completed(key: true)
            } else {
                emit(node, asKey: false)
                try completed(key: false)
            }
        case .beginMapping, .beginSequence:
            if let top = frames.last, top.isMapping, top.expectingKey {
                throw EasyBakeError(
                    .unsupported, "a mapping key must be a scalar, found a \(node.isMapping ? "mapping" : "sequence")",
                    location: currentLocation())
            }
            if frames.count >= options.limits.maximumDepth {
                throw EasyBakeError.limit("maximumDepth", options.limits.maximumDepth, at: currentLocation())
            }
            frames.append(Frame(isMapping: node.isMapping, keyStart: keyStack.count))
            emit(node, asKey: false)
        case .endMapping:
            guard let frame = frames.last else { return }
            if !frame.merges.isEmpty { try emitMerged(frame) }
            keyStack.removeLast(keyStack.count - frame.keyStart)
            frames.removeLast()
            emit(node, asKey: false)
            try completed(key: false)
        case .endSequence:
            frames.removeLast()
            emit(node, asKey: false)
            try completed(key: false)
        }
    }

    @inline(__always)
    private func rememberKey(_ key: String, inFrame top: Int) {
        if frames[top].merging || keyStack.count - frames[top].keyStart < Self.rememberedKeys {
            keyStack.append(key)
        } else {
            frames[top].keysOverflowed = true
        }
    }

    /// Routes an event to the innermost capture, or to the output (and the
    /// recordings open there).
    @inline(__always)
    private func emit(_ node: YAMLNodeEvent, asKey: Bool) {
        if !captures.isEmpty {
            captures[captures.count - 1].buffer.append(node)
            return
        }
        if !recordings.isEmpty { recordBuffer.append(node) }
        // A document not chosen is parsed and checked, but none of it is output.
        if droppingDocument { return }
        if discarding {
            switch node {
            case .beginMapping, .beginSequence: discardDepth += 1
            case .endMapping, .endSequence: discardDepth -= 1
            case .scalar: break
            }
            // The skipped value is complete (or the skip met an end or a key,
            // which, like reading, it consumes).
            if discardDepth <= 0 { discarding = false }
            return
        }
        let tag: String?
        switch node {
        case .beginMapping(let nodeTag):
            output.append(.beginDictionary)
            tag = nodeTag
        case .endMapping:
            output.append(.endDictionary)
            tag = nil
        case .beginSequence(let nodeTag):
            output.append(.beginArray)
            tag = nodeTag
        case .endSequence:
            output.append(.endArray)
            tag = nil
        case .scalar(let scalar):
            output.append(asKey ? .key(scalar.text) : .scalar(scalar.value))
            tag = scalar.tag
        }
        // `outputTags` is empty while no queued event has a tag.
        if tag != nil || !outputTags.isEmpty {
            if outputTags.isEmpty { outputTags = Array(repeating: nil, count: output.count - 1) }
            outputTags.append(tag)
        }
    }

    /// Called after a node ends: closes the recordings and the merge capture
    /// that end with it, and moves its mapping on to the next key.
    private func completed(key: Bool) throws(EasyBakeError) {
        let depth = frames.count
        if depth == 0, captures.isEmpty, !droppingDocument, options.documents == .single, documentCount == 1 {
            singleDocumentComplete = true
        }
        while let last = recordings.last, last.level == captures.count, last.depth == depth {
            recordings.removeLast()
            let events: [YAMLNodeEvent]
            if last.level == 0 {
                events = Array(recordBuffer[last.start...])
                if !recordings.contains(where: { $0.level == 0 }) { recordBuffer.removeAll(keepingCapacity: true) }
            } else {
                events = Array(captures[last.level - 1].buffer[last.start...])
            }
            anchors[last.name] = events
        }
        if let capture = captures.last, capture.depth == depth {
            captures.removeLast()
            try endMerge(capture.buffer, inFrame: depth - 1)
        }
        if !key, let top = frames.indices.last, frames[top].isMapping { frames[top].expectingKey = true }
    }

    // MARK: Anchors and aliases

    private func startRecording(_ anchor: UnsafeMutablePointer<yaml_char_t>?) {
        guard let anchor else { return }
        let level = captures.count
        let start = level == 0 ? recordBuffer.count : captures[level - 1].buffer.count
        recordings.append(Recording(name: String(cString: anchor), level: level, depth: frames.count, start: start))
    }

    private func startReplay(_ name: String) throws(EasyBakeError) {
        guard let events = anchors[name] else {
            if recordings.contains(where: { $0.name == name }) {
                throw EasyBakeError.syntax("alias *\(name) refers to a node that contains it", at: currentLocation())
            }
            throw EasyBakeError.syntax("alias *\(name) refers to an undefined anchor", at: currentLocation())
        }
        expansion += events.count
        if expansion > options.limits.maximumExpansion {
            throw EasyBakeError(
                .limitExceeded,
                "maximumExpansion limit of \(options.limits.maximumExpansion) exceeded (alias *\(name) would replay \(events.count) more events)",
                location: currentLocation())
        }
        if events.count == 1 {
            // A scalar: no need to go through the replay queue.
            try feed(events[0])
        } else {
            replay = events
            replayIndex = 0
        }
    }

    // MARK: Merge keys

    private func beginMerge(inFrame top: Int) throws(EasyBakeError) {
        if frames[top].keysOverflowed {
            throw EasyBakeError(
                .unsupported,
                "a merge key must come among the first \(Self.rememberedKeys) keys of its mapping",
                location: currentLocation())
        }
        frames[top].merging = true
        captures.append(Capture(depth: frames.count))
    }

    /// Checks the captured value of a merge key and keeps its mappings for
    /// the end of the mapping.
    private func endMerge(_ buffer: [YAMLNodeEvent], inFrame top: Int) throws(EasyBakeError) {
        let problem = "the value of a merge key (<<) must be a mapping or a sequence of mappings"
        guard let first = buffer.first else { return }
        switch first {
        case .beginMapping:
            frames[top].merges.append(buffer[...])
        case .beginSequence:
            var i = 1
            while i < buffer.count - 1 {
                guard case .beginMapping = buffer[i] else { throw EasyBakeError.syntax(problem, at: currentLocation()) }
                let end = Self.endOfNode(buffer[...], from: i)
                frames[top].merges.append(buffer[i..<end])
                i = end
            }
        default:
            throw EasyBakeError.syntax(problem, at: currentLocation())
        }
    }

    /// The index after the node that starts at `start`.
    private static func endOfNode(_ events: ArraySlice<YAMLNodeEvent>, from start: Int) -> Int {
        var depth = 0
        var i = start
        repeat {
            switch events[i] {
            case .beginMapping, .beginSequence: depth += 1
            case .endMapping, .endSequence: depth -= 1
            case .scalar: break
            }
            i += 1
        } while depth > 0 && i < events.endIndex
        return i
    }

    /// Emits the merged entries whose keys the mapping does not have, the
    /// earlier merged mapping winning.
    private func emitMerged(_ frame: Frame) throws(EasyBakeError) {
        var seen = Set(keyStack[frame.keyStart...])
        for mapping in frame.merges {
            var i = mapping.startIndex + 1
            let end = mapping.endIndex - 1
            while i < end {
                guard case .scalar(let key) = mapping[i] else { break }
                let valueEnd = Self.endOfNode(mapping, from: i + 1)
                if seen.insert(key.text).inserted {
                    expansion += valueEnd - i
                    if expansion > options.limits.maximumExpansion {
                        throw EasyBakeError.limit("maximumExpansion", options.limits.maximumExpansion, at: currentLocation())
                    }
                    emit(mapping[i], asKey: true)
                    emitValue(mapping[(i + 1)..<valueEnd])
                }
                i = valueEnd
            }
        }
    }

    /// Emits one captured value, telling the keys of its nested mappings
    /// from their values (captured events do not record which is which).
    private func emitValue(_ events: ArraySlice<YAMLNodeEvent>) {
        // Per open container: 0 a sequence, 1 a mapping awaiting a key, 2 one awaiting a value.
        var stack: [UInt8] = []
        for event in events {
            let top = stack.last
            emit(event, asKey: top == 1)
            switch event {
            case .beginMapping, .beginSequence:
                if top == 2 { stack[stack.count - 1] = 1 }
                stack.append(event.isMapping ? 1 : 0)
            case .endMapping, .endSequence:
                stack.removeLast()
            case .scalar:
                if top == 1 { stack[stack.count - 1] = 2 } else if top == 2 { stack[stack.count - 1] = 1 }
            }
        }
    }

    // MARK: Locations and errors

    func currentLocation() -> SourceLocation {
        location(line: markLine, column: markColumn)
    }

    func currentMark() -> SourceMark {
        let (line, column, bytes, filePath, sourceName) = (markLine, markColumn, bytes, filePath, sourceName)
        return SourceMark {
            Self.location(line: line, column: column, bytes: bytes, filePath: filePath, sourceName: sourceName)
        }
    }

    private func location(line: Int, column: Int) -> SourceLocation {
        Self.location(line: line, column: column, bytes: bytes, filePath: filePath, sourceName: sourceName)
    }

    /// The 1-based location of libyaml's 0-based mark, with the line's text
    /// when the input can be looked at again.
    private static func location(
        line: Int, column: Int, bytes: LoadedBytes?, filePath: String?, sourceName: String
    ) -> SourceLocation {
        let excerpt: LoadedBytes? = bytes ?? filePath.flatMap { path in try? LoadedBytes(mapping: path) }
        guard let excerpt else { return SourceLocation(sourceName: sourceName, line: line + 1, column: column + 1) }
        let buffer = excerpt.buffer
        var offset = 0
        var currentLine = 0
        while currentLine < line, offset < buffer.count {
            let byte = buffer[offset]
            offset += 1
            if byte == UInt8(ascii: "\n") {
                currentLine += 1
            } else if byte == UInt8(ascii: "\r") {
                if offset < buffer.count, buffer[offset] == UInt8(ascii: "\n") { offset += 1 }
                currentLine += 1
            }
        }
        var scalars = 0
        while scalars < column, offset < buffer.count, buffer[offset] != UInt8(ascii: "\n") {
            offset += 1
            while offset < buffer.count, buffer[offset] & 0xC0 == 0x80 { offset += 1 }
            scalars += 1
        }
        var located = SourceLocation.locate(offset: offset, in: buffer, sourceName: sourceName)
        // libyaml's own count wins where the two could differ (Unicode line
        // breaks); the excerpt stays.
        located.line = line + 1
        located.column = column + 1
        return located
    }

    /// The error of a stream of several documents read as one.
    private func multipleDocumentsError() -> EasyBakeError {
        let mark = secondDocumentMark ?? (markLine, markColumn)
        return EasyBakeError(
            .multipleDocuments,
            "the YAML stream holds \(documentCount) documents where one is expected (the second begins here); "
                + "read every document as an array with YAMLReadingOptions(documents: .all) (easybake: --documents all), "
                + "or one of them with documents: .document(N), counting from 0 (easybake: --document N)",
            location: location(line: mark.line, column: mark.column))
    }

    private func parserError() -> EasyBakeError {
        if var error = chunks?.error {
            // The reader cannot tell where the limit was passed; a file can
            // be looked at again to say so.
            if error.code == .limitExceeded, error.location == nil, let filePath,
               let file = try? LoadedBytes(mapping: filePath) {
                error.location = SourceLocation.locate(
                    offset: options.limits.maximumInputBytes, in: file.buffer, sourceName: sourceName)
            }
            return error
        }
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? "malformed YAML"
        switch state.error {
        case YAML_MEMORY_ERROR:
            return EasyBakeError(.io, "libyaml ran out of memory")
        case YAML_READER_ERROR:
            let offset = state.problem_offset
            var message = problem
            if state.problem_value != -1 {
                let hex = String(UInt8(truncatingIfNeeded: state.problem_value), radix: 16, uppercase: true)
                message += " (byte 0x\(hex.count == 1 ? "0" + hex : hex))"
            }
            let located = bytes.map { SourceLocation.locate(offset: offset, in: $0.buffer, sourceName: sourceName) }
                ?? SourceLocation(sourceName: sourceName, line: 1, column: 1, byteOffset: offset)
            return EasyBakeError(.unsupportedEncoding, "\(message) at byte \(offset)", location: located)
        default:
            var message = problem
            if let context = state.context.map({ String(cString: $0) }) {
                message = "\(context) (line \(state.context_mark.line + 1), column \(state.context_mark.column + 1)): \(problem)"
            }
            return EasyBakeError.syntax(message, at: location(line: state.problem_mark.line, column: state.problem_mark.column))
        }
    }
}

extension YAMLNodeEvent {
    var isMapping: Bool { if case .beginMapping = self { true } else { false } }
}

/// The chunked input, handed to libyaml's read callback.
final class ChunkBox {
    private var reader: ChunkReader
    private let maximumBytes: Int
    private var total = 0
    /// The error that stopped reading, reported instead of libyaml's.
    private(set) var error: EasyBakeError?

    init(reader: consuming ChunkReader, maximumBytes: Int) {
        self.reader = reader
        self.maximumBytes = maximumBytes
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, count: UnsafeMutablePointer<Int>) -> Bool {
        do {
            let read = try reader.read(into: buffer)
            total += read
            if total > maximumBytes {
                error = EasyBakeError.limit("maximumInputBytes", maximumBytes, at: nil)
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
