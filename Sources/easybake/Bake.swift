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

    @Option(name: .long, help: "The recipe file (JSON or YAML).")
    var recipe: String

    @Option(name: .long, help: "Which recipe of the file to use, when it holds several.")
    var recipeName: String?

    @Option(name: .long, help: "A path to the records to bake, e.g. 'users[*]'. Default: the whole payload is one record.")
    var each: String?

    @Option(name: .long, help: "How many records to bake at once, with --each (default: the number of cores). The output is the same, in the same order.")
    var jobs: Int?

    @OptionGroup var input: InputOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try reportingErrors { () throws(EasyBakeError) in
            let recipe = try chooseRecipe()
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
                // Batches of records, each processed by the jobs and printed
                // in order; the first failing record stops the run where one
                // job would have stopped.
                // The calling thread only indexes each record (cheap); the
                // jobs make its tree, process it and write its line.
                var batch: [(index: IngredientIndex, path: IngredientPath)] = []
                batch.reserveCapacity(64 * jobs)
                var finished = false
                while !finished {
                    batch.removeAll(keepingCapacity: true)
                    // A malformed payload fails after the records before it
                    // are printed, as it does with one job.
                    var readError: EasyBakeError?
                    while batch.count < 64 * jobs {
                        do throws(EasyBakeError) {
                            guard let record = try reader.nextRecord(reading: { (first, source) throws(EasyBakeError) in
                                var index = IngredientIndex()
                                try source.readValue(startingWith: first, into: &index, keeping: keeping)
                                return index
                            }) else { finished = true; break }
                            batch.append((record.value, record.path))
                        } catch {
                            readError = error
                            finished = true
                            break
                        }
                    }
                    let results = ProcessedRecords(count: batch.count)
                    let records = batch
                    let writing = output.writingOptions
                    // Each job also writes its records' lines: the calling
                    // thread only prints them, and what a job makes is
                    // freed by that job, not by another thread.
                    DispatchQueue.concurrentPerform(iterations: min(jobs, max(records.count, 1))) { job in
                        var offset = job
                        while offset < records.count {
                            results.set(offset, Result { () throws(EasyBakeError) in
                                let record = try Ingredients(index: records[offset].index)
                                return try json.write(.dictionary(try recipe.process(record)), options: writing)
                            })
                            offset += jobs
                        }
                    }
                    for (offset, record) in records.enumerated() {
                        switch results.get(offset) {
                        case .success(let line):
                            Output.standard.writeLine(line)
                        case .failure(let error):
                            var located = error
                            located.path = record.path.appending(error.path ?? IngredientPath())
                            throw locator.locating(located)
                        }
                        count += 1
                    }
                    progress.update(bytesRead: reader.source.bytesRead, records: count)
                    if let readError { throw readError }
                }
            }
            progress.finish()
            if count == 0, !recordPath.hasWildcard {
                throw locator.locating(EasyBakeError(.valueNotFound, "no value at \(recordPath)", path: recordPath))
            }
        }
    }

    private func chooseRecipe() throws(EasyBakeError) -> Recipe {
        let recipes = try RecipeFile.load(.file(recipe), formats: Formats.all)
        if let recipeName {
            guard let found = recipes.first(where: { $0.name == recipeName }) else {
                throw EasyBakeError(
                    .recipeNotFound,
                    "no recipe named \(recipeName.debugDescription) in \(recipe); it has: \(recipes.compactMap(\.name).joined(separator: ", "))")
            }
            return found
        }
        guard recipes.count == 1, let only = recipes.first else {
            throw EasyBakeError(
                .invalidRecipe,
                "\(recipe) holds \(recipes.count) recipes; choose one with --recipe-name (\(recipes.compactMap(\.name).joined(separator: ", ")))")
        }
        return only
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
