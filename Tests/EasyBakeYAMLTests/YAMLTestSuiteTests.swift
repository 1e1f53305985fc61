import EasyBake
import EasyBakeTestSupport
import EasyBakeYAML
import Foundation
import Testing

/// Runs yaml/yaml-test-suite (../shared/corpora/yaml-test-suite) by its pass
/// rules at the loader level: a case with an `error` file must be rejected;
/// every other case must load, and where it has `in.json` the documents must
/// equal those JSON values (compared as trees, key order ignored).
@Suite("yaml-test-suite")
struct YAMLTestSuiteTests {
    enum Outcome: Equatable {
        case pass
        /// An error case that loaded.
        case accepted
        /// A valid case that did not load.
        case rejected(String)
        /// A valid case that loaded to something other than in.json.
        case mismatch
    }

    /// Cases that fail today, pinned so that a fix or a regression shows.
    /// The suite runs with the default options (all documents aside): 79
    /// cases. Before unknown tags read as their value by default (issue 16,
    /// item 2), the defaults failed 13 more — 5TYM, 6CK3, 6WLZ, 7FWL, 9WXW,
    /// C4HZ, CC74, CUP7, M5C3, P76L, UGM3, Z67P, Z9M4, whose tagged nodes
    /// read wrapped — and the suite had to drop tags to pass them.
    /// Every entry is a gap of libyaml 0.2.5 (which reads YAML 1.1 plus parts
    /// of 1.2) or a key that is itself a mapping or sequence, which EasyBake's
    /// string-keyed dictionaries cannot hold.
    static let knownFailures: Set<String> = [
        // Valid YAML whose key is a sequence or mapping: EasyBake's keys are strings (→ .unsupported).
        "4FJ6", "6BFJ", "6PBE", "9MMW", "KK5P", "LX3P", "M2N8/00", "M2N8/01", "M5DY", "Q9WF", "RZP5", "SBG9", "V9D5",
        "X38W", "XW4D",
        // Valid YAML 1.2 that libyaml 0.2.5 rejects (empty keys, tabs, unknown directives, flow edge cases, ...).
        "2JQS", "2LFX", "2SXE", "4ABK", "4MUZ/00", "4MUZ/01", "4MUZ/02", "58MP", "5MUD", "5T43", "6BCT", "6CA3",
        "6LVF", "6M2F", "7Z25", "8XYN", "96NN/00", "96NN/01", "9SA2", "A2M4", "BEC7", "CFD4", "DBG4", "DK3J",
        "DK95/00", "DK95/03", "DK95/04", "FP8R", "FRK4", "HM87/00", "HWV9", "K3WX", "M7A3", "MUS6/05", "MUS6/06",
        "NHX8", "NJ66", "NKF9", "Q5MG", "QT73", "R4YG", "S3PD", "SM9W/01", "UKK6/00", "UT92", "VJP3/01", "W4TN",
        "W5VH", "Y79Y/001", "Y79Y/010",
        // Valid YAML that libyaml 0.2.5 reads differently (`?foo` in flow, trailing spaces in block scalars, `&an:chor`).
        "652Z", "HM87/01", "JEF9/02", "L24T/01", "Y2GN",
        // Invalid YAML that libyaml 0.2.5 accepts and EasyBake cannot tell from libyaml's events (comments
        // without a space, tabs, quoted scalars' indentation, ...). EasyBake does reject the lone plain "-" (G5U8,
        // YJV2), flow content less indented than its block collection (9C9N) and directives after a document
        // without "..." (9HCY, EB22, MUS6/01, RHX7), which libyaml lets through.
        "9JBA", "CVW2", "DK95/01", "MUS6/00", "QB6E", "S98Z", "SU5Z", "X4QW", "Y79Y/003",
    ]

    static func cases(in root: URL) -> [String] {
        let manager = FileManager.default
        var ids: [String] = []
        for id in (try? manager.contentsOfDirectory(atPath: root.path)) ?? [] where id.count == 4 {
            let folder = root.appendingPathComponent(id)
            if manager.fileExists(atPath: folder.appendingPathComponent("in.yaml").path) {
                ids.append(id)
            } else {
                for sub in (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
                where manager.fileExists(
                    atPath: folder.appendingPathComponent(sub).appendingPathComponent("in.yaml").path)
                {
                    ids.append("\(id)/\(sub)")
                }
            }
        }
        return ids.sorted()
    }

    static func run(_ folder: URL) -> Outcome {
        let manager = FileManager.default
        let mustFail = manager.fileExists(atPath: folder.appendingPathComponent("error").path)
        guard let bytes = manager.contents(atPath: folder.appendingPathComponent("in.yaml").path) else {
            return .rejected("unreadable")
        }
        // The default options, but for every document of the stream: the
        // suite's in.json files show tagged nodes by their value, as the
        // default unknown-tag policy (.value) reads them.
        var options = YAMLReadingOptions()
        options.documents = .all
        let loaded: Ingredients
        do {
            loaded = try YAMLFormat(options: options).read(.bytes(Array(bytes)))
        } catch {
            return mustFail ? .pass : .rejected("\(error.code): \(error.message)")
        }
        if mustFail { return .accepted }
        guard let json = manager.contents(atPath: folder.appendingPathComponent("in.json").path) else { return .pass }
        guard let expected = try? TinyJSON.values(Array(json)) else { return .rejected("in.json unreadable") }
        return sameTree(loaded, .array(IngredientArray(expected))) ? .pass : .mismatch
    }

    /// Equal as JSON values: key order ignored, numbers by value.
    static func sameTree(_ a: Ingredients, _ b: Ingredients) -> Bool {
        var pairs = [(a, b)]
        while let (x, y) = pairs.popLast() {
            switch (x, y) {
            case (.array(let l), .array(let r)):
                guard l.count == r.count else { return false }
                pairs.append(contentsOf: zip(l, r))
            case (.dictionary(let l), .dictionary(let r)):
                guard l.count == r.count else { return false }
                for (key, value) in l {
                    guard let other = r[key] else { return false }
                    pairs.append((value, other))
                }
            case (.integer(let l), .float(let r)), (.float(let r), .integer(let l)):
                if Double(l) != r { return false }
            default:
                if x != y { return false }
            }
        }
        return true
    }

    @Test(
        "every case follows the suite's pass rule, except the pinned known failures",
        .enabled(if: TestPaths.corpus("yaml-test-suite") != nil))
    func suite() throws {
        let root = try #require(TestPaths.corpus("yaml-test-suite"))
        let ids = Self.cases(in: root)
        #expect(ids.count == 402)
        var failures: [String: Outcome] = [:]
        for id in ids {
            let outcome = Self.run(root.appendingPathComponent(id))
            if outcome != .pass { failures[id] = outcome }
        }
        let errorCases = ids.filter {
            FileManager.default.fileExists(atPath: root.appendingPathComponent($0).appendingPathComponent("error").path)
        }
        // Judged cases: those the loader-level rule can judge (an error file or in.json).
        let judged = ids.filter {
            let folder = root.appendingPathComponent($0)
            return FileManager.default.fileExists(atPath: folder.appendingPathComponent("error").path)
                || FileManager.default.fileExists(atPath: folder.appendingPathComponent("in.json").path)
        }
        print(
            "yaml-test-suite: \(ids.count - failures.count) of \(ids.count) cases pass, "
                + "\(judged.filter { failures[$0] == nil }.count) of \(judged.count) judged cases "
                + "(\(errorCases.filter { failures[$0] == nil }.count) of \(errorCases.count) error cases rejected)")
        for id in failures.keys.sorted() { print("  \(id): \(failures[id]!)") }
        let failing = Set(failures.keys)
        #expect(failing.subtracting(Self.knownFailures).sorted() == [], "new failures")
        #expect(Self.knownFailures.subtracting(failing).sorted() == [], "fixed: remove from knownFailures")
    }
}

/// Just enough JSON to read the suite's `in.json` files (one or more values
/// one after another), so that this test does not depend on the JSON module.
enum TinyJSON {
    struct Malformed: Error {}

    static func values(_ bytes: [UInt8]) throws -> [Ingredients] {
        var reader = Reader(bytes: bytes)
        var values: [Ingredients] = []
        reader.skipSpace()
        while reader.index < bytes.count {
            values.append(try reader.value())
            reader.skipSpace()
        }
        return values
    }

    struct Reader {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        mutating func value() throws -> Ingredients {
            skipSpace()
            guard index < bytes.count else { throw Malformed() }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var entries: [(key: String, value: Ingredients)] = []
                skipSpace()
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .dictionary(IngredientDictionary(entries)) }
                while true {
                    skipSpace()
                    guard case .string(let key) = try value() else { throw Malformed() }
                    skipSpace()
                    guard bytes[index] == UInt8(ascii: ":") else { throw Malformed() }
                    index += 1
                    entries.append((key, try value()))
                    skipSpace()
                    index += 1
                    if bytes[index - 1] == UInt8(ascii: "}") { return .dictionary(IngredientDictionary(entries)) }
                }
            case UInt8(ascii: "["):
                index += 1
                var elements: [Ingredients] = []
                skipSpace()
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(IngredientArray(elements)) }
                while true {
                    elements.append(try value())
                    skipSpace()
                    index += 1
                    if bytes[index - 1] == UInt8(ascii: "]") { return .array(IngredientArray(elements)) }
                }
            case UInt8(ascii: "\""):
                index += 1
                var scalars: [UInt8] = []
                while bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") {
                        index += 1
                        let escape = bytes[index]
                        index += 1
                        switch escape {
                        case UInt8(ascii: "n"): scalars.append(0x0A)
                        case UInt8(ascii: "t"): scalars.append(0x09)
                        case UInt8(ascii: "r"): scalars.append(0x0D)
                        case UInt8(ascii: "b"): scalars.append(0x08)
                        case UInt8(ascii: "f"): scalars.append(0x0C)
                        case UInt8(ascii: "u"):
                            var code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)!
                            index += 4
                            if code >= 0xD800, code < 0xDC00, bytes[index] == UInt8(ascii: "\\") {
                                let low = UInt32(
                                    String(decoding: bytes[index + 2..<index + 6], as: UTF8.self), radix: 16)!
                                index += 6
                                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                            }
                            scalars.append(contentsOf: Array(String(Character(Unicode.Scalar(code)!)).utf8))
                        default: scalars.append(escape)
                        }
                    } else {
                        scalars.append(bytes[index])
                        index += 1
                    }
                }
                index += 1
                return .string(String(decoding: scalars, as: UTF8.self))
            case UInt8(ascii: "t"): index += 4; return true
            case UInt8(ascii: "f"): index += 5; return false
            case UInt8(ascii: "n"): index += 4; return .null
            default:
                let start = index
                while index < bytes.count,
                    !([0x20, 0x0A, 0x0D, 0x09, 0x2C, 0x5D, 0x7D] as [UInt8]).contains(bytes[index])
                {
                    index += 1
                }
                guard let number = Ingredients.number(literal: String(decoding: bytes[start..<index], as: UTF8.self))
                else {
                    throw Malformed()
                }
                return number
            }
        }
    }
}
