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
// strictly.

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
        exerciseLenient(input, options: options, strict: nil)
        return 0
    }
    exerciseLenient(input, options: options, strict: document.tree)
    let tree = document.tree
    exerciseBaking(tree, document: document)
    exerciseIndex(input, format: format, tree: tree)
    requireRoundTrip(tree, through: format, writings: [WritingOptions(), WritingOptions(prettyPrinted: true)])
    exerciseMarkup(input, options: options, tree: tree)
    return 0
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
            fuzzFailure("the lenient roads warn differently: \(indexWarnings.map(\.message)) and \(warnings.map(\.message))")
        }
    } catch {
        fuzzFailure("the lenient index refused what lenient events read: \(error)")
    }
    requireRoundTrip(tree, through: XMLFormat(options: options), writings: [WritingOptions()])
}
