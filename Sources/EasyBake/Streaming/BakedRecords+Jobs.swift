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
                    reader: records.reader, keeping: records.pruningMatcher, jobs: jobs,
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
