import EasyBake
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads JSON Lines (also called NDJSON: one JSON value per line) as one
/// top-level array of records, so that every feature that reads an array —
/// `[*]` record paths, streaming `bakeEach`, paths, conversion — reads a
/// JSON Lines file unchanged.
///
/// Each line holds one JSON value, read by the same strict scanner as
/// ``JSONIngredientSource``: a value may not run on to the next line, and
/// nothing but spaces and tabs may follow it on its line. Lines end at `\n`
/// or `\r\n`; the last line needs no line break; blank lines (empty, or
/// spaces and tabs only) are skipped and are no records. Errors carry the
/// line and column in the whole file.
///
/// Because a line delimits its record, a malformed line fails that record
/// alone when records are streamed: `RecordReader` (and so `bakeEach`)
/// reports the error with the record's path and goes on with the next line
/// (``resumeAfterFailedElement()``). Reading the whole file into a tree or
/// an index stops at the first error.
///
/// ```swift
/// var source = try JSONLinesIngredientSource(.text("{\"id\": 1}\n{\"id\": 2}\n"))
/// let records = try Ingredients(reading: &source)   // [["id": 1], ["id": 2]]
/// ```
public struct JSONLinesIngredientSource: JSONScannedSource, ProgressReporting {
    /// How repeated keys in one object are treated by whoever consumes the
    /// events. Default `DuplicateKeyPolicy.firstWins`.
    public var duplicateKeyPolicy: DuplicateKeyPolicy

    private var scanner: JSONScanner

    private enum Phase {
        /// Before the array's beginning.
        case start
        /// Between records: the next event begins the next line's record,
        /// or ends the array.
        case betweenLines
        /// Inside the record of the line that ends at `lineEnd`.
        case inLine
        /// After the array's end.
        case finished
    }

    private var phase = Phase.start
    /// The offset of the current line's break, or the end of the input.
    private var lineEnd = 0
    /// How many records (lines that are not blank) have begun.
    private var recordsBegun = 0
    /// Where the next release of read pages is due.
    private var releaseMark = 8 << 20
    /// A line that begins here or later is past the byte range read.
    private var rangeEnd = Int.max

    /// A source over `input`, mapping files rather than copying them.
    ///
    /// - Throws: `EasyBakeError.Code.io` when the input cannot be read,
    ///   `EasyBakeError.Code.limitExceeded` when it is larger than
    ///   `IngredientLimits.maximumInputBytes`.
    public init(_ input: IngredientInput, options: JSONReadingOptions = .init()) throws(EasyBakeError) {
        let limits = options.limits
        let loaded = try input.loadBytes(limits: limits)
        scanner = try JSONScanner(bytes: loaded, limits: limits, sourceName: input.name)
        scanner.endName = "the end of the line"
        scanner.eventStart = scanner.position
        self.duplicateKeyPolicy = options.duplicateKeys
    }

    /// A source over one worker's share of a large file: the array of the
    /// lines that begin in `byteRange` (offsets in the input's bytes). The
    /// share starts at the first line that begins at or after the range's
    /// start and ends with the line that crosses its end, so the ranges of
    /// a partition of the file read every line exactly once, in order.
    ///
    /// Reading starts at the range at once (a mapped file's earlier pages
    /// are not read) and stops after its last line. Indexes count from the
    /// range's first record; locations are in the whole file.
    ///
    /// ```swift
    /// // The second of four workers on a 4 MB file:
    /// let share = try JSONLinesIngredientSource(.file("users.jsonl"), byteRange: 1_000_000..<2_000_000)
    /// for result in try Baker().bakeEach(User.self, from: share, each: "[*]") { print(try result.get()) }
    /// ```
    ///
    /// - Throws: what ``init(_:options:)`` throws.
    public init(_ input: IngredientInput, byteRange: Range<Int>, options: JSONReadingOptions = .init())
        throws(EasyBakeError)
    {
        try self.init(input, options: options)
        let end = scanner.inputCount
        var start = min(max(byteRange.lowerBound, scanner.position), end)
        if start > scanner.position, scanner.base[start - 1] != UInt8(ascii: "\n") {
            // Inside a line, which the range before this one reads: begin
            // with the next line.
            let found = memchr(scanner.base + start, Int32(UInt8(ascii: "\n")), end - start)
            start = found.map { UnsafeRawPointer($0) - UnsafeRawPointer(scanner.base) + 1 } ?? end
        }
        scanner.position = start
        scanner.eventStart = start
        rangeEnd = byteRange.upperBound
        releaseMark = start + (8 << 20)
    }

    public mutating func next() throws(EasyBakeError) -> IngredientEvent? {
        switch phase {
        case .start:
            phase = .betweenLines
            return .beginArray
        case .betweenLines:
            return try beginLine(materializing: true)
        case .inLine:
            guard let event = try scanner.next(materializing: true) else {
                throw scanner.syntax("expected a JSON value, found \(scanner.endName)", at: scanner.position)
            }
            if scanner.containers.isEmpty { try finishLine() }
            return event
        case .finished:
            return nil
        }
    }

    /// Finds the next line that is not blank and reads the first event of
    /// its record; the array's end after the last.
    private mutating func beginLine(materializing: Bool) throws(EasyBakeError) -> IngredientEvent {
        let base = scanner.base
        let end = scanner.inputCount
        var start = scanner.position
        while start < end, start < rangeEnd {
            let found = memchr(base + start, Int32(UInt8(ascii: "\n")), end - start)
            let lineBreak = found.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? end
            var first = start
            while first < lineBreak, base[first] == 0x20 || base[first] == 0x09 || base[first] == 0x0D { first += 1 }
            if first == lineBreak {
                start = lineBreak + 1
                continue
            }
            lineEnd = lineBreak
            assert(first <= lineBreak && lineBreak <= scanner.inputCount, "a line past the end of the input")
            scanner.count = lineBreak
            scanner.position = first
            scanner.expect = .value
            scanner.containers.removeAll(keepingCapacity: true)
            phase = .inLine
            recordsBegun += 1
            guard let event = try scanner.next(materializing: materializing) else {
                throw scanner.syntax("expected a JSON value, found \(scanner.endName)", at: first)
            }
            if scanner.containers.isEmpty { try finishLine() }
            return event
        }
        assert(end <= scanner.inputCount, "the end of the lines past the end of the input")
        scanner.count = end
        scanner.position = end
        scanner.eventStart = end
        phase = .finished
        return .endArray
    }

    /// After a line's record: checks that nothing but blanks follows it on
    /// its line, and moves on to the next line.
    private mutating func finishLine() throws(EasyBakeError) {
        scanner.skipWhitespace()
        guard scanner.position >= scanner.count else {
            throw scanner.syntax(
                "expected the end of the line after the JSON value, found \(scanner.found(at: scanner.position)) (JSON Lines holds one value per line)",
                at: scanner.position)
        }
        phase = .betweenLines
        scanner.expect = .end
        scanner.position = min(lineEnd + 1, scanner.inputCount)
        if scanner.position >= releaseMark {
            scanner.storage.release(before: scanner.eventStart)
            releaseMark = scanner.position + (8 << 20)
        }
    }

    /// Skips the next value: a record, checked but not decoded, or — when
    /// the next event would end the array — that end.
    public mutating func skipValue() throws(EasyBakeError) {
        switch phase {
        case .start:
            phase = .betweenLines
            try skipRestOfContainer()
        case .betweenLines:
            let first = try beginLine(materializing: false)
            try skipRest(startingWith: first)
        case .inLine:
            if try !scanner.skipQuickly(insideContainer: false) { try scanner.skipValueByEvents() }
            if scanner.containers.isEmpty { try finishLine() }
        case .finished:
            return
        }
    }

    /// Skips the rest of a record whose first event was read (in
    /// `.betweenLines` after a scalar's, or `.inLine` after a container's).
    private mutating func skipRest(startingWith first: IngredientEvent) throws(EasyBakeError) {
        switch first {
        case .beginArray, .beginDictionary:
            try skipRestOfLineContainer()
        case .scalar, .endArray, .endDictionary, .key:
            break
        }
    }

    private mutating func skipRestOfLineContainer() throws(EasyBakeError) {
        if try !scanner.skipQuickly(insideContainer: true) { try scanner.skipRestOfContainerByEvents() }
        if scanner.containers.isEmpty { try finishLine() }
    }

    /// Skips the rest of the open container: inside a record, natively as
    /// ``JSONIngredientSource`` does; at the top, every remaining line, each
    /// still checked.
    public mutating func skipRestOfContainer() throws(EasyBakeError) {
        if phase == .inLine, !scanner.containers.isEmpty {
            return try skipRestOfLineContainer()
        }
        while phase == .betweenLines {
            let first = try beginLine(materializing: false)
            try skipRest(startingWith: first)
        }
    }

    /// Compares raw key bytes with the wanted keys, as
    /// ``JSONIngredientSource`` does.
    public mutating func nextWantedKey(_ wanted: WantedKeys) throws(EasyBakeError) -> Int? {
        guard phase == .inLine else { return try nextWantedKeyReadingEvents(wanted) }
        return try nextWantedKeyScanning(wanted)
    }

    mutating func nextKeyQuickly(_ wanted: WantedKeys) throws(EasyBakeError) -> JSONScanner.QuickKey {
        try scanner.nextKeyQuickly(wanted)
    }

    /// Finishes the line when the object searched for keys was the record.
    mutating func finishedObject() throws(EasyBakeError) {
        if scanner.containers.isEmpty { try finishLine() }
    }

    /// The structural pass's level the records are read at (see
    /// ``JSONIngredientSource/structuralLevel``), so that tests read every
    /// line at every level; `nil` (the default): the best the machine has,
    /// unless `EASYBAKE_SCALAR` is set.
    package var structuralLevel: Int32? {
        get { scanner.structuralLevelChoice }
        set { scanner.structuralLevelChoice = newValue }
    }

    /// How the scanner finds runs of plain bytes (see
    /// ``JSONIngredientSource/byteScanning``).
    package var byteScanning: JSONByteScanning {
        get { scanner.scanning }
        set { scanner.scanning = newValue }
    }

    /// Reads a record (or a value inside one) whose first event was just
    /// read straight from its bytes into `index`, as
    /// ``JSONIngredientSource`` does.
    public mutating func readValue(startingWith first: IngredientEvent, into index: inout IngredientIndex)
        throws(EasyBakeError)
    {
        guard duplicateKeyPolicy == .firstWins, phase == .inLine else {
            return try readValueReadingEvents(startingWith: first, into: &index)
        }
        switch first {
        case .beginArray, .beginDictionary: scanner.containers.removeLast()
        case .scalar, .key, .endArray, .endDictionary:
            return try readValueReadingEvents(startingWith: first, into: &index)
        }
        scanner.position = scanner.eventStart
        scanner.expect = .value
        try scanner.indexValue(into: &index)
        if scanner.containers.isEmpty { try finishLine() }
    }

    /// Reads a record (or a value inside one) whose first event was just
    /// read straight from its bytes into `index`, keeping only what
    /// `matcher`'s paths reach, as ``JSONIngredientSource`` does.
    public mutating func readValue(
        startingWith first: IngredientEvent, into index: inout IngredientIndex, keeping matcher: PathMatcher
    ) throws(EasyBakeError) {
        guard duplicateKeyPolicy == .firstWins, phase == .inLine, let picking = matcher.picking(for: traits),
            let root = picking.root
        else {
            return try readValueReadingEvents(startingWith: first, into: &index, keeping: matcher)
        }
        switch first {
        case .beginArray, .beginDictionary: scanner.containers.removeLast()
        case .scalar, .key, .endArray, .endDictionary:
            return try readValueReadingEvents(startingWith: first, into: &index, keeping: matcher)
        }
        scanner.position = scanner.eventStart
        scanner.expect = .value
        try scanner.indexValue(into: &index, keeping: picking, state: root)
        if scanner.containers.isEmpty { try finishLine() }
    }

    /// After an error inside a record, moves on to the next line.
    ///
    /// - Returns: how many records have begun, the failed one included;
    ///   `nil` before the first record or after the last.
    public mutating func resumeAfterFailedElement() -> Int? {
        switch phase {
        case .inLine:
            phase = .betweenLines
            scanner.count = scanner.inputCount
            scanner.expect = .end
            scanner.containers.removeAll(keepingCapacity: true)
            scanner.position = min(lineEnd + 1, scanner.inputCount)
            return recordsBegun
        case .betweenLines:
            return recordsBegun
        case .start, .finished:
            return nil
        }
    }

    public var location: SourceLocation { scanner.location(of: scanner.eventStart) }

    /// The limits the source reads under; the node limit holds per record.
    public var limits: IngredientLimits { scanner.limits }

    /// The byte offset of the most recent event; its line and column are
    /// counted only if asked for.
    public var mark: SourceMark {
        SourceMark(offset: scanner.eventStart, in: scanner.storage, sourceName: scanner.sourceName)
    }

    /// How many bytes have been read, for progress reports.
    public var bytesRead: Int { scanner.position }
}
