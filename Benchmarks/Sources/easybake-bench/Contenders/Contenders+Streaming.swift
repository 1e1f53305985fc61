import EasyBake
import EasyBakeJSON
import EasyBakeXML
import EasyBakeYAML

/// EasyBake's streaming evaluator (issue 5): `Baker.bakeEach` bakes the
/// records at `users[*]` (`users.user[*]` in XML) one at a time as they are
/// read, building only what the recipe maps. Each record is folded into the
/// checksum as it arrives and dropped, as a streaming consumer does, so the
/// peak memory is the streaming evaluator's own.
extension Contenders {
    static let streaming: [Contender] = ["json", "xml", "yaml"].flatMap { format in
        [streamingBake(format), streamingSelect(format)]
    }

    private static func source(_ format: String, _ path: String) throws -> any IngredientSource {
        switch format {
        case "json": try JSONFormat().makeSource(for: .file(path))
        case "xml": try XMLFormat().makeSource(for: .file(path))
        default: try YAMLFormat().makeSource(for: .file(path))
        }
    }

    static func streamingBake(_ format: String) -> Contender {
        Contender(.bake, format, "EasyBake streaming", note: "Baker.bakeEach, one record at a time, folded as it arrives") { workload in
            let recipe = BenchRecipes.user(format)
            return {
                var fingerprint = Fingerprint()
                let count = try bakeEach(User.self, from: try source(format, workload.path), format: format, recipe: recipe) {
                    $0.fingerprint(into: &fingerprint)
                }
                return Outcome(count: count) { [fingerprint] in fingerprint.value }
            }
        }
    }

    static func streamingSelect(_ format: String) -> Contender {
        Contender(.select, format, "EasyBake streaming", note: "Baker.bakeEach with the 3-path Recipe; the rest is skipped unbuilt") { workload in
            let recipe = BenchRecipes.pick(format)
            return {
                var fingerprint = Fingerprint()
                let count = try bakeEach(Pick.self, from: try source(format, workload.path), format: format, recipe: recipe) {
                    $0.fingerprint(into: &fingerprint)
                }
                return Outcome(count: count) { [fingerprint] in fingerprint.value }
            }
        }
    }

    /// Bakes every record of `source` and hands each to `body`; returns the count.
    private static func bakeEach<Model: Decodable, Source: IngredientSource>(
        _ type: Model.Type, from source: Source, format: String, recipe: Recipe, _ body: (Model) -> Void
    ) throws -> Int {
        var records = try Baker().bakeEach(type, from: source, each: BenchRecipes.recordsPath(format) + "[*]", recipe: recipe)
        var count = 0
        while let model = try records.nextModel() {
            body(model)
            count += 1
        }
        return count
    }
}
