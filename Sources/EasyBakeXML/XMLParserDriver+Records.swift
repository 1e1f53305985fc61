import EasyBake

// Streamed records straight into an index. A record reader reads events up
// to a record's first event; from there the record is indexed as the whole
// document is (``readIndex(into:filePath:)``): the SAX callbacks hand its
// values to the element builder instead of queueing events, and switch back
// to events where the record's element closes, so the reader walks on to
// the next record. One set of rules decides what an element holds, so the
// index is the one the record's events would make.
extension XMLParserDriver {
    /// Reads into `index` (replacing what it held) the value whose first
    /// event, `first`, was the last one ``next()`` returned, and the rest of
    /// it: the index ``IngredientIndex/read(startingWith:from:)`` would
    /// build from its events, with the same errors, and with each value's
    /// line and column for the errors of a bake
    /// (``IngredientIndex/mark(at:)``).
    ///
    /// The events of the record already queued (libxml2 parses a slice
    /// ahead of the reader) are indexed first; the rest comes from the
    /// callbacks. The node limit holds for the record.
    ///
    /// - Returns: `false`, having read nothing, for a value that is no
    ///   element's dictionary (a text-only element's scalar, an empty
    ///   marker's array): it is whole in the queue, read through its events.
    /// - Throws: the errors of ``next()``, and
    ///   `EasyBakeError.Code.limitExceeded` for a record of more than
    ///   `IngredientLimits.maximumNodes` values.
    func readRecord(startingWith first: IngredientEvent, into index: inout IngredientIndex) throws(EasyBakeError)
        -> Bool
    {
        guard readsRecordsNatively, case .beginDictionary = first, !lastEventWasKey, head > 0 else { return false }
        if indexBuilder == nil {
            indexBuilder = XMLIndexBuilder(
                building: &index, maximumNodes: limits.maximumNodes, locatedByLines: true, sourceName: sourceName)
            textKeyID = indexBuilder!.keyID(textKey)
            queuedKeyIDs = [:]
        } else {
            indexBuilder!.restart(building: &index)
        }
        indexFailure = nil
        indexFailed = false
        // The builder lets go of the index whatever happens, so that the
        // index is the caller's alone (and may go to another job).
        defer {
            indexBuilder!.detach()
            indexing = false
            indexesOneValue = false
        }
        let open = indexQueuedRecordEvents(startingAt: lastPosition)
        if indexFailed, let indexFailure { throw indexFailure }
        if open > 0 {
            // The record goes on past the queue: the callbacks index the
            // rest, up to its end, and queue events again after it.
            events.removeAll(keepingCapacity: true)
            head = 0
            indexesOneValue = true
            openInOneValue = open
            indexing = true
            if let recordSliceSize { feedSliceSize = recordSliceSize }
            while indexing {
                if failed, let failure { throw given(failure) }
                if inputDone && context == nil {
                    throw EasyBakeError.syntax("unexpected end of input inside a container", at: location)
                }
                // An error past the record's end leaves it whole (see next()).
                do { try feed() } catch { if indexing { throw given(indexFailure ?? error) } }
                if indexFailed, let indexFailure { throw indexFailure }
            }
        }
        lastEventWasKey = false
        // Let go first: the index would copy storage held twice.
        indexBuilder!.detach()
        index.setLineTextInput(lineTextInput ?? input)
        return true
    }

    /// Indexes the queued events of the record whose `beginDictionary`
    /// (at `position`) was the last event read, up to its end or the end
    /// of the queue, whichever comes first.
    ///
    /// - Returns: how many of the record's dictionaries are still open.
    private func indexQueuedRecordEvents(startingAt position: UInt64) -> Int {
        events.withUnsafeMutableBufferPointer { queue in
            var next = head
            var open = 0
            defer {
                head = next
                if next > 0 { lastPosition = queue[next - 1].position }
            }
            // Each event is the callbacks' call for it, as the event
            // mode made it: an empty marker's begin and end are one value.
            func beginContainer(_ kind: IngredientIndex.Kind, at position: UInt64) {
                if next < queue.count, queue[next].event.isEnd {
                    next += 1
                    emitEmpty(kind == .array ? .array : .dictionary, position)
                } else {
                    // An array is never open in XML's events; a dictionary is.
                    openDictionary(position)
                    open += 1
                }
            }
            indexing = true
            defer { indexing = false }
            beginContainer(.dictionary, at: position)
            while next < queue.count, open > 0, !indexFailed {
                let queued = queue[next]
                next += 1
                switch queued.event {
                case .beginDictionary: beginContainer(.dictionary, at: queued.position)
                case .beginArray: beginContainer(.array, at: queued.position)
                case .endDictionary, .endArray:
                    closeDictionary(queued.position)
                    open -= 1
                case .key(let key):
                    var id = queuedKeyIDs[key] ?? -1
                    if id < 0 {
                        id = indexBuilder!.keyID(key)
                        queuedKeyIDs[key] = id
                    }
                    emitKey(id: id, queued.position)
                case .scalar(.string(let text)): emitString(text, queued.position)
                case .scalar: emitNull(queued.position)
                }
            }
            return open
        }
    }
}

extension IngredientEvent {
    /// Whether the event ends a container.
    fileprivate var isEnd: Bool {
        switch self {
        case .endArray, .endDictionary: true
        default: false
        }
    }
}
