import ArgumentParser
import Dispatch
import EasyBake
import EasyBakeJSON
import Foundation

/// `easybake bake --recipe R INPUT [--each PATH]`
struct Bake: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Bake a payload with a recipe file; print one JSON line per record.",
        discussion: """
            Each record is printed as the recipe's processed ingredients: a dictionary of the
            recipe's properties, with paths resolved, defaults applied and transformers run.
            Example: easybake bake --recipe Fixtures/recipes/users.json --each 'users[*]' Fixtures/json/users.json
            """
    )

    @OptionGroup var recipeChoice: RecipeChoice

    @Option(name: .long, help: "A path to the records to bake, e.g. 'users[*]'. Default: the whole payload is one record.")
    var each: String?

    @Option(name: .long, help: "How many records to bake at once, with --each (default: the number of cores). The output is the same, in the same order.")
    var jobs: Int?

    @Flag(name: .long, help: "With --each: print the error of a record that does not bake on standard error and bake the rest; exit non-zero at the end, with the count. A payload that cannot be read further still stops the run.")
    var keepGoing = false

    @OptionGroup var input: InputOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try reportingErrors { () throws(EasyBakeError) in
            let recipe = try recipeChoice.chosen()
            var (source, locator) = try input.stream()
            // The recipe reads only its own paths: everything else in a
            // record is skipped unbuilt.
            let keeping = PathMatcher(recipe: recipe)
            let json = JSONFormat()
            var warnedNothingFound = false
            func bake(_ record: Ingredients, at path: IngredientPath) throws(EasyBakeError) {
                let processed: IngredientDictionary
                do throws(EasyBakeError) {
                    let foundAny: Bool
                    (processed, foundAny) = try recipe.processReporting(record, ownKey: path.lastKey)
                    if !foundAny, !recipe.entries.isEmpty, !warnedNothingFound {
                        warnedNothingFound = true
                        NothingFound.warn(recipe: recipe, at: path, each: each)
                    }
                } catch {
                    var located = error
                    located.path = path.appending(error.path ?? IngredientPath())
                    throw locator.locating(located)
                }
                Output.standard.writeLine(try json.write(.dictionary(processed), options: output.writingOptions))
            }
            guard let each else {
                if keepGoing {
                    throw EasyBakeError(.unsupported, "--keep-going goes on past the records of --each that do not bake; without --each the payload is one record")
                }
                guard let record = try keeping.read(from: &source) else {
                    throw EasyBakeError.syntax("expected a value, found the end of the input", at: source.location)
                }
                if try source.next() != nil {
                    throw EasyBakeError.syntax("expected the end of the input after the value", at: source.location)
                }
                try bake(record, at: IngredientPath())
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
                // otherwise.
                var index = IngredientIndex()
                while let record = try reader.nextRecord(into: &index, keeping: keeping) {
                    do throws(EasyBakeError) {
                        try bake(try Ingredients(index: index), at: record.path)
                    } catch {
                        try goOn(past: error)
                    }
                    count += 1
                    progress.update(bytesRead: reader.source.bytesRead, records: count)
                }
            } else {
                // The jobs take turns reading batches of records, make each
                // record's tree, process it and write its line; the lines
                // are printed in order, and the first failing record stops
                // the run where one job would have stopped (a malformed
                // payload fails after the records before it are printed).
                // A record's own failure is the work's output, so that it
                // is told apart from a failure to read, which stops the run
                // even with --keep-going.
                let writing = output.writingOptions
                let engine = RecordJobs<AnyIngredientSource, Result<(line: [UInt8], foundAny: Bool), EasyBakeError>, EasyBakeError>(
                    reader: reader, keeping: keeping, jobs: jobs,
                    makeWork: {
                        { index, place in
                            .success(Result { () throws(EasyBakeError) in
                                do throws(EasyBakeError) {
                                    let record = try Ingredients(index: index)
                                    let (processed, foundAny) = try recipe.processReporting(record, ownKey: place.path.lastKey)
                                    return (try json.write(.dictionary(processed), options: writing), foundAny)
                                } catch {
                                    var located = error
                                    located.path = place.path.appending(error.path ?? IngredientPath())
                                    throw located
                                }
                            })
                        }
                    }
                )
                try engine.run { (result) throws(EasyBakeError) in
                    switch result {
                    case .success(.success(let (line, foundAny))):
                        if !foundAny, !recipe.entries.isEmpty, !warnedNothingFound {
                            warnedNothingFound = true
                            NothingFound.warn(recipe: recipe, at: recordPath, each: each)
                        }
                        Output.standard.writeLine(line)
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
                    "\(failed.count) of \(total) record\(total == 1 ? "" : "s") did not bake (--keep-going); their errors are above, the other records were printed")
            }
        }
    }
}

/// The warning `bake` prints when the recipe found none of its paths in a
/// record: it printed the record's defaults alone (`{}` without any), which
/// is no bake of the payload at all.
enum NothingFound {
    static func warn(recipe: Recipe, at path: IngredientPath, each: String?) {
        let label = recipe.name.map { "recipe \($0.debugDescription)" } ?? "the recipe"
        let paths = recipe.entries.prefix(4).map(\.path.description).joined(separator: ", ")
            + (recipe.entries.count > 4 ? ", …" : "")
        let place = path.isRoot ? "the payload" : "the record at \(path)"
        let hint = each == nil ? "; are they paths of records, for --each?" : "; is --each one level off?"
        FileHandle.standardError.write(Data("warning: \(label) found none of its paths (\(paths)) in \(place)\(hint)\n".utf8))
    }
}
