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
            func bake(_ record: Ingredients, at path: IngredientPath) throws(EasyBakeError) {
                let processed: IngredientDictionary
                do throws(EasyBakeError) {
                    processed = try recipe.process(record)
                } catch {
                    var located = error
                    located.path = path.appending(error.path ?? IngredientPath())
                    throw locator.locating(located)
                }
                Output.standard.writeLine(try json.write(.dictionary(processed), options: output.writingOptions))
            }
            guard let each else {
                guard let record = try keeping.read(from: &source) else {
                    throw EasyBakeError.syntax("expected a value, found the end of the input", at: source.location)
                }
                if try source.next() != nil {
                    throw EasyBakeError.syntax("expected the end of the input after the value", at: source.location)
                }
                try bake(record, at: IngredientPath())
                return
            }
            let recordPath = try IngredientPath(parsing: each)
            var reader = try RecordReader(source: source, each: recordPath, keeping: keeping)
            var progress = ProgressLine()
            var count = 0
            let jobs = max(1, self.jobs ?? ProcessInfo.processInfo.activeProcessorCount)
            if jobs == 1 {
                while let record = try reader.next() {
                    try bake(record.ingredients, at: record.path)
                    count += 1
                    progress.update(bytesRead: reader.source.bytesRead, records: count)
                }
            } else {
                // The jobs take turns reading batches of records, make each
                // record's tree, process it and write its line; the lines
                // are printed in order, and the first failing record stops
                // the run where one job would have stopped (a malformed
                // payload fails after the records before it are printed).
                let writing = output.writingOptions
                let engine = RecordJobs<AnyIngredientSource, [UInt8], EasyBakeError>(
                    reader: reader, keeping: keeping, jobs: jobs,
                    makeWork: {
                        { index, place in
                            Result { () throws(EasyBakeError) in
                                do throws(EasyBakeError) {
                                    let record = try Ingredients(index: index)
                                    return try json.write(.dictionary(try recipe.process(record)), options: writing)
                                } catch {
                                    var located = error
                                    located.path = place.path.appending(error.path ?? IngredientPath())
                                    throw located
                                }
                            }
                        }
                    }
                )
                try engine.run { (result) throws(EasyBakeError) in
                    switch result {
                    case .success(let line):
                        Output.standard.writeLine(line)
                        count += 1
                        if count % 64 == 0 { progress.update(bytesRead: engine.bytesRead, records: count) }
                    case .failure(let error):
                        throw locator.locating(error)
                    }
                }
                progress.update(bytesRead: engine.bytesRead, records: count)
            }
            progress.finish()
            if count == 0, !recordPath.hasWildcard {
                throw locator.locating(EasyBakeError(.valueNotFound, "no value at \(recordPath)", path: recordPath))
            }
        }
    }
}

/// The results of a batch of records, written by the jobs: each job sets
/// only the offsets it processes, and the batch is read after all are done.
private final class ProcessedRecords: @unchecked Sendable {
    private let results: UnsafeMutableBufferPointer<Result<[UInt8], EasyBakeError>?>

    init(count: Int) {
        results = .allocate(capacity: count)
        results.initialize(repeating: nil)
    }

    deinit {
        results.deinitialize()
        results.deallocate()
    }

    func set(_ offset: Int, _ result: Result<[UInt8], EasyBakeError>) { results[offset] = result }
    func get(_ offset: Int) -> Result<[UInt8], EasyBakeError> { results[offset]! }
}
