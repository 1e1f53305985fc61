import EasyBake
import EasyBakeXML
import FuzzSupport

// XML: read, bake, stream, write, read back.
// "Same": a tree read from XML has a single root element as the single key
// of the top dictionary, so the writer needs no root name and the tree reads
// back equal by the library's tree equality. The one documented exception
// is mixed content: text runs are kept under "#text" but their interleaving
// with child elements is not, so the writer writes the runs together and
// they read back as one run — compared after joining the runs. A tree the
// writer refuses (a name it cannot write) is not a finding only when the
// refusal is the documented `invalidValue`.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXML(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let input = IngredientInput.bytes(bytes, name: "fuzz.xml")
    var options = XMLSourceOptions()
    options.limits.maximumInputBytes = 1 << 20
    let format = XMLFormat(options: options)
    exerciseStreaming { () throws(EasyBakeError) in try format.makeSource(for: input) }
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
    requireRoundTrip(tree, through: format, writings: [WritingOptions(), WritingOptions(prettyPrinted: true)])
    return 0
}
