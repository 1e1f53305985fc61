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
/// Whatever either scanner does not read (an anchor, a tag, a flow
/// collection, a block scalar, a second document, a wrong line, records
/// that are a mapping's values...) ends the native reading: the source's
/// events then read the input from its start, and the records already given
/// are skipped there (see `IngredientSource.readNextRecord(at:into:)`), so
/// that the records, errors and warnings are the event path's.
final class YAMLRecordStream {
    private let loaded: LoadedBytes
    private let sourceName: String
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
    /// path is not keys and a final `[*]`, or the input is not one document
    /// the scanner may read (see `YAMLFormat.bytesForScanning`).
    init?(_ input: IngredientInput, recordPath: IngredientPath, options: YAMLReadingOptions) {
        guard case .everyElement? = recordPath.steps.last else { return nil }
        var keys: [String] = []
        for step in recordPath.steps.dropLast() {
            guard case .key(let key) = step else { return nil }
            keys.append(key)
        }
        guard let loaded = YAMLFormat.bytesForScanning(input, options: options) else { return nil }
        self.loaded = loaded
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

    /// How far the scan has read, for progress reports.
    var bytesRead: Int { around.position }

    /// Reads the next record into `index`: `.end` after the last, once the
    /// rest of the document has been read; `.unavailable` where the scanner
    /// stops (and for a path that finds no record, whose error or empty
    /// answer the event path words).
    func next(into index: inout IngredientIndex) -> IndexedRecordRead {
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
}
