import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Foundation
import Testing

/// Skipping takes a faster road than reading; it must be exactly as strict,
/// and fail with exactly the error reading gives.
@Suite("JSON skipping is as strict as reading")
struct JSONSkippingTests {
    enum Outcome: Equatable {
        case ok
        case failed(EasyBakeError.Code, line: Int?, column: Int?, message: String)

        init(_ body: () throws(EasyBakeError) -> Void) {
            do {
                try body()
                self = .ok
            } catch {
                self = .failed(
                    error.code, line: error.location?.line, column: error.location?.column, message: error.message)
            }
        }
    }

    /// Reads `bytes` whole, or skips its value (and, inside `{"k": …}`, the
    /// rest of the container), then requires the end.
    /// `level` picks the structural pass the skips run (`nil`: the machine's).
    static func outcomes(_ bytes: [UInt8], level: Int32? = nil) -> (read: Outcome, skip: Outcome, skipRest: Outcome) {
        let read = Outcome { () throws(EasyBakeError) in
            var source = try JSONIngredientSource(.bytes(bytes))
            _ = try Ingredients(reading: &source)
        }
        let skip = Outcome { () throws(EasyBakeError) in
            var source = try JSONIngredientSource(.bytes(bytes))
            source.structuralLevel = level
            try source.skipValue()
            if try source.next() != nil { throw EasyBakeError.syntax("more after the value", at: nil) }
        }
        let skipRest = Outcome { () throws(EasyBakeError) in
            var source = try JSONIngredientSource(.bytes(bytes))
            source.structuralLevel = level
            guard let first = try source.next() else { return }
            if first == .beginArray || first == .beginDictionary { try source.skipRestOfContainer() }
            if try source.next() != nil { throw EasyBakeError.syntax("more after the value", at: nil) }
        }
        return (read, skip, skipRest)
    }

    @Test("random documents with random damage: skipping agrees with reading")
    func differential() throws {
        var random = SeededGenerator(seed: 0x5C1F)
        let pieces = [
            "{", "}", "[", "]", ",", ":", "\"k\"", "\"a\\u00e9\\n\"", "\"é\"", "1", "-0.5e3", "01", "tru", "true",
            "null", " ", "\"x", "\\", "\u{1}", "\"\u{1}\"", "1.", "[1,]", "{\"a\":1,}",
        ]
        var disagreements: [String] = []
        var failures = 0
        for _ in 0..<4_000 {
            var text = ""
            for _ in 0..<Int.random(in: 1...14, using: &random) { text += pieces.randomElement(using: &random)! }
            // Half the documents are valid ones with one piece damaged.
            if Bool.random(using: &random) {
                var valid = #"{"a": [1, {"b": "c\u00e9"}, null, true], "d": {"e": -2.5e-3, "f": []}, "g": "h"}"#
                let index = valid.index(valid.startIndex, offsetBy: Int.random(in: 0..<valid.count, using: &random))
                valid.replaceSubrange(index...index, with: pieces.randomElement(using: &random)!)
                text = valid
            }
            for level in JSONStructuralPass.machineLevels {
                let (read, skip, skipRest) = Self.outcomes(Array(text.utf8), level: level)
                if level == 0, read != .ok { failures += 1 }
                if read != skip || read != skipRest {
                    disagreements.append("\(level) \(text)\n read \(read)\n skip \(skip)\n rest \(skipRest)")
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5).joined(separator: "\n\n"))")
        #expect(failures > 1_000)
    }

    /// Hides the JSON source's own key matching, so that the protocol's
    /// default (key events and `String` equality) does it.
    struct DefaultKeyMatching: IngredientSource {
        var base: JSONIngredientSource
        mutating func next() throws(EasyBakeError) -> IngredientEvent? { try base.next() }
        mutating func skipValue() throws(EasyBakeError) { try base.skipValue() }
        var location: EasyBake.SourceLocation { base.location }
    }

    @Test("matching raw key bytes finds what String equality finds, and fails alike")
    func keyMatching() throws {
        var random = SeededGenerator(seed: 0x6E75)
        // JSON escapes spelling the same keys, and other normalizations of them.
        let keys = ["a", "b", "ab", "é", #"e\u0301"#, #"\u0061"#, "K", #"\u212A"#, ""]
        var checked = 0
        for _ in 0..<3_000 {
            var text = "{"
            for index in 0..<Int.random(in: 0...5, using: &random) {
                if index > 0 { text += Int.random(in: 0..<40, using: &random) == 0 ? "" : "," }
                text +=
                    "\"\(keys.randomElement(using: &random)!)\""
                    + (Int.random(in: 0..<40, using: &random) == 0 ? "" : ":")
                text += ["1", "{\"a\": [2]}", "\"x\"", "[]", "tru"].randomElement(using: &random)!
            }
            text += Int.random(in: 0..<30, using: &random) == 0 ? "" : "}"
            let paths = (0..<2).map { _ in
                IngredientPath([.key(["a", "b", "ab", "é", "K", ""].randomElement(using: &random)!)])
            }
            let matcher = PathMatcher(paths + [IngredientPath([.key("a"), .key("a"), .index(0)])])
            let native = Outcome { () throws(EasyBakeError) in
                var source = try JSONIngredientSource(.text(text))
                let found = try matcher.resolve(from: &source)
                if found.values.contains(where: { $0 != nil }) { checked += 1 }
                throw EasyBakeError(.invalidValue, "\(found.values)")
            }
            let viaDefault = Outcome { () throws(EasyBakeError) in
                var source = DefaultKeyMatching(base: try JSONIngredientSource(.text(text)))
                let found = try matcher.resolve(from: &source)
                throw EasyBakeError(.invalidValue, "\(found.values)")
            }
            #expect(native == viaDefault, "\(text)")
        }
        #expect(checked > 500)
    }

    @Test("every JSONTestSuite file: skipping agrees with reading")
    func suite() throws {
        guard let corpus = TestPaths.corpus("JSONTestSuite") else { return }
        let folder = corpus.appendingPathComponent("test_parsing")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        #expect(names.count > 300)
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
            for level in JSONStructuralPass.machineLevels {
                let (read, skip, skipRest) = Self.outcomes(bytes, level: level)
                #expect(read == skip, "\(level) \(name)")
                #expect(read == skipRest, "\(level) \(name)")
            }
        }
    }

    @Test("deep nesting is limited the same way when skipped")
    func depth() {
        let deep = Array((String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).utf8)
        let (read, skip, skipRest) = Self.outcomes(deep)
        #expect(read == skip)
        #expect(read == skipRest)
        guard case .failed(let code, _, let column, _) = read else {
            Issue.record("600 levels should pass the default limit")
            return
        }
        #expect(code == .limitExceeded)
        #expect(column == 513)
    }

    /// Skips the value of `bytes` with one way of finding runs of plain
    /// bytes: where the skip ended, or the error.
    /// `level` picks the structural pass's level (`nil`: the one
    /// `scanning` runs); with `.word` and no level the skip is the byte
    /// walk, the reference.
    static func skipEnd(
        _ bytes: [UInt8], _ scanning: JSONByteScanning, byStructure: Bool = false, limits: IngredientLimits = .default,
        level: Int32? = nil
    ) -> String {
        endOrError { () throws(EasyBakeError) in
            var source = try JSONIngredientSource(.bytes(bytes), options: .init(limits: limits))
            source.byteScanning = scanning
            source.structuralLevel = level
            if byStructure { try source.skipValueByStructure() } else { try source.skipValue() }
            let end = source.bytesRead
            _ = try source.next()
            return end
        }
    }

    /// "ok at" the offset `body` returns, or its error with its place.
    static func endOrError(_ body: () throws(EasyBakeError) -> Int?) -> String {
        do {
            guard let end = try body() else { return "no container" }
            return "ok at \(end)"
        } catch {
            return "\(error.code) \(error.location?.line ?? -1):\(error.location?.column ?? -1) \(error.message)"
        }
    }

    @Test("skipping ends at the same byte, or fails alike, with vector and word scanning")
    func byteScanningAgrees() throws {
        var random = SeededGenerator(seed: 0x57A6)
        // Strings around the 8- and 16-byte steps of the two scans, escapes
        // and non-ASCII text at their edges, and damage of every kind.
        let pieces = [
            "{", "}", "[", "]", ",", ":", "\"k\"", "\"a\\\\\"", "\"\\\"\"", "\\", "\"é\"", " ", "\n", "12", "-0.5e3",
            "true", "nul", "\"\u{1}\"", "\"x", "\"" + String(repeating: "w", count: 15) + "\"",
            "\"" + String(repeating: "w", count: 17) + "é\"", "\"" + String(repeating: "w", count: 31) + "\\n\"",
        ]
        let values = [
            "12", "-0.5e3", "true", "null", "\"é\"", "\"" + String(repeating: "w", count: 15) + "\"",
            "\"" + String(repeating: "w", count: 17) + "é\"", "\"" + String(repeating: "w", count: 31) + "\\n\"",
            "{\"k\": [1, {\"a\\\"\": \"b\"}]}", "[]", "{}",
        ]
        var documents: [[UInt8]] = (0..<3_000).map { number in
            var text = "["
            for index in 0..<Int.random(in: 1...40, using: &random) {
                // Every other document is valid: values between commas.
                if number % 2 == 0 {
                    text += (index == 0 ? "" : ", ") + values.randomElement(using: &random)!
                } else {
                    text += pieces.randomElement(using: &random)!
                }
            }
            return Array((text + "]").utf8)
        }
        if let corpus = TestPaths.corpus("JSONTestSuite") {
            let folder = corpus.appendingPathComponent("test_parsing")
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".json") {
                documents.append(try [UInt8](Data(contentsOf: folder.appendingPathComponent(name))))
            }
        }
        var skipped = 0
        for bytes in documents {
            let vector = Self.skipEnd(bytes, .vector)
            #expect(vector == Self.skipEnd(bytes, .word), "\(String(decoding: bytes, as: UTF8.self))")
            if vector.hasPrefix("ok") { skipped += 1 }
        }
        #expect(skipped > 1_500)
    }

    /// Skips the rest of the container `bytes` opens, after its first
    /// event: where that ended, or the error.
    static func skipRestEnd(
        _ bytes: [UInt8], _ scanning: JSONByteScanning, byStructure: Bool, level: Int32? = nil
    ) -> String {
        endOrError { () throws(EasyBakeError) in
            var source = try JSONIngredientSource(.bytes(bytes))
            source.byteScanning = scanning
            source.structuralLevel = level
            guard let first = try source.next(), first == .beginArray || first == .beginDictionary else { return nil }
            // Inside the container, after its first member's key or first element.
            _ = try source.next()
            if byStructure { try source.skipRestOfContainerByStructure() } else { try source.skipRestOfContainer() }
            let end = source.bytesRead
            _ = try source.next()
            return end
        }
    }

    @Test("skipping over structural positions ends where the byte walk ends, or fails alike, at every level")
    func structuralSkipAgrees() throws {
        var random = SeededGenerator(seed: 0x5C2A)
        // Values long enough to span several 64-byte blocks, strings with
        // escapes, non-ASCII text and control characters, numbers and
        // literals against brackets and quotes, and damage of every kind.
        let long = String(repeating: "w", count: 70)
        let values = [
            "12", "-0.5e3", "true", "false", "null", "\"é\"", "\"\(long)\"", "\"\(long)\\\"\\\\\"",
            "\"a\\u00e9\\ud83d\\ude00\"", "{\"k\": [1, {\"a\\\"\": \"b\"}]}", "[]", "{}", "[[[[[]]]]]",
            "{\"\(long)\": {\"x\": [true, null, 0]}}",
        ]
        let damage = [
            "{", "}", "[", "]", ",", ":", "\"", "\\", "\u{1}", "01", "1.", "-", "tru", "nul", "1x", "\"\\x\"",
            "\"\\ud800\"", "\u{7F}", "\u{80}", " ", "\n", "\"\u{1}\"",
        ]
        var documents: [[UInt8]] = []
        for number in 0..<2_000 {
            var text = "{\"a\": ["
            for index in 0..<Int.random(in: 1...30, using: &random) {
                text +=
                    (index == 0 ? "" : Bool.random(using: &random) ? ", " : ",\n  ") + values.randomElement(
                        using: &random)!
            }
            text += "], \"b\": " + values.randomElement(using: &random)! + "}"
            var bytes = Array(text.utf8)
            // Three documents in four are damaged in one place.
            if number % 4 != 0 {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                bytes.replaceSubrange(at...at, with: Array(damage.randomElement(using: &random)!.utf8))
            }
            // Some bytes that are not UTF-8 at all.
            if number % 50 == 1 { bytes.insert(0xC0, at: Int.random(in: 0..<bytes.count, using: &random)) }
            documents.append(bytes)
        }
        if let corpus = TestPaths.corpus("JSONTestSuite") {
            let folder = corpus.appendingPathComponent("test_parsing")
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".json") {
                documents.append(try [UInt8](Data(contentsOf: folder.appendingPathComponent(name))))
            }
        }
        var skipped = 0
        var failed = 0
        var limited = 0
        for bytes in documents {
            let text = String(decoding: bytes, as: UTF8.self)
            // The byte walk: word scanning runs no structural pass.
            let byBytes = Self.skipEnd(bytes, .word)
            let tight = Self.skipEnd(bytes, .word, limits: Self.tightLimits)
            let restByBytes = Self.skipRestEnd(bytes, .word, byStructure: false)
            for level in JSONStructuralPass.machineLevels {
                // The readers' road at this level, and the structural skip
                // itself (which the readers leave out at level 0).
                #expect(Self.skipEnd(bytes, .vector, level: level) == byBytes, "\(level) \(text)")
                #expect(Self.skipEnd(bytes, .vector, byStructure: true, level: level) == byBytes, "\(level) \(text)")
                // Tight limits: strings, numbers and depth over them fail alike.
                #expect(
                    Self.skipEnd(bytes, .vector, byStructure: true, limits: Self.tightLimits, level: level) == tight,
                    "\(level) \(text)")
                #expect(Self.skipRestEnd(bytes, .vector, byStructure: false, level: level) == restByBytes, "\(text)")
                #expect(Self.skipRestEnd(bytes, .vector, byStructure: true, level: level) == restByBytes, "\(text)")
            }
            if tight != byBytes { limited += 1 }
            if byBytes.hasPrefix("ok") { skipped += 1 } else { failed += 1 }
        }
        #expect(skipped > 500)
        #expect(failed > 500)
        #expect(limited > 100)
    }

    /// Limits the documents of ``structuralSkipAgrees()`` pass often.
    static let tightLimits: IngredientLimits = {
        var limits = IngredientLimits.default
        limits.maximumStringBytes = 40
        limits.maximumNumberLength = 5
        limits.maximumDepth = 4
        return limits
    }()

    @Test("deep nesting is limited alike over structural positions")
    func structuralDepth() {
        for depth in [61, 62, 63, 64, 511, 512, 513, 600] {
            let deep = Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
            let byBytes = Self.skipEnd(deep, .word)
            for level in JSONStructuralPass.machineLevels {
                #expect(Self.skipEnd(deep, .vector, level: level) == byBytes, "\(depth)")
                #expect(Self.skipEnd(deep, .vector, byStructure: true, level: level) == byBytes, "\(depth)")
            }
        }
    }
}
