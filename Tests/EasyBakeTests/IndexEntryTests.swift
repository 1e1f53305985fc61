import Foundation
import Testing

@testable import EasyBake

/// An index entry is one 64-bit word; what does not fit it (a container's
/// offset and count, a long or far value, a number held as its value) is
/// in an extra. These hold each form to what it must read back as.
@Suite("Index entries and their extras")
struct IndexEntryTests {
    @Test("an entry is 8 bytes")
    func entrySize() {
        #expect(MemoryLayout<IngredientIndex.Entry>.stride == 8)
        #expect(MemoryLayout<IngredientIndex.Extra>.stride == 16)
    }

    @Test("values past 64 GiB of input keep their offsets, in extras")
    func farOffsets() throws {
        var index = IngredientIndex()
        let far = 1 << 37
        let storage = index.storageForBuilding
        storage.openContainer(.array, at: far - 1)
        try storage.appendString(at: far, length: 3)
        storage.appendNumber(at: far + 10, length: 2, isInteger: true)
        storage.appendLiteral(.true, at: far + 20)
        try storage.closeContainer(elements: 3)
        #expect(index.sourceOffset(at: 0) == far - 1)
        #expect(index.sourceOffset(at: 1) == far)
        #expect(index.sourceOffset(at: 2) == far + 10)
        #expect(index.sourceOffset(at: 3) == far + 20)
        #expect(index.kind(at: 1) == .string)
        #expect(index.kind(at: 2) == .integer)
        #expect(index.kind(at: 3) == .true)
        #expect(index.storedEntries[1].kindByte & IngredientIndex.wideFlag != 0)
        #expect(storage.extras[storage.entries[1].extraPosition].low == 3)
        #expect(index.end(of: 0) == 4)
        #expect(index.elementCount(at: 0) == 3)
    }

    @Test("a container spanning more than 2²⁸ entries is wide, and reads and copies the same")
    func wideContainer() throws {
        var index = IngredientIndex()
        let storage = index.storageForBuilding
        storage.openContainer(.dictionary, at: 42)
        try storage.appendString(decoded: UnsafeRawBufferPointer(Array("key".utf8).withUnsafeBytes { $0 }), at: 43)
        // A value of two entries, so that the dictionary is not compact and
        // keeps the extra the wide entry needs.
        storage.openContainer(.array, at: 50)
        storage.appendLiteral(.null, at: 51)
        try storage.closeContainer(elements: 1)
        try storage.closeContainer(elements: 1)
        #expect(index.end(of: 0) == 4)
        #expect(index.storedEntries[0].kindByte & IngredientIndex.compactFlag == 0)
        #expect(index.storedEntries[2].kindByte & IngredientIndex.compactFlag != 0)
        let span = 1 << 28 + 5
        let wide = try #require(storage.closed(storage.entries[0], span: span, elements: 9))
        #expect(wide.kindByte & IngredientIndex.wideFlag != 0)
        storage.entries[0] = wide
        #expect(index.end(of: 0) == 1 + span)
        #expect(index.elementCount(at: 0) == 9)
        #expect(index.sourceOffset(at: 0) == 42)
        #expect(index.kind(at: 0) == .dictionary)
        // Past 2³² neither fits an index.
        #expect(storage.closed(storage.entries[0], span: 1 << 32, elements: 1) == nil)
        // Copied into another index, its extra comes along.
        var copy = IngredientIndex()
        let copied = copy.storageForBuilding
        copied.append(copied.copy(entryAt: 0, of: storage))
        #expect(copy.end(of: 0) == 1 + span)
        #expect(copy.elementCount(at: 0) == 9)
        #expect(copy.sourceOffset(at: 0) == 42)
    }

    @Test("arena strings keep their source offset before their bytes, unless it is 0")
    func arenaOffsets() throws {
        var index = IngredientIndex()
        let storage = index.storageForBuilding
        storage.openContainer(.array, at: 0)
        try storage.appendString(decoded: [UInt8]("located".utf8), at: 17)
        try storage.appendString(decoded: [UInt8]("nowhere".utf8), at: 0)
        let arenaBefore = storage.arenaCount
        try storage.appendString(decoded: [UInt8]("dropped".utf8), at: 99)
        storage.removeLastString()
        #expect(storage.arenaCount == arenaBefore)
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        try storage.appendString(decoded: long, at: 23)
        try storage.closeContainer(elements: 3)
        #expect(index.string(at: 1) == "located")
        #expect(index.sourceOffset(at: 1) == 17)
        #expect(index.string(at: 2) == "nowhere")
        #expect(index.sourceOffset(at: 2) == 0)
        #expect(index.storedEntries[2].kindByte & IngredientIndex.unlocatedFlag != 0)
        #expect(index.string(at: 3)?.utf8.count == 1 << 20)
        #expect(index.sourceOffset(at: 3) == 23)
        #expect(index.storedEntries[3].kindByte & IngredientIndex.wideFlag != 0)
        // A copy of the value reads the same.
        let copy = IngredientIndex(copyingValueAt: 0, of: index)
        #expect(copy.storedEntries == index.storedEntries)
    }

    @Test("a number held as its value reads back exactly, with its offset")
    func inlineNumbers() throws {
        var index = IngredientIndex()
        let storage = index.storageForBuilding
        storage.openContainer(.array, at: 0)
        try storage.appendNumber(.integer(-1), at: 5)
        try storage.appendNumber(.float(-0.0), at: 9)
        try storage.appendNumber(.integer(.max), at: 13)
        try storage.closeContainer(elements: 3)
        #expect(index.scalar(at: 1) == .integer(-1))
        #expect(index.scalar(at: 2)?.description == Ingredients.float(-0.0).description)
        #expect(index.scalar(at: 3) == .integer(.max))
        #expect(index.sourceOffset(at: 3) == 13)
        #expect(index.withUTF8(at: 1) { $0.count } == 0)
    }

    @Test("a tree with long strings and many containers is indexed and read back unchanged")
    func treeRoundTrip() {
        let long = String(repeating: "é", count: 600_000)
        let nested = (0..<300).map { n -> Ingredients in ["n": .integer(Int64(n))] }
        let tree: Ingredients = ["long": .string(long), "nested": .array(nested), "empty": [], "x": .float(2.5)]
        let index = IngredientIndex(tree)
        #expect(Ingredients(viewing: index) == tree)
        #expect(index.elementCount(at: 0) == 4)
    }
}
