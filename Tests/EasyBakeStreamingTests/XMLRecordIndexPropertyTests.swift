import EasyBake
import EasyBakeTestSupport
import EasyBakeXML
import Testing

/// Streamed XML records go straight from libxml2's callbacks into the
/// record's index (issue 29). That road must give what reading each record's
/// events gives (the road kept behind `readsRecordsNatively`) and what the
/// whole document's index gives for the same record: the same models, the
/// same errors — a malformed document's at the same line and column, a
/// bake's at the value's — and the same warnings of a lenient reading.
@Suite("Streamed XML records straight into the index agree with their events and the whole document")
struct XMLRecordIndexPropertyTests {
    typealias Probe = StreamingPropertyTests.Probe

    /// One way of streaming: the results, and the source's warnings after.
    struct Streamed {
        var results: [Result<Probe, EasyBakeError>]
        var warnings: [String]
    }

    static func stream(
        _ input: IngredientInput, options: XMLReadingOptions, each: IngredientPath, recipe: Recipe,
        materialization: Baker.RecordMaterialization, natively: Bool, jobs: Int = 1
    ) throws -> Streamed {
        let source = try XMLIngredientSource(input, options: options)
        source.readsRecordsNatively = natively
        let results: [Result<Probe, EasyBakeError>] =
            jobs == 1
            ? Array(
                try Baker().bakeEach(
                    Probe.self, from: source, each: each.description, recipe: recipe, materialization: materialization))
            : Array(
                try Baker().bakeEach(
                    Probe.self, from: source, each: each.description, recipe: recipe, materialization: materialization,
                    jobs: jobs))
        // Copies of a source share its parser: the copy the stream read
        // reports its repairs here.
        return Streamed(results: results, warnings: source.warnings.map(\.description))
    }

    /// A result as text, with the error's place.
    static func describe(_ result: Result<Probe, EasyBakeError>) -> String {
        switch result {
        case .success(let probe): "\(probe)"
        case .failure(let error):
            "\(error.code) \(error.message) at \(error.path?.description ?? "") \(RecordRoads.place(error.location))"
        }
    }

    /// A random tree made richer for XML: attributes, empty values (the
    /// empty marker) and long texts that spread records over several of
    /// the slices libxml2 is fed.
    static func decorate(_ value: Ingredients, using random: inout SeededGenerator) -> Ingredients {
        switch value {
        case .dictionary(let dictionary):
            var entries: [(String, Ingredients)] = []
            for (key, member) in dictionary {
                if case .string = member, Int.random(in: 0..<4, using: &random) == 0 {
                    entries.append(("@" + key, member))
                } else {
                    entries.append((key, decorate(member, using: &random)))
                }
            }
            if Int.random(in: 0..<6, using: &random) == 0 {
                let empties: [Ingredients] = [
                    .array(IngredientArray([])), .dictionary(IngredientDictionary(uniqueEntries: [])), .string(""),
                ]
                entries.append(("e", empties.randomElement(using: &random)!))
            }
            return .dictionary(IngredientDictionary(uniqueEntries: ContiguousArray(entries)))
        case .array(let elements):
            return .array(IngredientArray(elements.map { decorate($0, using: &random) }))
        case .string(let text) where Int.random(in: 0..<3, using: &random) == 0:
            return .string(String(repeating: text + " ", count: Int.random(in: 1...60, using: &random)))
        default:
            return value
        }
    }

    /// The written document, changed at random: cut short, given a bare
    /// `&`, mixed text or a comment after a random tag.
    static func mutate(_ bytes: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
        let tagEnds = bytes.indices.filter { bytes[$0] == UInt8(ascii: ">") }
        guard let at = tagEnds.randomElement(using: &random).map({ $0 + 1 }) else { return bytes }
        var changed = bytes
        switch Int.random(in: 0..<8, using: &random) {
        case 0: changed = Array(bytes.prefix(Int.random(in: bytes.count / 2..<bytes.count, using: &random)))
        case 1: changed.insert(contentsOf: Array("a & b".utf8), at: at)
        case 2: changed.insert(contentsOf: Array(" t ".utf8), at: at)
        case 3: changed.insert(contentsOf: Array("<!-- c -->&amp;&nbsp;".utf8), at: at)
        default: break
        }
        return changed
    }

    static func options(using random: inout SeededGenerator) -> XMLReadingOptions {
        var options = XMLReadingOptions()
        options.lenientReferences = Bool.random(using: &random)
        options.trimsText = Bool.random(using: &random)
        if Int.random(in: 0..<5, using: &random) == 0 { options.markupElements = ["b"] }
        if Int.random(in: 0..<6, using: &random) == 0 {
            options.limits.maximumNodes = Int.random(in: 1...40, using: &random)
        }
        if Int.random(in: 0..<6, using: &random) == 0 {
            options.limits.maximumDepth = Int.random(in: 3...7, using: &random)
        }
        return options
    }

    @Test("random documents, record paths and recipes stream alike on every road")
    func roads() throws {
        var random = SeededGenerator(seed: 0x0A1D_2900)
        var compared = 0, bakeErrors = 0, sourceErrors = 0, warned = 0, wholeCompared = 0
        for _ in 0..<300 {
            let tree = Self.decorate(RandomTrees.tree(depth: 5, using: &random, xmlFriendly: true), using: &random)
            guard let written = try? XMLFormat().write(tree, options: .init(rootName: "root")) else { continue }
            let bytes = Self.mutate(written, using: &random)
            let input = IngredientInput.bytes(bytes, name: "random.xml")
            let options = Self.options(using: &random)
            guard let read = try? XMLFormat().read(.bytes(written)) else { continue }
            let each = RandomTrees.recordPath(in: read, using: &random)
            guard let recipe = RandomTrees.probeRecipe(forRecordsAt: each, in: read, using: &random) else { continue }
            let context = "\(each) in \(String(decoding: bytes, as: UTF8.self)) with \(options)"

            // The whole document, read once into an index.
            var wholeIndex = IngredientIndex()
            let wholeRead = Result { () throws(EasyBakeError) in
                try XMLFormat(options: options).readIndexReporting(input, into: &wholeIndex)
            }

            // A record read pruned through its events counts only the nodes
            // kept against the node limit; straight into the index it is
            // read whole, and counts whole (see `nodeLimitCountsWholeRecords`).
            let materializations: [Baker.RecordMaterialization] =
                options.limits.maximumNodes == IngredientLimits.default.maximumNodes
                ? [.automatic, .wholeRecords, .recipePaths] : [.wholeRecords]
            for materialization in materializations {
                let native = try Self.stream(
                    input, options: options, each: each, recipe: recipe, materialization: materialization,
                    natively: true)
                let events = try Self.stream(
                    input, options: options, each: each, recipe: recipe, materialization: materialization,
                    natively: false)
                #expect(native.warnings == events.warnings, "\(materialization): \(context)")
                if !native.warnings.isEmpty { warned += 1 }
                #expect(native.results.count == events.results.count, "\(materialization): \(context)")
                for (number, (a, b)) in zip(native.results, events.results).enumerated() {
                    switch (a, b) {
                    case (.success(let x), .success(let y)):
                        #expect(x == y, "record \(number), \(materialization): \(context)")
                    case (.failure(let x), .failure(let y)):
                        #expect(x.code == y.code, "\(x) against \(y), \(materialization): \(context)")
                        #expect(x.path == y.path, "\(x) against \(y): \(context)")
                        #expect(x.baking?.property == y.baking?.property, "\(x) against \(y): \(context)")
                        if x.baking == nil {
                            // The source's error: the same, at the same line and column.
                            sourceErrors += 1
                            #expect(x.message == y.message, "\(materialization): \(context)")
                            #expect(
                                RecordRoads.place(x.location) == RecordRoads.place(y.location),
                                "\(x) against \(y): \(context)")
                        } else {
                            // A bake's error: the event road names the record's
                            // place, the index road the value's. A record read
                            // pruned through events describes itself pruned in
                            // an error about the record as a whole.
                            bakeErrors += 1
                            if materialization == .wholeRecords || x.baking?.property != "" {
                                #expect(x.message == y.message, "\(materialization): \(context)")
                                #expect(x.baking == y.baking, "\(materialization): \(context)")
                            }
                        }
                    default:
                        Issue.record(
                            "record \(number), \(materialization): natively \(a), through events \(b); \(context)")
                    }
                }
                // Several jobs give what one does.
                let parallel = try Self.stream(
                    input, options: options, each: each, recipe: recipe, materialization: materialization,
                    natively: true, jobs: 2)
                #expect(
                    parallel.results.map(Self.describe) == native.results.map(Self.describe),
                    "jobs 2, \(materialization): \(context)")

                // The whole document: its error is the stream's last, its
                // records' bakes are the stream's (the node limit counts the
                // whole document there, each record here).
                guard materialization == .wholeRecords,
                    options.limits.maximumNodes == IngredientLimits.default.maximumNodes
                else { continue }
                switch wholeRead {
                case .failure(let error):
                    // The stream reads the whole document too, and ends with its error.
                    guard case .failure(let last)? = native.results.last else {
                        Issue.record("the stream did not fail where the document did (\(error)): \(context)")
                        continue
                    }
                    #expect(
                        last.code == error.code && last.message == error.message, "\(last) against \(error): \(context)"
                    )
                    #expect(
                        RecordRoads.place(last.location) == RecordRoads.place(error.location),
                        "\(last) against \(error): \(context)")
                case .success(let repairs):
                    #expect(repairs.map { $0.description } == native.warnings, "\(context)")
                    guard
                        let whole = RecordRoads.wholeDocumentResults(
                            Probe.self, from: &wholeIndex, each: each, recipe: recipe)
                    else { continue }
                    if RandomTrees.matchesNothing(each, in: read, elements: true) { continue }
                    #expect(whole.count == native.results.count, "\(context)")
                    for (number, (streamed, alone)) in zip(native.results, whole).enumerated() {
                        let mismatch = RecordRoads.mismatch(streamed: streamed, whole: alone, number: number) {
                            "\($0)"
                        }
                        #expect(mismatch == nil, "\(mismatch ?? ""): \(context)")
                    }
                    wholeCompared += 1
                }
            }
            compared += 1
        }
        #expect(compared > 200)
        #expect(wholeCompared > 100)
        #expect(bakeErrors > 20, "the generator should provoke bake errors")
        #expect(sourceErrors > 20, "the generator should provoke errors of the source")
        #expect(warned > 10, "the generator should provoke lenient repairs")
    }
}
