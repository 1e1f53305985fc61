import Foundation
import Testing
import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport

/// The flat index the JSON scanner builds: its layout, and that it says
/// exactly what the event source says — the same values, the same errors at
/// the same places — for every input.
@Suite("JSON index")
struct JSONIndexTests {
    static func index(_ text: String, limits: IngredientLimits = .default) throws(EasyBakeError) -> IngredientIndex {
        var source = try JSONIngredientSource(.text(text), options: .init(limits: limits))
        var index = IngredientIndex()
        try source.readIndex(into: &index)
        return index
    }

    /// The events of the index, or its error.
    static func indexEvents(
        _ bytes: [UInt8], limits: IngredientLimits = .default, scanning: JSONByteScanning = .vector
    ) -> Swift.Result<[IngredientEvent], EasyBakeError> {
        do {
            var source = try JSONIngredientSource(.bytes(bytes), options: .init(limits: limits))
            source.byteScanning = scanning
            var index = IngredientIndex()
            try source.readIndex(into: &index)
            var events = IndexedIngredientSource(index: index)
            return .success(try collectEvents(&events))
        } catch let error as EasyBakeError {
            return .failure(error)
        } catch {
            Issue.record("not an EasyBakeError: \(error)")
            return .failure(EasyBakeError(.invalidValue, "\(error)"))
        }
    }

    /// The events of the event source, or its error.
    static func sourceEvents(
        _ bytes: [UInt8], limits: IngredientLimits = .default, scanning: JSONByteScanning = .vector
    ) -> Swift.Result<[IngredientEvent], EasyBakeError> {
        do {
            var source = try JSONIngredientSource(.bytes(bytes), options: .init(limits: limits))
            source.byteScanning = scanning
            return .success(try collectEvents(&source))
        } catch let error as EasyBakeError {
            return .failure(error)
        } catch {
            Issue.record("not an EasyBakeError: \(error)")
            return .failure(EasyBakeError(.invalidValue, "\(error)"))
        }
    }

    /// The index and the event source agree on `bytes`, and so do the two
    /// ways of scanning (``JSONByteScanning``): the same events or the same
    /// error, every way.
    static func expectAgreement(_ bytes: [UInt8], limits: IngredientLimits = .default, _ name: String) {
        for scanning in JSONByteScanning.allCases {
            expectAgreement(
                indexEvents(bytes, limits: limits, scanning: scanning),
                sourceEvents(bytes, limits: limits, scanning: scanning),
                "\(name) (\(scanning): index, events)")
        }
        expectAgreement(
            sourceEvents(bytes, limits: limits, scanning: .vector),
            sourceEvents(bytes, limits: limits, scanning: .word),
            "\(name) (events: vector, word)")
    }

    static func expectAgreement(
        _ first: Swift.Result<[IngredientEvent], EasyBakeError>,
        _ second: Swift.Result<[IngredientEvent], EasyBakeError>,
        _ name: String
    ) {
        switch (first, second) {
        case (.success(let fromIndex), .success(let fromSource)):
            #expect(fromIndex == fromSource, "\(name): the index's events differ")
        case (.failure(let fromIndex), .failure(let fromSource)):
            #expect(fromIndex.code == fromSource.code, "\(name)")
            #expect(fromIndex.message == fromSource.message, "\(name)")
            #expect(fromIndex.location?.line == fromSource.location?.line, "\(name)")
            #expect(fromIndex.location?.column == fromSource.location?.column, "\(name)")
        case (.success, .failure(let error)):
            Issue.record("\(name): the index accepts what the source rejects: \(error)")
        case (.failure(let error), .success):
            Issue.record("\(name): the index rejects what the source accepts: \(error)")
        }
    }

    @Test("entries are depth first; a container spans its contents and counts its elements")
    func layout() throws {
        let index = try Self.index(
            #"{"id": 7, "tags": ["a", 2.5e1], "none": null, "ok": true, "no": false, "empty": {}}"#)
        let kinds = (0..<index.count).map { index.kind(at: $0) }
        #expect(
            kinds == [
                .dictionary, .string, .integer, .string, .array, .string, .float, .string, .null,
                .string, .true, .string, .false, .string, .dictionary,
            ])
        #expect(index.end(of: 0) == index.count)
        #expect(index.elementCount(at: 0) == 6)
        #expect(index.end(of: 4) == 7)
        #expect(index.elementCount(at: 4) == 2)
        #expect(index.elementCount(at: 14) == 0)
        #expect(index.end(of: 14) == 15)
        #expect(index.string(at: 1) == "id")
        #expect(index.scalar(at: 2) == .integer(7))
        #expect(index.scalar(at: 6) == .float(25))
        #expect(index.string(at: 2) == nil)
        #expect(index.sourceOffset(at: 2) == 7)
        let tags = Array("tags".utf8)
        #expect(tags.withUnsafeBytes { index.string(at: 3, equals: $0) })
        #expect(!tags.withUnsafeBytes { index.string(at: 1, equals: $0) })
    }

    @Test("strings with escapes are decoded into the arena; plain and non-ASCII strings stay in the input")
    func strings() throws {
        let index = try Self.index(#"["plain", "caf\u00e9 \ud83d\ude00", "tab\tand \"quote\"", "naïve", ""]"#)
        #expect(index.string(at: 1) == "plain")
        #expect(index.string(at: 2) == "café 😀")
        #expect(index.string(at: 3) == "tab\tand \"quote\"")
        #expect(index.string(at: 4) == "naïve")
        #expect(index.string(at: 5) == "")
        let escaped = Array("café 😀".utf8)
        #expect(escaped.withUnsafeBytes { index.string(at: 2, equals: $0) })
    }

    @Test("one index is reused from document to document")
    func reuse() throws {
        var index = IngredientIndex()
        var first = try JSONIngredientSource(.text(#"{"a": [1, 2, 3], "b": "\n"}"#))
        try first.readIndex(into: &index)
        #expect(index.count == 8)
        var second = try JSONIngredientSource(.text(#"["x"]"#))
        try second.readIndex(into: &index)
        #expect(index.count == 2)
        #expect(index.string(at: 1) == "x")
        var events = IndexedIngredientSource(index: index)
        #expect(try collectEvents(&events) == [.beginArray, .scalar("x"), .endArray])
    }

    @Test("a tree built from the index equals the tree built from the source")
    func tree() throws {
        let text =
            #"{"users": [{"id": 1, "name": "Ada", "tags": [], "score": 1e400, "big": 123456789012345678901234567890}]}"#
        let index = try Self.index(text)
        var events = IndexedIngredientSource(index: index)
        let fromIndex = try Ingredients(reading: &events)
        #expect(fromIndex == (try JSONFormat().read(.text(text))))
    }

    @Test("skipping through the index's events steps over a whole value")
    func skipping() throws {
        let index = try Self.index(#"{"skip": {"deep": [1, [2, [3]]]}, "keep": "yes"}"#)
        var events = IndexedIngredientSource(index: index)
        #expect(try events.next() == .beginDictionary)
        #expect(try events.next() == .key("skip"))
        try events.skipValue()
        #expect(try events.next() == .key("keep"))
        #expect(try events.next() == .scalar("yes"))
        #expect(try events.next() == .endDictionary)
        #expect(try events.next() == nil)
    }

    @Test(
        "malformed documents fail as the event source fails: same message, same place",
        arguments: [
            "", " ", "[1,]", #"{"a":1,}"#, "[1 2]", #"{"a" 1}"#, #"{"a":}"#, "[", "]", "{", #"{"a":1"#, "[1,", "01",
            "-",
            "1.", "1e", "tru", "nul", #""abc"#, #""\x""#, #""\ud800""#, "[1]]", "{} {}", #"{1:2}"#, "[\"a\u{01}\"]",
            "[.5]",
            "\u{FEFF}", "[\"\\u00\"]", "[true false]", "{\"a\":[}", "[{]}",
        ])
    func errors(_ text: String) {
        Self.expectAgreement(Array(text.utf8), text.debugDescription)
    }

    @Test("the depth limit is the event source's")
    func depth() {
        var limits = IngredientLimits.default
        limits.maximumDepth = 3
        Self.expectAgreement(Array("[[[1]]]".utf8), limits: limits, "depth 3")
        Self.expectAgreement(Array("[[[[1]]]]".utf8), limits: limits, "depth 4")
        Self.expectAgreement(Array(#"{"a":{"b":{"c":{}}}}"#.utf8), limits: limits, "objects")
    }

    @Test("mutated documents: the index and the event source agree on every one")
    func fuzzed() {
        let seeds = [
            #"{"users": [{"id": 1, "name": "A\u00e9", "tags": ["x", "y"], "ok": true, "n": null, "f": -1.5e-3}], "count": 1}"#,
            // Runs longer than a vector: text, text around non-ASCII and
            // escapes, and indentation.
            "{\n        \"a long key, longer than sixteen bytes\": \"Zürich — a rather long value with ünïcödé and \\\"escapes\\\" in it\",\n\t\t\t\t\t\t\t\t\"b\": [\n                1, 2\n        ]\n}",
            #"[[], {}, [{}], {"a": []}, "\\\"", 0, -0, 1E+2]"#,
        ]
        let alphabet = Array(#"{}[],:"\ 0123456789.eE+-tfnu\"#.utf8)
        var random = SeededGenerator(seed: 14)
        for seed in seeds {
            let original = Array(seed.utf8)
            for _ in 0..<400 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let at = Int.random(in: 0..<bytes.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: bytes[at] = alphabet.randomElement(using: &random)!
                    case 1: bytes.remove(at: at)
                    default: bytes.insert(alphabet.randomElement(using: &random)!, at: at)
                    }
                    if bytes.isEmpty { break }
                }
                Self.expectAgreement(bytes, String(decoding: bytes, as: UTF8.self).debugDescription)
                Self.expectPrunedAgreement(bytes, String(decoding: bytes, as: UTF8.self).debugDescription)
            }
        }
    }

    static let prunedPaths: [IngredientPath] = ["users[0].name", "users[*].tags[1]", "count", "f"].map {
        try! IngredientPath(parsing: $0)
    }

    /// An index pruned to a few paths agrees with the whole tree: the same
    /// values at those paths, or the same error — a member left out is
    /// checked as strictly as one kept.
    static func expectPrunedAgreement(_ bytes: [UInt8], _ name: String) {
        let whole = Swift.Result { () throws(EasyBakeError) -> Ingredients in try JSONFormat().read(.bytes(bytes)) }
        let pruned = Swift.Result { () throws(EasyBakeError) -> Ingredients in
            var source = try JSONIngredientSource(.bytes(bytes))
            guard let first = try source.next() else {
                throw EasyBakeError.syntax("expected a value, found the end of the input", at: source.location)
            }
            var index = IngredientIndex()
            try source.readValue(startingWith: first, into: &index, keeping: PathMatcher(prunedPaths))
            while try source.next() != nil {}
            return try Ingredients(index: index, at: 0)
        }
        switch (pruned, whole) {
        case (.success(let pruned), .success(let whole)):
            for path in prunedPaths {
                #expect(pruned.resolve(path) == whole.resolve(path), "\(name): \(path)")
            }
        case (.failure(let a), .failure(let b)):
            #expect(a.code == b.code, "\(name)")
            #expect(a.message == b.message, "\(name)")
            #expect(a.location?.line == b.location?.line, "\(name)")
            #expect(a.location?.column == b.location?.column, "\(name)")
        case (.success, .failure(let error)):
            Issue.record("\(name): the pruned index accepts what the source rejects: \(error)")
        case (.failure(let error), .success):
            Issue.record("\(name): the pruned index rejects what the source accepts: \(error)")
        }
    }

    @Test("a value too large to build whole is pruned over the structural pass too")
    func prunedLarge() throws {
        let numbers = (0..<70_000).map(String.init).joined(separator: ",")
        let text = #"{"skip": [\#(numbers)], "users": [{"name": "Ada", "age": 36, "tags": ["a", "b"]}], "count": 2}"#
        var source = try JSONIngredientSource(.text(text))
        source.byteScanning = .vector
        var index = IngredientIndex()
        try source.readValue(
            startingWith: try #require(try source.next()), into: &index, keeping: PathMatcher(Self.prunedPaths))
        #expect(try Ingredients(index: index, at: 0) == ["users": [["name": "Ada", "tags": ["a", "b"]]], "count": 2])
    }

    @Test("an index pruned to a few paths keeps what they reach and leaves out members no path needs")
    func pruned() throws {
        let text =
            #"{"skip": {"deep": [1, 2, {"x": "y"}]}, "users": [{"name": "Ada", "age": 36, "tags": ["a", "b"]}], "count": 2, "f": [1, {"g": 2}]}"#
        // The byte walk prunes: `skip` is left out; the records keep only
        // what the paths need; `f` is kept whole, as is an element no path
        // needs (it keeps its place).
        var source = try JSONIngredientSource(.text(text))
        source.byteScanning = .word
        let first = try #require(try source.next())
        var index = IngredientIndex()
        try source.readValue(startingWith: first, into: &index, keeping: PathMatcher(Self.prunedPaths))
        let tree = try Ingredients(index: index, at: 0)
        #expect(
            tree == [
                "users": [["name": "Ada", "tags": ["a", "b"]]],
                "count": 2,
                "f": [1, ["g": 2]],
            ])
        // Over the structural pass, a value this small is built whole: faster
        // than pruning it, and the paths find the same.
        var whole = try JSONIngredientSource(.text(text))
        whole.byteScanning = .vector
        var wholeIndex = IngredientIndex()
        try whole.readValue(
            startingWith: try #require(try whole.next()), into: &wholeIndex, keeping: PathMatcher(Self.prunedPaths))
        let expected = try JSONFormat().read(.text(text))
        #expect(
            try Ingredients(index: wholeIndex, at: 0)
                == (JSONStructuralPass.level > 0 ? expected : tree))
        Self.expectPrunedAgreement(Array(text.utf8), "sample")
        for malformed in [
            #"{"skip": [1,, 2], "count": 1}"#, "{\"skip\": \"a\u{01}\", \"count\": 1}",
            #"{"skip": {"a" 1}, "count": 1}"#,
            #"{"count": 1, "skip": tru}"#, #"{"users": [{"age": 01}]}"#,
        ] {
            Self.expectPrunedAgreement(Array(malformed.utf8), malformed)
        }
    }
}

/// The index over every file of JSONTestSuite: what the event source
/// accepts, the index accepts with the same events; what it rejects, the
/// index rejects with the same error.
@Suite(
    "JSON index over JSONTestSuite",
    .enabled(if: TestPaths.corpus("JSONTestSuite") != nil, "../shared/corpora is absent"))
struct JSONIndexSuiteTests {
    static func files() -> [String] {
        guard let folder = TestPaths.corpus("JSONTestSuite")?.appendingPathComponent("test_parsing"),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }

    @Test("every file")
    func everyFile() throws {
        let folder = TestPaths.corpus("JSONTestSuite")!.appendingPathComponent("test_parsing")
        let names = Self.files()
        #expect(names.count >= 300)
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
            JSONIndexTests.expectAgreement(bytes, name)
        }
    }
}
