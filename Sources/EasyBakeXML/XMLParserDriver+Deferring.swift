internal import CLibXML2
import EasyBake
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Records read by the jobs that bake them (`IngredientSource.deferValue`):
// reading a record's XML — libxml2's parse and the element builder — is most
// of the work of streaming XML, and done in turn it bounds several jobs near
// 1.4× one. So the reader's libxml2 parses only what lies around the
// records, and each job parses its own records with a parser of its own.
//
// The reader finds a record's bytes without parsing them: a lexer
// (`easybake_xml_lex`, CLibXML2/lexer.h) follows the bytes libxml2 is fed,
// and ends each slice just after the start tag of an element at the
// records' depth (and after the first start tag inside it, for a record
// whose first event comes with its first child). There libxml2 has read
// the start tag and nothing more, so when the reader asks to defer the
// record, the lexer finds the matching end tag, and libxml2 is fed closing
// tags in place of the record's content, read as a skipped value (no
// events), then its line and column are set to those after the record. The
// record's bytes, inside an element that declares the namespaces in scope,
// go to a job, whose driver reads them as a streamed record is read here,
// at the record's own lines and columns.
//
// Records are deferred only where that reads exactly as in place: UTF-8
// input read strictly (no lenient repairs), XML 1.0, no DTD (so no entity
// can hold markup or be charged to the expansion budget), no captured
// markup, and a record whose end lies in the chunk read. Anything else is
// read in place.
//
// What two jobs cost beyond one (benchmark, 200 MB: 1.65× one job into
// `@Bakeable` models, 1.67× into `Decodable` ones): both cores stay busy,
// so the turn no longer bounds them; the work grows instead. The lexer,
// each record's parser reset and its wrapper add about a tenth to the
// instructions (callgrind, 9 MB: 1,667M against 1,519M), and two threads on
// this machine's cores each run a tenth slower than one alone. The next
// steps: one parser per job kept open across records (each record a child
// of a lasting root, instead of `xmlCtxtResetPush`: about 2%), and the
// record's bytes handed to libxml2 where they lie instead of copied into
// the job's chunk first.
extension XMLParserDriver {
    /// Ends the slice `range` of the chunk just after the next start tag
    /// the records are cut at, if there is one in it; the lexer reads what
    /// libxml2 is fed.
    func lexSlice(_ range: Range<Int>) -> Int {
        assert(
            range.lowerBound >= 0 && range.upperBound <= (repaired?.count ?? chunk.count),
            "bytes lexed past the end of the buffer read")
        let base = feedBase.assumingMemoryBound(to: UInt8.self)
        let end = easybake_xml_lex(&lexer, base, range.lowerBound, range.upperBound, cutDepth, -1)
        // The lexer stops inside the slice, and only after a start tag's '>'.
        assert(end >= range.lowerBound && end <= range.upperBound, "the lexer stopped outside the slice")
        assert(
            lexer.stopped == 0 || (end > range.lowerBound && base[end - 1] == UInt8(ascii: ">")),
            "a cut not after a tag")
        lastSliceCut = lexer.stopped != 0
        return end
    }

    /// The lexer's offsets of tags are in the chunk just replaced.
    func forgetLexedTags() {
        lexer.tag_start = -1
        lexer.cut_tag_start = -1
    }

    /// Whether this document's records may be read elsewhere (see above).
    private func recordsMayBeDeferred(_ context: xmlParserCtxtPtr) -> Bool {
        guard repair == nil, markup.names.isEmpty, !tracksUndeclarations, readsRecordsNatively,
            let input = context.pointee.input, input.pointee.buf?.pointee.encoder == nil
        else { return false }
        if let document = context.pointee.myDoc, document.pointee.intSubset != nil { return false }
        if let version = context.pointee.version, strcmp(version, "1.0") != 0 { return false }
        return true
    }

    /// Moves past the record whose `beginDictionary`, `first`, ``next()``
    /// returned last, leaving it for a job to read
    /// (``DeferredXMLRecord``); `nil`, having moved nothing, where it must be
    /// read here.
    func deferRecord(startingWith first: IngredientEvent) -> DeferredXMLRecord? {
        guard !failed, case .beginDictionary = first, head > 0, !lastEventWasKey, let context else { return nil }
        if defersRecords == nil { defersRecords = recordsMayBeDeferred(context) }
        guard defersRecords == true, let input = context.pointee.input else { return nil }
        let recordFrame = Int(lastKeyFrame)
        guard recordFrame >= 0, recordFrame < frames.count, frames[recordFrame].opened,
            !frames.values[recordFrame...].contains(where: { $0.declarations == .max })
        else { return nil }
        // libxml2 stands between two pieces of markup with every byte fed
        // read, or (in text) with only text left: the lexer takes over there.
        let state = context.pointee.instate
        let unread = input.pointee.end - input.pointee.cur
        guard !lexing else { return deferCutRecord(context, input, recordFrame: recordFrame, unread: unread) }
        feedSliceSize = Self.recordSliceSize
        guard state == XML_PARSER_CONTENT || state == XML_PARSER_START_TAG || state == XML_PARSER_END_TAG,
            unread >= 0, pendingRange.lowerBound - unread >= 0
        else { return nil }
        lexer = easybake_xml_lexer()
        lexer.depth = context.pointee.nameNr
        lexer.tag_start = -1
        lexer.cut_tag_start = -1
        lexer.cut_depth = -1
        let base = feedBase.assumingMemoryBound(to: UInt8.self)
        // The bytes libxml2 holds unread are the last it was fed.
        assert(pendingRange.lowerBound <= (repaired?.count ?? chunk.count), "unread bytes outside the buffer read")
        _ = easybake_xml_lex(&lexer, base, pendingRange.lowerBound - unread, pendingRange.lowerBound, -1, -1)
        cutDepth = Int32(recordFrame + 1)
        lastSliceCut = false
        lexing = true
        // This record is read here: libxml2 may have read into it already.
        return nil
    }

    /// ``deferRecord(startingWith:)`` once the lexer cuts the input at the
    /// records' start tags.
    private func deferCutRecord(
        _ context: xmlParserCtxtPtr, _ input: UnsafeMutablePointer<xmlParserInput>, recordFrame: Int, unread: Int
    ) -> DeferredXMLRecord? {
        let depth = Int32(recordFrame + 1)
        guard lastSliceCut, unread == 0, context.pointee.instate == XML_PARSER_CONTENT, cutDepth == depth,
            lexer.cut_depth == depth, lexer.cut_tag_start >= 0,
            frames.count == recordFrame + 1
                || frames.count == recordFrame + 2, lexer.depth == Int32(frames.count)
        else { return nil }
        let base = feedBase.assumingMemoryBound(to: UInt8.self)
        let tagStart = Int(lexer.cut_tag_start)
        let contentStart = pendingRange.lowerBound
        var past = lexer
        let end = easybake_xml_lex(&past, base, contentStart, pendingRange.upperBound, -1, Int32(recordFrame))
        guard past.stopped != 0, past.depth == Int32(recordFrame) else { return nil }
        // The record's start tag was fed to libxml2 (the lexer cut the slice
        // just after it); its content and end tag were not.
        assert(
            0 <= tagStart && tagStart < contentStart && contentStart <= end && end <= pendingRange.upperBound,
            "a record's bytes outside the chunk")
        assert(end > contentStart && base[end - 1] == UInt8(ascii: ">"), "a record that does not end with its end tag")

        // Where the record begins, and where libxml2 is to stand after it.
        let line = Int(input.pointee.line)
        let column = Int(input.pointee.col)
        var lastBreak: Int64 = -1
        let tagBreaks = easybake_xml_line_feeds(base, tagStart, contentStart, &lastBreak)
        let startLine = line - tagBreaks
        let startColumn: Int
        if tagBreaks == 0 {
            startColumn = column - easybake_xml_characters(base, tagStart, contentStart)
        } else {
            // Counted from the line break before the record, which must be
            // in the chunk.
            let lineStart = easybake_xml_last_line_feed(base, tagStart)
            guard lineStart >= 0 else { return nil }
            startColumn = easybake_xml_characters(base, Int(lineStart) + 1, tagStart) + 1
        }
        let contentBreaks = easybake_xml_line_feeds(base, contentStart, end, &lastBreak)
        let endLine = line + contentBreaks
        let endColumn =
            contentBreaks == 0
            ? column + easybake_xml_characters(base, contentStart, end)
            : easybake_xml_characters(base, Int(lastBreak) + 1, end) + 1
        guard startLine >= 1, startColumn >= 1 else { return nil }

        let bytes = recordBytes(
            context, UnsafeRawBufferPointer(start: base + tagStart, count: end - tagStart),
            declaredBy: recordFrame, column: startColumn)
        let recordHead = bytes.count - (end - contentStart) - Self.recordWrapperEnd.count
        assert(recordHead > 0 && recordHead <= bytes.count, "a record's head outside its bytes")
        let record = DeferredXMLRecord(
            bytes: bytes, head: recordHead, line: startLine,
            depthOffset: recordFrame - 1, input: self.input, readers: deferredRecordReaders())

        // libxml2 reads closing tags in place of the record, as a skipped
        // value: the record's events are dropped, and none are made.
        head = events.count
        lastEventWasKey = false
        pendingText.removeAll()
        skippedTextBytes = 0
        skipEndDepth = recordFrame
        skipping = true
        // After a line break, so that the line an error after the record
        // shows (from libxml2's buffer) does not show the record's start tag
        // closed at once.
        var closing: [UInt8] = [0x0A]
        for frame in frames.values[recordFrame...].reversed() {
            // Every frame has its name (a skipped value's too).
            assert(frame.local != nil, "a frame without its element's name")
            closing += Array("</".utf8)
            if let prefix = frame.prefix { closing += Array((String(cString: prefix) + ":").utf8) }
            if let local = frame.local { closing += Array(String(cString: local).utf8) }
            closing.append(UInt8(ascii: ">"))
        }
        let saved = easybake_xml_silence()
        closing.withUnsafeBufferPointer { bytes in
            _ = xmlParseChunk(
                context, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self),
                Int32(bytes.count), 0)
        }
        easybake_xml_restore(saved)
        guard !skipping, !failed, let moved = context.pointee.input else {
            // Not expected: closing tags libxml2 has just read the start of.
            if !failed {
                fail(.syntax("could not move past a record read by another job", at: location), context)
            }
            return nil
        }
        moved.pointee.line = Int32(truncatingIfNeeded: endLine)
        moved.pointee.col = Int32(truncatingIfNeeded: endColumn)
        lastPosition = UInt64(UInt32(truncatingIfNeeded: endLine)) << 32 | UInt64(UInt32(truncatingIfNeeded: endColumn))
        lexer = past
        // libxml2 has closed the record (and its first child) as the lexer did.
        assert(lexer.depth == Int32(frames.count), "the lexer's depth is not libxml2's after a record")
        lexer.child_pending = 0
        pendingRange = end..<pendingRange.upperBound
        recordsDeferred += 1
        return record
    }

    /// The bytes a job reads: the record inside an element that declares
    /// the namespaces in scope where it stands, on a line of its own, after
    /// as many spaces as the record's first line has columns before it.
    private func recordBytes(
        _ context: xmlParserCtxtPtr, _ record: UnsafeRawBufferPointer, declaredBy recordFrame: Int, column: Int
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(record.count + column + 64)
        bytes += Array("<\(Self.recordWrapper)".utf8)
        // The namespaces bound outside the record: libxml2's stack less the
        // record's own declarations (on its start tag, read already), the
        // innermost binding of each prefix.
        var seen = Set<String>()
        // `nsTab` holds `nsNr` entries, two per binding (prefix, URI), the
        // bindings of the open elements in order: the record's own (and
        // its first child's) last.
        let entries = Int(context.pointee.nsNr)
        assert(entries >= 0 && entries % 2 == 0, "libxml2's namespace stack holds half a binding")
        assert(entries == 0 || context.pointee.nsTab != nil, "libxml2's namespace stack without its table")
        let count = entries / 2 - frames.values[recordFrame...].reduce(0) { $0 + Int($1.declarations) }
        assert(count >= 0, "more declarations on the record than on libxml2's namespace stack")
        assert(column >= 1, "a record before its line's first column")
        if count > 0, let table = context.pointee.nsTab {
            for i in stride(from: count - 1, through: 0, by: -1) {
                let prefix = table[2 * i].map { String(cString: $0) }
                guard seen.insert(prefix ?? "").inserted else { continue }
                let uri = table[2 * i + 1].map { String(cString: $0) } ?? ""
                bytes += Array(" xmlns\(prefix.map { ":" + $0 } ?? "")=\"".utf8)
                for byte in uri.utf8 {
                    switch byte {
                    case UInt8(ascii: "&"): bytes += Array("&amp;".utf8)
                    case UInt8(ascii: "<"): bytes += Array("&lt;".utf8)
                    case UInt8(ascii: "\""): bytes += Array("&quot;".utf8)
                    default: bytes.append(byte)
                    }
                }
                bytes.append(UInt8(ascii: "\""))
            }
        }
        bytes += Array(">\n".utf8)
        bytes += repeatElement(UInt8(ascii: " "), count: column - 1)
        bytes += record
        bytes += Self.recordWrapperEnd
        // The wrapper is well formed around the record: its start tag, on a
        // line of its own, the record where it stood, its end tag.
        assert(bytes.starts(with: "<\(Self.recordWrapper)".utf8), "the wrapper's start tag missing")
        assert(
            bytes.count >= record.count + Self.recordWrapperEnd.count + column + 1
                && bytes[bytes.count - record.count - Self.recordWrapperEnd.count - column] == 0x0A
                && bytes[bytes.count - record.count - Self.recordWrapperEnd.count - 1 - column] == UInt8(ascii: ">"),
            "the wrapper's start tag not on a line of its own before the record")
        assert(
            bytes.suffix(Self.recordWrapperEnd.count).elementsEqual(Self.recordWrapperEnd),
            "the wrapper's end tag missing")
        return bytes
    }

    /// The element a deferred record is read inside.
    static let recordWrapper = "easybake-record"
    /// On a line of its own, so that no error's line shows it.
    static let recordWrapperEnd = Array("\n</\(recordWrapper)>".utf8)

    /// The drivers this driver's deferred records are read with.
    private func deferredRecordReaders() -> XMLDeferredRecordReaders {
        if let recordReaders { return recordReaders }
        let readers = XMLDeferredRecordReaders(options: options, sourceName: sourceName)
        recordReaders = readers
        return readers
    }
}

/// A record of an XML stream that a job reads (see
/// `XMLParserDriver+Deferring.swift`): its bytes inside an element that
/// declares the namespaces in scope, and where they stand in the input.
struct DeferredXMLRecord: DeferredIngredientValue {
    let bytes: [UInt8]
    /// How many of the bytes come before the record's first event: the
    /// wrapper's start tag, and what libxml2 had read of the record where
    /// it was deferred.
    let head: Int
    /// The line of the record's first byte, and of the bytes before it.
    let line: Int
    let depthOffset: Int
    /// The whole document's input, whose lines errors quote.
    let input: IngredientInput
    let readers: XMLDeferredRecordReaders

    func read(into index: inout IngredientIndex, keeping matcher: PathMatcher?) throws(EasyBakeError) -> Bool {
        let driver = try readers.take(self)
        defer { readers.giveBack(driver) }
        try driver.readDeferredRecord(self, into: &index)
        return true
    }
}

/// The drivers that read the deferred records of one source, each used by
/// one job at a time: made once and kept, as making a libxml2 parser for
/// every record would cost more than parsing it.
final class XMLDeferredRecordReaders: @unchecked Sendable {
    private let options: XMLReadingOptions
    private let sourceName: String
    /// The idle drivers, each with the thread that gave it back: a job
    /// takes back the driver it used last, whose libxml2 buffers its own
    /// thread allocated. Handed from job to job, a driver's reset freed
    /// another thread's memory, under the lock of that thread's malloc
    /// arena, at every record.
    private let lock = Locked<[(thread: pthread_t, driver: XMLParserDriver)]>([])

    init(options: XMLReadingOptions, sourceName: String) {
        self.options = options
        self.sourceName = sourceName
    }

    /// A driver set to read `record`.
    func take(_ record: DeferredXMLRecord) throws(EasyBakeError) -> XMLParserDriver {
        let thread = pthread_self()
        let idle = lock.withLock { idle -> XMLParserDriver? in
            if let own = idle.lastIndex(where: { pthread_equal($0.thread, thread) != 0 }) {
                return idle.remove(at: own).driver
            }
            return idle.popLast()?.driver
        }
        if let driver = idle, driver.context != nil {
            try driver.restart(reading: record.bytes)
            return driver
        }
        return try XMLParserDriver(input: .bytes(record.bytes, name: sourceName), options: options)
    }

    func giveBack(_ driver: XMLParserDriver) {
        let thread = pthread_self()
        lock.withLock { $0.append((thread, driver)) }
    }
}

extension XMLParserDriver {
    /// Sets a driver that read a deferred record to read `bytes`, another.
    func restart(reading bytes: [UInt8]) throws(EasyBakeError) {
        guard let context else { return }
        reader = try IngredientInput.bytes(bytes, name: sourceName).openReader()
        var filled = 0
        while filled < chunk.count {
            let count = try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: chunk[filled...]))
            if count == 0 { break }
            filled += count
        }
        assert(filled <= chunk.count, "a record read past the chunk")
        inputBytes = filled
        failure = nil
        failureGiven = false
        events.removeAll(keepingCapacity: true)
        head = 0
        lastPosition = 1 << 32 | 1
        lastEventWasKey = false
        frames.removeAll()
        pendingText.removeAll()
        rootSeen = false
        skipping = false
        skipEndDepth = 0
        skippedTextBytes = 0
        expansion = 0
        deepestEntityNesting = 0
        indexing = false
        indexFailure = nil
        indexFailed = false
        indexesOneValue = false
        openInOneValue = 0
        inputDone = false
        rawInputDone = false
        let dictionary = context.pointee.dict
        let head = min(4, filled)
        let saved = easybake_xml_silence()
        defer { easybake_xml_restore(saved) }
        // No file name: libxml2 would work out a directory and a URI from
        // it for every record; errors name the source themselves.
        let reset = xmlCtxtResetPush(
            context, UnsafeRawPointer(chunk.baseAddress!).assumingMemoryBound(to: CChar.self), Int32(head), nil, nil)
        guard reset == 0 else { throw EasyBakeError(.io, "libxml2 could not reset a parser (out of memory)") }
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NSCLEAN.rawValue))
        context.pointee._private = Unmanaged.passUnretained(self).toOpaque()
        if context.pointee.dict != dictionary {
            // The name cache is keyed by the addresses of interned names.
            for slot in names.indices { names[slot] = NameSlot() }
        }
        pendingRange = head..<filled
    }

    /// Reads a deferred record into `index`, as ``readRecord(startingWith:into:)``
    /// reads one in place: the bytes are the record inside one element.
    func readDeferredRecord(_ record: DeferredXMLRecord, into index: inout IngredientIndex) throws(EasyBakeError) {
        guard let context, let input = context.pointee.input else {
            throw EasyBakeError(.io, "libxml2 could not make a parser")
        }
        // The wrapper's line is the one before the record's.
        input.pointee.line = Int32(truncatingIfNeeded: record.line - 1)
        depthOffset = record.depthOffset
        lineTextInput = record.input
        // Few events before the record's first (its start tag's), then
        // straight into the index, in one go.
        feedSliceSize = max(record.head - pendingRange.lowerBound, 1)
        recordSliceSize = Self.chunkSize
        guard case .beginDictionary? = try next(), case .key? = try next(), case .beginDictionary? = try next() else {
            throw EasyBakeError.syntax("expected a record", at: location)
        }
        // The wrapper's own attributes (namespace declarations kept as
        // attributes), then the record's key and its first event.
        while true {
            guard case .key? = try next(), let value = try next() else {
                throw EasyBakeError.syntax("expected a record", at: location)
            }
            if case .beginDictionary = value {
                guard try readRecord(startingWith: value, into: &index) else {
                    throw EasyBakeError.syntax("expected a record", at: location)
                }
                return
            }
        }
    }
}
