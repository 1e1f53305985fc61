extension Baker {
    /// What a streaming bake builds of each record.
    public enum RecordMaterialization: Sendable, Hashable {
        /// Build only what the recipe maps once the first record has shown
        /// that the model asks for nothing else and that what the recipe
        /// maps is a small part of a record; otherwise the whole record
        /// (reading a record whole into an index costs less than picking
        /// most of it out).
        /// The default: as fast as the recipe allows, and never different
        /// from baking the tree.
        case automatic
        /// Build every record whole.
        case wholeRecords
        /// Build only what the recipe maps. A model that asks for anything
        /// else (an unmapped property, matched implicitly) fails with
        /// ``EasyBakeError/Code/unsupported`` rather than silently missing it.
        case recipePaths
    }

    /// Bakes the records at `each` one at a time, as they are read.
    ///
    /// Each record is baked exactly as ``bake(_:from:recipe:)-(_,Ingredients,_)`` would bake
    /// its tree, but only one record is held at a time and the rest of the
    /// payload is skipped unbuilt, so a gigabyte file bakes in memory the
    /// size of one record:
    ///
    /// ```swift
    /// let source = try JSONIngredientSource(.file("users.json"))
    /// for user in try Baker().bakeEach(User.self, from: source, each: "users[*]") {
    ///     print(try user.get().name)
    /// }
    /// ```
    ///
    /// A record that fails to bake gives a failure naming the record's path
    /// and location, and the stream goes on with the next record; an error
    /// of the source (malformed input) ends the stream after its failure.
    ///
    /// - Parameters:
    ///   - type: the model type.
    ///   - source: the payload's source; it is read as the records are asked for.
    ///   - each: the record path, such as `users[*]` or `rss.channel.item[*]`.
    ///   - recipe: the recipe; by default the model's ``Bakeable/bakingRecipe``.
    ///   - materialization: what to build of each record.
    /// - Throws: ``EasyBakeError/Code/invalidPath`` when `each` does not parse,
    ///   ``EasyBakeError/Code/invalidRecipe`` when the model's recipe cannot be
    ///   made, and ``EasyBakeError/Code/unsupported`` for a source that keeps the
    ///   last of repeated keys or a record path with an index from the end
    ///   (`users[-1]`). Records' errors come later, from the sequence.
    public func bakeEach<Model: Decodable, Source: IngredientSource>(
        _ type: Model.Type, from source: Source, each: String, recipe: Recipe? = nil,
        materialization: RecordMaterialization = .automatic
    ) throws(EasyBakeError) -> BakedRecords<Model, Source> {
        let typeRecipe = if let recipe { recipe } else { try (Model.self as? any Bakeable.Type)?.checkedBakingRecipe() }
        return BakedRecords(
            reader: try RecordReader(source: source, each: each), baker: self, recipe: typeRecipe,
            materialization: materialization)
    }
}

/// The models baked from a payload's records, one at a time: a `Sequence`
/// of results, and through ``models`` an `AsyncSequence` of models. Made by
/// ``Baker/bakeEach(_:from:each:recipe:materialization:)``.
public struct BakedRecords<Model: Decodable, Source: IngredientSource>: Sequence, IteratorProtocol {
    let baker: Baker
    let recipe: Recipe?
    let materialization: Baker.RecordMaterialization
    /// What a record read pruned to the recipe's paths keeps (also the
    /// reader's `keeping`); `nil` when records are read whole. Kept here
    /// too, as read for every record (reading the reader's looked up its
    /// generic type's metadata each time).
    private(set) var pruningMatcher: PathMatcher?
    /// Whether records are pruned to the recipe's paths.
    var pruning: Bool { pruningMatcher != nil }
    /// Whether the first record has decided how records are read (pruned or whole).
    @usableFromInline private(set) var decided = false
    /// Whether a record has been read.
    private var started = false
    /// Recipes whose every key the model has asked for in an earlier record:
    /// their keys are known properties, so later records skip the tally.
    var settledRecipes: Set<ObjectIdentifier> = []
    /// The record's index, its memory reused from record to record.
    private var index = IngredientIndex()
    /// The bake session of the records, reused from record to record;
    /// made by the first.
    private var session: BakeSession?
    /// Starts several jobs on the records after the first, when
    /// ``Baker/bakeEach(_:from:each:recipe:materialization:jobs:)`` made the
    /// records; and what the jobs' results are taken from once they started.
    var startJobs: ((BakedRecords) -> any RecordTaking<Model>)?
    private var jobs: (any RecordTaking<Model>)?
    /// The record reader, for progress (``RecordReader/source``).
    // Stored last, as `RecordReader` stores its source: the fields before
    // it are at fixed offsets, which unspecialized code reads without
    // looking up the type's metadata.
    public internal(set) var reader: RecordReader<Source>

    init(reader: RecordReader<Source>, baker: Baker, recipe: Recipe?, materialization: Baker.RecordMaterialization) {
        self.reader = reader
        self.baker = baker
        self.recipe = recipe
        self.materialization = materialization
        if let recipe, materialization == .recipePaths {
            self.reader.keeping = PathMatcher(recipe: recipe)
            pruningMatcher = self.reader.keeping
            decided = true
        } else if recipe == nil || materialization == .wholeRecords {
            decided = true
        }
    }

    /// The next model, or `nil` after the last record.
    ///
    /// - Throws: the record's baking error (with the record's path and
    ///   location), or the source's error, after which the stream ends.
    public mutating func nextModel() throws(EasyBakeError) -> Model? {
        // Once a record has decided how records are read, several jobs
        // read and bake the rest, when asked to.
        if startJobs != nil, decided, started { return try nextFromJobs() }
        started = true
        // The reader fills the record's index in place: `reader` and
        // `index` are distinct stored properties, so both may be accessed
        // at once (a stand-in index swapped in was an allocation a record).
        guard let read = try reader.nextRecord(into: &index, keeping: pruningMatcher) else {
            return nil
        }
        return try bake(number: read.index, path: read.path, mark: read.mark)
    }

    /// ``nextModel()`` once jobs bake the records: apart, so that the one
    /// job's road does not look up the metadata of the jobs' `Result`s.
    @inline(never)
    private mutating func nextFromJobs() throws(EasyBakeError) -> Model? {
        if jobs == nil, let startJobs { jobs = startJobs(self) }
        return try jobs?.next()?.get()
    }

    /// The next result; `nil` after the last record. A failed record is a
    /// `.failure` and the stream goes on, unless the source itself failed.
    // Inlinable, so that the result is made where `Model` is known: made
    // here, in code generic over it, each record's `Result` looked up its
    // type's metadata twice.
    @inlinable
    public mutating func next() -> Result<Model, EasyBakeError>? {
        do {
            guard let model = try nextModel() else { return nil }
            return .success(model)
        } catch {
            return .failure(error)
        }
    }

    /// Bakes the record read into `index`.
    private mutating func bake(number: Int, path: IngredientPath, mark: SourceMark) throws(EasyBakeError) -> Model {
        let recordEntries = index.count
        // A copy of these records (an iterator copied) bakes in a session of its own.
        if session == nil || !isKnownUniquelyReferenced(&session!) { session = Self.makeSession(baker) }
        let (model, requests) = try Self.bakeRecord(
            &index, number: number, path: path, mark: mark, recipe: recipe,
            tracksRequests: !decided || pruning, pruning: decided && pruning, in: session!,
            settledRecipes: &settledRecipes)
        if !decided, let requests {
            // The first record was read whole: prune the rest only if the
            // model asked for nothing the recipe does not map.
            decided = true
            if requests.isEmpty, let recipe, Self.recipeReadsLittle(recipe, of: &index, recordEntries: recordEntries) {
                reader.keeping = PathMatcher(recipe: recipe)
                pruningMatcher = reader.keeping
            }
        }
        return model
    }

    /// The work of a job that bakes records, with a bake session and a
    /// tally of its own: made once per job by ``RecordJobs``.
    func makeBakingWork() -> () -> (inout IngredientIndex, RecordPlace) -> Result<Model, EasyBakeError> {
        let (baker, recipe, pruning, settledRecipes) = (baker, recipe, pruning, settledRecipes)
        return {
            let session = Self.makeSession(baker)
            var settled = settledRecipes
            return { index, place in
                Result { () throws(EasyBakeError) in
                    try Self.bakeRecord(
                        &index, number: place.number, path: place.path, mark: place.mark, recipe: recipe,
                        tracksRequests: pruning, pruning: pruning, in: session, settledRecipes: &settled
                    ).0
                }
            }
        }
    }

    /// A session to bake records of `Model` in, one after the other.
    private static func makeSession(_ baker: Baker) -> BakeSession {
        BakeSession(options: baker.options, modelType: Model.self)
    }

    /// Bakes one record: what every job does, with its own plans and tally.
    ///
    /// - Returns: the model, and what it asked of the record's root beyond
    ///   the recipe when `tracksRequests`.
    static func bakeRecord(
        _ index: inout IngredientIndex, number: Int, path: IngredientPath, mark: SourceMark, recipe: Recipe?,
        tracksRequests: Bool, pruning: Bool, in session: BakeSession, settledRecipes: inout Set<ObjectIdentifier>
    ) throws(EasyBakeError) -> (Model, Set<String>?) {
        // The record's place is put together only for an error: a tuple of
        // it made for every record copied its mark and path each time.
        let observer = session.recordObserver(settledRecipes: settledRecipes, tracksRootRequests: tracksRequests)
        let model: Model
        // A streamed record's warnings are not reported.
        var warnings: [EasyBakeError] = []
        do {
            model = try Baker.decode(
                Model.self, from: &index, at: 0, recipe: recipe, applyingTypeRecipe: false, in: session,
                observer: observer, recordKey: path.lastKey, warnings: &warnings)
            settledRecipes.formUnion(observer.recipesAskedInFull)
        } catch {
            throw locating(error, in: (number, path, mark))
        }
        if pruning, let requests = observer.rootRequests, !requests.isEmpty {
            let names = requests.sorted().map { $0 == "*" ? "the whole record" : $0.debugDescription }
            throw locating(
                EasyBakeError(
                    .unsupported,
                    "\(Model.self) asks for \(names.joined(separator: ", ")), which the recipe does not map, and the record was read pruned to the recipe's paths; bake with materialization .wholeRecords"
                ),
                in: (number, path, mark))
        }
        return (model, observer.rootRequests)
    }

    /// Whether the values `recipe` maps hold less than half of a record's
    /// entries, judged on the first record: then picking them out of each
    /// record beats reading it whole.
    private static func recipeReadsLittle(_ recipe: Recipe, of index: inout IngredientIndex, recordEntries: Int) -> Bool
    {
        guard recordEntries > 0 else { return false }
        var mapped = 0
        for entry in recipe.entries {
            // A path through `[*]` gathers its matches at the end of the
            // index: their copies count as what they copy.
            guard let position = index.resolve(entry.path.steps[...], from: 0) else { continue }
            mapped += index.end(of: position) - position
        }
        return mapped * 2 < recordEntries
    }

    static func locating(
        _ error: EasyBakeError, in record: (index: Int, path: IngredientPath, mark: SourceMark)
    ) -> EasyBakeError {
        var located = error
        located.path = record.path.appending(error.path ?? IngredientPath())
        if located.location == nil { located.location = record.mark.location }
        located.message = "record \(record.index): " + located.message
        return located
    }
}
