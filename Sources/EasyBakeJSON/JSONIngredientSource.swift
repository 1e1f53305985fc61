import EasyBake

/// Reads JSON (RFC 8259) into `IngredientEvent`s, in pure Swift, straight
/// from bytes in memory or a mapped file.
///
/// Strict by default: no comments, trailing commas, leading zeros, bad
/// escapes, lone surrogates, invalid UTF-8 or raw control characters in
/// strings, and nothing but whitespace after the value. A UTF-8 byte order
/// mark is skipped; UTF-16 and UTF-32 input (with or without a BOM, told
/// apart by the pattern of zero bytes RFC 4627 describes) is transcoded to
/// UTF-8 first. Nesting deeper than `IngredientLimits.maximumDepth` throws
/// `EasyBakeError.Code.limitExceeded`.
///
/// Line and column are computed only when an error is reported, from the
/// byte offset, so reading pays nothing for them.
///
/// ```swift
/// var source = try JSONIngredientSource(.file("users.json"))
/// let tree = try Ingredients(reading: &source)
/// ```
public struct JSONIngredientSource: JSONScannedSource, ProgressReporting {
    /// How repeated keys in one object are treated by whoever consumes the
    /// events. Default `DuplicateKeyPolicy.firstWins`.
    public var duplicateKeyPolicy: DuplicateKeyPolicy

    private var scanner: JSONScanner

    /// A source over `input`, mapping files rather than copying them.
    ///
    /// - Throws: `EasyBakeError.Code.io` when the input cannot be read,
    ///   `EasyBakeError.Code.unsupportedEncoding` for malformed UTF-16/32.
    public init(_ input: IngredientInput, options: JSONReadingOptions = .init()) throws(EasyBakeError) {
        let limits = options.limits
        let loaded = try input.loadBytes(limits: limits)
        scanner = try JSONScanner(bytes: loaded, limits: limits, sourceName: input.name)
        self.duplicateKeyPolicy = options.duplicateKeys
    }

    /// A source over one worker's share of a large top-level array: the
    /// array of the elements that begin in `byteRange` (offsets in the
    /// input's bytes). The ranges of a partition of the input read every
    /// element exactly once, in order, however the JSON is laid out.
    ///
    /// The elements before the range are skipped from the array's start,
    /// checked but not decoded, so the range starting late in a file costs
    /// a scan of what lies before it; reading stops at the first element
    /// that begins at or after the range's end, and what follows is not
    /// read. Indexes count from the range's first element; locations are in
    /// the whole input. JSON Lines, where a range starts reading at once, is
    /// the better layout for many ranges (``JSONLinesIngredientSource/init(_:byteRange:options:)``).
    ///
    /// ```swift
    /// // The second of four workers on a 4 MB array of users:
    /// let share = try JSONIngredientSource(.file("users.json"), byteRange: 1_000_000..<2_000_000)
    /// for result in try Baker().bakeEach(User.self, from: share, each: "[*]") { print(try result.get()) }
    /// ```
    ///
    /// - Throws: what ``init(_:options:)`` throws, and
    ///   `EasyBakeError.Code.syntax` when the input is no array or an element
    ///   before the range is malformed.
    public init(_ input: IngredientInput, byteRange: Range<Int>, options: JSONReadingOptions = .init())
        throws(EasyBakeError)
    {
        try self.init(input, options: options)
        try scanner.enterElementRange(byteRange)
    }

    public mutating func next() throws(EasyBakeError) -> IngredientEvent? {
        let event = try scanner.next(materializing: true)
        releaseReadPagesIfDue()
        return event
    }

    /// Where the next release of read pages is due.
    private var releaseMark = JSONIngredientSource.releaseInterval

    /// A mapped file's pages count against resident memory once read;
    /// giving back what lies behind the reader every so often keeps a
    /// gigabyte file streaming in a few megabytes. A later error report
    /// that needs those bytes reads them from the file again.
    private static let releaseInterval = 8 << 20

    /// How far behind the reader pages are given back: right behind it,
    /// until values are left for jobs to read
    /// (``deferValue(startingWith:keeping:)``), which they do a little
    /// behind it.
    private var releaseLag = 0
    /// The scanner as it stood before the last value skipped for later
    /// (``skipValueForLater(startingWith:)``), which the next one at the
    /// same depth shares: the elements of one array differ only in where
    /// they start.
    private var laterReader: JSONScannerSnapshot?

    /// Gives back the pages behind the reader once it has passed
    /// ``releaseMark``.
    @inline(__always)
    private mutating func releaseReadPagesIfDue() {
        guard scanner.position >= releaseMark else { return }
        scanner.storage.release(before: scanner.eventStart - releaseLag)
        releaseMark = scanner.position + Self.releaseInterval
    }

    /// Skips the next value by scanning its bytes: strings are checked but
    /// not decoded, numbers checked but not converted, containers not built.
    public mutating func skipValue() throws(EasyBakeError) {
        try skip(insideContainer: false)
    }

    /// Skips the next value, or the rest of the open container
    /// (`insideContainer`), quickly where the scanner can and by events
    /// where it cannot; then gives back read pages when due.
    private mutating func skip(insideContainer: Bool) throws(EasyBakeError) {
        if try !scanner.skipQuickly(insideContainer: insideContainer) {
            if insideContainer {
                try scanner.skipRestOfContainerByEvents()
            } else {
                try scanner.skipValueByEvents()
            }
        }
        releaseReadPagesIfDue()
    }

    /// Compares raw key bytes with the wanted keys, so that an unwanted key
    /// costs a scan and no `String`; escaped or non-ASCII keys (and wanted
    /// keys that are not ASCII) take the event path and `String` equality.
    public mutating func nextWantedKey(_ wanted: WantedKeys) throws(EasyBakeError) -> Int? {
        try nextWantedKeyScanning(wanted)
    }

    mutating func nextKeyQuickly(_ wanted: WantedKeys) throws(EasyBakeError) -> JSONScanner.QuickKey {
        try scanner.nextKeyQuickly(wanted)
    }

    /// Nothing to do at the end of an object searched for keys.
    func finishedObject() {}

    /// Reads the input's JSON value into `index` (replacing what it held),
    /// and checks that nothing but whitespace follows: the fast core's way
    /// in, with no event, `String` or allocation per value.
    ///
    /// Under `DuplicateKeyPolicy.firstWins` (the default) a dictionary in
    /// the index keeps a repeated key's members and lookups find the first;
    /// under any other policy the index holds what the tree would.
    ///
    /// Call it on a new source, before any event is read.
    ///
    /// - Throws: the same errors, with the same messages and positions, as
    ///   reading the input's events; `EasyBakeError.Code.unsupported` when
    ///   events have been read already.
    public mutating func readIndex(into index: inout IngredientIndex) throws(EasyBakeError) {
        guard scanner.expect == .value, scanner.containers.isEmpty else {
            throw EasyBakeError(
                .unsupported, "an index is read from a JSON source before any of its events", location: location)
        }
        guard duplicateKeyPolicy == .firstWins, scanner.elementRange == nil else {
            // Only first-wins needs no bookkeeping per key: the index keeps
            // every member and a lookup finds the first. Any other policy
            // is applied as the tree applies it, through the events (as is
            // a byte range, whose array the events keep).
            try index.read(single: &self)
            return
        }
        try scanner.buildIndex(into: &index)
    }

    /// Reads the value whose first event was just read straight from its
    /// bytes into `index`: the event is put back and the value indexed from
    /// its first byte, as ``readIndex(into:)`` indexes a document.
    public mutating func readValue(startingWith first: IngredientEvent, into index: inout IngredientIndex)
        throws(EasyBakeError)
    {
        guard duplicateKeyPolicy == .firstWins, !scanner.readsRangeArray(startingWith: first) else {
            return try readValueReadingEvents(startingWith: first, into: &index)
        }
        switch first {
        case .beginArray, .beginDictionary: scanner.containers.removeLast()
        case .scalar: break
        case .key, .endArray, .endDictionary: return try readValueReadingEvents(startingWith: first, into: &index)
        }
        scanner.position = scanner.eventStart
        scanner.expect = .value
        try scanner.indexValue(into: &index)
        releaseReadPagesIfDue()
    }

    /// Reads the value whose first event was just read straight from its
    /// bytes into `index`, keeping what `matcher`'s paths reach. Where the
    /// machine has a vector pass, a value of up to 65,536 entries is
    /// indexed whole over JSON's structure (faster than pruning it: every
    /// value is checked either way), and a larger one is pruned over the
    /// same structure; byte by byte, a dictionary member no path needs is
    /// skipped unbuilt.
    public mutating func readValue(
        startingWith first: IngredientEvent, into index: inout IngredientIndex, keeping matcher: PathMatcher
    ) throws(EasyBakeError) {
        guard duplicateKeyPolicy == .firstWins, let picking = matcher.picking(for: traits), let root = picking.root,
            !scanner.readsRangeArray(startingWith: first)
        else {
            return try readValueReadingEvents(startingWith: first, into: &index, keeping: matcher)
        }
        switch first {
        case .beginArray, .beginDictionary: scanner.containers.removeLast()
        case .scalar: break
        case .key, .endArray, .endDictionary:
            return try readValueReadingEvents(startingWith: first, into: &index, keeping: matcher)
        }
        scanner.position = scanner.eventStart
        scanner.expect = .value
        try scanner.indexValue(into: &index, keeping: picking, state: root)
        releaseReadPagesIfDue()
    }

    /// Finds the closing bracket of the array or object whose first event
    /// was just read, 64 bytes at a time, and moves past it unread: the
    /// value is read later, by whoever holds what this returns, exactly as
    /// ``readValue(startingWith:into:keeping:)`` would have read it here.
    /// Scalars, byte ranges' arrays and policies other than
    /// `DuplicateKeyPolicy.firstWins` are read in place (`nil`).
    public mutating func deferValue(
        startingWith first: IngredientEvent, keeping matcher: PathMatcher?
    ) -> (any DeferredIngredientValue)? {
        guard duplicateKeyPolicy == .firstWins, matcher.map({ !$0.paths.isEmpty }) ?? true,
            !scanner.readsRangeArray(startingWith: first)
        else { return nil }
        switch first {
        case .beginArray, .beginDictionary: break
        case .scalar, .key, .endArray, .endDictionary: return nil
        }
        guard let value = scanner.deferContainer() else { return nil }
        // The jobs read what lies just behind the reader: pages are given
        // back later, so that they seldom read them from the file again.
        releaseLag = Self.releaseInterval
        releaseReadPagesIfDue()
        return DeferredJSONValue(reader: JSONScannerSnapshot(scanner: value), start: value.position)
    }

    /// Skips the array or object whose first event was just read through
    /// the strict skip (which checks every string, number and literal as
    /// reading does, over the structural pass where the machine has one),
    /// and returns it for reading later from its opening bracket, exactly
    /// as ``readValue(startingWith:into:)`` would have read it here.
    /// Skipping costs about a third of indexing. Scalars, byte ranges'
    /// arrays and policies other than `DuplicateKeyPolicy.firstWins` are
    /// read in place (`nil`).
    public mutating func skipValueForLater(startingWith first: IngredientEvent) throws(EasyBakeError) -> (
        any DeferredIngredientValue
    )? {
        guard duplicateKeyPolicy == .firstWins, !scanner.readsRangeArray(startingWith: first) else { return nil }
        switch first {
        case .beginArray, .beginDictionary: break
        case .scalar, .key, .endArray, .endDictionary: return nil
        }
        let start = scanner.eventStart
        let outer = scanner.containers.count - 1
        if laterReader.map({ !$0.scanner.containers.elementsEqual(scanner.containers[..<outer]) }) ?? true {
            // The scanner as it would stand to read the value in place.
            var reader = scanner
            reader.containers.removeLast()
            laterReader = JSONScannerSnapshot(scanner: reader)
        }
        try skip(insideContainer: true)
        return DeferredJSONValue(reader: laterReader!, start: start)
    }

    public mutating func skipElementsForLater(keepingLast keeping: Int) throws(EasyBakeError) -> (
        count: Int, last: [any DeferredIngredientValue]
    )? {
        guard duplicateKeyPolicy == .firstWins else { return nil }
        // Each element is read later as the scanner stands now, inside the
        // array, would read it in place.
        let reader = JSONScannerSnapshot(scanner: scanner)
        guard
            let skipped = try scanner.skipElementsByStructure(
                keepingLast: keeping, releaseInterval: Self.releaseInterval, releaseLag: releaseLag)
        else { return nil }
        releaseReadPagesIfDue()
        return (skipped.count, skipped.starts.map { DeferredJSONValue(reader: reader, start: $0) })
    }

    public mutating func skipElements(_ count: Int) throws(EasyBakeError) -> (skipped: Int, endedArray: Bool)? {
        guard
            let skipped = try scanner.skipElementsByStructure(
                count: count, releaseInterval: Self.releaseInterval, releaseLag: releaseLag)
        else { return nil }
        releaseReadPagesIfDue()
        return (skipped.skipped, skipped.ended)
    }

    /// Four: finding where a JSON record ends costs about half of reading
    /// it in turn, and adds a tenth to the work (see `RecordJobs.swift`).
    public var deferringPaysFromJobs: Int { 4 }

    /// How the scanner finds runs of plain bytes; tests read every input
    /// both ways.
    package var byteScanning: JSONByteScanning {
        get { scanner.scanning }
        set { scanner.scanning = newValue }
    }

    /// The structural pass's level the skips run (0 to the machine's
    /// best, a level it lacks running as its best), so that tests take
    /// every level through the readers; `nil` (the default): the level
    /// ``byteScanning`` runs.
    package var structuralLevel: Int32? {
        get { scanner.structuralLevelChoice }
        set { scanner.structuralLevelChoice = newValue }
    }

    /// Whether a value read pruned to a matcher's paths is first built
    /// whole over JSON's structure when it is small (the default), which
    /// is faster than pruning it; `false` prunes every value, for tests
    /// that hold the structural pruning to the byte walk's.
    package var buildsSmallValuesWhole: Bool {
        get { scanner.buildsSmallValuesWhole }
        set { scanner.buildsSmallValuesWhole = newValue }
    }

    /// The array or object at the start of the input indexed over JSON's
    /// structure pruned to `matcher`'s paths, as
    /// ``readValue(startingWith:into:keeping:)`` prunes it; `nil` when the
    /// structural build declines (and the byte walk would build it): for
    /// tests that hold the C build to pruning, not only to agreeing.
    package mutating func indexPrunedByStructure(keeping matcher: PathMatcher) -> IngredientIndex? {
        guard let picking = matcher.picking(for: traits), let root = picking.root else { return nil }
        scanner.skipWhitespace()
        var index = IngredientIndex()
        index.begin(input: scanner.storage, sourceName: scanner.sourceName)
        let build = scanner.indexByStructure(into: index.storageForBuilding, keeping: picking, state: root)
        return build == .built ? index : nil
    }

    /// ``skipValue()`` over the structural pass's positions where the value
    /// is an array or object (``JSONScanner/skipContainerByStructure(insideContainer:)``),
    /// byte by byte otherwise: for tests that compare the two while that
    /// skip is not the default.
    package mutating func skipValueByStructure() throws(EasyBakeError) {
        if try scanner.skipContainerByStructure(insideContainer: false) { return }
        try skipValue()
    }

    /// ``skipRestOfContainer()`` over the structural pass's positions.
    package mutating func skipRestOfContainerByStructure() throws(EasyBakeError) {
        if try scanner.skipContainerByStructure(insideContainer: true) { return }
        try skipRestOfContainer()
    }

    /// Scans to the end of the open container without decoding anything.
    public mutating func skipRestOfContainer() throws(EasyBakeError) {
        try skip(insideContainer: true)
    }

    public var location: SourceLocation { scanner.location(of: scanner.eventStart) }

    /// The limits the source reads under.
    public var limits: IngredientLimits { scanner.limits }

    /// The byte offset of the most recent event; its line and column are
    /// counted only if asked for.
    public var mark: SourceMark {
        SourceMark(offset: scanner.eventStart, in: scanner.storage, sourceName: scanner.sourceName)
    }

    /// How many bytes have been read, for progress reports.
    public var bytesRead: Int { scanner.position }
}
