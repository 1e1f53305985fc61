// Baking records on several cores, each model handed to a body on the
// thread that baked it: `RecordJobs` runs the jobs; this gives them a
// model's baking as their work.

extension Baker {
    /// Bakes the records at `each` on `jobs` threads at once, and hands each
    /// result to `body` in input order.
    ///
    /// The results are those of ``bakeEach(_:from:each:recipe:materialization:)``,
    /// in the same order. `body` is called on the thread that baked the
    /// record — the calling thread or one of Dispatch's — one call at a time,
    /// each after the one before has returned, so it may change the state it
    /// captures:
    ///
    /// ```swift
    /// let source = try JSONIngredientSource(.file("users.json"))
    /// let cores = ProcessInfo.processInfo.activeProcessorCount
    /// var names: [String] = []
    /// try Baker().bakeEach(User.self, from: source, each: "users[*]", jobs: cores) { user in
    ///     names.append(try user.get().name)
    /// }
    /// ```
    ///
    /// This scales better than iterating the records that
    /// ``bakeEach(_:from:each:recipe:materialization:jobs:)`` returns: a model
    /// is made and released on the same thread, where the iterator hands
    /// every model to the calling thread and memory allocators lock when one
    /// thread frees what another allocated.
    ///
    /// The call returns when every record was handed out, or throws the
    /// first error `body` throws, after which no record is handed out; the
    /// jobs stop after the batches they hold. A record that fails to bake
    /// is a `.failure` (with its record index, path and location) and the
    /// stream goes on; an error of the source ends it after its failure.
    ///
    /// - Parameters:
    ///   - type: the model type.
    ///   - source: the payload's source; the jobs take turns reading it.
    ///   - each: the record path, such as `users[*]`.
    ///   - recipe: the recipe; by default the model's ``Bakeable/bakingRecipe``.
    ///   - materialization: what to build of each record.
    ///   - jobs: how many threads bake; 1 bakes on the calling thread alone.
    ///   - body: takes each result, in input order.
    /// - Throws: what ``bakeEach(_:from:each:recipe:materialization:)``
    ///   throws for `each` and the recipe, and the first error of `body`.
    // Inlinable, so that the loop of one job runs where `Model` and
    // `Source` are known: each record's `Result` made in code generic over
    // them looked up its type's metadata.
    @inlinable
    public func bakeEach<Model: Decodable, Source: IngredientSource>(
        _ type: Model.Type, from source: Source, each: String, recipe: Recipe? = nil,
        materialization: RecordMaterialization = .automatic, jobs: Int,
        _ body: (Swift.Result<Model, EasyBakeError>) throws -> Void
    ) throws {
        var records = try bakeEach(type, from: source, each: each, recipe: recipe, materialization: materialization)
        // Until a record has decided whether records are read whole or
        // pruned, they are baked here, one at a time.
        while jobs <= 1 || !records.decided {
            guard let result = records.next() else { return }
            try body(result)
        }
        try records.bakeRest(onJobs: jobs, body)
    }
}

extension BakedRecords {
    /// Bakes the records left on `jobs` threads, handing each result to
    /// `body` in input order (see
    /// ``Baker/bakeEach(_:from:each:recipe:materialization:jobs:_:)``).
    @usableFromInline
    func bakeRest(onJobs jobs: Int, _ body: (Swift.Result<Model, EasyBakeError>) throws -> Void) throws {
        try withoutActuallyEscaping(body) { body in
            try RecordJobs<Source, Model, any Error>(
                reader: reader, keeping: pruningMatcher, jobs: jobs, makeWork: makeBakingWork()
            ).run(body: body)
        }
    }
}
