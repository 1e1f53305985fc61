import EasyBake
import EasyBakeYAML
import Foundation
import FuzzSupport

// YAML: read (first document, and every document), bake, stream, write,
// read back. "Same" is the library's tree equality: the writer quotes any
// string that would read back as another type and writes numbers that read
// back as the same ingredient, so a tree the core-schema source read must
// come back equal. Records streamed through the native scanner are those
// libyaml's events give, errors and places included.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAML(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let input = IngredientInput.bytes(bytes, name: "fuzz.yaml")
    var options = YAMLReadingOptions()
    options.limits.maximumExpansion = 100_000
    let format = YAMLFormat(options: options)
    exerciseStreaming { () throws(EasyBakeError) in try format.makeSource(for: input) }
    exerciseNativeRecords(input, options: options)
    // Two jobs index the records the native scanner leaves to them.
    var recordPaths = ["[*]"]
    if case .dictionary(let top)? = try? format.read(input) {
        recordPaths += top.keys.prefix(4).map { IngredientPath([.key($0), .everyElement]).description }
    }
    exerciseJobs(paths: recordPaths, jobs: 2) { () throws(EasyBakeError) in try format.makeSource(for: input) }
    _ = try? format.readDocuments(input)
    let document: Document
    do {
        document = try Document(reading: input, format: format)
    } catch {
        render(error, document: nil)
        return 0
    }
    let tree = document.tree
    exerciseBaking(tree, document: document)
    exerciseIndex(input, format: format, tree: tree)
    requireRoundTrip(
        tree, through: format, writings: [WritingOptions(), WritingOptions(sortedKeys: true, indentWidth: 4)])
    return 0
}

/// Bakes the records at `[*]`, at each top-level key's `[*]` and at `[*]`
/// over every document with `bakeEach`, which reads them through the native
/// scanner where it can, and reads them through libyaml's events as trees
/// (`RecordReader.next()`) baked one by one: the same models, or failures
/// with the same code at the same path, and the same error where the
/// input is wrong.
private func exerciseNativeRecords(_ input: IngredientInput, options: YAMLReadingOptions) {
    var paths: [(String, YAMLReadingOptions.Documents)] = [("[*]", .single), ("[*]", .all)]
    if case .dictionary(let top)? = try? YAMLFormat(options: options).read(input) {
        for key in top.keys.prefix(4) {
            paths.append((IngredientPath([.key(key), .everyElement]).description, .single))
        }
    }
    for (each, documents) in paths {
        var reading = options
        reading.documents = documents
        let native = bakedNatively(input, each: each, options: reading)
        let events = bakedThroughEvents(input, each: each, options: reading)
        guard native == events else {
            fuzzFailure(
                """
                YAML records at \(each) (documents \(documents)): bakeEach and the events' trees differ
                  bakeEach: \(native.prefix(8))
                  events:   \(events.prefix(8))
                """)
        }
    }
}

private let recordLimit = 500

private func bakedNatively(_ input: IngredientInput, each: String, options: YAMLReadingOptions) -> [String] {
    var described: [String] = []
    do {
        let source = try YAMLIngredientSource(input, options: options)
        var records = try Baker().bakeEach(
            Probe.self, from: source, each: each, recipe: FuzzRecipes.probe, materialization: .wholeRecords)
        while described.count < recordLimit {
            do {
                guard let model = try records.nextModel() else { break }
                described.append(encoded(model))
            } catch  where error.message.hasPrefix("record ") {
                // A record that did not bake; the stream goes on.
                described.append("failed \(error.code) at \(error.path?.description ?? "")")
            }
        }
    } catch {
        described.append(describeEnd(error))
    }
    return described
}

private func bakedThroughEvents(_ input: IngredientInput, each: String, options: YAMLReadingOptions) -> [String] {
    var described: [String] = []
    do {
        var reader = try RecordReader(source: try YAMLIngredientSource(input, options: options), each: each)
        while described.count < recordLimit, let record = try reader.next() {
            do {
                described.append(
                    encoded(try Baker().bake(Probe.self, from: record.ingredients, recipe: FuzzRecipes.probe)))
            } catch {
                described.append("failed \(error.code) at \(record.path.appending(error.path ?? IngredientPath()))")
            }
        }
    } catch {
        described.append(describeEnd(error))
    }
    return described
}

private func encoded(_ probe: Probe) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return (try? encoder.encode(probe)).map { String(decoding: $0, as: UTF8.self) } ?? "unencodable"
}

/// The error that ends the records: the input's, with its place.
private func describeEnd(_ error: EasyBakeError) -> String {
    let at = error.location
    return "error \(error.code) \(error.message) \(error.path?.description ?? "") \(at?.line ?? 0):\(at?.column ?? 0)"
}
