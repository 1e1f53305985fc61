import EasyBake

/// An `IngredientSource` that reads XML with the system libxml2, in chunks,
/// following EasyBake's XML conventions (see ``XMLReadingOptions``).
///
/// ```swift
/// var source = try XMLIngredientSource(.file("feed.rss"))
/// let tree = try Ingredients(reading: &source)
/// let firstTitle = tree.resolve("rss.channel.item[0].title")
/// ```
///
/// The source reads the input in 64 KiB chunks and has libxml2 parse 1 KiB
/// of it at a time, only when its queue of events is empty, so memory does
/// not grow with the document.
/// Repeated sibling elements arrive as repeated keys, and the source reports
/// `DuplicateKeyPolicy.collect` so that consumers gather them into arrays.
///
/// Hostile input is contained: external entities and external DTDs are
/// never loaded (a reference to an external entity throws
/// `EasyBakeError.Code.forbidden`), nothing touches the network, internal
/// entity expansion is charged against `IngredientLimits.maximumExpansion`,
/// and depth, text, attribute and input sizes are bounded by
/// ``XMLReadingOptions/limits``. Malformed documents throw
/// `EasyBakeError.Code.syntax` with the line and column libxml2 reports.
public struct XMLIngredientSource: IngredientSource, ProgressReporting {
    private let driver: XMLParserDriver

    /// A source that reads `input`.
    ///
    /// The first chunk is read at once, to check that the encoding declared
    /// in the XML declaration agrees with the bytes (UTF-8, UTF-16 with or
    /// without a byte order mark, or an encoding libxml2 converts, such as
    /// ISO-8859-1).
    ///
    /// - Throws: `EasyBakeError.Code.io` when the input cannot be read;
    ///   `EasyBakeError.Code.syntax` when the declared encoding
    ///   contradicts the bytes.
    public init(_ input: IngredientInput, options: XMLReadingOptions = .init()) throws(EasyBakeError) {
        driver = try XMLParserDriver(input: input, options: options)
    }

    /// The options the source reads with.
    public var options: XMLReadingOptions { driver.options }

    /// The limits the source reads under (``XMLReadingOptions/limits``).
    public var limits: IngredientLimits { driver.options.limits }

    /// Reads the next event.
    ///
    /// - Throws: `EasyBakeError.Code.syntax` for malformed XML and, unless
    ///   ``XMLReadingOptions/acceptsNamespaceErrors`` is set, for XML that is
    ///   not namespace-well-formed (`namespace error: ...`),
    ///   `EasyBakeError.Code.limitExceeded` when a limit is passed,
    ///   `EasyBakeError.Code.forbidden` for a reference to an external
    ///   entity, `EasyBakeError.Code.unsupportedEncoding` for an encoding
    ///   libxml2 does not know. The error repeats on later calls.
    public mutating func next() throws(EasyBakeError) -> IngredientEvent? {
        try driver.next()
    }

    /// Skips the value that the next call to ``next()`` would begin — an
    /// element's value, an attribute's or text's scalar, or the whole
    /// document before the first event — without making its strings,
    /// dictionaries or events.
    ///
    /// libxml2 still parses the skipped bytes, so a malformed document,
    /// a refused external entity or an exceeded limit throws as reading
    /// would (expansion is charged for entity references in skipped text;
    /// attribute values are not expanded, so they cost nothing).
    ///
    /// - Throws: the errors of ``next()``.
    public mutating func skipValue() throws(EasyBakeError) {
        try driver.skipValue()
    }

    /// Skips the rest of the element (or document) whose `beginDictionary`
    /// was the last event read, up to and including its `endDictionary`,
    /// the way ``skipValue()`` skips: queued events are stepped over, the
    /// rest is parsed without making strings or events.
    ///
    /// - Throws: the errors of ``next()``.
    public mutating func skipRestOfContainer() throws(EasyBakeError) {
        try driver.skipRestOfContainer()
    }

    /// Reads the whole document into `index`, replacing what it held,
    /// straight from libxml2's callbacks: the index that reading this
    /// source's events into it (``IngredientIndex/read(single:)``) gives,
    /// with the same errors, made without events. The source is used up.
    ///
    /// - Parameter filePath: the input's file, if it is one, whose size
    ///   tells how much room to make in the index at once.
    /// - Throws: the errors of ``next()``, and
    ///   `EasyBakeError.Code.limitExceeded` for a document of more than
    ///   `IngredientLimits.maximumNodes` values.
    package mutating func readIndex(into index: inout IngredientIndex, filePath: String? = nil) throws(EasyBakeError) {
        try driver.readIndex(into: &index, filePath: filePath)
    }

    /// Reads the record whose first event was just read straight from
    /// libxml2's callbacks into `index`, as `XMLFormat`'s index of a whole
    /// document is read: the index reading its events would make, with the
    /// same errors and warnings, and with each value's line and column, so
    /// that a bake error names the value at fault. Reading goes back to
    /// events where the record ends.
    ///
    /// - Throws: the errors of ``next()``, and
    ///   `EasyBakeError.Code.limitExceeded` for a record of more than
    ///   `IngredientLimits.maximumNodes` values.
    public mutating func readValue(startingWith first: IngredientEvent, into index: inout IngredientIndex)
        throws(EasyBakeError)
    {
        driver.feedSliceSize = XMLParserDriver.recordSliceSize
        if try driver.readRecord(startingWith: first, into: &index) { return }
        try readValueReadingEvents(startingWith: first, into: &index)
    }

    /// Reads the record whose first event was just read into `index`
    /// whole, as ``readValue(startingWith:into:)`` does: resolving
    /// `matcher`'s paths on it gives what they give on the record. Indexing
    /// the whole record from libxml2's callbacks costs less than picking
    /// its parts out of events (libxml2 parses the skipped parts all the
    /// same); the node limit counts the whole record.
    public mutating func readValue(
        startingWith first: IngredientEvent, into index: inout IngredientIndex, keeping matcher: PathMatcher
    ) throws(EasyBakeError) {
        driver.feedSliceSize = XMLParserDriver.recordSliceSize
        if try driver.readRecord(startingWith: first, into: &index) { return }
        try readValueReadingEvents(startingWith: first, into: &index, keeping: matcher)
    }

    /// Moves past the record whose first event was just read, leaving its
    /// bytes for another job to parse with a libxml2 parser of its own,
    /// exactly as ``readValue(startingWith:into:)`` would have read it here;
    /// `nil` where it is read here (see `XMLParserDriver+Deferring.swift`).
    public mutating func deferValue(
        startingWith first: IngredientEvent, keeping matcher: PathMatcher?
    ) -> (any DeferredIngredientValue)? {
        driver.deferRecord(startingWith: first)
    }

    /// Two: parsing a record's XML is most of the work of streaming it,
    /// while finding where it ends is a scan for `<` and `>`.
    public var deferringPaysFromJobs: Int { 2 }

    /// How many records this source (and its copies) left to other jobs
    /// (``deferValue(startingWith:keeping:)``), for tests.
    package var recordsDeferred: Int { driver.recordsDeferred }

    /// Whether records are indexed straight from libxml2's callbacks
    /// (``readValue(startingWith:into:)``), or read through their events,
    /// as tests compare.
    package var readsRecordsNatively: Bool {
        get { driver.readsRecordsNatively }
        nonmutating set { driver.readsRecordsNatively = newValue }
    }

    /// The number of input bytes handed to the parser so far, for progress
    /// reporting. It grows in steps of up to 1 KiB, ahead of the events
    /// already returned, and ends at the input's size.
    public var bytesRead: Int { driver.bytesRead }

    /// How many events the parser callbacks have made so far (including
    /// those queued but not yet returned); tests use it to check that
    /// skipped input makes none.
    var eventsMade: Int { driver.eventsMade }

    /// The line and column where libxml2 stood when it reported the most
    /// recent event (the end of the start tag for an element's events), or
    /// of the error once one was thrown.
    public var location: SourceLocation { driver.location }

    /// What a lenient reading (``XMLReadingOptions/lenientReferences``)
    /// repaired so far, in input order: a warning with the line and column
    /// of each bare `&` read as text and each undeclared entity read as
    /// HTML's characters or kept as text. Empty for a strict reading.
    ///
    /// Copies of a source share its parser, so a copy handed to a reader
    /// (`RecordReader`, `Baker.bakeEach`) reports its repairs here too.
    public var warnings: [EasyBakeError] { driver.warnings }

    /// `DuplicateKeyPolicy.collect`: repeated sibling elements (and text
    /// runs of mixed content) become arrays in document order.
    public var duplicateKeyPolicy: DuplicateKeyPolicy { .collect }

    /// `IngredientTraits.markup`: a lone element stays a dictionary where
    /// repeated ones make an array, so `[*]` takes an element's dictionary
    /// as one element (`dictionariesAreElements`); and every value is text,
    /// which a custom `init(from:)` may ask for as any scalar type
    /// (`scalarsAreText`).
    public var traits: IngredientTraits { .markup }
    /// `true`, as ``traits`` say, for a reader of the older property.
    public var dictionariesAreElements: Bool { true }
}
