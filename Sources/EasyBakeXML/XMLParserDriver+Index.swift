import EasyBake
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Building an index straight from the SAX callbacks: the callbacks decide
// what an element holds exactly as they do for events (one set of rules), and
// hand each value to an `XMLIndexBuilder` instead of queueing
// an `IngredientEvent`, so no event, no `String` per key or text, and no key
// hashing is made per value.
extension XMLParserDriver {
    /// Reads the whole document into `index` (replacing what it held): the
    /// index ``IngredientIndex/read(single:)`` would build from this
    /// driver's events under `DuplicateKeyPolicy.collect`, with the same
    /// errors.
    ///
    /// libxml2 is fed in the same slices as when events are pulled, and an
    /// error of the builder (the node limit) is thrown once its slice is
    /// parsed, even if the parser failed later in that slice: the builder
    /// is called only before the parser fails, and the events queued before
    /// an error are read before it, so reading events meets the limit
    /// first too.
    ///
    /// - Throws: the errors of ``next()``, and `EasyBakeError.Code.limitExceeded`
    ///   when the document holds more than `IngredientLimits.maximumNodes` values.
    func readIndex(into index: inout IngredientIndex, filePath: String?) throws(EasyBakeError) {
        indexBuilder = XMLIndexBuilder(
            building: &index, maximumNodes: limits.maximumNodes, locatedByLines: true, sourceName: sourceName)
        // The document's size: what the first chunk holds when it is all,
        // or the file's.
        var size = inputBytes < Self.chunkSize ? inputBytes : 0
        var info = stat()
        if size == 0, let filePath, stat(filePath, &info) == 0 { size = Int(info.st_size) }
        indexBuilder!.reserve(forInputBytes: min(size, limits.maximumInputBytes))
        // The builder holds the index's storage: dropped before the index is used again.
        defer {
            indexBuilder?.deallocate()
            indexBuilder = nil
        }
        textKeyID = indexBuilder!.keyID(textKey)
        indexing = true
        while !(inputDone && context == nil) {
            do throws(EasyBakeError) {
                try feed()
            } catch {
                throw indexFailure ?? error
            }
            if indexFailed, let indexFailure { throw indexFailure }
        }
        guard indexBuilder!.isEmpty else {
            throw EasyBakeError.syntax("unexpected end of input inside a container", at: location)
        }
    }

    /// The index's source offset of a packed event position: its line and
    /// column in the input as written (a lenient reading's repairs undone),
    /// for the location of a bake error on the index.
    @inline(__always)
    func indexOffset(_ position: UInt64) -> Int {
        let (line, column) = lineAndColumn(position)
        return IngredientIndex.lineColumnOffset(line: line, column: column)
    }

    /// Records the builder's first error; later calls to it are skipped.
    func indexFailed(_ error: EasyBakeError) {
        guard !indexFailed else { return }
        indexFailure = error
        indexFailed = true
    }

    /// Records that the value at `position` passed the node limit.
    func nodeLimitPassed(_ position: UInt64) {
        indexFailed(indexBuilder!.nodeLimitError(at: location(position)))
    }

    @inline(__always)
    func openDictionary(_ position: UInt64) {
        guard indexing else { return emit(.beginDictionary, position) }
        guard !indexFailed else { return }
        indexBuilder!.valueOffset = indexOffset(position)
        if !indexBuilder!.beginDictionary() { nodeLimitPassed(position) }
        if indexesOneValue { openInOneValue &+= 1 }
    }

    @inline(__always)
    func closeDictionary(_ position: UInt64) {
        guard indexing else { return emit(.endDictionary, position) }
        guard !indexFailed else { return }
        do { try indexBuilder!.endDictionary() } catch { indexFailed(error) }
        if indexesOneValue {
            openInOneValue &-= 1
            if openInOneValue == 0 {
                // The record closed: what libxml2 parses after it is events again.
                indexing = false
                lastPosition = position
            }
        }
    }

    /// The key in name cache slot `slot`.
    @inline(__always)
    func emitKey(slot: Int, _ position: UInt64) {
        guard indexing else { return emit(.key(nameKeys[slot]), position) }
        var id = names[slot].keyID
        if id < 0 {
            id = indexBuilder!.keyID(nameKeys[slot])
            names[slot].keyID = id
        }
        emitKey(id: id, position)
    }

    /// A key the name cache does not hold (a namespace declaration's, kept
    /// markup's).
    func emitKey(_ key: String, _ position: UInt64) {
        guard indexing else { return emit(.key(key), position) }
        emitKey(id: indexBuilder!.keyID(key), position)
    }

    /// A key by its ID in the index builder (indexing only).
    @inline(__always)
    func emitKey(id: Int32, _ position: UInt64) {
        guard !indexFailed else { return }
        do { try indexBuilder!.key(id) } catch { indexFailed(error) }
    }

    /// A string value made already.
    func emitString(_ text: String, _ position: UInt64) {
        guard indexing else { return emit(.scalar(.string(text)), position) }
        var text = text
        text.withUTF8 { emitText(UnsafeRawBufferPointer($0), position) }
    }

    /// The pending text's bytes `range` as a string value (indexing only).
    @inline(__always)
    func emitText(_ range: Range<Int>, _ position: UInt64) {
        emitText(pendingText.bytes(range), position)
    }

    /// A string value of UTF-8 `bytes` (indexing only).
    @inline(__always)
    func emitText(_ bytes: UnsafeRawBufferPointer, _ position: UInt64) {
        guard !indexFailed else { return }
        indexBuilder!.valueOffset = indexOffset(position)
        do {
            if try !indexBuilder!.string(bytes) { nodeLimitPassed(position) }
        } catch {
            indexFailed(error)
        }
    }

    /// An empty element's null (indexing only).
    func emitNull(_ position: UInt64) {
        guard !indexFailed else { return }
        indexBuilder!.valueOffset = indexOffset(position)
        if !indexBuilder!.null() { nodeLimitPassed(position) }
    }

    /// The empty value EasyBake's marker gives an element.
    func emitEmpty(_ kind: XMLEmptyMarker.Kind, _ position: UInt64) {
        guard indexing else {
            switch kind {
            case .array:
                emit(.beginArray, position)
                emit(.endArray, position)
            case .dictionary:
                emit(.beginDictionary, position)
                emit(.endDictionary, position)
            case .string:
                emit(.scalar(.string("")), position)
            }
            return
        }
        guard !indexFailed else { return }
        indexBuilder!.valueOffset = indexOffset(position)
        let fits =
            switch kind {
            case .array: indexBuilder!.emptyContainer(.array)
            case .dictionary: indexBuilder!.emptyContainer(.dictionary)
            case .string: (try? indexBuilder!.string(UnsafeRawBufferPointer(start: nil, count: 0))) ?? true
            }
        if !fits { nodeLimitPassed(position) }
    }
}
