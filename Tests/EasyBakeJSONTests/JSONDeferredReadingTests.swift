import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Foundation
import Testing

/// A streamed record that the reader leaves for a job to read
/// (`IngredientSource.deferValue`) is found by counting brackets, unchecked:
/// read later, it must give what reading it in place gives — the same
/// index, or the same error at the same place — and the events after it
/// must be the same.
@Suite("JSON values left unread read as they would have in place")
struct JSONDeferredReadingTests {
    /// Walks `bytes`' events, reading every container that begins at
    /// `depth` (0: the root) either in place or left unread and read after,
    /// and logs what it met: the events, each value read, and the error
    /// that ended the walk.
    static func walk(_ bytes: [UInt8], depth: Int, deferring: Bool, _ scanning: JSONByteScanning) -> (
        log: [String], deferred: Int
    ) {
        var log: [String] = []
        var deferred = 0
        do throws(EasyBakeError) {
            var source = try JSONIngredientSource(.bytes(bytes))
            source.byteScanning = scanning
            var open = 0
            while let event = try source.next() {
                switch event {
                case .beginArray where open == depth, .beginDictionary where open == depth:
                    var index = IngredientIndex()
                    if deferring, let value = source.deferValue(startingWith: event, keeping: nil) {
                        deferred += 1
                        // JSON reads a deferred value itself, never handing it back.
                        #expect(try value.read(into: &index, keeping: nil))
                    } else {
                        try source.readValue(startingWith: event, into: &index)
                    }
                    log.append("value \(try Ingredients(index: index))")
                case .beginArray, .beginDictionary:
                    open += 1
                    log.append("\(event)")
                case .endArray, .endDictionary:
                    open -= 1
                    log.append("\(event)")
                case .key, .scalar:
                    log.append("\(event)")
                }
            }
        } catch {
            log.append("\(error.code) \(error.location?.line ?? -1):\(error.location?.column ?? -1) \(error.message)")
        }
        return (log, deferred)
    }

    static func documents() throws -> [[UInt8]] {
        var random = SeededGenerator(seed: 0xDEF3)
        // Strings whose quotes and backslashes fall on every side of the
        // finder's 64-byte blocks, brackets inside strings, and damage of
        // every kind.
        func run(_ count: Int) -> String { String(repeating: "w", count: count) }
        let values = [
            "12", "-0.5e3", "true", "null", "\"é\"", "\"[{\"", "\"}]\\\"]\"", "\"\\\\\"", "\"\\\\\\\\\\\"\"",
            "\"" + run(62) + "\\\"\"", "\"" + run(63) + "\\\\\"", "\"" + run(61) + "\\\\\\\"}\"",
            "{\"k\": [1, {\"a\\\"\": \"b]\"}]}", "[]", "{}", "[[[" + "\"" + run(70) + "\"]]]",
            "{\"" + run(60) + "\": {\"x\": \"\\u005d\"}}",
        ]
        let pieces = [
            "{", "}", "[", "]", ",", ":", "\"k\"", "\"", "\\", "\"\\", " ", "\n", "\u{1}", "tru", "\"" + run(63),
        ]
        var documents: [[UInt8]] = (0..<3_000).map { number in
            var elements: [String] = []
            for _ in 0..<Int.random(in: 1...30, using: &random) {
                elements.append(values.randomElement(using: &random)!)
            }
            var text =
                number % 3 == 0
                ? "{" + elements.enumerated().map { "\"k\($0.offset)\": \($0.element)" }.joined(separator: ", ") + "}"
                : "[" + elements.joined(separator: ", ") + "]"
            // Two documents in three are damaged somewhere.
            if number % 3 != 1 {
                var characters = Array(text)
                let at = Int.random(in: 0..<characters.count, using: &random)
                characters.replaceSubrange(at...at, with: Array(pieces.randomElement(using: &random)!))
                text = String(characters)
            }
            return Array(text.utf8)
        }
        if let corpus = TestPaths.corpus("JSONTestSuite") {
            let folder = corpus.appendingPathComponent("test_parsing")
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".json") {
                documents.append(try [UInt8](Data(contentsOf: folder.appendingPathComponent(name))))
            }
        }
        return documents
    }

    @Test("random and damaged documents, and every JSONTestSuite file, with vector and byte-by-byte finding")
    func agrees() throws {
        var deferred = 0, failed = 0
        for bytes in try Self.documents() {
            for depth in [0, 1] {
                let inPlace = Self.walk(bytes, depth: depth, deferring: false, .vector)
                for scanning in JSONByteScanning.allCases {
                    let left = Self.walk(bytes, depth: depth, deferring: true, scanning)
                    #expect(
                        left.log == inPlace.log, "\(scanning) depth \(depth): \(String(decoding: bytes, as: UTF8.self))"
                    )
                    deferred += left.deferred
                }
                if inPlace.log.last?.hasPrefix("syntax") == true { failed += 1 }
            }
        }
        // Most containers are found and left unread; many documents fail.
        #expect(deferred > 10_000)
        #expect(failed > 1_000)
    }

    @Test("pruned to a recipe's paths, a value left unread keeps what reading in place keeps")
    func pruned() throws {
        let users = (0..<200).map {
            #"{"id": \#($0), "name": "u\#($0) [\\\"x\\\"]", "skip": {"deep": [[\#($0)]]}, "tags": ["a"]}"#
        }
        let bytes = Array(("[" + users.joined(separator: ",") + "]").utf8)
        let matcher = try PathMatcher(["name", "tags[0]"])
        // The byte walk prunes `skip`; over the structural pass, records this
        // small are built whole (faster than pruning them).
        for scanning in JSONByteScanning.allCases {
            var inPlace = try JSONIngredientSource(.bytes(bytes)), left = try JSONIngredientSource(.bytes(bytes))
            inPlace.byteScanning = scanning
            left.byteScanning = scanning
            let prunes = scanning == .word || JSONStructuralPass.level == 0
            _ = try inPlace.next()
            _ = try left.next()
            var count = 0
            while let event = try inPlace.next() {
                #expect(try left.next() == event)
                guard event == .beginDictionary else { break }
                var expected = IngredientIndex(), got = IngredientIndex()
                try inPlace.readValue(startingWith: event, into: &expected, keeping: matcher)
                let deferred = left.deferValue(startingWith: event, keeping: matcher)
                let value = try #require(deferred)
                #expect(try value.read(into: &got, keeping: matcher))
                #expect(try Ingredients(index: got) == Ingredients(index: expected))
                #expect(try (Ingredients(index: got)["skip"] == nil) == prunes)
                count += 1
            }
            #expect(count == 200)
            #expect(try left.next() == nil)
        }
    }
}
