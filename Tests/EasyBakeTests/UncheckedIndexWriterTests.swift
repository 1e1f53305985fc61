import EasyBake
import Testing

/// ``IngredientIndex/UncheckedWriter`` is the public road the built-in XML
/// and YAML builders write the index through: each write must make what the
/// checked writer makes from the same values, and its gathering of repeated
/// keys what the collect policy makes from events.
@Suite("Writing an index unchecked, as the built-in formats do")
struct UncheckedIndexWriterTests {
    /// `input`'s bytes, loaded.
    static func bytes(_ input: String) throws -> LoadedBytes {
        try IngredientInput.text(input).loadBytes()
    }

    @Test("every write reads back as the checked writer's same write")
    func sameAsChecked() throws {
        //          0         1         2         3         4
        //          0123456789012345678901234567890123456789012345
        let text = #"{name: Ada, "q": 12.5e1, flag: true, 0x1F, []}"#
        let bytes = try Self.bytes(text)
        var unchecked = IngredientIndex()
        let writer = unchecked.beginUncheckedWriting(input: bytes, sourceName: "t")
        writer.beginDictionary(at: 0)
        try writer.string(bytesAt: 1, count: 4)
        try writer.string(bytesAt: 7, count: 3)
        try writer.string(bytesAfterQuoteAt: 12, count: 1)
        writer.number(literalAt: 17, count: 6, isInteger: false)
        let flag = try "flag".utf8.withContiguousStorageIfAvailable { try writer.share(UnsafeRawBufferPointer($0)) }!
        writer.string(flag)
        writer.bool(true, at: 31)
        try "hex".utf8.withContiguousStorageIfAvailable {
            try writer.string(decoded: UnsafeRawBufferPointer($0), at: 37)
        }
        try writer.number(.integer(31), at: 37, textAtOffset: true)
        writer.string(flag)
        writer.beginArray(at: 43)
        writer.null(at: 44)
        writer.emptyArray(at: 44)
        writer.emptyDictionary(at: 44)
        try writer.endContainer(elements: 3)
        try writer.endContainer(elements: 5)

        var checked = IngredientIndex()
        try checked.write(input: bytes, sourceName: "t") { (writer) throws(EasyBakeError) in
            try writer.beginDictionary(at: 0)
            try writer.key(bytesAt: 1, count: 4)
            try writer.string(bytesAt: 7, count: 3)
            try writer.key("q", at: 0)
            try writer.number(literalAt: 17, count: 6)
            try writer.key("flag", at: 0)
            try writer.bool(true, at: 31)
            try writer.key("hex", at: 37)
            try writer.number(Int64(31), at: 37)
            try writer.key("flag", at: 0)
            try writer.beginArray(at: 43)
            try writer.null(at: 44)
            try writer.beginArray(at: 44)
            try writer.endArray()
            try writer.beginDictionary(at: 44)
            try writer.endDictionary()
            try writer.endArray()
            try writer.endDictionary()
        }
        #expect(try Ingredients(index: unchecked) == Ingredients(index: checked))
        #expect(unchecked.count == checked.count)
        // A value's offset is where an error about it points.
        #expect(unchecked.mark(at: 4)?.location.column == 18)
        #expect(unchecked.mark(at: 4)?.location.sourceName == "t")
        // A resolved number whose text is in the input gives that text to a String.
        struct Hex: Decodable { let hex: String }
        var baked = unchecked
        #expect(try Baker().bakeReporting(Hex.self, from: &baked).value.hex == "0x1F")
        baked.removeAll()
        #expect(baked.count == 0)
    }

    @Test("a key shared once serves every entry; a long decoded string goes the slow way")
    func sharedAndLong() throws {
        var index = IngredientIndex()
        let writer = index.beginUncheckedWriting()
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 300_000)
        writer.beginArray(at: 0)
        let key = try [UInt8]("k".utf8).withUnsafeBytes { try writer.share($0) }
        for _ in 0..<3 {
            writer.beginDictionary(at: 0)
            writer.string(key)
            try long.withUnsafeBytes { try writer.string(decoded: $0, at: 0) }
            try writer.endContainer(elements: 1)
        }
        try writer.endContainer(elements: 3)
        let value: Ingredients = ["k": .string(String(repeating: "x", count: 300_000))]
        #expect(try Ingredients(index: index) == [value, value, value])
    }

    @Test("a detached writer writes to no index")
    func detached() throws {
        var index = IngredientIndex()
        let writer = index.beginUncheckedWriting()
        writer.null(at: 0)
        let nowhere = IngredientIndex.UncheckedWriter()
        nowhere.beginArray(at: 0)
        nowhere.null(at: 0)
        try nowhere.endContainer(elements: 1)
        #expect(index.count == 1)
        #expect(try Ingredients(index: index) == .null)
    }

    @Test("traits and lines-and-columns offsets are kept")
    func traitsAndLines() throws {
        var index = IngredientIndex()
        let writer = index.beginUncheckedWriting(
            sourceName: "doc.xml", traits: .dictionariesAreElements, offsetsAreLinesAndColumns: true)
        writer.beginDictionary(at: IngredientIndex.lineColumnOffset(line: 1, column: 1))
        try "a".utf8.withContiguousStorageIfAvailable { try writer.string(decoded: UnsafeRawBufferPointer($0), at: 0) }
        try "text".utf8.withContiguousStorageIfAvailable {
            try writer.string(
                decoded: UnsafeRawBufferPointer($0), at: IngredientIndex.lineColumnOffset(line: 3, column: 7))
        }
        try writer.endContainer(elements: 1)
        #expect(index.traits == .dictionariesAreElements)
        let location = try #require(index.mark(at: 2)?.location)
        #expect(location.line == 3 && location.column == 7 && location.sourceName == "doc.xml")
        guard case .dictionary(let root) = try Ingredients(index: index) else {
            Issue.record("expected a dictionary")
            return
        }
        #expect(root.isElement)
        #expect(location.lineText == nil)
        // Given the input, an error shows the value's line, read when shown.
        index.setLineTextInput(.text("<a>\n\n  <a>text</a>\n</a>"))
        #expect(index.mark(at: 2)?.location.lineText == "  <a>text</a>")
        // Beginning again empties the index and its traits.
        index.beginUncheckedWriting().null(at: 0)
        #expect(index.traits == [] && index.count == 1)
    }

    /// Writes, as a format of elements does, the members `(key, value)` of
    /// one dictionary: a key that repeats the previous member's is gathered
    /// in place, one repeated apart makes the dictionary rewritten when it
    /// closes.
    static func gathered(_ members: [(String, Ingredients)]) throws -> Ingredients {
        var index = IngredientIndex()
        let writer = index.beginUncheckedWriting()
        var scratch = IngredientIndex.UncheckedWriter.GatheringScratch()
        var distinct: [String] = []
        var list: [IngredientIndex.UncheckedWriter.Member] = []
        var lastValue = -1
        writer.beginDictionary(at: 0)
        for (key, value) in members {
            let id = distinct.firstIndex(of: key) ?? distinct.count
            if id == distinct.count { distinct.append(key) }
            if let last = list.last, Int(last.key) == id {
                if !last.isGathered {
                    writer.beginGathering(valueAt: lastValue)
                    list[list.count - 1].isGathered = true
                }
                writer.addGatheredElement(toArrayAt: lastValue)
            } else {
                if list.last?.isGathered == true { try writer.endGathering(arrayAt: lastValue) }
                try Array(key.utf8).withUnsafeBytes { try writer.string(decoded: $0, at: 0) }
                list.append(.init(key: Int32(id)))
                lastValue = writer.count
            }
            try write(value, with: writer)
        }
        if list.last?.isGathered == true { try writer.endGathering(arrayAt: lastValue) }
        try writer.endContainer(elements: list.count)
        if distinct.count < list.count {
            try list.withUnsafeBufferPointer {
                try writer.gatherRepeatedKeys(
                    ofDictionaryAt: 0, members: $0, distinctKeys: distinct.count, scratch: &scratch)
            }
        }
        return try Ingredients(index: index)
    }

    private static func write(_ value: Ingredients, with writer: IngredientIndex.UncheckedWriter) throws {
        if case .array(let elements) = value {
            writer.beginArray(at: 0)
            for element in elements { try write(element, with: writer) }
            try writer.endContainer(elements: elements.count)
        } else {
            try writer.number(value, at: 0)
        }
    }

    /// The tree the same members make as events under
    /// ``DuplicateKeyPolicy/collect``: the rule the gathering must keep.
    static func collected(_ members: [(String, Ingredients)]) throws -> Ingredients? {
        var events: [IngredientEvent] = [.beginDictionary]
        for (key, value) in members {
            events.append(.key(key))
            var tree = IngredientTreeSource(value)
            while let event = try tree.next() { events.append(event) }
        }
        events.append(.endDictionary)
        var source = EventList(events: events)
        return try Ingredients.read(from: &source, duplicateKeys: .collect)
    }

    @Test(
        "repeated keys gathered in place and when the dictionary closes: what collect makes of the events",
        arguments: [
            [("a", 1), ("a", 2), ("b", 3), ("a", 4)],
            [("a", [1]), ("a", 2)],
            [("a", 1), ("b", [5, 6]), ("a", [7])],
            [("a", 1), ("a", 2), ("b", 3), ("a", 4), ("a", 5), ("c", []), ("b", [[8]])],
            [("x", 1), ("y", 2)],
        ] as [[(String, Ingredients)]])
    func gathering(_ members: [(String, Ingredients)]) throws {
        let expected = try Self.collected(members)
        #expect(try Self.gathered(members) == expected)
    }
}

/// A source of a list of events.
private struct EventList: IngredientSource {
    var events: [IngredientEvent]
    var position = 0

    mutating func next() throws(EasyBakeError) -> IngredientEvent? {
        guard position < events.count else { return nil }
        defer { position += 1 }
        return events[position]
    }

    var location: SourceLocation { SourceLocation(line: 1, column: position + 1) }
}
