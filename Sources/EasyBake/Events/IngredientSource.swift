/// A reader that turns one payload format into ``IngredientEvent``s.
///
/// Sources are pulled: each call to ``next()`` reads just enough input for
/// one event. Consumers build a tree from the events
/// (``Ingredients/init(reading:duplicateKeys:)``), match paths against them
/// without a tree, or write them straight to another format.
///
/// A source enforces its own ``IngredientLimits`` (nesting depth above all)
/// and reports errors with the ``SourceLocation`` of the offending input.
///
/// To plug in a format of your own, implement this protocol and register an
/// ``IngredientFormat`` that makes it (see ``FormatRegistry``).
public protocol IngredientSource {
    /// Reads the next event, or returns `nil` once the input is exhausted.
    ///
    /// A source whose input holds several top-level values (a YAML stream of
    /// documents) returns the events of each in turn.
    ///
    /// - Throws: ``EasyBakeError`` with the location of malformed input or
    ///   of an exceeded limit.
    mutating func next() throws(EasyBakeError) -> IngredientEvent?

    /// Skips the whole value that the next call to ``next()`` would begin,
    /// without materializing it: a container up to its matching end, or one
    /// scalar. Where the next event is a key or a container's end, it skips
    /// that one event, as reading it would. Sources implement this natively
    /// where they can skip cheaper than they can read (a JSON source scans
    /// bytes without decoding strings or numbers); every source leaves the
    /// same events behind as the default does, which the test support's
    /// `checkIngredientSource` checks at every position.
    ///
    /// The skipped input must still be well formed; an error in it throws.
    mutating func skipValue() throws(EasyBakeError)

    /// Skips the rest of the container whose `beginArray` or
    /// `beginDictionary` event was the last one read, up to and including
    /// its end. Streaming readers call it when they learn only from a
    /// container's first event that no path needs it (an array element).
    ///
    /// The default reads events and counts nesting, with ``skipValue()`` for
    /// each dictionary value; sources with a cheaper way override it.
    mutating func skipRestOfContainer() throws(EasyBakeError)

    /// Inside a dictionary — after its `beginDictionary` or after one of its
    /// values — reads on to the next key that is one of `wanted`, skipping
    /// every other entry unread, and returns that key's index in
    /// `wanted.keys`; `nil` once the dictionary ends (its end is consumed).
    ///
    /// The default reads key events and skips the values of unwanted keys;
    /// a source that can compare raw key bytes overrides it.
    mutating func nextWantedKey(_ wanted: WantedKeys) throws(EasyBakeError) -> Int?

    /// Where the event most recently returned by ``next()`` begins (or where
    /// reading stands, before the first event).
    ///
    /// Sources may compute line and column lazily; consumers ask for the
    /// location when they report something, not for every event.
    var location: SourceLocation { get }

    /// A cheap mark of where the event most recently returned begins, for
    /// readers that note the start of every record but report few of them.
    /// The default takes ``location``; sources that compute locations lazily
    /// return an offset instead.
    var mark: SourceMark { get }

    /// How the consumer should treat a key that repeats within one
    /// dictionary. Sources pass on their format's policy.
    var duplicateKeyPolicy: DuplicateKeyPolicy { get }

    /// Reads into `index` (replacing what it held) the value whose first
    /// event, `first`, was the last one read, and the rest of that value:
    /// how a streamed record reaches the fast core.
    ///
    /// The default reads the value's events into the index with the tree's
    /// rules (the source's duplicate key policy, its node limit); a source
    /// that can index its input directly overrides it, with the same result.
    mutating func readValue(startingWith first: IngredientEvent, into index: inout IngredientIndex)
        throws(EasyBakeError)

    /// Reads the value whose first event was just read into `index`, keeping
    /// what `matcher`'s paths reach: resolving any of them on the index
    /// gives what it gives on the whole value, and what no path needs may be
    /// skipped unbuilt. How streaming reads a record when a recipe maps a
    /// small part of it.
    ///
    /// The default reads the pruned value as a tree (``PathMatcher/read(from:)``
    /// does the same) and indexes it; a source that can index its input
    /// directly overrides it, with the same paths' results. It may keep more
    /// than the paths need where that is faster: JSON builds a small value
    /// whole over its structural pass.
    mutating func readValue(
        startingWith first: IngredientEvent, into index: inout IngredientIndex, keeping matcher: PathMatcher
    ) throws(EasyBakeError)

    /// Reads the next record at `recordPath` straight into `index`
    /// (replacing what it held), finding the records in the input itself
    /// instead of through events: how a source with a native reader of
    /// records (YAML's scanner) streams them. ``RecordReader`` asks before
    /// it reads any event, and record after record until the answer is not
    /// a record.
    ///
    /// The source gives records only where it knows they are what the
    /// events would give, errors and all: anything it cannot tell that of
    /// (the input leaves what it reads, or is wrong) is
    /// ``IndexedRecordRead/unavailable``, after which its events begin at
    /// the start of the input again, so that the reader reads the records
    /// through them, skipping those it was given. The default is
    /// `.unavailable`.
    mutating func readNextRecord(at recordPath: IngredientPath, into index: inout IngredientIndex) -> IndexedRecordRead

    /// Moves past the value whose first event, `first`, was just read,
    /// without reading it, and returns the value for reading later, on any
    /// thread; `nil` when the source cannot (the value is then read in
    /// place, and nothing has moved).
    ///
    /// A source defers a value only where finding its end costs much less
    /// than reading it (JSON finds a container's closing bracket 64 bytes
    /// at a time), where the value is read later exactly as it would have
    /// been in place — the same index, keeping what `matcher` keeps (the
    /// whole value when `nil`), or the same error — and where an error in
    /// the value would end its input anyway, since the source has read on
    /// past it. The events after the value are what they would have been
    /// after reading it. The default is `nil`.
    mutating func deferValue(startingWith first: IngredientEvent, keeping matcher: PathMatcher?) -> (
        any DeferredIngredientValue
    )?

    /// Moves past the value whose first event, `first`, was just read,
    /// checking it as strictly as reading it would (the same errors, at the
    /// same place), and returns it for reading later: for a reader that
    /// learns only after a value whether it needs it, as the last elements
    /// of an array (`users[-1]`) are known only when the array ends. Unlike
    /// ``deferValue(startingWith:keeping:)``, which only finds the value's
    /// end, nothing of the value is left unchecked, so a reader may drop
    /// what this returns unread. Reading it
    /// (``DeferredIngredientValue/read(into:keeping:)``) gives what
    /// ``readValue(startingWith:into:)`` would have given here, and returns
    /// `true`. `nil` where the source cannot skip a value for much less
    /// than reading it: nothing has moved, and the value is read in place.
    /// The default is `nil`.
    mutating func skipValueForLater(startingWith first: IngredientEvent) throws(EasyBakeError) -> (
        any DeferredIngredientValue
    )?

    /// Right after the `.beginArray` of an array, moves past all of its
    /// elements and its end, checking them as strictly as reading them would
    /// (the same errors, at the same place), and returns how many there
    /// were and the last `keeping` of them (fewer when there were fewer),
    /// oldest first, for reading later: what
    /// ``skipValueForLater(startingWith:)`` would give for each element,
    /// without a call or an event per element. The events after it are those
    /// after the array's `.endArray`. `nil` where the source cannot: nothing
    /// has moved, and the elements are read one by one. The default is `nil`.
    mutating func skipElementsForLater(keepingLast keeping: Int) throws(EasyBakeError) -> (
        count: Int, last: [any DeferredIngredientValue]
    )?

    /// Inside an array, before its next element or its end, moves past up
    /// to `count` elements, checking them as strictly as reading them would
    /// (the same errors, at the same place): for a reader that wants an
    /// element far into an array (`users[86684]`) and none before it,
    /// without an event or a call per element. Returns how many it moved
    /// past, and whether the array ended first: its end consumed, so that
    /// the events after are those after its `.endArray`. `nil` where the
    /// source cannot skip elements for much less than one at a time:
    /// nothing has moved. The default is `nil`.
    mutating func skipElements(_ count: Int) throws(EasyBakeError) -> (skipped: Int, endedArray: Bool)?

    /// Moves past the next record at `recordPath` without reading it, and
    /// returns it as ``IndexedRecordRead/deferred(_:_:)`` for a job to read
    /// on any thread: the counterpart of
    /// ``deferValue(startingWith:keeping:)`` for a source that reads
    /// records itself (``readNextRecord(at:into:)``), where finding a
    /// record's end costs much less than reading it. `.end` and
    /// `.unavailable` mean what they mean for ``readNextRecord(at:into:)``;
    /// after `.unavailable` the reader reads the records again through the
    /// events once the records it was given are read (a deferred record may
    /// still turn out unreadable, see ``DeferredIngredientValue``), so the
    /// events must not have been read. `nil` where this record is read in
    /// place: nothing has moved, and the reader asks
    /// ``readNextRecord(at:into:)`` for it. The default is `nil`.
    mutating func deferNextRecord(at recordPath: IngredientPath) -> IndexedRecordRead?

    /// The fewest jobs for which leaving values to them
    /// (``deferValue(startingWith:keeping:)``) pays: with fewer, reading in
    /// turn is not what bounds them, and finding where each value ends only
    /// adds to the work. The default is `Int.max` (never asked).
    var deferringPaysFromJobs: Int { get }

    /// The limits the source reads under, which consumers apply too: a tree
    /// built from the source holds at most ``IngredientLimits/maximumNodes``
    /// values. The default is ``IngredientLimits/default``.
    var limits: IngredientLimits { get }

    /// Whether a reader may stop before the end of the input once it has
    /// read what it needs, leaving the rest unchecked, as
    /// ``PathMatcher/resolve(from:)`` does for a path at the head of a large
    /// file. The default is `true`; a source whose rest can make the whole
    /// input wrong says `false` (a YAML stream read as one document, where a
    /// second document is an error).
    var allowsStoppingEarly: Bool { get }

    /// What the source changed to read its input, each as an error value
    /// with its location: the repairs of a lenient reading (XML's
    /// `lenientReferences` reads a feed's bare `&` as text), which a user
    /// must hear of, since the values differ from what the input says.
    /// It grows as the source reads, in input order. The default is empty:
    /// a strict source repairs nothing, it throws.
    var warnings: [EasyBakeError] { get }

    /// How the source's values differ from JSON's, as the core must know to
    /// read them: with ``IngredientTraits/dictionariesAreElements`` (XML), a
    /// path's `[*]` takes a dictionary as one element, and the trees and
    /// indexes read from the source mark their dictionaries
    /// ``IngredientDictionary/isElement``. Every index read from the source
    /// keeps them (``IngredientIndex/traits``). The default is what
    /// ``dictionariesAreElements`` says (``IngredientTraits/markup`` when it
    /// is `true`), which is none (`[]`) unless a source declares it: `[*]` on
    /// a dictionary gives its values.
    var traits: IngredientTraits { get }

    /// Whether the source's dictionaries are XML elements: the one trait
    /// there was before ``traits``, still read through the default
    /// ``traits``, so that a source written for it keeps its meaning.
    /// Declare ``traits`` instead; the core reads only ``traits``, and for a
    /// source that declares them this property is `false` unless it
    /// declares it too. The default is `false`.
    var dictionariesAreElements: Bool { get }

    /// After an error inside one element of the top-level array, moves on to
    /// the next element, where the input tells where each element ends (a
    /// line of JSON Lines): so that a reader of records can report the
    /// failed record and go on with the next.
    ///
    /// ``RecordReader`` calls it when reading a record fails; the default
    /// returns `nil`, and the error ends the input.
    ///
    /// - Returns: how many elements of the top-level array have begun, the
    ///   failed one included, when reading goes on with the next element;
    ///   `nil` when it cannot.
    mutating func resumeAfterFailedElement() -> Int?
}

extension IngredientSource {
    /// Skips by reading events and counting nesting: correct for every
    /// source, and what a source gets unless it has a faster way.
    public mutating func skipValue() throws(EasyBakeError) {
        try skipValueReadingEvents()
    }

    public mutating func skipRestOfContainer() throws(EasyBakeError) {
        try skipRestOfContainerReadingEvents()
    }

    /// ``skipValue()`` by reading events and counting nesting: the default,
    /// and the way on for a source whose own faster way cannot skip a value
    /// (an override cannot call the default).
    public mutating func skipValueReadingEvents() throws(EasyBakeError) {
        try IngredientEvent.skipValue { () throws(EasyBakeError) in try next() }
    }

    /// ``skipRestOfContainer()`` by reading events, with ``skipValue()``
    /// for each dictionary value: the default, and the way on for a source
    /// whose own way cannot.
    public mutating func skipRestOfContainerReadingEvents() throws(EasyBakeError) {
        var depth = 1
        while depth > 0 {
            guard let event = try next() else {
                throw EasyBakeError.syntax("unexpected end of input inside a container", at: location)
            }
            // A dictionary's value is skipped natively; an array's elements
            // have no key to tell where they begin, so they are read.
            if case .key = event { try skipValue() } else { depth += event.depthChange }
        }
    }

    public mutating func nextWantedKey(_ wanted: WantedKeys) throws(EasyBakeError) -> Int? {
        try nextWantedKeyReadingEvents(wanted)
    }

    /// ``nextWantedKey(_:)`` by reading key events and skipping the values
    /// of unwanted keys: the default, and the way on for a source whose own
    /// faster way cannot handle a key (an override cannot call the default).
    public mutating func nextWantedKeyReadingEvents(_ wanted: WantedKeys) throws(EasyBakeError) -> Int? {
        while let event = try next() {
            switch event {
            case .key(let key):
                if let index = wanted.index(of: key) { return index }
                try skipValue()
            case .endDictionary:
                return nil
            case .beginArray, .beginDictionary, .endArray, .scalar:
                throw EasyBakeError.syntax("expected a key or the end of a dictionary, found \(event)", at: location)
            }
        }
        throw EasyBakeError.syntax("unexpected end of input inside a dictionary", at: location)
    }

    public var duplicateKeyPolicy: DuplicateKeyPolicy { .firstWins }

    public mutating func readValue(startingWith first: IngredientEvent, into index: inout IngredientIndex)
        throws(EasyBakeError)
    {
        try readValueReadingEvents(startingWith: first, into: &index)
    }

    public mutating func readValue(
        startingWith first: IngredientEvent, into index: inout IngredientIndex, keeping matcher: PathMatcher
    ) throws(EasyBakeError) {
        try readValueReadingEvents(startingWith: first, into: &index, keeping: matcher)
    }

    /// ``readValue(startingWith:into:keeping:)`` through the value's events,
    /// as a pruned tree: the default, and the way on for a source whose own
    /// way cannot take a value.
    public mutating func readValueReadingEvents(
        startingWith first: IngredientEvent, into index: inout IngredientIndex, keeping matcher: PathMatcher
    ) throws(EasyBakeError) {
        let tree = try PathWalker.readPrunedValue(startingWith: first, from: &self, keeping: matcher)
        index.removeAll()
        index.append(tree: tree)
        index.traits = traits
    }

    /// ``readValue(startingWith:into:)`` through the value's events: the
    /// default, and the way on for a source whose own way cannot take a value.
    public mutating func readValueReadingEvents(
        startingWith first: IngredientEvent, into index: inout IngredientIndex
    ) throws(EasyBakeError) {
        try index.read(startingWith: first, from: &self)
    }

    public mutating func readNextRecord(at recordPath: IngredientPath, into index: inout IngredientIndex)
        -> IndexedRecordRead
    {
        .unavailable
    }

    public mutating func deferValue(
        startingWith first: IngredientEvent, keeping matcher: PathMatcher?
    ) -> (any DeferredIngredientValue)? {
        nil
    }

    public mutating func skipValueForLater(startingWith first: IngredientEvent) throws(EasyBakeError) -> (
        any DeferredIngredientValue
    )? {
        nil
    }

    public mutating func skipElementsForLater(keepingLast keeping: Int) throws(EasyBakeError) -> (
        count: Int, last: [any DeferredIngredientValue]
    )? {
        nil
    }

    public mutating func skipElements(_ count: Int) throws(EasyBakeError) -> (skipped: Int, endedArray: Bool)? {
        nil
    }

    public mutating func deferNextRecord(at recordPath: IngredientPath) -> IndexedRecordRead? { nil }

    public var deferringPaysFromJobs: Int { .max }

    public var limits: IngredientLimits { .default }

    public var allowsStoppingEarly: Bool { true }

    public var warnings: [EasyBakeError] { [] }

    public var traits: IngredientTraits { dictionariesAreElements ? .markup : [] }

    public var dictionariesAreElements: Bool { false }

    public mutating func resumeAfterFailedElement() -> Int? { nil }

    public var mark: SourceMark { SourceMark(location) }
}

/// What ``IngredientSource/readNextRecord(at:into:)`` found.
public enum IndexedRecordRead: Sendable {
    /// A record, read into the index; the mark is where it begins, as the
    /// record's first event would have it.
    case record(SourceMark)
    /// The records ended, and the rest of the input is checked as reading
    /// its events would check it.
    case end
    /// The source cannot read the records itself (or no longer can): its
    /// events begin at the start of the input.
    case unavailable
    /// A record left unread for a job to read
    /// (``IngredientSource/deferNextRecord(at:)``); the mark is where it
    /// begins. Never given by ``IngredientSource/readNextRecord(at:into:)``.
    case deferred(SourceMark, any DeferredIngredientValue)
}

/// What to do when a key repeats within one dictionary.
///
/// Foundation's two JSON APIs disagree here, and parsers that disagree with
/// each other are an attack surface, so EasyBake decides once per format
/// and every consumer — tree, path resolution, streaming, baking — follows the
/// same policy.
public enum DuplicateKeyPolicy: String, Sendable, Hashable, CaseIterable {
    /// Keep the first value and skip later ones. The default for JSON: it lets
    /// a streaming reader stop as soon as a path is found, and gives the same
    /// answer as the tree.
    case firstWins
    /// Keep the last value (what JavaScript's `JSON.parse` does).
    case lastWins
    /// Reject the payload with ``EasyBakeError/Code/duplicateKey``.
    case reject
    /// Gather the values of a repeated key into an array, in document order:
    /// the first occurrence stays a single value, the second turns it into a
    /// two-element array, later ones append. This is how XML's repeated
    /// sibling elements (`<item>…</item><item>…</item>`) become an array while
    /// the source stays a plain stream. It is meant for sources whose values
    /// are never arrays themselves, as XML's are not.
    case collect
}
