import EasyBake
import EasyBakeJSON
import FuzzSupport

// JSON: read, bake (from the tree and straight from the bytes), stream,
// write (compact and pretty), read back.
// "Same" is the library's tree equality: the JSON writer writes every
// number so that it reads back to the same ingredient (an integer stays an
// integer, a float the same Double, an exact number its text), and strings
// are escaped losslessly. Duplicate keys are gone after the first read
// (first wins), so the written tree has none.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let input = IngredientInput.bytes(bytes, name: "fuzz.json")
    let format = JSONFormat()
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
    requireRoundTrip(tree, through: format, writings: [WritingOptions(), WritingOptions(prettyPrinted: true, sortedKeys: true, indentWidth: 3)])
    return 0
}
