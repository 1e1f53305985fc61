import Dispatch

// Baking records on several cores.
//
// The calling thread reads records — finding where each ends and indexing
// it is cheap next to baking it — into a batch of indexes, one per record,
// while jobs 1, 2, … bake the batch read before on Dispatch's global queue;
// then it joins them as job 0, so that no more threads than jobs are busy.
// The jobs take the batch's records a few at a time from a shared cursor,
// so that the calling thread, which also reads and hands out results, bakes
// fewer of them and no thread waits for another's fixed share. Each job
// bakes with key plans of its own, into the records' own slots of the
// batch's results. The results come out in input order, and at most three
// batches are held (one handed out, one baking, one being read): memory
// stays bounded however long the stream.

extension Baker {
    /// Bakes the records at `each` on `jobs` threads at once: the results
    /// are those of ``bakeEach(_:from:each:recipe:materialization:)``, in the
    /// same order, and the stream holds a few batches of records at a time.
    ///
    /// ```swift
    /// let source = try JSONIngredientSource(input: .file("users.json"))
    /// let cores = ProcessInfo.processInfo.activeProcessorCount
    /// for user in try Baker().bakeEach(User.self, from: source, each: "users[*]", jobs: cores) {
    ///     print(try user.get().name)
    /// }
    /// ```
    ///
    /// The model is `Sendable`: it is made on one thread and handed out on
    /// another.
    public func bakeEach<Model: Decodable & Sendable, Source: IngredientSource>(
        _ type: Model.Type, from source: Source, each: String, recipe: Recipe? = nil,
        materialization: RecordMaterialization = .automatic, jobs: Int
    ) throws(EasyBakeError) -> BakedRecords<Model, Source> {
        var records = try bakeEach(type, from: source, each: each, recipe: recipe, materialization: materialization)
        if jobs > 1 { records.batches = RecordBatches<Model>(jobs: jobs, batchSize: 64 * jobs) }
        return records
    }
}

extension BakedRecords {
    /// The next model when several jobs bake: the calling thread reads the
    /// next batch while the jobs bake the one before.
    mutating func nextBatchedModel(_ batches: any RecordBatching<Model>) throws(EasyBakeError) -> Model? {
        while true {
            if let result = batches.nextResult() { return try result.get() }
            if !batches.isBaking {
                let first = readBatch(batches)
                guard !first.isEmpty else { return nil }
                batches.startBaking(first, baker: baker, recipe: recipe, pruning: pruning, settledRecipes: settledRecipes)
            }
            // Read the next batch while the jobs bake; once they are done,
            // start them on it before handing out what they baked, so that
            // they bake while the caller takes the results.
            let next = readBatch(batches)
            batches.finishBaking()
            if !next.isEmpty {
                batches.startBaking(next, baker: baker, recipe: recipe, pruning: pruning, settledRecipes: settledRecipes)
            }
        }
    }

    /// Reads up to a batch of records into indexes taken from the pool. A
    /// record that fails to read fails alone in its place; a source error
    /// ends the stream after it, as it does for a sequential bake.
    private mutating func readBatch(_ batches: any RecordBatching<Model>) -> RecordBatch<Model> {
        let batch = RecordBatch<Model>()
        let keeping = pruning ? reader.keeping : nil
        while batch.count < batches.batchSize {
            var index = batches.takeIndex()
            do throws(EasyBakeError) {
                guard let read = try reader.nextRecord(reading: { (first, source) throws(EasyBakeError) in
                    if let keeping {
                        try source.readValue(startingWith: first, into: &index, keeping: keeping)
                    } else {
                        try source.readValue(startingWith: first, into: &index)
                    }
                }) else {
                    batches.give(index)
                    break
                }
                batch.records.append(.read(index, number: read.index, path: read.path, mark: read.mark))
            } catch {
                batches.give(index)
                batch.records.append(.failed(error))
            }
        }
        return batch
    }
}

/// The records of one batch, read on the calling thread and then baked by
/// the jobs: each job writes only the results of its own records.
final class RecordBatch<Model: Decodable>: @unchecked Sendable {
    // @unchecked: the calling thread fills `records` before
    // the jobs start and reads `results` after they all end; in between,
    // job j touches only the records and results at offsets j, j + jobs, …
    enum Record {
        case read(IngredientIndex, number: Int, path: IngredientPath, mark: SourceMark)
        /// A record that failed to read.
        case failed(EasyBakeError)
    }

    var records: [Record] = []
    var results: UnsafeMutableBufferPointer<Result<Model, EasyBakeError>?> = .init(start: nil, count: 0)
    /// The records not taken by a job yet.
    let cursor = RecordCursor()

    var count: Int { records.count }
    var isEmpty: Bool { records.isEmpty }

    deinit {
        results.deinitialize()
        results.deallocate()
    }
}

/// Hands out the offsets of a batch's records to the jobs that bake them.
final class RecordCursor: Sendable {
    private let next = Locked(0)

    /// The next `count` offsets (fewer at the end) below `end`; `nil` once
    /// every offset was taken.
    func take(_ count: Int, of end: Int) -> Range<Int>? {
        next.withLock { next in
            guard next < end else { return nil }
            let taken = next..<min(next + count, end)
            next = taken.upperBound
            return taken
        }
    }
}

/// What a stream baked by several jobs needs of its batches; made where the
/// model is known to be `Sendable`.
protocol RecordBatching<Model>: AnyObject {
    associatedtype Model: Decodable
    var batchSize: Int { get }
    /// Whether the jobs are baking a batch.
    var isBaking: Bool { get }
    func takeIndex() -> IngredientIndex
    func give(_ index: IngredientIndex)
    /// Starts the jobs on `batch`, and returns at once.
    func startBaking(_ batch: RecordBatch<Model>, baker: Baker, recipe: Recipe?, pruning: Bool, settledRecipes: Set<ObjectIdentifier>)
    /// Waits for the jobs, and hands out their batch's results from now on.
    func finishBaking()
    /// The next result of the batch handed out, in input order.
    func nextResult() -> Result<Model, EasyBakeError>?
}

/// The batches of a stream baked by several jobs, and each job's key plans.
final class RecordBatches<Model: Decodable & Sendable>: RecordBatching, @unchecked Sendable {
    // @unchecked: `plans` and `settled` hold one slot per job, which only
    // that job touches while a batch bakes; the pool is touched by the job
    // that reads, the rest only by the calling thread between batches.
    let jobs: Int
    let batchSize: Int
    private let plans: UnsafeMutablePointer<[BakeSession.PlanKey: KeyPlan]>
    private let settled: UnsafeMutablePointer<Set<ObjectIdentifier>>
    /// The batch the jobs are baking, and the one whose results are handed out.
    private var baking: (batch: RecordBatch<Model>, group: DispatchGroup)?
    /// The calling thread's share of the batch baking.
    private var callersShare: (() -> Void)?
    private var done: RecordBatch<Model>?
    private var nextOffset = 0
    /// Indexes of records already handed out, their memory kept for reuse.
    private var pool: [IngredientIndex] = []

    init(jobs: Int, batchSize: Int) {
        self.jobs = jobs
        self.batchSize = batchSize
        plans = .allocate(capacity: jobs)
        plans.initialize(repeating: [:], count: jobs)
        settled = .allocate(capacity: jobs)
        settled.initialize(repeating: [], count: jobs)
    }

    deinit {
        baking?.group.wait()
        plans.deinitialize(count: jobs)
        plans.deallocate()
        settled.deinitialize(count: jobs)
        settled.deallocate()
    }

    func takeIndex() -> IngredientIndex { pool.popLast() ?? IngredientIndex() }
    func give(_ index: IngredientIndex) { pool.append(index) }

    func startBaking(_ batch: RecordBatch<Model>, baker: Baker, recipe: Recipe?, pruning: Bool, settledRecipes: Set<ObjectIdentifier>) {
        batch.results = .allocate(capacity: batch.count)
        batch.results.initialize(repeating: nil)
        let jobs = min(self.jobs, batch.count)
        for job in 0..<jobs where settled[job].isEmpty { settled[job] = settledRecipes }
        // Job 0 is the calling thread's, once it has read the next batch:
        // no more threads than cores are busy.
        let group = DispatchGroup()
        for job in 1..<max(jobs, 1) {
            DispatchQueue.global().async(group: group) {
                self.bake(batch, job: job, of: jobs, baker: baker, recipe: recipe, pruning: pruning)
            }
        }
        baking = (batch, group)
        callersShare = { [unowned self] in self.bake(batch, job: 0, of: jobs, baker: baker, recipe: recipe, pruning: pruning) }
    }

    /// Job `job`: bakes records of the batch, a few at a time, until none
    /// is left to take.
    func bake(_ batch: RecordBatch<Model>, job: Int, of jobs: Int, baker: Baker, recipe: Recipe?, pruning: Bool) {
        while let taken = batch.cursor.take(4, of: batch.count) {
            for offset in taken { bake(batch, offset, job: job, baker: baker, recipe: recipe, pruning: pruning) }
        }
    }

    private func bake(_ batch: RecordBatch<Model>, _ offset: Int, job: Int, baker: Baker, recipe: Recipe?, pruning: Bool) {
            switch batch.records[offset] {
            case .failed(let error):
                batch.results[offset] = .failure(error)
            case .read(var index, let number, let path, let mark):
                do throws(EasyBakeError) {
                    let (model, _) = try BakedRecords<Model, AnyIngredientSource>.bakeRecord(
                        &index, number: number, path: path, mark: mark, baker: baker, recipe: recipe,
                        tracksRequests: pruning, pruning: pruning, plans: &plans[job], settledRecipes: &settled[job])
                    batch.results[offset] = .success(model)
                } catch {
                    batch.results[offset] = .failure(error)
                }
            }
    }

    var isBaking: Bool { baking != nil }

    func finishBaking() {
        guard let (batch, group) = baking else { return }
        callersShare?()
        callersShare = nil
        group.wait()
        baking = nil
        if let done { recycle(done) }
        done = batch
        nextOffset = 0
    }

    func nextResult() -> Result<Model, EasyBakeError>? {
        guard let done, nextOffset < done.count else { return nil }
        defer { nextOffset += 1 }
        // Moved out, not copied: a copy would retain every reference the
        // model holds here and release them again when the batch goes,
        // on counts the job that made the model has in its cache.
        let slot = done.results.baseAddress! + nextOffset
        let result = slot.move()
        slot.initialize(to: nil)
        return result
    }

    private func recycle(_ batch: RecordBatch<Model>) {
        for case .read(let index, _, _, _) in batch.records { pool.append(index) }
        batch.records.removeAll()
    }
}
