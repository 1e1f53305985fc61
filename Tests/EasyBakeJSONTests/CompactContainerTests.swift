import Foundation
import Testing
import EasyBake
import EasyBakeJSON

/// A container whose elements are one entry each is compact: its entry holds
/// its span and how far it begins before its first element, with no extra.
/// It reads as any other container, whichever way the index was built.
@Suite("Compact containers in the index")
struct CompactContainerTests {
    static func index(_ text: String, scanning: JSONByteScanning) throws -> IngredientIndex {
        var source = try JSONIngredientSource(.text(text))
        source.byteScanning = scanning
        var index = IngredientIndex()
        try source.readIndex(into: &index)
        return index
    }

    static func isCompact(_ index: IngredientIndex, _ position: Int) -> Bool {
        index.storedEntries[position].kindByte & 0x20 != 0 && index.kind(at: position).rawValue >= 6
    }

    @Test(
        "a container of one entry per element is compact, over the structural pass and byte by byte, and reads the same"
    )
    func compactOrNot() throws {
        let text =
            #"{"pair": [1.5, -2], "flat": {"x": "y", "n": null}, "nested": [[1], 2], "empty": [], "e": [{}, []]}"#
        let bytes = Array(text.utf8)
        for scanning in JSONByteScanning.allCases {
            let index = try Self.index(text, scanning: scanning)
            // Positions: 0 root, 2 pair, 6 flat, 12 nested (13 its [1]), 17 empty, 19 e.
            let compact = (0..<index.count).filter { Self.isCompact(index, $0) }
            #expect(compact == [2, 6, 13, 19], "\(scanning)")
            #expect(index.elementCount(at: 2) == 2)
            #expect(index.elementCount(at: 6) == 2)
            #expect(index.elementCount(at: 19) == 2)
            #expect(index.elementCount(at: 12) == 2)
            #expect(index.elementCount(at: 0) == 5)
            for position in [2, 6, 12, 17, 19] {
                let bracket = bytes[index.sourceOffset(at: position)]
                #expect(bracket == UInt8(ascii: "[") || bracket == UInt8(ascii: "{"), "\(position)")
            }
            #expect(index.sourceOffset(at: 2) == text.utf8.count - text.drop(while: { $0 != "[" }).utf8.count)
            #expect(
                try Ingredients(index: index)
                    == [
                        "pair": [1.5, -2], "flat": ["x": "y", "n": .null], "nested": [[1], 2], "empty": [],
                        "e": [Ingredients.dictionary(IngredientDictionary()), []],
                    ])
        }
    }

    @Test("an indented container keeps its offset: the bracket, however far its first element")
    func indented() throws {
        let text = "[\n    [\n        1,\n        2\n    ],\n    {\n\t\"k\": true\n    }\n]"
        let bytes = Array(text.utf8)
        for scanning in JSONByteScanning.allCases {
            let index = try Self.index(text, scanning: scanning)
            #expect(Self.isCompact(index, 1) && Self.isCompact(index, 4), "\(scanning)")
            #expect(bytes[index.sourceOffset(at: 1)] == UInt8(ascii: "["))
            #expect(index.sourceOffset(at: 1) == 6)
            #expect(bytes[index.sourceOffset(at: 4)] == UInt8(ascii: "{"))
            #expect(try Ingredients(index: index) == [[1, 2], ["k": true]])
        }
    }

    @Test("a compact container gives its extra back: an array of pairs holds one extra, its own")
    func extrasGivenBack() throws {
        let text = "[" + (0..<1000).map { "[\($0), \($0 * 2)]" }.joined(separator: ",") + "]"
        for scanning in JSONByteScanning.allCases {
            var index = try Self.index(text, scanning: scanning)
            #expect(index.count == 3001)
            #expect(index.storageForBuilding.rawExtraCount == 1, "\(scanning)")
            #expect(index.elementCount(at: 0) == 1000)
            #expect(index.elementCount(at: 2998) == 2)
            #expect(index.scalar(at: 3000) == .integer(1998))
        }
    }

    @Test("a dictionary closed again with its repeated keys gathered reads each key once")
    func closedAgain() throws {
        let text = #"{"a": 1, "b": 2, "a": 3}"#
        var source = try JSONIngredientSource(.text(text), options: .init(duplicateKeys: .collect))
        var index = IngredientIndex()
        try source.readIndex(into: &index)
        #expect(index.elementCount(at: 0) == 2)
        #expect(try Ingredients(index: index) == ["a": [1, 3], "b": 2])
        #expect(index.sourceOffset(at: 0) == 0)
    }
}
