import EasyBake
import EasyBakeYAML
import FuzzSupport

// YAML: read (first document, and every document), bake, stream, write,
// read back. "Same" is the library's tree equality: the writer quotes any
// string that would read back as another type and writes numbers that read
// back as the same ingredient, so a tree the core-schema source read must
// come back equal.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAML(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let input = IngredientInput.bytes(bytes, name: "fuzz.yaml")
    var options = YAMLReadingOptions()
    options.limits.maximumExpansion = 100_000
    let format = YAMLFormat(options: options)
    exerciseStreaming { () throws(EasyBakeError) in try format.makeSource(for: input) }
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
    requireRoundTrip(tree, through: format, writings: [WritingOptions(), WritingOptions(sortedKeys: true, indentWidth: 4)])
    return 0
}
