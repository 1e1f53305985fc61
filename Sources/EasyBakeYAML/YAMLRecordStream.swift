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
    private let aroundStorage: IngredientIndex.Storage
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
        aroundIndex.begin(input: loaded, sourceName: input.name)
        aroundStorage = aroundIndex.storageForBuilding
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

    /// The record read ahead, and where it begins; `nil` before the first
    /// and once the records ended.
    private var ahead: (index: IngredientIndex, mark: SourceMark)?
    /// What reading on after the record ahead found: `.end` or `.unavailable`.
    private var afterAhead: IndexedRecordRead?
    private var startedReading = false

    /// Gives the next record in `index`: `.end` after the last, once the rest
    /// of the document has been read; `.unavailable` where the scanner stops
    /// (and for a path that finds no record, whose error or empty answer the
    /// event path words).
    ///
    /// A record is given only once the one after it (or the rest of the
    /// input) has been read too: libyaml reads a token ahead of the events
    /// it gives, across a line if a key may stand there, so a wrong line
    /// just after a record stops the events before that record's end, and
    /// the record must then come from the events, if at all.
    func next(into index: inout IngredientIndex) -> IndexedRecordRead {
        if !startedReading {
            startedReading = true
            var first = IngredientIndex()
            readAhead(into: &first)
        }
        guard var given = ahead else { return afterAhead ?? .unavailable }
        ahead = nil
        // The memory of the record given last is the next one's.
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

    /// Reads the record after the one given next, with `index`'s memory,
    /// which it takes.
    private func readAhead(into index: inout IngredientIndex) {
        switch read(into: &index) {
        case .record(let mark):
            var taken = IngredientIndex()
            swap(&taken, &index)
            ahead = (taken, mark)
        case let other:
            afterAhead = other
        }
    }

    /// Reads one record into `index`: `.end` after the last, once the
    /// rest of the document has been read; `.unavailable` where the scanner
    /// stops (and for a path that finds no record, whose error or empty
    /// answer the event path words).
    private func read(into index: inout IngredientIndex) -> IndexedRecordRead {
        if let start = nextDocument { return nextDocument(at: start, into: &index) }
        do throws(YAMLIndexBail) {
            try around.scanLines(into: aroundStorage)
            guard let entry = around.recordEntry else {
                try around.finish(into: aroundStorage)
                guard recordsRead > 0 else { throw YAMLIndexBail() }
                return .end
            }
            around.recordEntry = nil
            var node = entry + 1
            while node < loaded.buffer.count, loaded.buffer[node] == UInt8(ascii: " ") { node += 1 }
            index.begin(input: loaded, sourceName: sourceName)
            try record.buildRecord(
                at: node, lineStart: around.lineStart, entryColumn: entry - around.lineStart, depth: around.depth,
                into: index.storageForBuilding)
            around.position = record.position
            recordsRead += 1
            if around.position >= releaseMark {
                loaded.release(before: around.lineStart)
                releaseMark = around.position + Self.releaseInterval
            }
            // libyaml marks a collection where its first key or `-` stands,
            // a scalar where it begins: the node after `- `.
            return .record(SourceMark(offset: node, in: loaded, sourceName: sourceName))
        } catch {
            index.removeAll()
            return .unavailable
        }
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
            index.begin(input: loaded, sourceName: sourceName)
            do throws(YAMLIndexBail) {
                try scanner.checkStart()
                try scanner.scanLines(into: index.storageForBuilding)
                guard scanner.readsAnything else {
                    // Comments before the first `---`, or after the last
                    // document: no document.
                    start = end
                    continue
                }
                try scanner.finish(into: index.storageForBuilding)
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
