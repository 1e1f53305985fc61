import EasyBakeJSON
import EasyBakeMacros
import EasyBakeTestSupport
import EasyBakeXML
import EasyBakeYAML
import Foundation
import Testing

// Streaming into `@Bakeable` models (issue 29): `bakeEach` bakes each
// record through the generated initializer, the road the whole-document
// bake takes. Whatever the road — the generated initializer or
// `Decodable`, one job or several, each record streamed or the record's
// tree baked alone — every record gives the same model, or the same error
// with the same path and place.

@Suite("Streaming into @Bakeable models agrees with Decodable and with the tree")
struct StreamingGeneratedPropertyTests {
    /// A format, how to write a list of records in it, and the record path.
    struct Layout: Sendable {
        var name: String
        var format: any IngredientFormat & Sendable
        var each: String
        var write: @Sendable ([Ingredients]) throws -> [UInt8]
    }

    static let layouts: [Layout] = [
        Layout(name: "json", format: JSONFormat(), each: "models[*]") {
            try JSONFormat().write(["models": .array(IngredientArray($0))])
        },
        Layout(name: "json lines", format: JSONLinesFormat(), each: "[*]") { records in
            try records.flatMap { try JSONFormat().write($0) + [0x0A] }
        },
        Layout(name: "yaml", format: YAMLFormat(), each: "models[*]") {
            try YAMLFormat().write(["models": .array(IngredientArray($0))])
        },
        Layout(name: "xml", format: XMLFormat(), each: "models.model[*]") {
            try XMLFormat().write(["models": ["model": .array(IngredientArray($0))]])
        },
    ]

    @Test("streamed records bake alike on every road", arguments: 0..<4)
    func streamedRecords(layoutIndex: Int) throws {
        let layout = Self.layouts[layoutIndex]
        var random = SeededGenerator(seed: 0x57EA_0000 + UInt64(layoutIndex))
        var baked = 0, failed = 0
        for round in 0..<60 {
            let records = (0..<Int.random(in: 1..<12, using: &random)).map { _ in
                BakingInitializerPropertyTests.model(&random)
            }
            let bytes = try layout.write(records)
            let options = BakingInitializerPropertyTests.options[round % BakingInitializerPropertyTests.options.count]
            let baker = Baker(options: options)
            let context = "\(layout.name), round \(round): \(String(decoding: bytes, as: UTF8.self))"
            func source() throws -> AnyIngredientSource {
                AnyIngredientSource(try layout.format.makeSource(for: .bytes(bytes)))
            }
            let generated = Array(try baker.bakeEach(GeneratedModel.self, from: try source(), each: layout.each))
            let decodable = Array(try baker.bakeEach(DecodableModel.self, from: try source(), each: layout.each))
            #expect(generated.count == records.count, "\(context)")
            #expect(generated.map(Self.describe) == decodable.map(Self.describe), "\(context)")

            // Each record's own tree, read back from the payload, bakes to
            // what its streamed record baked.
            let tree = try layout.format.read(.bytes(bytes))
            let trees: [Ingredients] =
                layout.name == "json lines"
                ? tree.arrayValue.map(Array.init) ?? []
                : Self.records(at: layout.each, in: tree)
            #expect(trees.count == generated.count, "\(context)")
            for (number, (record, streamed)) in zip(trees, generated).enumerated() {
                let alone = Result { () throws(EasyBakeError) in try baker.bake(DecodableModel.self, from: record) }
                switch (streamed, alone) {
                case (.success(let a), .success(let b)):
                    baked += 1
                    #expect(
                        try BakingInitializerPropertyTests.json(a) == BakingInitializerPropertyTests.json(b),
                        "\(context)")
                case (.failure(let a), .failure(let b)):
                    failed += 1
                    #expect(a.code == b.code, "record \(number): \(a) against \(b); \(context)")
                    #expect(a.baking?.property == b.baking?.property, "record \(number); \(context)")
                    // The tree's bake cannot know that a recipe key the model
                    // had not reached is a property, and may guess it
                    // misspelt; a streamed record knows it from the records
                    // before, or from the generated model's keys.
                    let treeMessage = BakingInitializerPropertyTests.withoutGuessedMisspelling(
                        b.message.replacingOccurrences(of: "Decodable", with: "Generated"))
                    #expect(
                        a.message.hasSuffix(treeMessage),
                        "record \(number): \(a.message) against \(treeMessage); \(context)")
                    // The streamed error names its record and the place in the input.
                    #expect(a.message.hasPrefix("record \(number): "), "\(a.message)")
                    #expect(a.location != nil, "\(a)")
                default:
                    Issue.record("record \(number): streamed \(streamed), tree \(alone); \(context)")
                }
            }

            // Several jobs give exactly what one does, in order, both ways.
            for jobs in [2, 3] {
                let parallel = Array(
                    try baker.bakeEach(GeneratedModel.self, from: try source(), each: layout.each, jobs: jobs))
                #expect(parallel.map(Self.describe) == generated.map(Self.describe), "jobs \(jobs); \(context)")
                var handedOut: [Result<GeneratedModel, EasyBakeError>] = []
                try baker.bakeEach(GeneratedModel.self, from: try source(), each: layout.each, jobs: jobs) {
                    handedOut.append($0)
                }
                #expect(handedOut.map(Self.describe) == generated.map(Self.describe), "jobs \(jobs), body; \(context)")
            }
        }
        #expect(baked > 40, "\(layout.name): \(baked) records baked")
        #expect(failed > 20, "\(layout.name): \(failed) records failed")
    }

    /// XML records go straight from libxml2's callbacks into each record's
    /// index (issue 29): through the generated initializer, that road bakes
    /// what the record's events bake, and each record as the whole
    /// document's index bakes it where it lies — a bake error at the line
    /// and column of the value at fault — with one job and two.
    @Test("streamed XML records bake through the generated initializer as their events and the whole document do")
    func xmlRoads() throws {
        let layout = Self.layouts[3]
        var random = SeededGenerator(seed: 0x57EA_2900)
        var baked = 0, failed = 0
        for round in 0..<60 {
            let records = (0..<Int.random(in: 1..<16, using: &random)).map { _ in
                BakingInitializerPropertyTests.model(&random)
            }
            let bytes = try layout.write(records)
            let baker = Baker(
                options: BakingInitializerPropertyTests.options[round % BakingInitializerPropertyTests.options.count])
            let context = "round \(round): \(String(decoding: bytes, as: UTF8.self))"
            func stream(natively: Bool, jobs: Int = 1) throws -> [Result<GeneratedModel, EasyBakeError>] {
                let source = try XMLIngredientSource(.bytes(bytes))
                source.readsRecordsNatively = natively
                return Array(try baker.bakeEach(GeneratedModel.self, from: source, each: layout.each, jobs: jobs))
            }
            let native = try stream(natively: true)
            let events = try stream(natively: false)
            #expect(native.count == records.count, "\(context)")
            #expect(try stream(natively: true, jobs: 2).map(Self.describe) == native.map(Self.describe), "\(context)")
            for (number, (a, b)) in zip(native, events).enumerated() {
                switch (a, b) {
                case (.success(let x), .success(let y)):
                    #expect(
                        try BakingInitializerPropertyTests.json(x) == BakingInitializerPropertyTests.json(y),
                        "\(context)")
                case (.failure(let x), .failure(let y)):
                    // The event road knows only the record's place.
                    #expect(
                        x.code == y.code && x.message == y.message && x.path == y.path, "\(x) against \(y); \(context)")
                default:
                    Issue.record("record \(number): natively \(a), through events \(b); \(context)")
                }
            }
            var index = IngredientIndex()
            try layout.format.readIndex(.bytes(bytes), into: &index)
            let whole = try #require(
                RecordRoads.wholeDocumentResults(
                    GeneratedModel.self, from: &index, each: try IngredientPath(parsing: layout.each), recipe: nil,
                    baker: baker))
            #expect(whole.count == native.count, "\(context)")
            for (number, (streamed, alone)) in zip(native, whole).enumerated() {
                if case .success = streamed { baked += 1 } else { failed += 1 }
                let mismatch = RecordRoads.mismatch(streamed: streamed, whole: alone, number: number) {
                    (try? BakingInitializerPropertyTests.json($0)) ?? "unencodable"
                }
                #expect(mismatch == nil, "\(mismatch ?? ""); \(context)")
            }
        }
        #expect(baked > 40, "\(baked) records baked")
        #expect(failed > 20, "\(failed) records failed")
    }

    @Test("YAML records read by the native scanner bake as the events' records do, into @Bakeable and Decodable models")
    func nativeYAMLRecords() throws {
        var random = SeededGenerator(seed: 0x9A71_B29E)
        var native = 0
        for round in 0..<40 {
            let records = (0..<Int.random(in: 1..<12, using: &random)).map { _ in
                BakingInitializerPropertyTests.model(&random)
            }
            let bytes = try YAMLFormat().write(["models": .array(IngredientArray(records))])
            let baker = Baker(
                options: BakingInitializerPropertyTests.options[round % BakingInitializerPropertyTests.options.count])
            let context = "round \(round): \(String(decoding: bytes, as: UTF8.self))"
            func source(natively: Bool) throws -> YAMLIngredientSource {
                let source = try YAMLIngredientSource(.bytes(bytes))
                source.readsRecordsNatively = natively
                return source
            }
            let events = Array(
                try baker.bakeEach(GeneratedModel.self, from: try source(natively: false), each: "models[*]")
            )
            .map(Self.describeWithoutPlace)
            let nativeSource = try source(natively: true)
            let generated = Array(try baker.bakeEach(GeneratedModel.self, from: nativeSource, each: "models[*]"))
            if nativeSource.readAllRecordsNatively { native += 1 }
            let decodable = Array(
                try baker.bakeEach(DecodableModel.self, from: try source(natively: true), each: "models[*]"))
            #expect(generated.count == records.count, "\(context)")
            // Models alike; errors alike but for their place, which the
            // native index knows to the value.
            #expect(generated.map(Self.describeWithoutPlace) == events, "\(context)")
            #expect(generated.map(Self.describe) == decodable.map(Self.describe), "\(context)")
            var parallel: [Result<GeneratedModel, EasyBakeError>] = []
            try baker.bakeEach(GeneratedModel.self, from: try source(natively: true), each: "models[*]", jobs: 2) {
                parallel.append($0)
            }
            #expect(parallel.map(Self.describe) == generated.map(Self.describe), "jobs 2; \(context)")
        }
        #expect(native > 20, "rounds read natively to the end: \(native)")
    }

    /// A result as text, an error without the place it names.
    static func describeWithoutPlace<Model: Encodable>(_ result: Result<Model, EasyBakeError>) -> String {
        guard case .failure(let error) = result else { return describe(result) }
        return BakingInitializerPropertyTests.withoutGuessedMisspelling(
            "failure \(error.code) \(error.path.map { "\($0)" } ?? "-") \(error.message)")
    }

    /// A result as text, the twins' names made the same.
    static func describe<Model: Encodable>(_ result: Result<Model, EasyBakeError>) -> String {
        switch result {
        case .success(let model): (try? BakingInitializerPropertyTests.json(model)) ?? "unencodable"
        case .failure(let error): "failure " + BakingInitializerPropertyTests.describe(error)
        }
    }

    /// The records at a path ending in `[*]`, a lone value standing for a
    /// one-element list, as XML reads one element.
    static func records(at each: String, in tree: Ingredients) -> [Ingredients] {
        let parent = String(each.dropLast(3))
        switch (try? tree.resolve(parent)) ?? nil {
        case .array(let elements)?: return Array(elements)
        case let value? where !value.isNull: return [value]
        default: return []
        }
    }
}
