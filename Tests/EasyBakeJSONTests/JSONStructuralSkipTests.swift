import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Foundation
import Testing

/// The readers skip arrays and objects over JSON's structure
/// (`easybake_json_skip`) where the machine has a vector pass; the byte
/// walk (word scanning, which runs none) is the reference. Finding a path
/// (`easybake get`) and streaming records through a recipe must find the
/// same values, or fail with the same error at the same line and column,
/// at every level of the pass, on whatever input.
@Suite("JSON structural skip in the readers")
struct JSONStructuralSkipTests {
    struct Pick: Codable, Equatable, Sendable {
        var id: Int?
        var city: String?
    }

    static let pick = try! Recipe(name: "Pick", orderedMapping: [("id", "id"), ("city", "address.city")])

    /// What a reader found in `bytes`, or its error with its place, with
    /// the structural pass at `level` (`nil`: the byte walk) and `limits`.
    static func outcome(
        _ bytes: [UInt8], level: Int32?, limits: IngredientLimits = .default,
        _ body: (inout JSONIngredientSource) throws(EasyBakeError) -> String
    )
        -> String
    {
        do {
            var source = try JSONIngredientSource(.bytes(bytes), options: JSONReadingOptions(limits: limits))
            if let level {
                source.structuralLevel = level
            } else {
                source.byteScanning = .word
            }
            return try body(&source)
        } catch {
            return "\(error.code) \(error.location?.line ?? -1):\(error.location?.column ?? -1) \(error.message)"
        }
    }

    /// Finds paths that make the reader skip whole records and members.
    static func found(_ bytes: [UInt8], level: Int32?, last: Int) -> String {
        outcome(bytes, level: level) { (source) throws(EasyBakeError) in
            let paths = try ["users[\(last)].id", "users[1].address.city", "nothere"].map {
                (text) throws(EasyBakeError) in try IngredientPath(parsing: text)
            }
            return "\(try PathMatcher(paths).resolve(from: &source).values)"
        }
    }

    /// Streams the records through a recipe that reads two fields of each.
    static func streamed(_ bytes: [UInt8], level: Int32?) -> String {
        outcome(bytes, level: level) { (source) throws(EasyBakeError) in
            var records = try Baker().bakeEach(Pick.self, from: source, each: "users[*]", recipe: pick)
            var models: [Pick] = []
            while let model = try records.nextModel() { models.append(model) }
            return "\(models)"
        }
    }

    /// A document of `count` records shaped like the benchmark's, with
    /// strings that cross 64-byte blocks, escapes and non-ASCII text.
    static func users(_ count: Int, using random: inout SeededGenerator) -> String {
        let texts = [
            "plain", "caf\u{E9}", "and \\\"quoted\\\" 50%", "tab\\tand\\u00e9", String(repeating: "long ", count: 20),
            "\u{1F600} emoji", "back\\\\slash", "",
        ]
        var records: [String] = []
        for id in 0..<count {
            let tags = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                "\"\(texts.randomElement(using: &random)!)\""
            }
            let orders = (0..<Int.random(in: 0...2, using: &random)).map { order in
                "{\"id\": \(order * 1_000 + id), \"price\": \(Double(id) / 7), \"shipped\": \(Bool.random(using: &random)), \"note\": null}"
            }
            records.append(
                "{\"id\":\(id),\"bio\":\"\(texts.randomElement(using: &random)!)\",\"score\":-1.5e-3,"
                    + "\"address\":{\"street\":\"\(texts.randomElement(using: &random)!)\",\"city\":\"C\(id)\"},"
                    + "\"tags\":[\(tags.joined(separator: ","))],\n  \"orders\": [\(orders.joined(separator: ", "))],"
                    + "\"deep\":[[[{\"a\":[]}]]],\"empty\":{}}")
        }
        return "{\"users\":[\n" + records.joined(separator: ",\n") + "\n], \"after\": true}"
    }

    @Test("finding paths and streaming records: the same values or errors at every level")
    func readersAgree() throws {
        var random = SeededGenerator(seed: 0x5EB1)
        let damage = [
            "{", "}", "[", "]", ",", ":", "\"", "\\", "\u{1}", "01", "1.", "-", "tru", "nul", "1x", "\"\\x\"",
            "\"\\ud800\"", "\u{7F}", " ", "\n", "\"\u{1}\"", "\u{E9}",
        ]
        var documents: [(bytes: [UInt8], last: Int)] = []
        for number in 0..<400 {
            let count = Int.random(in: 1...12, using: &random)
            var bytes = Array(Self.users(count, using: &random).utf8)
            // Three documents in four are damaged in one place.
            if number % 4 != 0 {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                bytes.replaceSubrange(at...at, with: Array(damage.randomElement(using: &random)!.utf8))
            }
            if number % 40 == 1 { bytes.insert(0xC0, at: Int.random(in: 0..<bytes.count, using: &random)) }
            documents.append((bytes, count - 1))
        }
        for name in ["json/users.json", "json/benchmark-users.json"] {
            documents.append((try [UInt8](Data(contentsOf: TestPaths.fixture(name))), 2))
        }
        if let corpus = TestPaths.corpus("JSONTestSuite") {
            let folder = corpus.appendingPathComponent("test_parsing")
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".json") {
                documents.append((try [UInt8](Data(contentsOf: folder.appendingPathComponent(name))), 0))
            }
        }
        var found = 0
        var failed = 0
        for (bytes, last) in documents {
            let text = String(decoding: bytes, as: UTF8.self)
            let byBytes = Self.found(bytes, level: nil, last: last)
            let streamedByBytes = Self.streamed(bytes, level: nil)
            for level in JSONStructuralPass.machineLevels {
                #expect(Self.found(bytes, level: level, last: last) == byBytes, "\(level) \(text)")
                #expect(Self.streamed(bytes, level: level) == streamedByBytes, "\(level) \(text)")
            }
            if byBytes.hasPrefix("[") { found += 1 } else { failed += 1 }
        }
        #expect(found > 100)
        #expect(failed > 100)
    }
}
