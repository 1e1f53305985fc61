import EasyBake
import Foundation

// Shared by every fuzz target: a fixed model and recipes to bake from any
// tree, the checks that must hold for any input, and a trap that prints why.
//
// Errors thrown by EasyBake are expected for most inputs and are not
// findings; a crash, a hang, unbounded memory or a failed check is.

/// Stops the run with a message; libFuzzer saves the input as a crash.
public func fuzzFailure(_ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) -> Never {
    FileHandle.standardError.write(Data(("FUZZ CHECK FAILED: " + message() + "\n").utf8))
    fatalError("fuzz check failed", file: file, line: line)
}

/// Traps unless `read` equals `original` by the library's own tree equality.
public func requireSame(_ original: Ingredients, _ read: Ingredients, _ what: String, output: [UInt8]) {
    guard original == read else {
        let differences = original.difference(to: read).prefix(5).map(\.description).joined(separator: "\n  ")
        fuzzFailure(
            """
            \(what): the writer's output reads back to another tree
              \(differences)
            output: \(String(decoding: output.prefix(2000), as: UTF8.self).debugDescription)
            """)
    }
}

/// Writes `tree` in `format` with each of `writings`, reads each output back
/// and traps unless the writer accepted the tree and its output reads back
/// to the same tree.
public func requireRoundTrip(
    _ tree: Ingredients, through format: some IngredientFormat, writings: [WritingOptions]
) {
    let name = format.name.uppercased()
    for writing in writings {
        let output: [UInt8]
        do {
            output = try format.write(tree, options: writing)
        } catch {
            // The XML writer refuses mixed content whose order the tree
            // does not know, rather than reorder it.
            if error.code == .invalidValue, error.message.contains("(mixed content)") { continue }
            fuzzFailure("the \(name) writer refused a tree the \(name) source read: \(error)")
        }
        do {
            requireSame(tree, try format.read(.bytes(output)), "\(name) \(writing)", output: output)
        } catch {
            fuzzFailure(
                "the \(name) writer's output does not read: \(error)\noutput: \(String(decoding: output, as: UTF8.self).debugDescription)"
            )
        }
    }
}

/// A model with a property of every kind baking coerces into. Every property
/// is optional so that baking succeeds on many trees and goes on to
/// decomposing, while a value of the wrong type still fails.
public struct Probe: Codable, Sendable {
    public struct Child: Codable, Sendable {
        var name: String?
        var value: Double?
        var tags: [String]?
    }
    var id: Int64?
    var name: String?
    var count: Int8?
    var ratio: Double?
    var amount: Decimal?
    var flag: Bool?
    var when: Date?
    var since: Date?
    var link: URL?
    var uuid: UUID?
    var blob: Data?
    var tags: [String]?
    var role: String?
    var items: [Child]?
    var firstItem: Child?
    var itemIDs: [UInt16]?
    var deep: String?
    var unread: Int?
}

/// A model for array roots.
public struct ArrayProbe: Codable, Sendable {
    var first: Probe.Child?
    var last: String?
    var names: [String]?
    var second: [Int]?
}

/// The fixed recipes, built once.
public enum FuzzRecipes {
    public static let child: Recipe = try! Recipe(
        mapping: ["name": "name", "value": "value", "tags": "tags"],
        transformers: ["tags": .spec(["trim", ["split": ","]])])

    public static let probe: Recipe = try! Recipe(
        name: "Probe",
        mapping: [
            "id": "id", "name": "name", "count": "count", "ratio": "ratio", "amount": "amount",
            "flag": "flag", "when": "when", "since": "since", "link": "link", "uuid": "uuid",
            "blob": "blob", "tags": "tags", "role": "role", "items": "items", "firstItem": "items[0]",
            "itemIDs": "items[*].id", "deep": #"a.b[-1]["c.d"]"#, "unread": "unread_messages",
        ],
        transformers: [
            "when": "iso8601", "since": .spec(["date": "yyyy-MM-dd"]), "link": .spec(["url": "https://example.com/"]),
            "role": .spec(["lookup": ["A": "admin", "U": "user"]]), "name": .spec(["trim", "lowercase"]),
        ],
        nested: ["items": child, "firstItem": child],
        defaults: ["role": "user"])

    public static let arrayProbe: Recipe = try! Recipe(
        mapping: ["first": "[0]", "last": "[-1].name", "names": "[*].name", "second": "[1]"],
        nested: ["first": child])
}

/// Bakes the fixed models from `tree` in every mode, decomposes what baked,
/// and checks that what decomposing gives bakes again. Baking errors are
/// expected; they are rendered (and located in `document`) to exercise that
/// code too.
public func exerciseBaking(_ tree: Ingredients, document: Document?) {
    var candidates = [tree]
    // XML trees hold the root element's content under its name.
    if case .dictionary(let top) = tree, top.count == 1, let only = top.values.first { candidates.append(only) }
    for candidate in candidates {
        // Every coercion policy, and lossy baking: none may crash, and what
        // bakes decomposes and bakes again.
        for (lossy, coercions) in [
            (false, Baker.CoercionPolicy.declaredTypes), (true, .declaredTypes), (false, .none),
            (true, .everywhere),
        ] {
            let baker = Baker(
                options: .init(
                    lossyArrays: lossy, missingValues: lossy ? .emptyValue : .error, coercions: coercions))
            do {
                let result = try baker.bakeReporting(Probe.self, from: candidate, recipe: FuzzRecipes.probe)
                for warning in result.warnings { _ = warning.description }
                let decomposed = try baker.decompose(result.value, recipe: FuzzRecipes.probe)
                _ = try baker.bake(Probe.self, from: decomposed, recipe: FuzzRecipes.probe)
            } catch {
                render(error, document: document)
            }
            do {
                _ = try baker.bake(ArrayProbe.self, from: candidate, recipe: FuzzRecipes.arrayProbe)
            } catch {
                render(error, document: document)
            }
            // Implicit key matching, no recipe.
            do { _ = try baker.bake(Probe.Child.self, from: candidate) } catch { render(error, document: document) }
        }
    }
    // Paths and tree operations that must not crash on any tree.
    for path in ["items[*].id", "[0]", "a.b[-1]", "[*][*]"] { _ = try? tree.resolve(path) }
    var hasher = Hasher()
    tree.hash(into: &hasher)
    _ = hasher.finalize()
    _ = tree.difference(to: tree.merging(["fuzz": 1]))
}

/// Renders an error and, when there is a document, locates its path in it.
public func render(_ error: EasyBakeError, document: Document?) {
    if let document { _ = document.locating(error).description } else { _ = error.description }
}

/// Reads every event of a fresh source and skips every other top-level
/// value, as streaming consumers do; errors are fine.
public func exerciseStreaming(_ makeSource: () throws(EasyBakeError) -> any IngredientSource) {
    do {
        var source = try makeSource()
        var events = 0
        while let event = try source.next() {
            events += 1
            if case .key = event, events % 2 == 0 { try source.skipValue() }
            _ = source.location
        }
    } catch {
        _ = error.description
    }
}

/// Records baked by four jobs, on any input, valid or not: exactly what one
/// job bakes, in order, errors and their positions included — the road
/// where the jobs read records the source left unread
/// (`IngredientSource.deferValue`), found by counting brackets.
public func exerciseJobs(
    paths: [String] = ["items[*]", "[*]"], jobs: Int = 4,
    _ makeSource: () throws(EasyBakeError) -> any IngredientSource
) {
    func describe(_ result: Result<Probe.Child, EasyBakeError>) -> String {
        switch result {
        case .success(let child): outcome { () throws(EasyBakeError) in child }
        case .failure(let error):
            "error \(error.code) \(error.message) at \(error.location.map { "\($0.line):\($0.column)" } ?? "-")"
        }
    }
    for each in paths {
        func bake(jobs: Int) -> [String] {
            do {
                var results: [String] = []
                try Baker().bakeEach(
                    Probe.Child.self, from: AnyIngredientSource(try makeSource()), each: each,
                    recipe: FuzzRecipes.child,
                    jobs: jobs
                ) { results.append(describe($0)) }
                return results
            } catch {
                return ["thrown \(error)"]
            }
        }
        // As many jobs as the format needs for the jobs to read what the
        // reader leaves (JSON: four, XML and YAML: two).
        let one = bake(jobs: 1), several = bake(jobs: jobs)
        guard one == several else {
            fuzzFailure(
                "\(each): one job gave \(one.count) results, \(jobs) jobs \(several.count); first difference: "
                    + "\(zip(one, several).first { $0 != $1 }.map { "\($0) vs \($1)" } ?? "in the count")")
        }
    }
}

/// The fast core against the tree, on an input the format read as `tree`:
/// the index read from the bytes holds the same tree, models baked straight
/// from the bytes are those baked from the tree (or fail with the same code
/// at the same path), and records streamed pruned to a recipe's paths bake
/// as the whole records do.
public func exerciseIndex(_ input: IngredientInput, format: some IngredientFormat, tree: Ingredients) {
    let name = format.name.uppercased()
    var index = IngredientIndex()
    do {
        try format.readIndex(input, into: &index)
        requireSame(tree, treeOf(index, at: 0), "\(name) index", output: [])
    } catch {
        fuzzFailure("the \(name) index refused what its source read as a tree: \(error)")
    }
    let fromBytes = outcome { () throws(EasyBakeError) in
        try Baker().bake(Probe.self, from: input, format: format, recipe: FuzzRecipes.probe)
    }
    let fromTree = outcome { () throws(EasyBakeError) in
        try Baker().bake(Probe.self, from: tree, recipe: FuzzRecipes.probe)
    }
    guard sameOutcome(fromBytes, fromTree) else {
        fuzzFailure("\(name): baking from the bytes gave \(fromBytes), from the tree \(fromTree)")
    }
    // With no coercion at all, the two roads agree too.
    let strict = Baker(options: .init(coercions: .none))
    let strictFromBytes = outcome { () throws(EasyBakeError) in
        try strict.bake(Probe.self, from: input, format: format, recipe: FuzzRecipes.probe)
    }
    let strictFromTree = outcome { () throws(EasyBakeError) in
        try strict.bake(Probe.self, from: tree, recipe: FuzzRecipes.probe)
    }
    guard sameOutcome(strictFromBytes, strictFromTree) else {
        fuzzFailure(
            "\(name), coercions none: baking from the bytes gave \(strictFromBytes), from the tree \(strictFromTree)")
    }
    // Records pruned to the child recipe's paths, against the tree's records.
    guard let records = tree.resolve(try! IngredientPath(parsing: "items[*]"))?.arrayValue else { return }
    // A streamed record's error names the record's path before its own:
    // `items[n]` for an array's element, `items.key` for a dictionary's
    // value (`[*]` over a dictionary that is no XML element).
    let recordSteps: [IngredientPath.Step] =
        switch tree.resolve(try! IngredientPath(parsing: "items")) {
        case .dictionary(let dictionary)? where !dictionary.isElement: dictionary.keys.map { .key($0) }
        default: records.indices.map { .index($0) }
        }
    let expected = zip(records, recordSteps).map { record, step in
        outcome(at: IngredientPath([.key("items"), step])) { () throws(EasyBakeError) in
            try Baker().bake(Probe.Child.self, from: record, recipe: FuzzRecipes.child)
        }
    }
    do {
        let streamed = try Baker().bakeEach(
            Probe.Child.self, from: AnyIngredientSource(try format.makeSource(for: input)), each: "items[*]",
            recipe: FuzzRecipes.child, materialization: .recipePaths)
        let got = streamed.map { result in outcome { () throws(EasyBakeError) in try result.get() } }
        guard got.count == expected.count else {
            fuzzFailure("\(name): streaming found \(got.count) records, the tree \(expected.count)")
        }
        for (a, b) in zip(got, expected) where a != b {
            fuzzFailure("\(name): a streamed record gave \(a), the tree's \(b)")
        }
    } catch {
        fuzzFailure("\(name): streaming refused what the tree read: \(error)")
    }
}

/// The tree an index holds, read through its public API alone.
public func treeOf(_ index: IngredientIndex, at position: Int) -> Ingredients {
    switch index.kind(at: position) {
    case .array:
        var elements: [Ingredients] = []
        var element = position + 1
        while element < index.end(of: position) {
            elements.append(treeOf(index, at: element))
            element = index.end(of: element)
        }
        return .array(elements)
    case .dictionary:
        var members: [(String, Ingredients)] = []
        var key = position + 1
        while key < index.end(of: position) {
            members.append((index.string(at: key) ?? "", treeOf(index, at: key + 1)))
            key = index.end(of: key + 1)
        }
        return .dictionary(IngredientDictionary(members))
    default:
        return index.scalar(at: position) ?? .null
    }
}

/// A baked model as its sorted JSON, or its error's code and path: what two
/// ways of baking must agree on.
/// Whether two outcomes are the same model or the same error. A `String`
/// baked from a number is its literal from the bytes (`1e2`) and its value's
/// text from a tree (`100.0`), which holds values only: two such strings of
/// the same number are the same.
func sameOutcome(_ a: String, _ b: String) -> Bool {
    if a == b { return true }
    guard let left = try? JSONSerialization.jsonObject(with: Data(a.utf8)),
        let right = try? JSONSerialization.jsonObject(with: Data(b.utf8))
    else { return false }
    func same(_ x: Any, _ y: Any) -> Bool {
        switch (x, y) {
        case let (x as [String: Any], y as [String: Any]):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { same(value, $0) } ?? false }
        case let (x as [Any], y as [Any]):
            return x.count == y.count && zip(x, y).allSatisfy(same)
        case let (x as String, y as String):
            return x == y || (Double(x).map { number in Double(y) == number } ?? false)
        default:
            return (x as? NSObject) == (y as? NSObject)
        }
    }
    return same(left, right)
}

func outcome<Model: Encodable>(at record: IngredientPath? = nil, _ bake: () throws(EasyBakeError) -> Model) -> String {
    do {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        return String(decoding: try encoder.encode(try bake()), as: UTF8.self)
    } catch let error as EasyBakeError {
        let path = record.map { $0.appending(error.path ?? IngredientPath()) } ?? error.path
        return "error \(error.code) at \(path?.description ?? "")"
    } catch {
        return "error \(error)"
    }
}
