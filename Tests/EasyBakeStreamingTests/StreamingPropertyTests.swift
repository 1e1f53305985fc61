import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import EasyBakeXML
import EasyBakeYAML
import Testing

/// Streaming must answer exactly what the tree answers. Random trees are
/// written as JSON, XML and YAML; each is read back both ways, and random
/// paths, record paths and recipes must agree — values and errors alike.
@Suite("Streaming agrees with the tree")
struct StreamingPropertyTests {
    static let formats: [(name: String, format: any IngredientFormat, options: WritingOptions)] = [
        ("json", JSONFormat(), .init()),
        ("xml", XMLFormat(), .init(rootName: "root")),
        ("yaml", YAMLFormat(), .init()),
    ]

    /// A random tree written in the format and read back: the input and the
    /// tree that streaming must agree with. `nil` for a tree the format's
    /// writer cannot express (draw again).
    static func payload(_ formatIndex: Int, using random: inout SeededGenerator) throws -> (
        IngredientInput, Ingredients
    )? {
        let (name, format, options) = formats[formatIndex]
        let written = RandomTrees.tree(depth: 4, using: &random, xmlFriendly: name == "xml")
        guard let bytes = try? format.write(written, options: options) else { return nil }
        let input = IngredientInput.bytes(bytes, name: "random.\(name)")
        return (input, try format.read(input))
    }

    @Test("random paths resolve alike", arguments: 0..<3)
    func paths(formatIndex: Int) throws {
        let (name, format, _) = Self.formats[formatIndex]
        var random = SeededGenerator(seed: 0xEA5B_0000 + UInt64(formatIndex))
        var checked = 0
        for _ in 0..<250 {
            guard let (input, tree) = try Self.payload(formatIndex, using: &random) else { continue }
            var paths = (0..<6).map { _ in RandomTrees.path(in: tree, using: &random) }
            paths.append(.root)
            let matcher = PathMatcher(paths)
            var source = try format.makeSource(for: input)
            let resolution = try matcher.resolve(from: &source)
            for (index, path) in paths.enumerated() {
                #expect(resolution.values[index] == tree.resolve(path), "\(name) path \(path) in \(tree)")
            }
            var pruningSource = try format.makeSource(for: input)
            let pruned = try #require(try matcher.read(from: &pruningSource))
            for path in paths {
                #expect(pruned.resolve(path) == tree.resolve(path), "\(name) pruned path \(path) in \(tree)")
            }
            // Pruned into an index (JSON straight from its bytes), without
            // the root path, which would keep everything.
            paths.removeLast()
            let picking = PathMatcher(paths)
            var indexingSource = try format.makeSource(for: input)
            let first = try #require(try indexingSource.next())
            var index = IngredientIndex()
            try indexingSource.readValue(startingWith: first, into: &index, keeping: picking)
            let indexed = try Ingredients(index: index, at: 0)
            for path in paths {
                #expect(indexed.resolve(path) == tree.resolve(path), "\(name) indexed pruned path \(path) in \(tree)")
            }
            checked += 1
        }
        #expect(checked > 150)
    }

    @Test("random record paths find the same records", arguments: 0..<3)
    func records(formatIndex: Int) throws {
        let (name, format, _) = Self.formats[formatIndex]
        var random = SeededGenerator(seed: 0x5EC0_0000 + UInt64(formatIndex))
        var checked = 0
        for _ in 0..<250 {
            guard let (input, tree) = try Self.payload(formatIndex, using: &random) else { continue }
            let each = RandomTrees.recordPath(in: tree, using: &random)
            let keep = (0..<2).map { _ in
                RandomTrees.path(in: tree.resolve(each)?.arrayValue?.first ?? .null, using: &random)
            }
            let expected = RandomTrees.values(at: each.steps[...], in: tree)

            var reader = try RecordReader(source: AnyIngredientSource(try format.makeSource(for: input)), each: each)
            if RandomTrees.matchesNothing(each, in: tree, elements: format.name == "xml") {
                // A record path that never reaches its records' parent is an error (issue 27).
                let error = #expect(throws: EasyBakeError.self) { while try reader.next() != nil {} }
                #expect(error?.code == .valueNotFound, "\(name) \(each) in \(tree)")
                checked += 1
                continue
            }
            var whole: [Ingredients] = []
            while let record = try reader.next() { whole.append(record.ingredients) }
            #expect(whole == expected, "\(name) records at \(each) in \(tree)")

            let matcher = PathMatcher(keep)
            var prunedReader = try RecordReader(
                source: AnyIngredientSource(try format.makeSource(for: input)), each: each, keeping: matcher)
            var pruned: [Ingredients] = []
            while let record = try prunedReader.next() { pruned.append(record.ingredients) }
            #expect(pruned.count == expected.count)
            for (record, full) in zip(pruned, expected) {
                for path in keep {
                    #expect(record.resolve(path) == full.resolve(path), "\(name) \(each) keeping \(path)")
                }
            }
            checked += 1
        }
        #expect(checked > 150)
    }

    /// Every property an optional String: scalars coerce, containers fail
    /// with a type mismatch — the same one both ways.
    struct Probe: Decodable, Equatable, Sendable {
        let p0: String?
        let p1: String?
        let p2: String?
    }

    /// A result as text: the model, or the error's code, message, path and place.
    static func describe(_ result: Result<Probe, EasyBakeError>) -> String {
        switch result {
        case .success(let probe): "\(probe)"
        case .failure(let error):
            "\(error.code) \(error.message) at \(error.path?.description ?? "") \(error.location?.line ?? 0):\(error.location?.column ?? 0)"
        }
    }

    @Test("random recipes bake alike, errors included", arguments: 0..<3)
    func baking(formatIndex: Int) throws {
        let (name, format, _) = Self.formats[formatIndex]
        var random = SeededGenerator(seed: 0xBA4E_0000 + UInt64(formatIndex))
        var compared = 0, failures = 0
        for _ in 0..<400 {
            guard let (input, tree) = try Self.payload(formatIndex, using: &random) else { continue }
            let each = RandomTrees.recordPath(in: tree, using: &random)
            guard let recipe = RandomTrees.probeRecipe(forRecordsAt: each, in: tree, using: &random) else { continue }
            let expected: [Result<Probe, EasyBakeError>] = RandomTrees.values(at: each.steps[...], in: tree).map {
                record in
                Result { () throws(EasyBakeError) -> Probe in try Baker().bake(Probe.self, from: record, recipe: recipe)
                }
            }
            let matchesNothing = RandomTrees.matchesNothing(each, in: tree, elements: format.name == "xml")
            for materialization in [Baker.RecordMaterialization.automatic, .wholeRecords, .recipePaths] {
                let streamed = Array(
                    try Baker().bakeEach(
                        Probe.self, from: AnyIngredientSource(try format.makeSource(for: input)),
                        each: each.description,
                        recipe: recipe, materialization: materialization))
                if matchesNothing {
                    // A record path that never reaches its records' parent fails the stream (issue 27).
                    guard streamed.count == 1, case .failure(let error) = streamed[0] else {
                        Issue.record("\(name) \(each): expected the no-records error, got \(streamed.count) results")
                        continue
                    }
                    #expect(error.code == .valueNotFound)
                    continue
                }
                #expect(streamed.count == expected.count, "\(name) \(each) \(materialization)")
                for (got, want) in zip(streamed, expected) {
                    switch (got, want) {
                    case (.success(let a), .success(let b)):
                        #expect(a == b)
                    case (.failure(let a), .failure(let b)):
                        failures += 1
                        #expect(a.code == b.code)
                        #expect(a.baking?.property == b.baking?.property)
                        #expect(a.baking?.expected == b.baking?.expected)
                        // A record read pruned describes itself as pruned in an
                        // error about the record as a whole (`{1 keys}`); every
                        // other error names the same value.
                        if materialization == .wholeRecords || a.baking?.property != "" {
                            #expect(a.baking == b.baking)
                            #expect(a.message.hasSuffix(b.message), "\(a.message) vs \(b.message)")
                        }
                    default:
                        Issue.record("\(name) \(each) \(materialization): streamed \(got), tree \(want)")
                    }
                }
            }
            // Several jobs bake exactly what one does, in the same order.
            let sequential = Array(
                try Baker().bakeEach(
                    Probe.self, from: AnyIngredientSource(try format.makeSource(for: input)), each: each.description,
                    recipe: recipe))
            for jobs in [2, 3] {
                let parallel = Array(
                    try Baker().bakeEach(
                        Probe.self, from: AnyIngredientSource(try format.makeSource(for: input)),
                        each: each.description,
                        recipe: recipe, jobs: jobs))
                #expect(parallel.map(Self.describe) == sequential.map(Self.describe), "\(name) \(each) jobs \(jobs)")
                var handedOut: [Result<Probe, EasyBakeError>] = []
                try Baker().bakeEach(
                    Probe.self, from: AnyIngredientSource(try format.makeSource(for: input)), each: each.description,
                    recipe: recipe, jobs: jobs
                ) { handedOut.append($0) }
                #expect(
                    handedOut.map(Self.describe) == sequential.map(Self.describe), "\(name) \(each) jobs \(jobs), body")
            }
            compared += 1
        }
        #expect(compared > 100)
        #expect(failures > 0, "the generator should provoke baking errors too")
    }
}

/// Random trees, paths and record paths for the property tests.
enum RandomTrees {
    static let keys = ["a", "b", "c", "d"]

    /// A random tree. XML-friendly trees have a dictionary root, string
    /// scalars, no empty containers and no arrays directly in arrays, which
    /// XML cannot express.
    static func tree(depth: Int, using random: inout SeededGenerator, xmlFriendly: Bool, inArray: Bool = false)
        -> Ingredients
    {
        let roll = Int.random(in: 0..<10, using: &random)
        if depth == 0 || (roll < 4 && !(xmlFriendly && depth == 4)) {
            return scalar(using: &random, xmlFriendly: xmlFriendly)
        }
        if roll < 7 || (xmlFriendly && (inArray || depth == 4)) {
            var entries: [(String, Ingredients)] = []
            for key in keys.shuffled(using: &random).prefix(Int.random(in: (xmlFriendly ? 1 : 0)...3, using: &random)) {
                entries.append((key, tree(depth: depth - 1, using: &random, xmlFriendly: xmlFriendly)))
            }
            return .dictionary(IngredientDictionary(uniqueEntries: ContiguousArray(entries)))
        }
        let count = Int.random(in: (xmlFriendly ? 2 : 0)...4, using: &random)
        return .array(
            IngredientArray(
                (0..<count).map { _ in
                    tree(depth: depth - 1, using: &random, xmlFriendly: xmlFriendly, inArray: true)
                }))
    }

    static func scalar(using random: inout SeededGenerator, xmlFriendly: Bool) -> Ingredients {
        if xmlFriendly { return .string(["x", "7", "y z", "true"].randomElement(using: &random)!) }
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .integer(Int64.random(in: -5...99, using: &random))
        case 3: return .float(0.5)
        default: return .string(["x", "7", "y z"].randomElement(using: &random)!)
        }
    }

    /// A path that mostly follows the tree, sometimes strays from it.
    static func path(in tree: Ingredients, using random: inout SeededGenerator) -> IngredientPath {
        var steps: [IngredientPath.Step] = []
        var current: Ingredients? = tree
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            let stray = Int.random(in: 0..<5, using: &random) == 0
            switch current {
            case .dictionary(let dictionary)? where !stray && !dictionary.isEmpty:
                let key = dictionary.keys.randomElement(using: &random)!
                if Int.random(in: 0..<4, using: &random) == 0 {
                    // `[*]` over a dictionary: its values, or itself when it is an element.
                    steps.append(.everyElement)
                    current =
                        dictionary.isElement ? dictionary[key].map { _ in .dictionary(dictionary) } : dictionary[key]
                } else {
                    steps.append(.key(key))
                    current = dictionary[key]
                }
            case .array(let array)? where !stray:
                let step: IngredientPath.Step =
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: .everyElement
                    case 1: .index(-1)
                    default: .index(Int.random(in: 0...max(0, array.count), using: &random))
                    }
                steps.append(step)
                current = array.first
            default:
                let step: IngredientPath.Step =
                    Bool.random(using: &random)
                    ? .key(keys.randomElement(using: &random)!)
                    : [.index(0), .everyElement, .index(-1)].randomElement(using: &random)!
                steps.append(step)
                current = nil
            }
        }
        return IngredientPath(steps)
    }

    /// A recipe of three paths into the first record at `each`, for
    /// ``StreamingPropertyTests/Probe``; `nil` when the paths disagree on a
    /// value's shape, which makes no recipe (draw again).
    static func probeRecipe(
        forRecordsAt each: IngredientPath, in tree: Ingredients, using random: inout SeededGenerator
    ) -> Recipe? {
        let sample = tree.resolve(each)?.arrayValue?.first ?? .null
        return try? Recipe(
            name: "Probe", orderedMapping: (0..<3).map { ("p\($0)", path(in: sample, using: &random).description) })
    }

    /// A path to records: an array in the tree (if any) with `[*]`.
    static func recordPath(in tree: Ingredients, using random: inout SeededGenerator) -> IngredientPath {
        var candidates: [IngredientPath] = []
        var pending: [(IngredientPath, Ingredients)] = [(.root, tree)]
        while let (path, value) = pending.popLast() {
            switch value {
            case .dictionary(let dictionary):
                for (key, child) in dictionary { pending.append((path.appending(key: key), child)) }
                // `[*]` over a dictionary: its values are records (one, when it is an element).
                candidates.append(path.appending(.everyElement))
            case .array(let array):
                candidates.append(path.appending(.everyElement))
                if let first = array.first { pending.append((path.appending(.everyElement), first)) }
            default: break
            }
        }
        return candidates.randomElement(using: &random) ?? IngredientPath([.key("a"), .everyElement])
    }

    /// Whether a record path never reaches the value its records would be
    /// in — the record reader's error — as the tree tells it; in XML the
    /// element around a repeated one (`rss.channel` for `rss.channel.item[*]`).
    static func matchesNothing(_ each: IngredientPath, in tree: Ingredients, elements: Bool) -> Bool {
        var parent = Array(each.steps.dropLast())
        if elements, each.steps.last == .everyElement, case .key? = parent.last { parent.removeLast() }
        return values(at: parent[...], in: tree).isEmpty
    }

    /// The values a record path visits, flattened, in order.
    static func values(at steps: ArraySlice<IngredientPath.Step>, in value: Ingredients) -> [Ingredients] {
        guard let step = steps.first else { return [value] }
        let rest = steps.dropFirst()
        switch step {
        case .key, .index:
            guard let next = value.resolve(IngredientPath([step])) else { return [] }
            return values(at: rest, in: next)
        case .everyElement:
            switch value {
            case .array(let array): return array.flatMap { values(at: rest, in: $0) }
            case .dictionary(let dictionary) where !dictionary.isElement:
                return dictionary.values.flatMap { values(at: rest, in: $0) }
            case .null: return []
            default: return values(at: rest, in: value)
            }
        }
    }
}
