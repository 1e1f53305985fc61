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
/// - **Records** streamed from one document of common block YAML (a
///   record path of keys and a final `[*]`: `users[*]`, `data.items[*]`,
///   `[*]`) are found and indexed by the native scanner that
///   ``YAMLFormat/readIndex(_:into:)`` reads whole documents with, without
///   libyaml (``readNextRecord(at:into:)``); what it does not read is read
///   through libyaml's events, with the same records and errors.
///
/// Copies of a source share one parser; use each source from one place.
public struct YAMLIngredientSource: IngredientSource, ProgressReporting {
    private let engine: YAMLEngine
    /// How records are read natively; shared by copies, as the engine is.
    private let records: NativeRecords

    /// The input and options, for the native reading of records; and, once
    /// records are asked for, their stream (`nil` when the scanner cannot
    /// read them, or no longer can).
    private final class NativeRecords {
        let input: IngredientInput?
        let options: YAMLReadingOptions
        /// Whether records may be read natively: the package's tests turn
        /// it off to read them through libyaml's events.
        var enabled: Bool
        var stream: YAMLRecordStream?
        var started = false
        /// The native stream read every record, and the rest of the input.
        var finished = false
        /// Set by a job that could not read a record left to it.
        let bail = YAMLRecordBail(false)
        /// The records left unread for jobs.
        var deferred = 0

        init(input: IngredientInput?, options: YAMLReadingOptions) {
            self.input = input
            self.options = options
            enabled = input != nil
        }
    }

    /// A source that reads `input` with `options`.
    ///
    /// Files and standard input are read in chunks; bytes and text are
    /// parsed in place.
    ///
    /// - Throws: `EasyBakeError.Code.io` when the input cannot be opened.
    public init(_ input: IngredientInput, options: YAMLReadingOptions = .init()) throws(EasyBakeError) {
        engine = try YAMLEngine(input: input, options: options)
        records = NativeRecords(input: input, options: options)
    }

    /// A source over one worker's share of a large YAML stream: the array
    /// of the documents that begin in `byteRange` (offsets in the input's
    /// bytes), as ``YAMLReadingOptions/Documents/all`` reads a whole stream
    /// (`options.documents` is not consulted).
    ///
    /// A line that begins with `---` or `...` is always a document marker
    /// (YAML forbids it inside a document), so the share's documents are
    /// found without parsing what comes before them: the share starts at
    /// the first document that begins at or after the range's start and
    /// ends with the document that crosses its end, and the ranges of a
    /// partition of the stream read every document exactly once, in order.
    /// The directives before a `---` (`%YAML 1.2`) go with its document.
    /// Indexes count from the range's first document; locations are in the
    /// whole input. The input is mapped (a file) or held in memory, and only
    /// the share's documents are parsed.
    ///
    /// ```swift
    /// // The second of four workers on a 4 MB stream of documents:
    /// let share = try YAMLIngredientSource(.file("events.yaml"), byteRange: 1_000_000..<2_000_000)
    /// for result in try Baker().bakeEach(Event.self, from: share, each: "[*]") { print(try result.get()) }
    /// ```
    ///
    /// - Throws: `EasyBakeError.Code.io` when the input cannot be read,
    ///   `EasyBakeError.Code.limitExceeded` when it is larger than
    ///   `IngredientLimits.maximumInputBytes`.
    public init(_ input: IngredientInput, byteRange: Range<Int>, options: YAMLReadingOptions = .init())
        throws(EasyBakeError)
    {
        engine = try YAMLEngine(input: input, options: options, byteRange: byteRange)
        records = NativeRecords(input: nil, options: options)
    }

    /// Whether ``readNextRecord(at:into:)`` reads records with the native
    /// scanner (the default, where the input allows) or leaves them to
    /// libyaml's events: for tests that compare the two.
    package var readsRecordsNatively: Bool {
        get { records.enabled }
        nonmutating set { records.enabled = newValue }
    }

    /// Reads the next record at `recordPath` with the native scanner, as
    /// the whole document is read (see ``YAMLFormat/readIndex(_:into:)``):
    /// for one document (``YAMLReadingOptions/Documents/single``) read from
    /// memory or a regular file, a record path of keys and a final `[*]`
    /// over a block sequence, records of common block YAML.
    ///
    /// Anything else — or anything in the document that the scanner does
    /// not read, wherever it stands — is `.unavailable`: libyaml's events
    /// then read the document from its start, and `RecordReader` skips
    /// there the records given already, so that records, errors and their
    /// locations are those of the events.
    public mutating func readNextRecord(at recordPath: IngredientPath, into index: inout IngredientIndex)
        -> IndexedRecordRead
    {
        guard let stream = recordStream(at: recordPath) else { return .unavailable }
        let read = stream.next(into: &index)
        switch read {
        case .record, .deferred: break
        case .end: records.finished = true
        case .unavailable: records.stream = nil
        }
        return read
    }

    /// The native stream of the records at `recordPath`, made at the first
    /// ask; `nil` when the scanner cannot read them, or no longer can.
    private func recordStream(at recordPath: IngredientPath) -> YAMLRecordStream? {
        if !records.started {
            records.started = true
            if records.enabled, let input = records.input {
                records.stream = YAMLRecordStream(input, recordPath: recordPath, options: records.options)
            }
        }
        return records.stream
    }

    /// Leaves the next record unread for a job, where
    /// ``readNextRecord(at:into:)`` would read it with the native scanner:
    /// only where the record ends is found (the first line after its `-`,
    /// not blank and no comment, indented no more than the `-`), and the job
    /// reads it with the native scanner. A record the scanner cannot read
    /// there is read through libyaml's events, with every record after it
    /// (see `DeferredIngredientValue`), so records, errors and locations
    /// are still the events'. The documents of a stream are read in place.
    public mutating func deferNextRecord(at recordPath: IngredientPath) -> IndexedRecordRead? {
        guard let stream = recordStream(at: recordPath) else { return .unavailable }
        guard let read = stream.nextDeferred(notifying: records.bail) else { return nil }
        switch read {
        case .end: records.finished = true
        case .unavailable: records.stream = nil
        case .deferred: records.deferred += 1
        case .record: break
        }
        return read
    }

    /// How many records ``deferNextRecord(at:)`` left unread for jobs: for
    /// tests that check which way records were read.
    package var recordsDeferred: Int { records.deferred }

    /// The native scanner finds where each record ends for a few percent
    /// of the work of reading it: from two jobs, each reads its own records
    /// while the reading in turn only finds them.
    public var deferringPaysFromJobs: Int { 2 }

    /// Whether the native scanner read every record of the input and its
    /// end, with no record left to libyaml's events: for tests that check
    /// which way records were read.
    package var readAllRecordsNatively: Bool { records.finished && !records.bail.withLock { $0 } }

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
    /// var source = try YAMLIngredientSource(.text("bucket: !Ref Logs\n"))
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
    public var bytesRead: Int { records.stream?.bytesRead ?? engine.bytesRead }

    public var duplicateKeyPolicy: DuplicateKeyPolicy { engine.options.duplicateKeys }

    /// The limits the source reads under (``YAMLReadingOptions/limits``).
    public var limits: IngredientLimits { engine.options.limits }

    /// `false`: a YAML stream is read to its end, so that a syntax error in
    /// any document is reported, and — read as one document
    /// (``YAMLReadingOptions/Documents/single``) — a second document is
    /// found, which is an error.
    public var allowsStoppingEarly: Bool { false }
}
