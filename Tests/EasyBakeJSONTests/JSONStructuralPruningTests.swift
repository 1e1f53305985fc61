import EasyBake
@_spi(Fuzzing) import EasyBakeJSON
import EasyBakeTestSupport
import Foundation
import Testing

/// A value read to be pruned to a recipe's paths, when it is too large to
/// build whole, is pruned in C over JSON's structure (`easybake_json_index`
/// given the picking's tables), as the byte walk prunes it: a member no
/// path needs writes no entry and its value is skipped, checked as strictly
/// as any. The byte walk is the reference: every input gives the same
/// entries, bit for bit, or the same error at the same line and column, at
/// every level of the pass. (The tests prune small values too:
/// `buildsSmallValuesWhole` off.)
@Suite("JSON index pruned over the structural pass")
struct JSONStructuralPruningTests {
    /// The paths of the benchmark's selective read, and a few more shapes:
    /// an element named by its index, a wildcard over a dictionary's
    /// members, a path that ends at a container (kept whole).
    static let paths = [
        "users[*].id", "users[*].email", "users[*].address.city", "users[1].tags", "after", "[0].id", "[*].address.*",
        "a.b",
    ]

    /// The entries of the index of the value `bytes` begins with, pruned to
    /// `paths`, or its error with its place, with the structural pass at
    /// `level` (`nil`: the byte walk).
    static func pruned(
        _ bytes: [UInt8], level: Int32?, paths: [String] = paths, limits: IngredientLimits = .default
    ) -> String {
        JSONStructuralSkipTests.outcome(bytes, level: level, limits: limits) { (source) throws(EasyBakeError) in
            source.buildsSmallValuesWhole = false
            let matcher = try PathMatcher(
                paths.map { (text) throws(EasyBakeError) in try IngredientPath(parsing: text) })
            guard let first = try source.next() else { return "empty" }
            var index = IngredientIndex()
            try source.readValue(startingWith: first, into: &index, keeping: matcher)
            return index.storedEntries.map(\.description).joined(separator: " ") + " then \(try source.next() as Any)"
        }
    }

    /// The entries of each record of the document's `users` array, each
    /// pruned to the records' paths as a stream reads it.
    static func streamed(_ bytes: [UInt8], level: Int32?) -> String {
        JSONStructuralSkipTests.outcome(bytes, level: level) { (source) throws(EasyBakeError) in
            source.buildsSmallValuesWhole = false
            guard try source.next() == .beginDictionary, try source.next() == .key("users"),
                try source.next() == .beginArray
            else { return "no users" }
            let matcher = try PathMatcher(
                ["id", "email", "address.city", "orders[1].price"].map { (text) throws(EasyBakeError) in
                    try IngredientPath(parsing: text)
                })
            var records: [String] = []
            var index = IngredientIndex()
            while let first = try source.next(), first != .endArray {
                try source.readValue(startingWith: first, into: &index, keeping: matcher)
                records.append(index.storedEntries.map(\.description).joined(separator: " "))
            }
            return records.joined(separator: "\n")
        }
    }

    static var vectorLevels: [Int32] { JSONStructuralPass.machineLevels.filter { $0 > 0 } }

    /// Whether `bytes` prune alike at every level, whole and streamed.
    static func expectAgreement(_ bytes: [UInt8], limits: IngredientLimits = .default, _ name: String) {
        let reference = pruned(bytes, level: nil, limits: limits)
        for level in vectorLevels {
            #expect(pruned(bytes, level: level, limits: limits) == reference, "\(level) \(name)")
        }
    }

    @Test("the C build reads the picking's tables in their own layout")
    func tableLayout() {
        #expect(JSONStructuralPass.cPickingLayoutIsTheMatchers)
    }

    @Test("members no path needs are left out over the structure as by the byte walk")
    func leftOut() throws {
        let text = #"""
            {"users": [{"id": 1, "email": "a@x", "skip": {"deep": [1, [2, "\u00e9"]]}, "address": {"city": "C", "zip": 1},
             "tags": ["t"]}, {"id": 2, "tags": [1, {"x": 2}], "n": -1.5e3, "s": "caf\u00e9"}], "after": true, "gone": [1]}
            """#
        let bytes = Array(text.utf8)
        let reference = Self.pruned(bytes, level: nil)
        #expect(!reference.contains("syntax"))
        for level in Self.vectorLevels {
            #expect(Self.pruned(bytes, level: level) == reference, "level \(level)")
            #expect(
                Self.pruned(bytes, level: level, paths: Array(Self.paths.prefix(5)))
                    == Self.pruned(bytes, level: nil, paths: Array(Self.paths.prefix(5))), "level \(level)")
        }
        // The C build prunes it itself (it does not leave it to the byte walk).
        for level in Self.vectorLevels {
            var structural = try JSONIngredientSource(.bytes(bytes))
            structural.structuralLevel = level
            let matcher = try PathMatcher(Self.paths.prefix(5).map { try IngredientPath(parsing: $0) })
            let found = structural.indexPrunedByStructure(keeping: matcher)
            let built = try #require(found)
            #expect(
                built.storedEntries.map(\.description).joined(separator: " ") + " then nil"
                    == Self.pruned(bytes, level: nil, paths: Array(Self.paths.prefix(5))))
        }
        // What is kept: the paths' values, with the whole of `users[1].tags`.
        var source = try JSONIngredientSource(.bytes(bytes))
        source.buildsSmallValuesWhole = false
        let matcher = try PathMatcher(Self.paths.prefix(5).map { try IngredientPath(parsing: $0) })
        let first = try #require(try source.next())
        var index = IngredientIndex()
        try source.readValue(startingWith: first, into: &index, keeping: matcher)
        #expect(
            try Ingredients(index: index)
                == [
                    "users": [
                        ["id": 1, "email": "a@x", "address": ["city": "C"]],
                        ["id": 2, "tags": [1, ["x": 2]]],
                    ],
                    "after": true,
                ])
    }

    @Test("by default, a small value is built whole and a large one pruned over the structure")
    func sizes() throws {
        let matcher = try PathMatcher(["users[*].id"])
        func read(_ count: Int, level: Int32?) throws -> IngredientIndex {
            let records = (0..<count).map { #"{"id": \#($0), "skip": [\#($0), {"a": "b"}]}"# }
            var source = try JSONIngredientSource(.text(#"{"users": ["# + records.joined(separator: ",") + "]}"))
            if let level { source.structuralLevel = level } else { source.byteScanning = .word }
            var index = IngredientIndex()
            try source.readValue(startingWith: try #require(try source.next()), into: &index, keeping: matcher)
            return index
        }
        for level in Self.vectorLevels {
            // 10 records: 9 entries each, built whole.
            #expect(try read(10, level: level).count == 3 + 10 * 9)
            // 10,000 records: 90,000 entries whole, 3 each pruned.
            #expect(try read(10_000, level: level).count == 3 + 10_000 * 3)
            #expect(try read(10_000, level: level).storedEntries == read(10_000, level: nil).storedEntries)
        }
    }

    @Test("every JSONTestSuite file and fixture: the same pruned entries or error")
    func corpusAndFixtures() throws {
        let documents = try JSONStructuralIndexTests.corpusAndFixtureDocuments()
        #expect(documents.count > 20)
        for bytes in documents {
            // Paths that prune every dictionary's members but one name.
            let reference = Self.pruned(bytes, level: nil, paths: ["a", "[*].id", "*.name"])
            for level in Self.vectorLevels {
                #expect(
                    Self.pruned(bytes, level: level, paths: ["a", "[*].id", "*.name"]) == reference,
                    "\(String(decoding: bytes, as: UTF8.self))")
            }
            Self.expectAgreement(bytes, String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test("damaged documents, whole and streamed: the same pruned entries or error")
    func damagedDocuments() {
        var failed = 0
        var built = 0
        // And a key that names a picked member only once decoded.
        let damage = JSONStructuralIndexTests.damage + ["\"c\\u0069ty\""]
        for bytes in JSONStructuralIndexTests.damagedUsers(seed: 0x9A11, damage: damage) {
            let text = String(decoding: bytes, as: UTF8.self)
            let reference = Self.pruned(bytes, level: nil)
            let streamedReference = Self.streamed(bytes, level: nil)
            for level in Self.vectorLevels {
                #expect(Self.pruned(bytes, level: level) == reference, "\(level) \(text)")
                #expect(Self.streamed(bytes, level: level) == streamedReference, "\(level) \(text)")
            }
            if reference.contains(" 1:") || reference.hasPrefix("syntax") { failed += 1 } else { built += 1 }
        }
        #expect(failed > 100)
        #expect(built > 100)
    }

    @Test("a key with an escape, or with text that is not ASCII, in a picked dictionary")
    func keys() throws {
        for text in [
            #"{"users": [{"\u0069d": 1, "id": 2, "e": 3}]}"#, #"{"users": [{"caf\u00e9": 1, "id": 2}]}"#,
            #"{"users": [{"café": {"id": 1}, "id": 2}]}"#, "{\"users\": [{\"caf\u{E9}\": 1, \"id\": 2}]}",
            "{\"users\": [{\"a\u{1}\": 1, \"id\": 2}]}", "{\"users\": [{\"\u{C0}\": 1, \"id\": 2}]}",
        ] {
            Self.expectAgreement(Array(text.utf8), text)
        }
    }

    @Test("at and past each limit, in a member left out: the same entries or error")
    func limits() {
        func member(_ value: String) -> String { #"{"users": [{"id": 1, "skip": \#(value)}], "after": 2}"# }
        let nested = { (depth: Int) in
            member(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        }
        let cases: [(String, IngredientLimits)] = [
            // The byte walk's quick skip goes 62 levels deep; deeper, it
            // keeps the member whole.
            (nested(61), .default), (nested(62), .default), (nested(63), .default),
            (nested(10), IngredientLimits(maximumDepth: 13)), (nested(10), IngredientLimits(maximumDepth: 12)),
            (member("\"" + String(repeating: "a", count: 200) + "\""), IngredientLimits(maximumStringBytes: 199)),
            (member("[\"" + String(repeating: "a", count: 200) + "\"]"), IngredientLimits(maximumStringBytes: 199)),
            (member("[\"" + String(repeating: "\\n", count: 120) + "\"]"), IngredientLimits(maximumStringBytes: 100)),
            (member(String(repeating: "7", count: 150)), IngredientLimits(maximumNumberLength: 149)),
            (member("[" + String(repeating: "7", count: 150) + "]"), IngredientLimits(maximumNumberLength: 149)),
            // Values left out do not count against the node limit.
            (member("[" + (0..<300).map(String.init).joined(separator: ",") + "]"), IngredientLimits(maximumNodes: 8)),
        ]
        var refused = 0
        for (text, limits) in cases {
            let bytes = Array(text.utf8)
            let reference = Self.pruned(bytes, level: nil, limits: limits)
            if reference.hasPrefix("limit") { refused += 1 }
            for level in Self.vectorLevels {
                #expect(Self.pruned(bytes, level: level, limits: limits) == reference, "\(level) \(text)")
            }
        }
        // The depth, the three strings and the two numbers.
        #expect(refused == 6)
    }

    /// Members left out at every offset of a 64-byte block, so that their
    /// values, keys and strings start and end in one block, at its edge or
    /// across it; and a document of more entries than one call of the C
    /// build has room for, so that it stops and goes on inside a member it
    /// leaves out.
    @Test("members left out at every offset of a block, and across the build's calls")
    func blocksAndCalls() {
        let values = [
            "7", "-12.5e3", "\"plain\"", "\"caf\u{E9}\"", "\"a\\\"b\"", "true", "null", "[1, \"x\", {\"k\": [2]}]",
            "{\"a\": {\"b\": \"\\u00e9\"}}", "01", "\"\u{1}\"", "[1 2]",
        ]
        for value in values {
            for pad in 0..<66 {
                let text =
                    "{\"users\": [{\"p\":\"" + String(repeating: "x", count: pad) + "\", \"skip\": " + value
                    + ", \"id\": 1}]}"
                Self.expectAgreement(Array(text.utf8), text)
            }
        }
        let records = (0..<3_000).map {
            #"{"id": \#($0), "skip": {"a": [\#($0), "s\#($0)", {"b": null}]}, "email": "e\#($0)", "n": 1e2}"#
        }
        let large = Array(("{\"users\": [" + records.joined(separator: ",") + "], \"after\": 1}").utf8)
        let reference = Self.pruned(large, level: nil)
        #expect(reference.first?.isNumber == true)
        for level in Self.vectorLevels { #expect(Self.pruned(large, level: level) == reference, "level \(level)") }
    }
}
