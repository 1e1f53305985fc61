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
    for writing in [WritingOptions(), WritingOptions(sortedKeys: true, indentWidth: 4)] {
        let output: [UInt8]
        do {
            output = try format.write(tree, options: writing)
        } catch {
            fuzzFailure("the YAML writer refused a tree the YAML source read: \(error)")
        }
        do {
            requireSame(tree, try format.read(.bytes(output)), "YAML \(writing)", output: output)
        } catch {
            fuzzFailure("the YAML writer's output does not read: \(error)\noutput: \(String(decoding: output, as: UTF8.self).debugDescription)")
        }
    }
    return 0
}
