import Dispatch
import Foundation

// Records worked on by several jobs, each result handed out on the thread
// that made it.
//
// A model made on one thread and released on another costs more than the
// parallel baking saves: with glibc's malloc, each release of a model's
// strings and arrays takes the lock of the arena the making thread
// allocates from, while that thread allocates from it (measured: a fifth of
// a two-job run waiting on that lock, and two jobs no faster than one).
// Here each job takes its turn with the source to read a batch of records,
// works on the batch (bakes its models, or writes its output lines), and
// hands each result out once the batch before it was — as soon as it is
// made once that turn has come: what a job makes is used and released by
// that job. Reading is no one thread's
// share either, so no thread both reads for the others and falls behind.
// Every job holds at most two batches (one waiting to be handed out, one
// worked on meanwhile): memory stays bounded however long the stream.
//
// From as many jobs as the source says it pays
// (`IngredientSource.deferringPaysFromJobs`), reading in turn only finds
// where each record ends (`IngredientSource.deferValue`), and each job reads
// its own records while the others go on: the part of the work that waits
// its turn is then a scan for brackets or tags, not the indexing of every
// value. A record that fails to read that way ends the stream after it, as
// it would have read in turn: what was read past it is dropped.
//
// When it pays: with J jobs a record costs about max(work / J, reading in
// turn). JSON's reading in turn is about 0.3 of a job's work (200 MB of
// users), finding the records' ends instead about 0.15, and the scan adds
// about a tenth to the work: a loss for two jobs (0.50 → 0.55; measured,
// two jobs on two cores, 8 runs each way: user time 1.93 s → 2.11 s, no
// faster), even for three (0.33 → 0.37), a gain from four (0.30 → 0.28), up
// to half the time from eight (0.30 → 0.15). XML's reading in turn (libxml2
// and the element builder) is about 0.7 of the work, which bounds two jobs
// near 1.4× one; its lexer finds a record's end for a few percent: a gain
// from two jobs. YAML's native scanner finds a record's end by its lines'
// indentation (`IngredientSource.deferNextRecord(at:)`): a gain from two
// jobs too. A record left to a job that only the source's events read as
// they must (YAML's scanner meets an anchor there) ends the jobs before
// it; they run again over the records read through the events from it on
// (`run(body:)`).
//
// Measured again with two jobs on two idle cores (50 MB of users, release,
// best of 4, interleaved): JSON's deferring from two jobs is still a loss
// (`@Bakeable` 0.17–0.21 s in turn against 0.20–0.32 s deferred).

/// Where a record came from: its number in the stream, its concrete path,
/// and its place in the input.
package struct RecordPlace {
    package var number: Int
    package var path: IngredientPath
    package var mark: SourceMark
}

/// A record read for a job: its index, or the error reading it.
enum ReadRecord {
    case read(IngredientIndex, RecordPlace)
    /// A record the source found the end of and left for the job to read.
    case deferred(any DeferredIngredientValue, RecordPlace)
    /// A record that failed to read.
    case failed(EasyBakeError)
    /// The source can no longer leave records unread: the records from
    /// this number on are to be read again through its events
    /// (``RecordReader/NativeDeferral/readAgain(fromRecord:)``).
    case readAgain(fromRecord: Int)
}

extension RecordReader {
    /// Reads up to `count` records into `records`, each into an index from
    /// `takeIndex`, keeping what `keeping` keeps (the whole record when
    /// `nil`), or, when `deferring`, left unread where the source can defer
    /// it (its index then goes back). A record that fails to read fails
    /// alone in its place; a source error ends the stream after it, as it
    /// does for ``next()``.
    mutating func readRecords(
        upTo count: Int, into records: inout [ReadRecord?], keeping: PathMatcher?, deferring: Bool,
        takingIndex takeIndex: () -> IngredientIndex, givingBack give: (IngredientIndex) -> Void
    ) {
        while records.count < count {
            if deferring, let deferral = deferNextNativeRecord() {
                switch deferral {
                case .record(let number, let path, let mark, let value):
                    records.append(.deferred(value, RecordPlace(number: number, path: path, mark: mark)))
                    continue
                case .end:
                    return
                case .readAgain(let first):
                    records.append(.readAgain(fromRecord: first))
                    return
                }
            }
            var index = takeIndex()
            do throws(EasyBakeError) {
                guard let read = try nextRecord(into: &index, keeping: keeping, deferring: deferring) else {
                    give(index)
                    break
                }
                let place = RecordPlace(number: read.index, path: read.path, mark: read.mark)
                if let deferred = read.deferred {
                    give(index)
                    records.append(.deferred(deferred, place))
                } else {
                    records.append(.read(index, place))
                }
            } catch {
                give(index)
                records.append(.failed(error))
            }
        }
    }
}

/// Several jobs that read the records of one stream in turns, work on each
/// record on the job that read it, and hand the results to one body in
/// input order: parallel baking's engine, for models
/// (``Baker/bakeEach(_:from:each:recipe:materialization:jobs:_:)``) and for
/// the command's output lines.
package final class RecordJobs<Source: IngredientSource, Output, Failure: Error>: @unchecked Sendable {
    // @unchecked: `reader` is touched only under `readerLock`; `body` is set
    // before the jobs start and cleared after they end, and called only by
    // the job whose batch is next (`turn`, under `turns`),
    // which orders every call after the one before; each job's work, indexes
    // and results are its own.

    /// What a job does with a record's index; made once per job, so that
    /// what it keeps between records (key plans) is that job's own.
    package typealias Work = (inout IngredientIndex, RecordPlace) -> Result<Output, EasyBakeError>

    private var reader: RecordReader<Source>
    private let keeping: PathMatcher?
    private let jobs: Int
    private let makeWork: () -> Work
    private var body: ((Result<Output, EasyBakeError>) throws(Failure) -> Void)?
    /// Whether reading in turn leaves the records for the jobs to read
    /// (see the top of this file).
    private var defersReading: Bool { jobs >= reader.source.deferringPaysFromJobs }
    /// Records per batch: enough that taking turns costs little beside the
    /// work, few enough that a job's batch is soon handed out.
    private let batchSize = 256

    private let readerLock = NSLock()
    /// The number the next batch read gets (under `readerLock`).
    private var batchesRead = 0
    /// The source's bytes read after the last batch, for progress.
    private let progress = Locked<Int?>(nil)
    /// The number of the batch whose results go to `body` next, and the
    /// first error `body` threw (under `turns`).
    private let turns = NSCondition()
    private var turn = 0
    private var failure: Failure?
    /// The number of the first batch in which a record left unread failed
    /// to read, ending the stream there (under `turns`): no later batch is
    /// read or handed out.
    private var endingBatch: Int?
    /// The number of the record from which the records are read again
    /// through the source's events, once the jobs have ended, when the
    /// ending batch ended there (under `turns`).
    private var readAgainFrom: Int?

    /// Jobs over `reader`'s records, each record's index kept as `keeping`
    /// keeps (whole when `nil`).
    ///
    /// - Parameters:
    ///   - makeWork: makes a job's work; called once by each job, on its
    ///     thread.
    package init(reader: RecordReader<Source>, keeping: PathMatcher?, jobs: Int, makeWork: @escaping () -> Work) {
        self.reader = reader
        self.keeping = keeping
        self.jobs = max(jobs, 1)
        self.makeWork = makeWork
    }

    /// The source's bytes read so far, when it reports them; safe to ask
    /// from the body.
    package var bytesRead: Int? { progress.withLock { $0 } }

    /// Runs job 0 on the calling thread and the others on Dispatch's global
    /// queue; returns when all have ended, and throws `body`'s error.
    ///
    /// - Parameter body: takes each record's result in input order, one call
    ///   at a time, on the thread of the job that made it. An error it
    ///   throws stops the jobs, and is thrown. Run the jobs once.
    package func run(body: @escaping (Result<Output, EasyBakeError>) throws(Failure) -> Void) throws(Failure) {
        self.body = body
        // The output need not be Sendable, nor then its metatype: the job is
        // handed over as a plain closure, which this type's guarantees make
        // safe to run on another thread.
        let job = UncheckedJob(run: runJob)
        while true {
            let group = DispatchGroup()
            for _ in 1..<jobs {
                DispatchQueue.global().async(group: group) { job.run() }
            }
            runJob()
            group.wait()
            // A record left unread that only the source's events read: the
            // jobs ended before it, with every record before it handed out,
            // and they run again over the records read through the events
            // from there. The jobs are idle: nothing else touches the state.
            let first: Int? = turns.withLock {
                guard failure == nil, let first = readAgainFrom else { return nil }
                turn = 0
                endingBatch = nil
                readAgainFrom = nil
                return first
            }
            guard let first else { break }
            readerLock.withLock {
                batchesRead = 0
                reader.readAgainThroughEvents(fromRecord: first)
            }
        }
        // The jobs' blocks may outlive the wait by an instant; the body
        // must not, since it may not escape its caller's call.
        self.body = nil
        if let failure = turns.withLock({ failure }) { throw failure }
    }

    /// Runs the jobs in the background, all on Dispatch's global queue, with
    /// `body` as ``run(body:)`` takes it, and then `done` with `body`'s
    /// error, if it threw one.
    package func start(
        body: @escaping (Result<Output, EasyBakeError>) throws(Failure) -> Void, then done: @escaping (Failure?) -> Void
    ) {
        let job = UncheckedJob {
            do throws(Failure) {
                try self.run(body: body)
                done(nil)
            } catch {
                done(error)
            }
        }
        DispatchQueue.global().async { job.run() }
    }

    private typealias Results = [Result<Output, EasyBakeError>]

    private func runJob() {
        let work = makeWork()
        var pool: [IngredientIndex] = []
        // Optional, so that each record is taken out in place (`take()`),
        // never copied: a copied index would be copied whole when written.
        var batch: [ReadRecord?] = []
        // Batches worked on and not handed out yet, oldest first. A job whose
        // batch must wait for another's to be handed out works on one more
        // batch meanwhile, rather than wait idle.
        var held: [(number: Int, results: Results)] = []
        var spare: [Results] = []
        while true {
            if held.count < Self.batchesHeld, let number = read(into: &batch, pool: &pool) {
                process(&batch, number: number, with: work, held: &held, spare: &spare, pool: &pool)
                continue
            }
            guard !held.isEmpty else { return }
            var first = held.removeFirst()
            _ = handOut(&first.results, batch: first.number, waiting: true)
            spare.append(first.results)
        }
    }

    /// How many batches a job holds at most: the one whose turn it waits
    /// for, and the one it works on meanwhile.
    private static var batchesHeld: Int { 2 }

    /// How many records a job works on between two looks at whose turn it
    /// is.
    private static var turnLookInterval: Int { 16 }

    /// Works on the records of batch `number`. Once the batch's turn has
    /// come, each result goes to the body as soon as it is made; until then
    /// the results wait, and the batch joins `held` if its turn has not come
    /// by its end. Handing a model out at once, while what it is made of is
    /// in the cache and its memory can be reused by the next, costs much
    /// less than holding a batch of them (measured: two threads baking
    /// independently, each holding 512 models before releasing them, used
    /// 29% more CPU than releasing each at once).
    private func process(
        _ batch: inout [ReadRecord?], number: Int, with work: Work,
        held: inout [(number: Int, results: Results)], spare: inout [Results], pool: inout [IngredientIndex]
    ) {
        defer { batch.removeAll(keepingCapacity: true) }
        var results = spare.popLast() ?? []
        var current: Turn?
        for position in batch.indices {
            if current == nil, position % Self.turnLookInterval == 0 {
                handOutReady(&held, spare: &spare)
                if held.isEmpty, var turn = beginTurn(number, waiting: false) {
                    for made in results.indices { give(results[made], in: &turn) }
                    results.removeAll(keepingCapacity: true)
                    current = turn
                }
            }
            guard let record = batch[position].take() else { break }
            let result: Result<Output, EasyBakeError>
            switch consume record {
            case .failed(let error):
                result = .failure(error)
            case .read(var index, let place):
                result = work(&index, place)
                pool.append(index)
            case .deferred(let value, let place):
                var index = pool.popLast() ?? IngredientIndex()
                do throws(EasyBakeError) {
                    guard try value.read(into: &index, keeping: keeping) else {
                        pool.append(index)
                        endStream(
                            atBatch: number, readingAgainFrom: place.number, dropping: &batch[(position + 1)...],
                            pool: &pool)
                        continue
                    }
                    result = work(&index, place)
                } catch {
                    result = .failure(error)
                    endStream(atBatch: number, dropping: &batch[(position + 1)...], pool: &pool)
                }
                pool.append(index)
            case .readAgain(let first):
                endStream(atBatch: number, readingAgainFrom: first, dropping: &batch[(position + 1)...], pool: &pool)
                continue
            }
            if current != nil {
                give(result, in: &current!)
            } else {
                results.append(result)
            }
        }
        if let current {
            endTurn(current)
            spare.append(results)
        } else {
            held.append((number, results))
        }
    }

    /// Hands out the held batches whose turns have come, oldest first,
    /// without waiting.
    private func handOutReady(_ held: inout [(number: Int, results: Results)], spare: inout [Results]) {
        while !held.isEmpty {
            guard handOut(&held[0].results, batch: held[0].number, waiting: false) else { return }
            spare.append(held.removeFirst().results)
        }
    }

    /// Reads the next batch in the source's turn, and returns its number;
    /// `nil` once the stream ended or `body` failed.
    private func read(into batch: inout [ReadRecord?], pool: inout [IngredientIndex]) -> Int? {
        readerLock.lock()
        defer { readerLock.unlock() }
        guard !turns.withLock({ failure != nil || endingBatch != nil }) else { return nil }
        reader.readRecords(
            upTo: batchSize, into: &batch, keeping: keeping, deferring: defersReading,
            takingIndex: { pool.popLast() ?? IngredientIndex() }, givingBack: { pool.append($0) })
        guard !batch.isEmpty else { return nil }
        let source = reader.source
        if let bytes = (source as? AnyIngredientSource)?.bytesRead ?? (source as? any ProgressReporting)?.bytesRead {
            progress.withLock { $0 = bytes }
        }
        defer { batchesRead += 1 }
        return batchesRead
    }

    /// Ends the stream after the record that just failed, in batch `number`
    /// — or, `readingAgainFrom` a record's number, before that record, to
    /// read it and the records after it again through the source's events
    /// once the jobs have ended (see ``run(body:)``): the rest of the batch
    /// is dropped, and so are the batches after it.
    private func endStream(
        atBatch number: Int, readingAgainFrom first: Int? = nil, dropping rest: inout ArraySlice<ReadRecord?>,
        pool: inout [IngredientIndex]
    ) {
        for position in rest.indices {
            if case .read(let index, _)? = rest[position].take() { pool.append(index) }
        }
        turns.withLock {
            // The earliest batch's ending holds: what a later one found lies
            // past the end.
            guard number < endingBatch ?? .max else { return }
            endingBatch = number
            readAgainFrom = first
        }
    }

    /// A batch's turn to hand its results to the body, which comes once the
    /// batches before it were handed out.
    private struct Turn {
        let number: Int
        /// Whether the results are dropped: the body threw, or the stream
        /// ended, before them.
        var dropping: Bool
        /// The error the body threw in this turn.
        var error: Failure?
    }

    /// Begins batch `number`'s turn: at once if it has come; otherwise after
    /// waiting for it when `waiting`, or `nil`.
    private func beginTurn(_ number: Int, waiting: Bool) -> Turn? {
        turns.lock()
        defer { turns.unlock() }
        while turn != number {
            guard waiting else { return nil }
            turns.wait()
        }
        return Turn(number: number, dropping: failure != nil || endingBatch.map { number > $0 } == true, error: nil)
    }

    /// Lends `result` to the body in `turn`, unless the turn drops its
    /// results; after an error of the body, it drops the rest.
    private func give(_ result: borrowing Result<Output, EasyBakeError>, in turn: inout Turn) {
        guard !turn.dropping, let body else { return }
        do throws(Failure) {
            // Lent, not copied: a copy of a model retains each of its
            // strings and arrays once more.
            try body(result)
        } catch {
            turn.error = error
            turn.dropping = true
        }
    }

    /// Ends `turn`, so that the next batch's begins.
    private func endTurn(_ turn: Turn) {
        turns.lock()
        if let error = turn.error { failure = error }
        self.turn += 1
        turns.broadcast()
        turns.unlock()
    }

    /// Hands `results` to the body in batch `number`'s turn (waiting for it
    /// when `waiting`) and releases them on this thread; `false`, with
    /// nothing done, when the turn has not come and `waiting` is false.
    private func handOut(_ results: inout Results, batch number: Int, waiting: Bool) -> Bool {
        guard var turn = beginTurn(number, waiting: waiting) else { return false }
        for position in results.indices { give(results[position], in: &turn) }
        results.removeAll(keepingCapacity: true)
        endTurn(turn)
        return true
    }
}

/// A job of ``RecordJobs`` (or the reading of `BakedRecords.Models`),
/// handed to another thread.
struct UncheckedJob: @unchecked Sendable {
    // @unchecked: see RecordJobs.
    let run: () -> Void
}
