import CEasyBakeScanning
import EasyBake

/// The records of a YAML document read by the native scanner, one at a time
/// into the index they are baked from: how ``YAMLIngredientSource`` streams
/// records without libyaml's events.
///
/// One scanner walks the document around the records — the mappings on the
/// record path (`users[*]`, `data.items[*]`, or `[*]` at the root) and every
/// value beside it, checked and indexed into a scratch index that is never
/// read — and stops at each entry of the sequence that holds the records. A
/// second scanner indexes that record, from the node after its `- ` to the
/// first line indented no more than its `-`, with the rules the whole
/// document is read with: the same index, entries at the same offsets, as
/// ``YAMLFormat/readIndex(_:into:)`` would give for the record.
///
/// A stream of documents read as one array
/// (``YAMLReadingOptions/Documents/all``) streams at `[*]` a document per
/// record: each document's bytes, between the markers
/// `YAMLDocumentRange` finds without parsing, are indexed by the scanner as
/// a whole document is.
///
/// Whatever either scanner does not read (an anchor, a tag, a flow
/// collection, a block scalar, a second document, a wrong line, records
/// that are a mapping's values...) ends the native reading: the source's
/// events then read the input from its start, and the records already given
/// are skipped there (see `IngredientSource.readNextRecord(at:into:)`), so
/// that the records, errors and warnings are the event path's.
final class YAMLRecordStream {
    private let loaded: LoadedBytes
    private let sourceName: String
    private let options: YAMLReadingOptions
    /// Reading the documents of a stream, each a record: where the next
    /// one begins; `nil` for the records of one document.
    private var nextDocument: Int?
    private var around: YAMLIndexScanner
    private var record: YAMLIndexScanner
    /// What `around` indexes: the collections on the record path and the
    /// values beside it, never read.
    private var aroundIndex = IngredientIndex()
    private let aroundWriter: IngredientIndex.UncheckedWriter
    /// The records given so far.
    private(set) var recordsRead = 0
    /// Where the next release of read pages is due.
    private var releaseMark = YAMLRecordStream.releaseInterval

    /// A mapped file's pages count against resident memory once read:
    /// giving back what lies behind the scanner every so often keeps a large
    /// file streaming in a few megabytes. A later error report that needs
    /// those bytes reads them from the file again.
    private static let releaseInterval = 8 << 20

    /// A stream of the records at `recordPath` in `input`; `nil` when the
    /// path is not keys and a final `[*]` in one document, nor `[*]` over
    /// every document of a stream, or the input is not one the scanner may
    /// read (see `YAMLFormat.bytesForScanning`).
    init?(_ input: IngredientInput, recordPath: IngredientPath, options: YAMLReadingOptions) {
        guard case .everyElement? = recordPath.steps.last else { return nil }
        var keys: [String] = []
        for step in recordPath.steps.dropLast() {
            guard case .key(let key) = step else { return nil }
            keys.append(key)
        }
        switch options.documents {
        case .single: nextDocument = nil
        case .all where keys.isEmpty: nextDocument = 0
        default: return nil
        }
        guard let loaded = YAMLFormat.bytesForScanning(input, options: options) else { return nil }
        self.loaded = loaded
        self.options = options
        sourceName = input.name
        around = YAMLIndexScanner(bytes: loaded.buffer, options: options)
        around.recordKeys = keys
        record = YAMLIndexScanner(bytes: loaded.buffer, options: options)
        aroundWriter = aroundIndex.beginUncheckedWriting(input: loaded, sourceName: input.name)
        do {
            try around.checkStart()
        } catch {
            return nil
        }
    }

    /// How far the characters are known to be ones the scanner reads.
    private var charactersChecked = 0
    private var charactersFailed = false

    /// How far past the reading libyaml may have decoded: it checks the
    /// characters of a whole raw chunk (16 KiB) before it parses any of it,
    /// and looks a token ahead. Four times that leaves room, and costs
    /// nothing: the scanner reads those bytes next.
    private static let characterLookahead = 64 << 10

    /// Whether every character before `end` is one the scanner reads:
    /// printable ASCII, line feeds and valid UTF-8 (no tab, carriage return
    /// or control character).
    ///
    /// A bad byte stops libyaml's events at the chunk it stands in, records
    /// before it included, where the native reading would give those
    /// records first: so no record is given before the characters up to
    /// libyaml's lookahead past it are checked, and the end of the records
    /// only once all are. Checked a window ahead of the scanner, the bytes
    /// are read while their pages are at hand, once.
    private func charactersAreReadable(upTo end: Int) -> Bool {
        guard !charactersFailed else { return false }
        let end = min(end, loaded.buffer.count)
        guard charactersChecked < end else { return true }
        guard let reached = Self.readableCharacters(in: loaded.buffer, from: charactersChecked, to: end) else {
            charactersFailed = true
            return false
        }
        charactersChecked = reached
        return true
    }

    /// Checks the characters that begin in `start..<end` (see
    /// `charactersAreReadable(upTo:)`): where the check stopped (at or past
    /// `end`, as a character may end past it), or `nil` at a bad byte.
    private static func readableCharacters(in buffer: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int? {
        guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return end }
        let count = buffer.count
        let classes = ByteClass.table
        var p = start
        let high: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        while p < end {
            // Sixteen bytes at a time where the machine has vectors (line
            // feeds included), then a word, then byte by byte at what stops
            // them.
            p = easybake_printable_end(base, p, end)
            if p >= end { break }
            if p + 8 <= count {
                // Eight printable ASCII bytes at once: none at or above 0x80,
                // none below 0x20 (a line feed is checked alone), no DEL.
                let word = UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self)
                let low = (word &- 0x2020_2020_2020_2020) & ~word & high
                let delete = word ^ 0x7F7F_7F7F_7F7F_7F7F
                if word & high == 0, low == 0, (delete &- ones) & ~delete & high == 0 {
                    p += 8
                    continue
                }
            }
            // The word's bytes one by one (a character may end past it).
            let wordEnd = min(p + 8, count)
            while p < wordEnd {
                switch classes[Int(base[p])] {
                case .invalid:
                    return nil
                case .nonASCII:
                    do {
                        p += try YAMLIndexScanner.validateUTF8(base, count, at: p)
                    } catch {
                        return nil
                    }
                default:
                    p += 1
                }
            }
        }
        return p
    }

    /// How far the scan has read, for progress reports.
    var bytesRead: Int { nextDocument ?? around.position }

    /// Reading documents: the document read ahead, and where it begins;
    /// `nil` before the first and once the documents ended.
    private var ahead: (index: IngredientIndex, mark: SourceMark)?
    /// What reading on after the document ahead found: `.end` or
    /// `.unavailable`.
    private var afterAhead: IndexedRecordRead?
    private var startedReading = false

    /// Where the scan around the records stopped: at a record's entry (its
    /// `-`, its line's start and the open collections' count), at the end
    /// of the records, or where the scanner cannot go on; `nil` before it
    /// began.
    private var aroundStop: AroundStop?

    private enum AroundStop {
        case entry(Int, lineStart: Int, depth: Int)
        case end
        case unavailable
    }

    /// Gives the next record in `index`: `.end` after the last, once the rest
    /// of the document has been read; `.unavailable` where the scanner stops
    /// (and for a path that finds no record, whose error or empty answer the
    /// event path words).
    ///
    /// A record is given only once the scan around the records has read on
    /// to the next record's `-` (or the rest of the input): libyaml reads a
    /// token ahead of the events it gives, across the blank lines and
    /// comments after a record, so a wrong line just after a record stops the
    /// events before that record's end, and the record must then come from
    /// the events, if at all. What the next record holds comes after that
    /// token, and cannot stop this one's events. A document of a stream is
    /// given once the next one has been read.
    func next(into index: inout IngredientIndex) -> IndexedRecordRead {
        if nextDocument != nil { return nextDocumentReadAhead(into: &index) }
        return nextRecord(leavingTo: nil, into: &index)
    }

    /// Gives the next record unread, for a job to read
    /// (``DeferredYAMLRecord``), having found only where it ends: the
    /// lines after its `-` up to the first one, not blank and no comment,
    /// indented no more than the `-` — where the record scanner stops, in
    /// every record it reads. Records are given when ``next(into:)`` gives
    /// them, and `.end` and `.unavailable` alike. `nil` for a stream of
    /// documents, which ``next(into:)`` reads in place.
    ///
    /// Where the record scanner cannot read the record, the job says so
    /// (noting it in `bail`), and the records from it on are read through
    /// the events (see `DeferredIngredientValue`), as ``next(into:)`` would
    /// have said `.unavailable` at that record.
    func nextDeferred(notifying bail: YAMLRecordBail) -> IndexedRecordRead? {
        guard nextDocument == nil else { return nil }
        return nextRecord(leavingTo: bail, into: &unreadRecords)
    }

    /// What ``nextDeferred(notifying:)`` hands ``nextRecord(leavingTo:into:)``
    /// as the index it does not fill: one for the stream, not one a record.
    private var unreadRecords = IngredientIndex()

    /// The next record of one document, read into `index`, or — leaving it
    /// to a job that notes in `bail` a record it cannot read — only found.
    private func nextRecord(leavingTo bail: YAMLRecordBail?, into index: inout IngredientIndex) -> IndexedRecordRead {
        if aroundStop == nil { aroundStop = scanAround() }
        guard case .entry(let entry, let lineStart, let depth) = aroundStop! else {
            if case .end = aroundStop!, recordsRead > 0 { return .end }
            return .unavailable
        }
        let buffer = loaded.buffer
        var node = entry + 1
        while node < buffer.count, buffer[node] == UInt8(ascii: " ") { node += 1 }
        let column = entry - lineStart
        let end: Int
        if bail != nil {
            end = Self.recordEnd(in: buffer, from: node, entryColumn: column)
        } else {
            let writer = index.beginUncheckedWriting(input: loaded, sourceName: sourceName)
            do throws(YAMLIndexBail) {
                try record.buildRecord(
                    at: node, lineStart: lineStart, entryColumn: column, depth: depth, into: writer)
            } catch {
                index.removeAll()
                aroundStop = .unavailable
                return .unavailable
            }
            end = record.position
        }
        around.position = end
        aroundStop = scanAround()
        guard mayGiveRecord() else {
            index.removeAll()
            return .unavailable
        }
        recordsRead += 1
        if end >= releaseMark {
            // Behind the records left to jobs too: a released page is read
            // from the file again when a job reaches it.
            loaded.release(before: lineStart)
            releaseMark = end + Self.releaseInterval
        }
        // libyaml marks a collection where its first key or `-` stands,
        // a scalar where it begins: the node after `- `.
        let mark = SourceMark(offset: node, in: loaded, sourceName: sourceName)
        guard let bail else { return .record(mark) }
        return .deferred(
            mark,
            DeferredYAMLRecord(
                loaded: loaded, sourceName: sourceName, options: options, node: node, lineStart: lineStart,
                entryColumn: column, depth: depth, end: end, bail: bail))
    }

    /// Whether the record before where the around scan stopped may be
    /// given: the scan read on to the next record or the end, and the
    /// characters up to libyaml's lookahead past it are ones it reads. Once
    /// not, nothing more is.
    private func mayGiveRecord() -> Bool {
        let checkedEnd: Int
        switch aroundStop {
        case .unavailable?, nil: return false
        case .end?: checkedEnd = loaded.buffer.count
        case .entry?: checkedEnd = around.position + Self.characterLookahead
        }
        guard charactersAreReadable(upTo: checkedEnd) else {
            aroundStop = .unavailable
            return false
        }
        return true
    }

    /// Gives the next document of a stream, read once the one after it has
    /// been read (see ``next(into:)``).
    private func nextDocumentReadAhead(into index: inout IngredientIndex) -> IndexedRecordRead {
        if !startedReading {
            startedReading = true
            var first = IngredientIndex()
            readAhead(into: &first)
        }
        guard var given = ahead else { return afterAhead ?? .unavailable }
        ahead = nil
        // The memory of the document given last is the next one's.
        readAhead(into: &index)
        if ahead == nil, case .unavailable? = afterAhead { return .unavailable }
        let checkedEnd = ahead == nil ? loaded.buffer.count : bytesRead + Self.characterLookahead
        guard charactersAreReadable(upTo: checkedEnd) else {
            ahead = nil
            afterAhead = .unavailable
            return .unavailable
        }
        swap(&index, &given.index)
        return .record(given.mark)
    }

    /// Reads the document after the one given next, with `index`'s memory,
    /// which it takes.
    private func readAhead(into index: inout IngredientIndex) {
        let read = nextDocument.map { nextDocument(at: $0, into: &index) } ?? .end
        switch read {
        case .record(let mark):
            var taken = IngredientIndex()
            swap(&taken, &index)
            ahead = (taken, mark)
        case let other:
            afterAhead = other
        }
    }

    /// Scans around the records from `around.position` to the next
    /// record's `-` or the end of the document.
    private func scanAround() -> AroundStop {
        do throws(YAMLIndexBail) {
            try around.scanLines(into: aroundWriter)
            guard let entry = around.recordEntry else {
                try around.finish(into: aroundWriter)
                return .end
            }
            around.recordEntry = nil
            return .entry(entry, lineStart: around.lineStart, depth: around.depth)
        } catch {
            return .unavailable
        }
    }

    /// Where the record whose node begins at `node` ends, its `-` at
    /// `entryColumn`: the start of the first line after the node's that is
    /// neither blank nor a comment and is indented no more than the `-`,
    /// or the end of the input. The record scanner's own rule
    /// (`YAMLIndexScanner.scanLines(into:)`), for the records it reads: it
    /// reads no scalar over several lines.
    static func recordEnd(in buffer: UnsafeRawBufferPointer, from node: Int, entryColumn: Int) -> Int {
        guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return buffer.count }
        let count = buffer.count
        /// The offset after the line feed at or after `p`, or the end.
        func nextLine(_ p: Int) -> Int {
            guard p < count, let feed = memchr(base + p, 0x0A, count - p) else { return count }
            return base.distance(to: feed.assumingMemoryBound(to: UInt8.self)) + 1
        }
        var p = nextLine(node)
        while p < count {
            let lineStart = p
            while p < count, base[p] == UInt8(ascii: " ") { p += 1 }
            guard p < count else { return count }
            let byte = base[p]
            if byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "#"), p - lineStart <= entryColumn { return lineStart }
            p = nextLine(p)
        }
        return count
    }

    /// Reads the document that begins at `start` (or the first after it
    /// that has anything but comments) into `index`.
    private func nextDocument(at start: Int, into index: inout IngredientIndex) -> IndexedRecordRead {
        let buffer = loaded.buffer
        var start = start
        while start < buffer.count {
            let end = YAMLDocumentRange.boundary(atOrAfter: start + 1, in: buffer)
            // The document's bytes, its offsets those of the whole input.
            var scanner = YAMLIndexScanner(bytes: UnsafeRawBufferPointer(rebasing: buffer[..<end]), options: options)
            scanner.position = start
            // The documents are the elements of one array, which counts
            // toward the depth limit.
            scanner.depthOffset = 1
            let writer = index.beginUncheckedWriting(input: loaded, sourceName: sourceName)
            do throws(YAMLIndexBail) {
                try scanner.checkStart()
                try scanner.scanLines(into: writer)
                guard scanner.readsAnything else {
                    // Comments before the first `---`, or after the last
                    // document: no document.
                    start = end
                    continue
                }
                try scanner.finish(into: writer)
                // An empty document's null has no place of its own: left to
                // the events, which know where libyaml puts it.
                guard scanner.rootOffset >= 0 else { throw YAMLIndexBail() }
            } catch {
                index.removeAll()
                return .unavailable
            }
            nextDocument = end
            recordsRead += 1
            if end >= releaseMark {
                loaded.release(before: end)
                releaseMark = end + Self.releaseInterval
            }
            return .record(SourceMark(offset: scanner.rootOffset, in: loaded, sourceName: sourceName))
        }
        index.removeAll()
        nextDocument = buffer.count
        return recordsRead > 0 ? .end : .unavailable
    }
}

/// Whether a record left to a job turned out to be one the record scanner
/// does not read (shared by the jobs and the source that left the records):
/// the source then read records through libyaml's events.
typealias YAMLRecordBail = Locked<Bool>

/// A record of a block sequence that ``YAMLRecordStream`` found the end of
/// and left unread, read by the job that bakes it with the record scanner
/// and the rules the stream reads records with.
struct DeferredYAMLRecord: DeferredIngredientValue {
    let loaded: LoadedBytes
    let sourceName: String
    let options: YAMLReadingOptions
    /// Where its node begins (after its `- `), the line of its `-`, and
    /// the `-`'s column.
    let node: Int
    let lineStart: Int
    let entryColumn: Int
    /// The collections around it, which count toward the depth limit.
    let depth: Int
    /// Where the stream found it ends, which the scanner must agree with.
    let end: Int
    let bail: YAMLRecordBail

    /// Reads the record as `YAMLRecordStream` reads it in turn, keeping all
    /// of it (a matcher is a hint a source may ignore); `false` where the
    /// record scanner cannot read it, or ends it elsewhere than the stream
    /// found.
    func read(into index: inout IngredientIndex, keeping matcher: PathMatcher?) -> Bool {
        var scanner = YAMLIndexScanner(bytes: loaded.buffer, options: options)
        let writer = index.beginUncheckedWriting(input: loaded, sourceName: sourceName)
        do throws(YAMLIndexBail) {
            try scanner.buildRecord(
                at: node, lineStart: lineStart, entryColumn: entryColumn, depth: depth, into: writer)
            guard scanner.position == end else { throw YAMLIndexBail() }
            return true
        } catch {
            index.removeAll()
            bail.withLock { $0 = true }
            return false
        }
    }
}
