import EasyBake
import EasyBakeXML
import FuzzSupport

// XML: read, bake, stream, write, read back.
// "Same": a tree read from XML has a single root element as the single key
// of the top dictionary, so the writer needs no root name and the tree reads
// back equal by the library's tree equality. Mixed content is the one
// documented exception: the tree does not keep the order of text runs and
// child elements, so the writer refuses it (`invalidValue`) rather than
// reorder it — unless the element's markup was kept, which the target also
// reads (markupElements naming the elements of mixed content) and requires
// to round-trip. And it reads every input leniently (lenientReferences, a
// feed's bare & and HTML entities): the event road and the index road agree
// on the tree and on the warnings, a document that reads strictly reads the
// same with no warning, and what reads leniently writes and reads back
// strictly. Streamed records read straight from libxml2's callbacks into
// an index (the source's own road) are the records read through their
// events (the protocol's default), with the same error and warnings; and
// records parsed by two jobs, each its own, are what one job reads.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXML(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let input = IngredientInput.bytes(bytes, name: "fuzz.xml")
    var options = XMLReadingOptions()
    options.limits.maximumInputBytes = 1 << 20
    let format = XMLFormat(options: options)
    exerciseStreaming { () throws(EasyBakeError) in try format.makeSource(for: input) }
    let document: Document
    do {
        document = try Document(reading: input, format: format)
    } catch {
        render(error, document: nil)
        exerciseRecordRoads(input, options: options, tree: nil)
        exerciseLenient(input, options: options, strict: nil)
        return 0
    }
    exerciseRecordRoads(input, options: options, tree: document.tree)
    // Two jobs parse the records of each element under the root themselves.
    exerciseJobs(paths: recordPaths(in: document.tree), jobs: 2) { () throws(EasyBakeError) in
        try format.makeSource(for: input)
    }
    exerciseLenient(input, options: options, strict: document.tree)
    let tree = document.tree
    exerciseBaking(tree, document: document)
    exerciseIndex(input, format: format, tree: tree)
    requireRoundTrip(tree, through: format, writings: [WritingOptions(), WritingOptions(prettyPrinted: true)])
    exerciseMarkup(input, options: options, tree: tree)
    return 0
}

/// `root.child[*]` for each child element name of the root element.
private func recordPaths(in tree: Ingredients) -> [String] {
    guard case .dictionary(let top) = tree, let (root, value) = top.first, case .dictionary(let children) = value
    else { return [] }
    return children.filter { !$0.key.hasPrefix("@") && !$0.key.hasPrefix("#") && !$0.key.contains(".") }
        .prefix(3).map { "\(root).\($0.key)[*]" }
}

/// Reads the input again keeping the markup of every element name in it:
/// each captured element's markup reads back as its content did, its text
/// content is its text in order, and the tree writes and reads back whole.
private func exerciseMarkup(_ input: IngredientInput, options: XMLReadingOptions, tree: Ingredients) {
    var names = Set<String>()
    var pending = [tree]
    while let value = pending.popLast() {
        switch value {
        case .dictionary(let dictionary):
            for (key, member) in dictionary where !key.hasPrefix("@") && !key.hasPrefix("#") {
                names.insert(key)
                pending.append(member)
            }
        case .array(let elements): pending.append(contentsOf: elements)
        default: break
        }
    }
    guard !names.isEmpty else { return }
    var capturing = options
    capturing.markupElements = names
    let format = XMLFormat(options: capturing)
    let captured: Ingredients
    do {
        captured = try format.read(input)
    } catch {
        // Only the string limit may stop what read without capturing.
        guard error.code == .limitExceeded else { fuzzFailure("keeping markup failed where reading did not: \(error)") }
        return
    }
    requireRoundTrip(captured, through: format, writings: [WritingOptions()])
}

/// Reads the input with ``XMLReadingOptions/lenientReferences``, through
/// events and straight into an index: both give the same tree and the same
/// warnings, each warning with a line and column; a document the strict
/// reading read (`strict`) reads the same, with no warning; and the lenient
/// tree writes and reads back strictly (the writer escapes every `&`).
private func exerciseLenient(_ input: IngredientInput, options: XMLReadingOptions, strict: Ingredients?) {
    var lenient = options
    lenient.lenientReferences = true
    let format = XMLFormat(options: lenient)
    exerciseStreaming { () throws(EasyBakeError) in try format.makeSource(for: input) }
    let tree: Ingredients
    let warnings: [EasyBakeError]
    do {
        var source = try XMLIngredientSource(input, options: lenient)
        tree = try Ingredients(reading: &source)
        warnings = source.warnings
    } catch {
        _ = error.description
        if let strict { fuzzFailure("the lenient reading refused what the strict one read as \(strict): \(error)") }
        var index = IngredientIndex()
        if let read = try? format.readIndexReporting(input, into: &index) {
            fuzzFailure("the lenient index read what lenient events refused (\(error)), with \(read.count) warnings")
        }
        return
    }
    for warning in warnings {
        guard let location = warning.location, location.line >= 1, location.column >= 1 else {
            fuzzFailure("a lenient repair without its position: \(warning)")
        }
        _ = warning.description
    }
    if let strict {
        requireSame(strict, tree, "lenient reading of a well-formed document", output: [])
        guard warnings.isEmpty else { fuzzFailure("a well-formed document read with repairs: \(warnings[0])") }
    }
    var index = IngredientIndex()
    do {
        let indexWarnings = try format.readIndexReporting(input, into: &index)
        requireSame(tree, treeOf(index, at: 0), "lenient index", output: [])
        guard indexWarnings.map(\.description) == warnings.map(\.description) else {
            fuzzFailure(
                "the lenient roads warn differently: \(indexWarnings.map(\.message)) and \(warnings.map(\.message))")
        }
    } catch {
        fuzzFailure("the lenient index refused what lenient events read: \(error)")
    }
    requireRoundTrip(tree, through: XMLFormat(options: options), writings: [WritingOptions()])
}

/// The XML source with record reading left to the protocol's default: each
/// record read through its events into the index.
private struct ThroughEvents: IngredientSource {
    var base: XMLIngredientSource
    mutating func next() throws(EasyBakeError) -> IngredientEvent? { try base.next() }
    mutating func skipValue() throws(EasyBakeError) { try base.skipValue() }
    mutating func skipRestOfContainer() throws(EasyBakeError) { try base.skipRestOfContainer() }
    var location: SourceLocation { base.location }
    var duplicateKeyPolicy: DuplicateKeyPolicy { base.duplicateKeyPolicy }
    var limits: IngredientLimits { base.limits }
    var warnings: [EasyBakeError] { base.warnings }
    var traits: IngredientTraits { base.traits }
}

/// What streaming the records at a path gave: each record's tree, the
/// error that ended the stream, and the warnings of the reading.
private struct StreamedRecords {
    var records: [Ingredients] = []
    var error: String?
    var warnings: [String] = []
}

private func streamRecords<Source: IngredientSource>(_ source: Source, each: IngredientPath) -> StreamedRecords {
    var streamed = StreamedRecords()
    do {
        var reader = try RecordReader(source: source, each: each)
        var index = IngredientIndex()
        defer { streamed.warnings = reader.source.warnings.map(\.description) }
        do {
            while let record = try reader.nextRecord(reading: { (first, source) throws(EasyBakeError) in
                try source.readValue(startingWith: first, into: &index)
                return treeOf(index, at: 0)
            }) {
                streamed.records.append(record.value)
            }
        } catch {
            streamed.error =
                "\(error.code) \(error.message) at \(error.location.map { "\($0.line):\($0.column)" } ?? "-")"
        }
    } catch {
        streamed.error = "\(error.code) \(error.message)"
    }
    return streamed
}

/// Streams the records at the paths the document suggests (the document
/// itself, its root element's children), strictly and leniently, straight
/// into the index and through events: the same records, and the same
/// error and warnings. A stream that fails may have given more records on
/// one road (libxml2 is fed smaller slices once records are read
/// natively, and a slice's events are dropped when it fails): the records
/// both gave agree.
private func exerciseRecordRoads(_ input: IngredientInput, options: XMLReadingOptions, tree: Ingredients?) {
    var paths = [IngredientPath([.everyElement])]
    if case .dictionary(let top)? = tree, let (root, value) = top.first {
        paths.append(IngredientPath([.key(root), .everyElement]))
        if case .dictionary(let children) = value {
            for key in children.keys.prefix(3) { paths.append(IngredientPath([.key(root), .key(key), .everyElement])) }
        }
    }
    var lenient = options
    lenient.lenientReferences = true
    for options in [options, lenient] {
        for each in paths {
            guard let native = try? XMLIngredientSource(input, options: options),
                let events = try? XMLIngredientSource(input, options: options)
            else { return }
            let a = streamRecords(native, each: each)
            let b = streamRecords(ThroughEvents(base: events), each: each)
            guard a.error == b.error else {
                fuzzFailure(
                    "records at \(each): natively \(a.error ?? "no error"), through events \(b.error ?? "no error")")
            }
            if a.error == nil {
                guard a.records.count == b.records.count else {
                    fuzzFailure("records at \(each): \(a.records.count) natively, \(b.records.count) through events")
                }
                guard a.warnings == b.warnings else {
                    fuzzFailure("records at \(each) warn differently: \(a.warnings) and \(b.warnings)")
                }
            }
            for (x, y) in zip(a.records, b.records) {
                requireSame(y, x, "a record at \(each) read natively", output: [])
            }
        }
    }
}
