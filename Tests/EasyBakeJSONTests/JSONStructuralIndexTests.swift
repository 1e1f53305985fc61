import EasyBake
@_spi(Fuzzing) import EasyBakeJSON
import EasyBakeTestSupport
import Foundation
import Testing

/// The index is built over JSON's structure (`easybake_json_index`) where
/// the machine has a vector pass; the byte walk (word scanning) is the
/// reference. Every input must give the same entries, bit for bit, or the
/// same error at the same line and column, at every level of the pass:
/// whole documents, streamed records, and inputs at each limit.
@Suite("JSON index built over the structural pass")
struct JSONStructuralIndexTests {
    /// The entries of `bytes`' index, or its error with its place, with
    /// the structural pass at `level` (`nil`: the byte walk).
    static func indexed(_ bytes: [UInt8], level: Int32?, limits: IngredientLimits = .default) -> String {
        JSONStructuralSkipTests.outcome(bytes, level: level, limits: limits) { (source) throws(EasyBakeError) in
            var index = IngredientIndex()
            try source.readIndex(into: &index)
            return index.storedEntries.map(\.description).joined(separator: "\n")
        }
    }

    /// The entries of each record of the document's `users` array, read
    /// one at a time as a stream reads them.
    static func streamed(_ bytes: [UInt8], level: Int32?) -> String {
        JSONStructuralSkipTests.outcome(bytes, level: level) { (source) throws(EasyBakeError) in
            guard try source.next() == .beginDictionary, try source.next() == .key("users"),
                try source.next() == .beginArray
            else { return "no users" }
            return try Self.recordEntries(&source)
        }
    }

    /// The entries of each value of the array `source` is inside, up to its
    /// end, each read into an index as a stream reads a record.
    static func recordEntries(_ source: inout some IngredientSource) throws(EasyBakeError) -> String {
        var records: [String] = []
        var index = IngredientIndex()
        while let first = try source.next(), first != .endArray {
            try source.readValue(startingWith: first, into: &index)
            records.append(index.storedEntries.map(\.description).joined(separator: " "))
        }
        return records.joined(separator: "\n")
    }

    static var vectorLevels: [Int32] { JSONStructuralPass.machineLevels.filter { $0 > 0 } }

    /// Every JSONTestSuite file (when `../shared` is there) and every JSON
    /// fixture.
    static func corpusAndFixtureDocuments() throws -> [[UInt8]] {
        var documents: [[UInt8]] = []
        if let corpus = TestPaths.corpus("JSONTestSuite") {
            let folder = corpus.appendingPathComponent("test_parsing")
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".json") {
                documents.append(try [UInt8](Data(contentsOf: folder.appendingPathComponent(name))))
            }
        }
        let fixtures = FileManager.default.enumerator(atPath: TestPaths.fixtures.path)
        while let name = fixtures?.nextObject() as? String {
            guard name.hasSuffix(".json") else { continue }
            documents.append(try [UInt8](Data(contentsOf: TestPaths.fixtures.appendingPathComponent(name))))
        }
        return documents
    }

    @Test("every JSONTestSuite file and fixture: the same entries or error")
    func corpusAndFixtures() throws {
        let documents = try Self.corpusAndFixtureDocuments()
        #expect(documents.count > 20)
        var built = 0
        for bytes in documents {
            let reference = Self.indexed(bytes, level: nil)
            for level in Self.vectorLevels {
                #expect(Self.indexed(bytes, level: level) == reference, "\(String(decoding: bytes, as: UTF8.self))")
            }
            if !reference.hasPrefix("syntax") { built += 1 }
        }
        #expect(built > 10)
    }

    /// What a damaged document has in one place instead of a byte.
    static let damage = [
        "{", "}", "[", "]", ",", ":", "\"", "\\", "\u{1}", "01", "1.", "-", "tru", "nul", "1x", "\"\\x\"",
        "\"\\ud800\"", "\u{7F}", " ", "\n", "\"\u{1}\"", "\u{E9}", "truex", "nulls", "falsy", "-0", "1e5",
        "1E+2", "\"\\u00e9\"", "+1", ".5", "[]", "{}", "\"\":1",
    ]

    /// 500 documents of 1 to 12 users, four in five damaged in one place
    /// (with one of `damage`), one in fifty with a byte that is not UTF-8.
    static func damagedUsers(seed: UInt64, damage: [String] = damage) -> [[UInt8]] {
        var random = SeededGenerator(seed: seed)
        return (0..<500).map { number in
            let count = Int.random(in: 1...12, using: &random)
            var bytes = Array(JSONStructuralSkipTests.users(count, using: &random).utf8)
            if number % 5 != 0 {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                bytes.replaceSubrange(at...at, with: Array(damage.randomElement(using: &random)!.utf8))
            }
            if number % 50 == 1 { bytes.insert(0xC0, at: Int.random(in: 0..<bytes.count, using: &random)) }
            return bytes
        }
    }

    @Test("damaged documents, whole and streamed: the same entries or error")
    func damagedDocuments() {
        var failed = 0
        var built = 0
        for bytes in Self.damagedUsers(seed: 0x1DE7) {
            let reference = Self.indexed(bytes, level: nil)
            let streamedReference = Self.streamed(bytes, level: nil)
            for level in Self.vectorLevels {
                let text = String(decoding: bytes, as: UTF8.self)
                #expect(Self.indexed(bytes, level: level) == reference, "\(level) \(text)")
                #expect(Self.streamed(bytes, level: level) == streamedReference, "\(level) \(text)")
            }
            if reference.contains(" 1:") || reference.hasPrefix("syntax") { failed += 1 } else { built += 1 }
        }
        #expect(failed > 100)
        #expect(built > 100)
    }

    @Test("at and past each limit: the same entries or error")
    func limits() {
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        let deeper = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
        let wide = "[" + (0..<300).map { "\($0)" }.joined(separator: ",") + "]"
        let longString = "{\"k\":\"" + String(repeating: "a", count: 200) + "\"}"
        let longEscaped = "{\"k\":\"" + String(repeating: "\\n", count: 100) + "\"}"
        let longNumber = "[" + String(repeating: "7", count: 150) + "]"
        var cases: [(String, IngredientLimits)] = []
        for (text, limits) in [
            (deep, IngredientLimits(maximumDepth: 39)), (deep, IngredientLimits(maximumDepth: 40)),
            // Deeper than the structural build goes: the byte walk builds it all.
            (deeper, IngredientLimits(maximumDepth: 6_000)),
            // A value the build declines at the end, after it wrote entries.
            ("[1,2,[\"a\",{\"b\":null}]] ", .default), ("[1,2,[\"a\",{\"b\":null}]", .default),
            (wide, IngredientLimits(maximumNodes: 300)), (wide, IngredientLimits(maximumNodes: 301)),
            (longString, IngredientLimits(maximumStringBytes: 199)),
            (longString, IngredientLimits(maximumStringBytes: 200)),
            (longEscaped, IngredientLimits(maximumStringBytes: 150)),
            (longNumber, IngredientLimits(maximumNumberLength: 149)),
            (longNumber, IngredientLimits(maximumNumberLength: 150)),
        ] {
            cases.append((text, limits))
        }
        var refused = 0
        var built = 0
        for (text, limits) in cases {
            let bytes = Array(text.utf8)
            let reference = Self.indexed(bytes, level: nil, limits: limits)
            if reference.hasPrefix("limit") { refused += 1 }
            if reference.first?.isNumber == true { built += 1 }
            for level in Self.vectorLevels {
                #expect(Self.indexed(bytes, level: level, limits: limits) == reference, "\(level) \(text)")
            }
        }
        #expect(refused == 5)
        #expect(built == cases.count - refused - 1)
    }

    /// The entries of every record a JSON Lines source or a byte range of
    /// an array gives, each as a stream reads it.
    static func records(
        _ bytes: [UInt8], level: Int32?, lines: Bool, byteRange: Range<Int>? = nil
    ) -> String {
        do {
            let input = IngredientInput.bytes(bytes)
            var source: AnyIngredientSource
            if lines {
                var jsonLines =
                    try byteRange.map { try JSONLinesIngredientSource(input, byteRange: $0) }
                    ?? JSONLinesIngredientSource(input)
                if let level { jsonLines.structuralLevel = level } else { jsonLines.byteScanning = .word }
                source = AnyIngredientSource(jsonLines)
            } else {
                var json =
                    try byteRange.map { try JSONIngredientSource(input, byteRange: $0) } ?? JSONIngredientSource(input)
                if let level { json.structuralLevel = level } else { json.byteScanning = .word }
                source = AnyIngredientSource(json)
            }
            guard try source.next() == .beginArray else { return "no array" }
            return try Self.recordEntries(&source)
        } catch let error as EasyBakeError {
            return "\(error.code) \(error.location?.line ?? -1):\(error.location?.column ?? -1) \(error.message)"
        } catch {
            return "\(error)"
        }
    }

    @Test("JSON Lines records and a byte range's elements: the same entries or error")
    func linesAndRanges() {
        var random = SeededGenerator(seed: 0x71E5)
        let damage = ["{", "}", "]", ",", ":", "\"", "\\", "01", "-", "tru", "1x", "\n", "\u{E9}", " "]
        var read = 0
        for number in 0..<150 {
            let count = Int.random(in: 2...8, using: &random)
            let lines = (0..<count).map { _ in
                String(JSONStructuralSkipTests.users(1, using: &random).filter { $0 != "\n" })
            }
            var text = lines.joined(separator: "\n") + "\n"
            var array = "[" + lines.joined(separator: ",\n") + "]"
            if number % 3 != 0 {
                for target in [0, 1] {
                    var bytes = Array((target == 0 ? text : array).utf8)
                    let at = Int.random(in: 0..<bytes.count, using: &random)
                    bytes.replaceSubrange(at...at, with: Array(damage.randomElement(using: &random)!.utf8))
                    if target == 0 {
                        text = String(decoding: bytes, as: UTF8.self)
                    } else {
                        array = String(decoding: bytes, as: UTF8.self)
                    }
                }
            }
            for (bytes, lines) in [(Array(text.utf8), true), (Array(array.utf8), false)] {
                let split = Int.random(in: 0...bytes.count, using: &random)
                for range in [nil, 0..<split, split..<bytes.count] as [Range<Int>?] {
                    let reference = Self.records(bytes, level: nil, lines: lines, byteRange: range)
                    if reference.first?.isNumber == true { read += 1 }
                    for level in Self.vectorLevels {
                        #expect(
                            Self.records(bytes, level: level, lines: lines, byteRange: range) == reference,
                            "\(level) \(lines) \(String(describing: range)) \(String(decoding: bytes, as: UTF8.self))")
                    }
                }
            }
        }
        #expect(read > 200)
        // A record may not run on to the next line, whichever road reads it.
        let broken = Array("{\"a\": [1,\n2]}\n{\"b\": 3}\n".utf8)
        let reference = Self.records(broken, level: nil, lines: true)
        #expect(reference.hasPrefix("syntax 1:"))
        for level in Self.vectorLevels { #expect(Self.records(broken, level: level, lines: true) == reference) }
    }

    @Test("numbers of every shape, read in C or by the grammar: the same entries, ends or error")
    func numbers() {
        var random = SeededGenerator(seed: 0x2A11)
        let alphabet = Array("-0123456789.eE+x".utf8)
        var shapes: [String] = [
            "0", "-0", "1", "-1", "0.5", "10.25", "123456789012345678", "1.0e5", "01", "-", "1.", ".5",
        ]
        for _ in 0..<1_500 {
            let length = Int.random(in: 1...40, using: &random)
            let digitsOnly = Bool.random(using: &random)
            shapes.append(
                String(
                    decoding: (0..<length).map { _ in
                        digitsOnly
                            ? UInt8(ascii: "0") + UInt8.random(in: 0...9, using: &random)
                            : alphabet.randomElement(using: &random)!
                    }, as: UTF8.self))
        }
        var built = 0
        for shape in shapes {
            for text in ["[\(shape)]", "{\"n\":\(shape),\"m\": \(shape) }", "[\(shape)\n,1]"] {
                let bytes = Array(text.utf8)
                let reference = Self.indexed(bytes, level: nil)
                if reference.first?.isNumber == true { built += 1 }
                for level in Self.vectorLevels {
                    #expect(Self.indexed(bytes, level: level) == reference, "\(level) \(text)")
                }
                // Skipping and finding check plain numbers in C too.
                #expect(JSONStructuralDifferential.disagreements(in: bytes) == [], "\(text)")
            }
        }
        #expect(built > 1_500)
    }

    /// The C build reads a number or literal from its scalar run when the
    /// run ends in its 64-byte block (32 bytes at once, from the block or
    /// from the input) and byte by byte otherwise: each scalar here starts
    /// at every offset of a block, so that its run ends in the block, ends
    /// at its last byte, crosses into the next block, or meets the input's
    /// end, at every level of the pass, the scalar one included.
    @Test("numbers and literals at every offset of a block: the same entries or error")
    func scalarsAtEveryOffset() {
        let scalars = [
            "7", "-0", "12.5", "-12345678", "123456789", "-1234567.25", "0.000000000000001",
            "12345678901234567890123456789012", "123456789012345678901234567890123", "1.5e3", "01", "1.",
            "-.5", "2..0", "true", "false", "null", "nul", "truex", "fals",
        ]
        let levels = JSONStructuralPass.machineLevels
        for scalar in scalars {
            for pad in 0..<66 {
                let text = "[" + String(repeating: " ", count: pad) + scalar + ", 1, " + scalar + "]"
                let bytes = Array(text.utf8)
                let reference = Self.indexed(bytes, level: nil)
                for level in levels {
                    #expect(Self.indexed(bytes, level: level) == reference, "\(level) \(text)")
                }
                // The last scalar of the input ends at its last byte.
                let ending = Array(("{\"n\":" + String(repeating: " ", count: pad) + scalar + "}").utf8)
                let endingReference = Self.indexed(ending, level: nil)
                for level in levels { #expect(Self.indexed(ending, level: level) == endingReference) }
                #expect(JSONStructuralDifferential.disagreements(in: bytes) == [], "\(text)")
            }
        }
    }

    @Test("strings too long for an entry are wide, built alike over the pass and by the byte walk")
    func wideStrings() throws {
        // Past the 20 bits of an entry's length: one plain, one with escapes
        // (kept escaped), one a key.
        let long = String(repeating: "abcdefgh", count: 140_000)
        let escaped = String(repeating: "ab\\n\\u00e9", count: 240_000)
        let text = "{\"\(long)\": [\"\(long)\", \"\(escaped)\", 1.5, {\"k\": true}]}"
        let bytes = Array(text.utf8)
        let reference = Self.indexed(bytes, level: nil)
        for level in Self.vectorLevels { #expect(Self.indexed(bytes, level: level) == reference, "level \(level)") }
        var index = IngredientIndex()
        try JSONFormat().readIndex(.bytes(bytes), into: &index)
        let wide = index.storedEntries.filter { $0.kindByte & 0x10 != 0 }
        #expect(wide.count == 3)
        #expect(index.string(at: 1) == long)
        #expect(index.string(at: 3) == long)
        #expect(index.string(at: 4) == String(repeating: "ab\né", count: 240_000))
        #expect(Array(long.utf8).withUnsafeBytes { index.string(at: 1, equals: $0) })
        #expect(!Array(long.utf8.dropLast()).withUnsafeBytes { index.string(at: 1, equals: $0) })
        #expect(index.sourceOffset(at: 3) == long.utf8.count + 6)
        #expect(index.end(of: 0) == index.count)
        #expect(index.elementCount(at: 2) == 4)
    }

    /// The build's container stack is kept with an index built more than
    /// once: an index built once keeps none, one built again keeps it, and
    /// a deeper build than it has room for gets a deeper one, and the
    /// entries a fresh index gets.
    @Test("an index reused across sources: a deeper build gets a deeper container stack")
    func reusedIndexScratch() throws {
        let shallow = Array(#"{"a":[{"b":1}]}"#.utf8)
        let depth = 300
        let deep = Array(
            (String(repeating: #"{"k":["#, count: depth) + "7" + String(repeating: "]}", count: depth)).utf8)
        let shallowLimits = IngredientLimits(maximumDepth: 4)
        let deepLimits = IngredientLimits(maximumDepth: 2 * depth + 1)
        for level in Self.vectorLevels {
            var index = IngredientIndex()
            for build in 0..<2 {
                var source = try JSONIngredientSource(
                    .bytes(shallow), options: JSONReadingOptions(limits: shallowLimits))
                source.structuralLevel = level
                try source.readIndex(into: &index)
                #expect(index.count == 6)
                #expect((index.storageForBuilding.builderScratch != nil) == (build == 1))
            }
            var second = try JSONIngredientSource(.bytes(deep), options: JSONReadingOptions(limits: deepLimits))
            second.structuralLevel = level
            try second.readIndex(into: &index)
            #expect(index.count == 3 * depth + 1)
            #expect(
                index.storedEntries.map(\.description).joined(separator: "\n")
                    == Self.indexed(deep, level: nil, limits: deepLimits))
        }
    }

    @Test("the C build writes the index's own entry layout")
    func entryLayout() {
        #expect(IngredientIndex.Storage.rawEntryLayout == (8, 16, 8, 12))
        #expect(JSONStructuralPass.cLayoutIsTheIndexs)
    }
}
