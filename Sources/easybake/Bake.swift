import ArgumentParser
import Dispatch
import EasyBake
import EasyBakeJSON
import Foundation

/// `easybake bake --recipe R INPUT [--each PATH]`
struct Bake: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bake",
        abstract: "Bake a payload with a recipe file; print one JSON line per record.",
        discussion: """
            Each record is printed as the recipe's processed ingredients: a dictionary of the
            recipe's properties, with paths resolved, defaults applied and transformers run.
            Example: easybake bake --recipe Fixtures/recipes/users.json --each 'users[*]' Fixtures/json/users.json
            """
    )

    @OptionGroup var recipeChoice: RecipeChoice

    @Option(
        name: .long, help: "A path to the records to bake, e.g. 'users[*]'. Default: the whole payload is one record.")
    var each: String?

    @Option(
        name: .long,
        help:
            "How many records to bake at once, with --each (default: the number of cores). The output is the same, in the same order."
    )
    var jobs: Int?

    @Flag(
        name: .long,
        help:
            "With --each: print the error of a record that does not bake on standard error and bake the rest; exit non-zero at the end, with the count. A payload that cannot be read further still stops the run."
    )
    var keepGoing = false

    @OptionGroup var input: InputOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try reportingErrors { () throws(EasyBakeError) in
            let recipe = try recipeChoice.chosen()
            var (source, locator) = try input.stream()
            // The recipe reads only its own paths: everything else in a
            // record is skipped unbuilt. A recipe that maps no path keeps
            // each record whole: its record must still be one it can read
            // by key, which a record pruned to nothing would not show.
            let keeping = recipe.entries.isEmpty ? PathMatcher.wholeValue : PathMatcher(recipe: recipe)
            let json = JSONFormat()
            let writing = output.writingOptions
            var warnedNothingFound = false
            // Prints a record's line, after its warnings, and warns once of
            // a recipe that found none of its paths in a record.
            func show(_ baked: BakedRecord) {
                for warning in baked.warnings { Diagnostics.warnOf(locator.locating(warning)) }
                if !baked.foundAnyPath, !recipe.entries.isEmpty, !warnedNothingFound {
                    warnedNothingFound = true
                    NothingFound.warn(recipe: recipe, at: baked.path, each: each)
                }
                Output.standard.writeLine(baked.line)
            }
            guard let each else {
                if keepGoing {
                    throw EasyBakeError(
                        .unsupported,
                        "--keep-going goes on past the records of --each that do not bake; without --each the payload is one record"
                    )
                }
                guard let first = try source.next() else {
                    throw EasyBakeError.syntax("expected a value, found the end of the input", at: source.location)
                }
                var index = IngredientIndex()
                try source.readValue(startingWith: first, into: &index, keeping: keeping)
                if try source.next() != nil {
                    throw EasyBakeError.syntax("expected the end of the input after the value", at: source.location)
                }
                let baked = BakedRecord.bake(
                    &index, at: IngredientPath(), with: RecipeProcessor(recipe: recipe), json: json, writing: writing)
                switch baked {
                case .success(let baked): show(baked)
                case .failure(let error): throw locator.locating(error)
                }
                return
            }
            // With --keep-going, the records that did not bake: their
            // errors are printed as they come, and the run fails at the end.
            var failed: (count: Int, first: EasyBakeError)?
            func goOn(past error: EasyBakeError) throws(EasyBakeError) {
                guard keepGoing else { throw error }
                Diagnostics.write(error)
                failed = (count: (failed?.count ?? 0) + 1, first: failed?.first ?? error)
            }
            var total = 0
            let recordPath = try IngredientPath(parsing: each)
            try explainingMissing(recordPath, in: locator) { () throws(EasyBakeError) in
                var reader = try RecordReader(source: source, each: recordPath, keeping: keeping)
                var progress = ProgressLine()
                var count = 0
                let jobs = max(1, self.jobs ?? ProcessInfo.processInfo.activeProcessorCount)
                if jobs == 1 {
                    // Each record is read into an index, as the jobs read it and
                    // as `Baker.bakeEach` does: by the source's native reader of
                    // records where it has one (YAML's scanner), by its events
                    // otherwise; and baked from it, in one session.
                    let processor = RecipeProcessor(recipe: recipe)
                    var index = IngredientIndex()
                    while let record = try reader.nextRecord(into: &index, keeping: keeping) {
                        switch BakedRecord.bake(&index, at: record.path, with: processor, json: json, writing: writing)
                        {
                        case .success(let baked): show(baked)
                        case .failure(let error): try goOn(past: locator.locating(error))
                        }
                        count += 1
                        progress.update(bytesRead: reader.source.bytesRead, records: count)
                    }
                } else {
                    // The jobs take turns reading batches of records, bake each
                    // record from its index and write its line; the lines are
                    // printed in order, and the first failing record stops the
                    // run where one job would have stopped (a malformed payload
                    // fails after the records before it are printed). A record's
                    // own failure is the work's output, so that it is told apart
                    // from a failure to read, which stops the run even with
                    // --keep-going.
                    let engine = RecordJobs<AnyIngredientSource, Result<BakedRecord, EasyBakeError>, EasyBakeError>(
                        reader: reader, keeping: keeping, jobs: jobs,
                        makeWork: {
                            // Each job bakes in a session of its own.
                            let processor = RecipeProcessor(recipe: recipe)
                            return { index, place in
                                .success(
                                    BakedRecord.bake(
                                        &index, at: place.path, with: processor, json: json, writing: writing))
                            }
                        }
                    )
                    try engine.run { (result) throws(EasyBakeError) in
                        switch result {
                        case .success(.success(let baked)):
                            show(baked)
                        case .success(.failure(let error)):
                            try goOn(past: locator.locating(error))
                        case .failure(let error):
                            throw locator.locating(error)
                        }
                        count += 1
                        if count % 64 == 0 { progress.update(bytesRead: engine.bytesRead, records: count) }
                    }
                    progress.update(bytesRead: engine.bytesRead, records: count)
                }
                progress.finish()
                total = count
                if count == 0, !recordPath.hasWildcard {
                    throw EasyBakeError(.valueNotFound, "no value at \(recordPath)", path: recordPath)
                }
            }
            if let failed {
                throw EasyBakeError(
                    failed.first.code,
                    "\(failed.count) of \(total) record\(total == 1 ? "" : "s") did not bake (--keep-going); their errors are above, the other records were printed"
                )
            }
        }
    }
}

/// One record as `bake` prints it: the JSON line of what the recipe made of
/// it (``ProcessedIngredients``), with the bake's warnings; made by the job
/// that read the record, printed in input order.
struct BakedRecord {
    /// The record's concrete path.
    var path: IngredientPath
    var line: [UInt8]
    var foundAnyPath: Bool
    /// The bake's warnings, their paths from the payload's root.
    var warnings: [EasyBakeError]

    /// Bakes the record in `index` (at `path`) with `processor` — the
    /// library's baker — and writes its line; an error gets the record's
    /// path in front of its own.
    static func bake(
        _ index: inout IngredientIndex, at path: IngredientPath, with processor: RecipeProcessor,
        json: JSONFormat, writing: WritingOptions
    ) -> Result<BakedRecord, EasyBakeError> {
        do throws(EasyBakeError) {
            let (processed, warnings) = try processor.process(&index, recordKey: path.lastKey)
            return .success(
                BakedRecord(
                    path: path, line: try json.write(.dictionary(processed.ingredients), options: writing),
                    foundAnyPath: processed.foundAnyPath, warnings: warnings.map { placed($0, at: path) }))
        } catch {
            return .failure(placed(error, at: path))
        }
    }

    private static func placed(_ error: EasyBakeError, at path: IngredientPath) -> EasyBakeError {
        var placed = error
        placed.path = path.appending(error.path ?? IngredientPath())
        return placed
    }
}

/// The warning `bake` prints when the recipe found none of its paths in a
/// record: it printed the record's defaults alone (`{}` without any), which
/// is no bake of the payload at all.
enum NothingFound {
    static func warn(recipe: Recipe, at path: IngredientPath, each: String?) {
        let label = recipe.name.map { "recipe \($0.debugDescription)" } ?? "the recipe"
        let paths =
            recipe.entries.prefix(4).map(\.path.description).joined(separator: ", ")
            + (recipe.entries.count > 4 ? ", …" : "")
        let place = path.isRoot ? "the payload" : "the record at \(path)"
        let hint = each == nil ? "; are they paths of records, for --each?" : "; is --each one level off?"
        FileHandle.standardError.write(
            Data("warning: \(label) found none of its paths (\(paths)) in \(place)\(hint)\n".utf8))
    }
}
