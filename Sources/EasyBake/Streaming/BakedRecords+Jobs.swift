import Foundation

// Baking records on several cores for the calling thread to iterate.
//
// The jobs are `RecordJobs`', run in the background, and their body puts
// each result in a bounded queue that the calling thread takes from: the
// same engine as the body API, with the calling thread as a consumer only.
// Every model then crosses threads, which costs what the body API avoids
// (see `RecordJobs`); the queue holds a few batches, so memory stays bounded
// however long the stream.

extension Baker {
    /// Bakes the records at `each` on `jobs` threads at once, for the
    /// calling thread to iterate: the results are those of
    /// ``bakeEach(_:from:each:recipe:materialization:)``, in the same order,
    /// and a few batches of records are held at a time.
    ///
    /// ```swift
    /// let source = try JSONIngredientSource(.file("users.json"))
    /// let cores = ProcessInfo.processInfo.activeProcessorCount
    /// for user in try Baker().bakeEach(User.self, from: source, each: "users[*]", jobs: cores) {
    ///     print(try user.get().name)
    /// }
    /// ```
    ///
    /// The model is `Sendable`: it is made on one thread and handed out on
    /// another. ``bakeEach(_:from:each:recipe:materialization:jobs:_:)``,
    /// which hands each model to a body on the thread that made it, scales
    /// better. Once the jobs have started, ``BakedRecords/reader`` no longer
    /// follows the source: the jobs read it.
    public func bakeEach<Model: Decodable & Sendable, Source: IngredientSource>(
        _ type: Model.Type, from source: Source, each: String, recipe: Recipe? = nil,
        materialization: RecordMaterialization = .automatic, jobs: Int
    ) throws(EasyBakeError) -> BakedRecords<Model, Source> {
        var records = try bakeEach(type, from: source, each: each, recipe: recipe, materialization: materialization)
        if jobs > 1 {
            records.startJobs = { records in
                let queue = RecordQueue<Model>(capacity: 64 * jobs)
                let engine = RecordJobs<Source, Model, RecordQueue<Model>.Abandoned>(
                    reader: records.reader, keeping: records.pruning ? records.reader.keeping : nil, jobs: jobs,
                    makeWork: records.makeBakingWork())
                engine.start(body: queue.put) { _ in queue.end() }
                return RecordQueue.Consumer(queue)
            }
        }
        return records
    }
}

/// What the calling thread takes the results of several jobs from.
protocol RecordTaking<Model>: AnyObject {
    associatedtype Model
    /// The next result in input order; `nil` after the last.
    func next() -> Result<Model, EasyBakeError>?
}

/// The results several jobs baked, in input order, until the calling
/// thread takes them.
final class RecordQueue<Model: Sendable>: @unchecked Sendable {
    // @unchecked: every stored var is touched under `changed`'s lock only.

    /// Thrown to the jobs once no one takes the results any more.
    struct Abandoned: Error {}

    private let changed = NSCondition()
    private let capacity: Int
    private var results: [Result<Model, EasyBakeError>] = []
    private var ended = false
    private var abandoned = false

    init(capacity: Int) { self.capacity = capacity }

    /// Adds a result; waits while the queue is full.
    func put(_ result: Result<Model, EasyBakeError>) throws(Abandoned) {
        changed.lock()
        defer { changed.unlock() }
        while results.count >= capacity, !abandoned { changed.wait() }
        if abandoned { throw Abandoned() }
        results.append(result)
        changed.broadcast()
    }

    /// The jobs ended: after the results queued, there are none.
    func end() {
        changed.lock()
        ended = true
        changed.broadcast()
        changed.unlock()
    }

    /// No one takes the results any more: the jobs stop.
    func abandon() {
        changed.lock()
        abandoned = true
        changed.broadcast()
        changed.unlock()
    }

    /// Takes every result queued, waiting for one; empty once the jobs ended
    /// and all were taken.
    func takeAll(into taken: inout [Result<Model, EasyBakeError>]) {
        changed.lock()
        defer { changed.unlock() }
        while results.isEmpty, !ended { changed.wait() }
        swap(&taken, &results)
        changed.broadcast()
    }

    /// The calling thread's end of the queue: when the records' last copy
    /// goes, the jobs stop.
    final class Consumer: RecordTaking {
        private let queue: RecordQueue
        /// Results taken and not handed out yet, the next one last.
        private var taken: [Result<Model, EasyBakeError>] = []

        init(_ queue: RecordQueue) { self.queue = queue }

        func next() -> Result<Model, EasyBakeError>? {
            if taken.isEmpty {
                queue.takeAll(into: &taken)
                taken.reverse()
            }
            // Moved out, not copied: a copy would retain every reference the
            // model holds, and release them again here.
            return taken.popLast()
        }

        deinit { queue.abandon() }
    }
}
