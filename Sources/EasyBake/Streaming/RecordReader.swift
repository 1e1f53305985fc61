/// One record that a ``RecordReader`` found.
public struct IngredientRecord: Sendable {
    /// The record's number, from 0, in input order.
    public let index: Int
    /// Where the record lives: the record path with each `[*]` replaced by
    /// the element's index (`users[41]`).
    public let path: IngredientPath
    /// Where the record begins in the input, noted cheaply.
    public let mark: SourceMark
    /// Where the record begins in the input, as line and column (computed
    /// when asked for).
    public var location: SourceLocation { mark.location }
    /// The record's ingredients (pruned to the reader's paths, if it has any).
    public let ingredients: Ingredients
}

/// Reads the records of a payload one at a time: the values at a record path
/// such as `users[*]` or `rss.channel.item[*]`, without building the rest.
///
/// Only one record is held at a time, and everything outside the records is
/// skipped through the source's native skip, so memory follows the size of
/// one record, never the size of the payload:
///
/// ```swift
/// var reader = try RecordReader(
///     source: try JSONIngredientSource(.file("users.json")), each: "users[*]")
/// while let record = try reader.next() {
///     print(record.index, record.ingredients["name"] ?? "-")
/// }
/// ```
///
/// A record path may have several `[*]` (`orders[*].lines[*]`), indexes
/// from the start and keys; not an index from the end (`orders[-1]`), which
/// is known only when its array has ended. Records are found as `Ingredients.resolve` would find them: a lone
/// value stands in for a one-element array (a single `<item>` is a record),
/// `[*]` over a dictionary (not an XML element) makes each value a record,
/// named by its key (`events.138586341`), and under
/// ``DuplicateKeyPolicy/collect`` each repeated key's value is an element. A source that keeps the *last* of repeated keys cannot be
/// streamed (a later key would replace records already given out), and is
/// refused with ``EasyBakeError/Code/unsupported``.
public struct RecordReader<Source: IngredientSource> {
    /// The record path.
    public let recordPath: IngredientPath
    /// The paths kept inside each record (``PathMatcher/wholeValue`` keeps all).
    public var keeping: PathMatcher

    private var walker: PathWalker
    private let rootState: Int
    private var started = false
    private var finished = false
    private var count = 0
    /// Whether the source may still give records itself
    /// (``IngredientSource/readNextRecord(at:into:)``): until it says it
    /// cannot, or an event has been read.
    private var readsRecordsNatively = true
    /// Records the source gave itself before it said it could not go on:
    /// read again through events, they are skipped.
    private var recordsToSkip = 0
    /// The source said it can no longer leave records unread
    /// (``deferNextNativeRecord()``).
    private var nativeDeferralEnded = false
    /// The deepest value on the record path the walk reached, in steps (-1
    /// before any document): a path that finds no record is a mistake
    /// unless it reached the records' parent (see ``noRecordsError()``).
    private var deepestReached = -1
    /// Where the record path's one `[*]` is, which each record's concrete
    /// path fills in; `nil` when it has none or several.
    private let loneWildcard: Int?
    /// The last record's concrete path, filled in again for each record:
    /// once the copies handed out with a record are gone, its steps are
    /// written in place rather than copied to a new array a record.
    private var lastConcretePath: IngredientPath
    /// The source, for progress (bytes read) and its location.
    // Stored last: a field after one whose size depends on `Source` is
    // found through the type's metadata, which unspecialized code (a
    // client's own source type) looks up at each access, three times a
    // record; fields before it are at fixed offsets.
    public private(set) var source: Source

    /// A reader of the records at `each` in `source`.
    ///
    /// - Parameters:
    ///   - source: the payload's source, read as records are asked for.
    ///   - recordPath: the record path; each `[*]` in it gives one record per element.
    ///   - keeping: the paths to keep inside each record; by default
    ///     the whole record.
    /// - Throws: ``EasyBakeError/Code/unsupported`` for a source that keeps
    ///   the last of repeated keys, and for a record path with a negative
    ///   index (`pages[-1].items[*]`).
    public init(source: Source, each recordPath: IngredientPath, keeping: PathMatcher = .wholeValue)
        throws(EasyBakeError)
    {
        guard source.duplicateKeyPolicy != .lastWins else {
            throw EasyBakeError(
                .unsupported,
                "records cannot be streamed from a source that keeps the last of repeated keys; read the tree instead")
        }
        if let negative = recordPath.steps.firstIndex(where: {
            if case .index(let index) = $0 { index < 0 } else { false }
        }) {
            // Records are given as they are read, and an element counted
            // from the end is known only once its array has ended: every
            // element would have to be held until then, or each given out
            // as a record (what this road did until it was refused here).
            throw EasyBakeError(
                .unsupported,
                "a record path cannot count from the end (\(IngredientPath(Array(recordPath.steps.prefix(negative + 1))))): "
                    + "records are given as they are read, before the array's end is known; "
                    + "count from the start, or read the value with PathMatcher.resolve(from:) (easybake get)",
                path: recordPath)
        }
        self.source = source
        self.recordPath = recordPath
        self.keeping = keeping
        let wildcards = recordPath.steps.indices.filter { recordPath.steps[$0] == .everyElement }
        loneWildcard = wildcards.count == 1 ? wildcards[0] : nil
        lastConcretePath = recordPath
        let matcher = PathMatcher([recordPath])
        walker = PathWalker(matcher: matcher, source: source, buildsTree: false)
        rootState = matcher.rootState!
    }

    /// A reader of the records at a path given as text.
    ///
    /// - Throws: ``EasyBakeError/Code/invalidPath`` when `each` does not
    ///   parse, and ``EasyBakeError/Code/unsupported`` as the initializer
    ///   that takes a parsed path.
    public init(source: Source, each: String, keeping: PathMatcher = .wholeValue) throws(EasyBakeError) {
        try self.init(source: source, each: try IngredientPath(parsing: each), keeping: keeping)
    }

    /// The next record, or `nil` after the last.
    ///
    /// - Throws: the source's errors. After one, the reader is finished —
    ///   unless the source can tell where the failed record ends (a line of
    ///   JSON Lines, see ``IngredientSource/resumeAfterFailedElement()``):
    ///   then the error names the record, and reading goes on with the next.
    public mutating func next() throws(EasyBakeError) -> IngredientRecord? {
        let keeping = self.keeping
        guard
            let read = try nextRecord(reading: { (first, source) throws(EasyBakeError) in
                try PathWalker.readPrunedValue(startingWith: first, from: &source, keeping: keeping)
            })
        else { return nil }
        return IngredientRecord(index: read.index, path: read.path, mark: read.mark, ingredients: read.value)
    }

    /// The next record, read by `read` instead of into a tree: for consumers
    /// of a record's events, such as ``PathSurvey``, that need no tree.
    ///
    /// `read` gets the record's first event, with the source just after it,
    /// and must consume the rest of the record's value — no more, no less.
    ///
    /// - Returns: the record's number, concrete path and mark, with what
    ///   `read` returned; `nil` after the last record.
    /// - Throws: the source's errors and `read`'s. After one, the reader is
    ///   finished, unless the source can go on with the next record (as
    ///   ``next()`` says).
    public mutating func nextRecord<Value>(
        reading read: (IngredientEvent, inout Source) throws(EasyBakeError) -> Value
    ) throws(EasyBakeError) -> (index: Int, path: IngredientPath, mark: SourceMark, value: Value)? {
        var value: Value?
        guard
            let mark = try nextRecordFound(reading: { (first, source) throws(EasyBakeError) in
                value = try read(first, &source)
            }), let value
        else { return nil }
        return (count - 1, lastRecordPath, mark, value)
    }

    /// ``nextRecord(reading:)`` with nothing returned by `read`: the loop
    /// itself, free of the generic value, which unspecialized code would
    /// copy through its type's metadata for every record.
    ///
    /// - Returns: the record's mark; its number is `count - 1` and its
    ///   concrete path ``lastRecordPath``. (A tuple of the three, returned
    ///   and taken apart, was copied three times a record: about 1,000
    ///   instructions, through `SourceMark`'s enum.)
    private mutating func nextRecordFound(
        reading read: (IngredientEvent, inout Source) throws(EasyBakeError) -> Void
    ) throws(EasyBakeError) -> SourceMark? {
        guard !finished else { return nil }
        do throws(EasyBakeError) {
            while true {
                let event: IngredientEvent
                let state: Int
                if !started {
                    started = true
                    guard let first = try source.next() else { return finish() }
                    (event, state) = (first, rootState)
                    deepestReached = max(deepestReached, 0)
                } else if let (nextEvent, nextState) = try walker.nextNeededValue(from: &source) {
                    (event, state) = (nextEvent, nextState)
                    deepestReached = max(deepestReached, walker.depth)
                } else {
                    try checkEnd()
                    if let error = noRecordsError() { throw error }
                    return finish()
                }
                if walker.endsPath(event, state: state) {
                    let mark = source.mark
                    try read(event, &source)
                    updateRecordPath()
                    count += 1
                    if !walker.isInside { try checkEnd() }
                    return mark
                }
                try walker.enter(event, state: state, from: &source)
                if !walker.isInside {
                    // The root was a scalar (or the records' parent is missing).
                    try checkEnd()
                    if let error = noRecordsError() { throw error }
                    return finish()
                }
            }
        } catch {
            if let failed = resume(after: error) { throw failed }
            finished = true
            throw error
        }
    }

    /// The next record, read into `index` (replacing what it held), keeping
    /// what `keeping` keeps (the whole record when `nil`): by the source
    /// itself where it can find records natively
    /// (``IngredientSource/readNextRecord(at:into:)``), through its events
    /// otherwise. Either way the records, their errors and the source's
    /// warnings are the same. How streaming bakes read records.
    ///
    /// - Parameter deferring: whether the source may leave the record
    ///   unread (``IngredientSource/deferValue(startingWith:keeping:)``),
    ///   for another job to read; `index` is then left as it was.
    /// - Returns: the record's number, concrete path and mark, and the
    ///   record left unread, if it was; `nil` after the last record.
    /// - Throws: the source's errors, as ``nextRecord(reading:)`` throws them.
    package mutating func nextRecord(
        into index: inout IngredientIndex, keeping: PathMatcher?, deferring: Bool = false
    ) throws(EasyBakeError) -> (
        index: Int, path: IngredientPath, mark: SourceMark, deferred: (any DeferredIngredientValue)?
    )? {
        if readsRecordsNatively, !started, !finished {
            switch source.readNextRecord(at: recordPath, into: &index) {
            case .record(let mark):
                defer { count += 1 }
                return (count, concretePath(), mark, nil)
            case .end:
                return finish()
            case .unavailable, .deferred:
                // The source's events begin at the start of the input: the
                // records it gave are read again, and skipped. (No source
                // gives a deferred record when asked to read one.)
                readsRecordsNatively = false
                recordsToSkip = count
                count = 0
            }
        }
        while true {
            let skipping = recordsToSkip > 0
            var deferred: (any DeferredIngredientValue)?
            guard
                let mark = try nextRecordFound(reading: { (first, source) throws(EasyBakeError) in
                    if skipping {
                        try PathWalker.skipRest(of: first, from: &source)
                    } else if deferring, let value = source.deferValue(startingWith: first, keeping: keeping) {
                        deferred = value
                    } else if let keeping {
                        try source.readValue(startingWith: first, into: &index, keeping: keeping)
                    } else {
                        try source.readValue(startingWith: first, into: &index)
                    }
                })
            else { return nil }
            if skipping {
                recordsToSkip -= 1
                continue
            }
            return (count - 1, lastRecordPath, mark, deferred)
        }
    }

    /// What ``deferNextNativeRecord()`` found.
    enum NativeDeferral {
        /// A record left unread, with its number, concrete path and mark.
        case record(index: Int, path: IngredientPath, mark: SourceMark, value: any DeferredIngredientValue)
        /// The records ended.
        case end
        /// The source can no longer read records itself: the records from
        /// this number on are read again through its events
        /// (``readAgainThroughEvents(fromRecord:)``) once the ones before
        /// it are read.
        case readAgain(fromRecord: Int)
    }

    /// The next record, left unread by a source that reads records itself
    /// (``IngredientSource/deferNextRecord(at:)``), for a job to read; `nil`
    /// where the source declines or reads through its events, and
    /// ``nextRecord(into:keeping:deferring:)`` reads the record instead.
    ///
    /// Unlike ``nextRecord(into:keeping:deferring:)``, this never turns to
    /// the source's events itself: a record left unread may still turn out
    /// to be one only the events read, so the events are read from the
    /// start of the input only once every record left unread is read.
    mutating func deferNextNativeRecord() -> NativeDeferral? {
        guard readsRecordsNatively, !started else { return nil }
        if finished { return .end }
        guard !nativeDeferralEnded else { return .readAgain(fromRecord: count) }
        switch source.deferNextRecord(at: recordPath) {
        case nil:
            return nil
        case .deferred(let mark, let value)?:
            defer { count += 1 }
            return .record(index: count, path: concretePath(), mark: mark, value: value)
        case .end?:
            finished = true
            return .end
        case .unavailable?, .record?:
            // (No source gives a record read in place when asked to leave
            // it unread.)
            nativeDeferralEnded = true
            return .readAgain(fromRecord: count)
        }
    }

    /// Reads the records from number `first` on again, through the
    /// source's events from the start of the input, skipping the ones
    /// before it: after ``deferNextNativeRecord()`` said
    /// ``NativeDeferral/readAgain(fromRecord:)``, or a record it left
    /// unread could not be read apart (``DeferredIngredientValue``). The
    /// source's events must not have been read.
    mutating func readAgainThroughEvents(fromRecord first: Int) {
        precondition(!started, "records read again after the source's events were read")
        readsRecordsNatively = false
        nativeDeferralEnded = false
        finished = false
        recordsToSkip = first
        count = 0
    }

    /// Where the source can tell where each element of the top-level array
    /// ends (JSON Lines), a record that fails to read fails alone: the source
    /// moves on to the next element and the error gets the failed element's
    /// path. Returns that error, or `nil` when reading cannot go on.
    private mutating func resume(after error: EasyBakeError) -> EasyBakeError? {
        guard walker.canResumeAtRootElement, let begun = source.resumeAfterFailedElement(), begun > 0 else {
            return nil
        }
        walker.resume(atRootElement: begun)
        var located = error
        located.path = IngredientPath([.index(begun - 1)]).appending(error.path ?? IngredientPath())
        if recordPath.steps == [.everyElement] {
            // Each element is a record: the failed one keeps its number.
            located.message = "record \(begun - 1): " + located.message
            count = begun
        }
        return located
    }

    /// The error for a record path that found no record and never reached
    /// the value its records would be in — `user[*]` where the key is
    /// `users`: a mistake, not an empty list. Reaching that parent, even
    /// empty or null, is zero records and no error. In XML, where a list of
    /// no elements is no element at all, the parent is the element around
    /// the repeated one (`rss.channel` for `rss.channel.item[*]`).
    private func noRecordsError() -> EasyBakeError? {
        guard count == 0, deepestReached >= 0 else { return nil }
        let steps = recordPath.steps
        var parentDepth = steps.count - 1
        if source.traits.contains(.dictionariesAreElements), parentDepth >= 1, steps[parentDepth] == .everyElement,
            case .key = steps[parentDepth - 1]
        {
            parentDepth -= 1
        }
        guard deepestReached < parentDepth else { return nil }
        let missing = IngredientPath(Array(steps.prefix(deepestReached + 1)))
        return EasyBakeError(
            .valueNotFound, "the record path \(recordPath) matches nothing: no value at \(missing)", path: missing)
    }

    private mutating func finish<Value>() -> Value? {
        finished = true
        return nil
    }

    /// After the root value: a source of several documents may go on, but a
    /// record path addresses one.
    private mutating func checkEnd() throws(EasyBakeError) {
        if !walker.isInside, try source.next() != nil {
            throw EasyBakeError.syntax("expected the end of the input after the value", at: source.location)
        }
        finished = true
    }

    private mutating func concretePath() -> IngredientPath {
        updateRecordPath()
        return lastRecordPath
    }

    /// Writes the concrete path of record number `count` in place.
    private mutating func updateRecordPath() {
        guard let wildcard = loneWildcard else { return }
        // `[*]` over a dictionary reads its members: the record is named by its key.
        lastConcretePath.steps[wildcard] = walker.lastMemberKey.map { .key($0) } ?? .index(count)
    }

    /// The concrete path ``updateRecordPath()`` wrote last.
    private var lastRecordPath: IngredientPath { loneWildcard == nil ? recordPath : lastConcretePath }
}
