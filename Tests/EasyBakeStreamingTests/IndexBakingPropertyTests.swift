import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import EasyBakeXML
import EasyBakeYAML
import Testing

/// Baking straight from a payload's bytes (the format's index, no tree)
/// must give what baking the payload's tree gives: values, warnings and
/// errors alike, in every format.
@Suite("Baking from bytes agrees with baking the tree")
struct IndexBakingPropertyTests {
    struct Probe: Decodable, Equatable {
        let p0: String?
        let p1: [String]?
        let p2: [String: String]?
    }

    struct Strict: Decodable, Equatable {
        let p0: Int
        let p1: Bool
        let p2: [Double]
    }

    static func compare<Model: Decodable & Equatable>(
        _ type: Model.Type, _ input: IngredientInput, _ tree: Ingredients, format: some IngredientFormat,
        recipe: Recipe, options: Baker.Options, _ label: String
    ) -> Bool {
        let baker = Baker(options: options)
        let fromBytes = Result { () throws(EasyBakeError) in
            try baker.bakeReporting(type, from: input, format: format, recipe: recipe)
        }
        let fromTree = Result { () throws(EasyBakeError) in try baker.bakeReporting(type, from: tree, recipe: recipe) }
        switch (fromBytes, fromTree) {
        case (.success(let a), .success(let b)):
            #expect(a.value == b.value, "\(label)")
            #expect(a.warnings.map(\.message) == b.warnings.map(\.message), "\(label)")
            return false
        case (.failure(let a), .failure(let b)):
            #expect(a.code == b.code, "\(label)")
            #expect(a.message == b.message, "\(label)")
            #expect(a.path == b.path, "\(label)")
            #expect(a.baking == b.baking, "\(label)")
            return true
        default:
            Issue.record("\(label): from bytes \(fromBytes), from the tree \(fromTree)")
            return false
        }
    }

    @Test("random payloads and recipes", arguments: 0..<3)
    func random(formatIndex: Int) throws {
        let (name, format, _) = StreamingPropertyTests.formats[formatIndex]
        var random = SeededGenerator(seed: 0x1DBA_0000 + UInt64(formatIndex))
        var compared = 0, failures = 0
        for round in 0..<300 {
            guard let (input, tree) = try StreamingPropertyTests.payload(formatIndex, using: &random) else { continue }
            guard
                let recipe = try? Recipe(
                    name: "Probe",
                    orderedMapping: (0..<3).map { ("p\($0)", RandomTrees.path(in: tree, using: &random).description) })
            else { continue }
            let options = Baker.Options(
                lossyArrays: round % 2 == 0, missingValues: round % 3 == 0 ? .emptyValue : .error)
            let label = "\(name) \(recipe.entries.map(\.path.description))"
            // The format's tree bakes from the index it keeps; the tree its
            // source's events build keeps none and is indexed from its nodes.
            var source = try format.makeSource(for: input)
            let built = try Ingredients(reading: &source)
            for candidate in [tree, built] {
                if Self.compare(Probe.self, input, candidate, format: format, recipe: recipe, options: options, label) {
                    failures += 1
                }
                if Self.compare(Strict.self, input, candidate, format: format, recipe: recipe, options: options, label)
                {
                    failures += 1
                }
            }
            compared += 1
        }
        #expect(compared > 100)
        #expect(failures > 20, "the generator should provoke baking errors too")
    }

    @Test("a JSON error from bytes names the line and column of the value at fault")
    func location() throws {
        struct User: Decodable { let id: Int; let name: String }
        let text = "{\n  \"id\": \"seven\",\n  \"name\": \"Ada\"\n}"
        let error = #expect(throws: EasyBakeError.self) {
            _ = try Baker().bake(User.self, from: .text(text), format: JSONFormat())
        }
        #expect(error?.location?.line == 2)
        #expect(error?.location?.column == 9)
        #expect(error?.path?.description == "id")
    }
}
