import EasyBake
import Foundation
import EasyBakeJSON
import EasyBakeXML
import EasyBakeYAML

/// EasyBake's streaming evaluator (issue 5): `Baker.bakeEach` bakes the
/// records at `users[*]` (`users.user[*]` in XML) one at a time as they are
/// read, building only what the recipe maps. Each record is folded into the
/// checksum as it arrives and dropped, as a streaming consumer does, so the
/// peak memory is the streaming evaluator's own.
extension Contenders {
    static let streaming: [Contender] = ["json", "xml", "yaml"].flatMap { format -> [Contender] in
        var contenders: [Contender] = [streamingBake(format)]
        contenders += jobCounts.map { streamingBake(format, jobs: $0) }
        contenders.append(streamingBake(format, generated: true))
        contenders += jobCounts.map { streamingBake(format, jobs: $0, generated: true) }
        contenders += [streamingBakeIterated(format, jobs: cores), streamingSelect(format)]
        if format == "json" { contenders.append(streamingBakeLines()) }
        return contenders
    }

    /// This machine's cores: the default job count of the parallel rows.
    static let cores = ProcessInfo.processInfo.activeProcessorCount
    /// The job counts there are parallel rows for; `--jobs` picks among them.
    static let jobCounts = Set([2, 4, 8, 16, cores]).sorted()

    private static func source(_ format: String, _ path: String) throws -> any IngredientSource {
        switch format {
        case "json": try JSONFormat().makeSource(for: .file(path))
        case "xml": try XMLFormat().makeSource(for: .file(path))
        default: try YAMLFormat().makeSource(for: .file(path))
        }
    }

    /// `bakeEach` into `Decodable` models, or with `generated` into the
    /// same models made `@Bakeable`, whose generated initializers read each
    /// record's index with no `Decoder` between (issue 29: streaming takes
    /// the road the whole-document bake takes).
    static func streamingBake(_ format: String, jobs: Int = 1, generated: Bool = false) -> Contender {
        let models = generated ? " into @Bakeable models" : ""
        var contender = Contender(
            .bake, format, "EasyBake streaming" + (generated ? " @Bakeable" : "") + (jobs == 1 ? "" : ", \(jobs) jobs"),
            note: jobs == 1
                ? "Baker.bakeEach\(models), one record at a time, folded as it arrives"
                : "Baker.bakeEach(jobs: \(jobs)) { … }\(models): each job reads a batch in turn, bakes it and folds it in order"
        ) { workload in
            let recipe = BenchRecipes.user(format)
            return {
                var fingerprint = Fingerprint()
                // The generated models are folded as they are, into the
                // same fingerprint as their `User` twins.
                func run<Model: Decodable & Sendable & UserValues>(_ type: Model.Type) throws -> Int {
                    let source = try source(format, workload.path)
                    if jobs == 1 {
                        return try bakeEach(type, from: source, format: format, recipe: recipe) {
                            $0.fingerprint(into: &fingerprint)
                        }
                    }
                    var count = 0
                    let each = BenchRecipes.recordsPath(format) + "[*]"
                    try Baker().bakeEach(type, from: source, each: each, recipe: recipe, jobs: jobs) { result in
                        try result.get().fingerprint(into: &fingerprint)
                        count += 1
                    }
                    return count
                }
                let count = generated ? try run(BakedUser.self) : try run(User.self)
                return Outcome(count: count) { [fingerprint] in fingerprint.value }
            }
        }
        if jobs > 1 { contender.jobs = jobs }
        return contender
    }

    /// Several jobs bake, and the calling thread takes the models from the
    /// returned sequence: every model crosses threads.
    static func streamingBakeIterated(_ format: String, jobs: Int) -> Contender {
        var contender = Contender(
            .bake, format, "EasyBake streaming, \(jobs) jobs, iterated",
            note:
                "Baker.bakeEach(jobs: \(jobs)) as a sequence: the calling thread reads batches, \(jobs) threads bake, the caller folds"
        ) { workload in
            let recipe = BenchRecipes.user(format)
            return {
                var fingerprint = Fingerprint()
                let count = try bakeEach(
                    User.self, from: try source(format, workload.path), format: format, recipe: recipe, jobs: jobs
                ) {
                    $0.fingerprint(into: &fingerprint)
                }
                return Outcome(count: count) { [fingerprint] in fingerprint.value }
            }
        }
        contender.jobs = jobs
        return contender
    }

    /// The same records as JSON Lines, one per line: written beside the
    /// JSON file before the clock starts (once), then baked at `[*]`. The
    /// issue's target: no slower than the same records as one JSON array.
    static func streamingBakeLines() -> Contender {
        Contender(
            .bake, "json", "EasyBake streaming, JSON Lines",
            note: "Baker.bakeEach over JSONLinesIngredientSource at [*]: the same records, one per line"
        ) { workload in
            let recipe = BenchRecipes.user("json")
            let lines = workload.path + "l"
            if !FileManager.default.fileExists(atPath: lines) {
                var out: [UInt8] = []
                var reader = try RecordReader(source: try JSONIngredientSource(.file(workload.path)), each: "users[*]")
                while let record = try reader.next() {
                    out += try JSONFormat().write(record.ingredients)
                    out.append(0x0A)
                }
                try Data(out).write(to: URL(fileURLWithPath: lines))
            }
            return {
                var fingerprint = Fingerprint()
                var records = try Baker().bakeEach(
                    User.self, from: try JSONLinesIngredientSource(.file(lines)), each: "[*]", recipe: recipe)
                var count = 0
                while let model = try records.nextModel() {
                    model.fingerprint(into: &fingerprint)
                    count += 1
                }
                return Outcome(count: count) { [fingerprint] in fingerprint.value }
            }
        }
    }

    static func streamingSelect(_ format: String) -> Contender {
        Contender(
            .select, format, "EasyBake streaming",
            note: "Baker.bakeEach with the 3-path Recipe; the rest is skipped unbuilt"
        ) { workload in
            let recipe = BenchRecipes.pick(format)
            return {
                var fingerprint = Fingerprint()
                let count = try bakeEach(
                    Pick.self, from: try source(format, workload.path), format: format, recipe: recipe
                ) {
                    $0.fingerprint(into: &fingerprint)
                }
                return Outcome(count: count) { [fingerprint] in fingerprint.value }
            }
        }
    }

    /// Bakes every record of `source` and hands each to `body`; returns the count.
    private static func bakeEach<Model: Decodable & Sendable, Source: IngredientSource>(
        _ type: Model.Type, from source: Source, format: String, recipe: Recipe, jobs: Int = 1, _ body: (Model) -> Void
    ) throws -> Int {
        var records = try Baker().bakeEach(
            type, from: source, each: BenchRecipes.recordsPath(format) + "[*]", recipe: recipe, jobs: jobs)
        var count = 0
        while let model = try records.nextModel() {
            body(model)
            count += 1
        }
        return count
    }
}
