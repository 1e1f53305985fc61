import EasyBake
@_spi(Fuzzing) import EasyBakeJSON
import FuzzSupport

// JSON: read, bake (from the tree and straight from the bytes), stream,
// write (compact and pretty), read back.
// "Same" is the library's tree equality: the JSON writer writes every
// number so that it reads back to the same ingredient (an integer stays an
// integer, a float the same Double, an exact number its text), and strings
// are escaped losslessly. Duplicate keys are gone after the first read
// (first wins), so the written tree has none.
// Jobs: four jobs bake the records of any input exactly as one does.
// Byte ranges: the same bytes read as a JSON array and as JSON Lines, in
// three shares at offsets the input picks, give exactly the whole's records.
// Structure: every level of the structural pass finds the same positions,
// and skipping over it ends where the byte walk ends or fails alike.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let input = IngredientInput.bytes(bytes, name: "fuzz.json")
    let format = JSONFormat()
    let problems = JSONStructuralDifferential.disagreements(in: bytes)
    if !problems.isEmpty { fuzzFailure("the structural stage and the byte walk part ways: \(problems)") }
    exerciseStreaming { () throws(EasyBakeError) in try format.makeSource(for: input) }
    exerciseByteRanges(bytes, input: input)
    exerciseJobs { () throws(EasyBakeError) in try format.makeSource(for: input) }
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
        tree, through: format,
        writings: [WritingOptions(), WritingOptions(prettyPrinted: true, sortedKeys: true, indentWidth: 3)])
    return 0
}

/// Three shares of `bytes`, split where its first bytes say, read together
/// as the whole is read: as a top-level array, and as JSON Lines.
private func exerciseByteRanges(_ bytes: [UInt8], input: IngredientInput) {
    let count = bytes.count
    guard count > 0 else { return }
    let first = Int(bytes[0]) * count / 256
    let second = first + (count - first) * Int(bytes[count - 1]) / 256
    let ranges = [0..<first, first..<second, second..<count]
    let shares:
        [(String, (Range<Int>) throws(EasyBakeError) -> any IngredientSource, () throws(EasyBakeError) -> Ingredients)] =
            [
                (
                    "array", { (range) throws(EasyBakeError) in try JSONIngredientSource(input, byteRange: range) },
                    { () throws(EasyBakeError) in try JSONFormat().read(input) }
                ),
                (
                    "lines",
                    { (range) throws(EasyBakeError) in try JSONLinesIngredientSource(input, byteRange: range) },
                    { () throws(EasyBakeError) in try JSONLinesFormat().read(input) }
                ),
            ]
    for (name, makeShare, readWhole) in shares {
        guard case .array(let whole)? = try? readWhole() else { continue }
        var records: [Ingredients] = []
        for range in ranges {
            do {
                var source = try makeShare(range)
                guard case .array(let share) = try Ingredients(reading: &source) else {
                    fuzzFailure("\(name) share \(range) is no array")
                }
                records += share
            } catch {
                fuzzFailure("\(name) share \(range) failed where the whole reads: \(error)")
            }
        }
        guard records == Array(whole) else {
            fuzzFailure("\(name) shares \(ranges) read \(records.count) records, the whole \(whole.count)")
        }
    }
}
