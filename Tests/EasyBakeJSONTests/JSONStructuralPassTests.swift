import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Foundation
import Testing

/// The structural pass (`easybake_json_structurals`) at every level this
/// machine runs — byte by byte, SSE2 or NEON, AVX2 — against a reference
/// that walks the bytes one at a time, whatever the bytes and however the
/// input is cut into calls.
@Suite("JSON structural pass")
struct JSONStructuralPassTests {
    typealias Position = JSONStructuralPass.Position

    static func isOperator(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ":"),
            UInt8(ascii: ","):
            return true
        default: return false
        }
    }

    /// The positions, one byte at a time: outside strings, operators,
    /// quotes and the first byte of each run of other non-whitespace
    /// bytes; a backslash escapes the byte after it wherever it is (so an
    /// escaped quote outside a string opens nothing: it is a stray byte).
    /// A closing quote is special when its string has a control character,
    /// a backslash or a non-ASCII byte.
    static func reference(_ bytes: [UInt8]) -> [Position] {
        var positions: [Position] = []
        var inString = false
        var escaped = false
        var inRun = false
        var special = false
        for (offset, byte) in bytes.enumerated() {
            let wasEscaped = escaped
            escaped = false
            if inString {
                if wasEscaped { continue }
                if byte == UInt8(ascii: "\"") {
                    inString = false
                    positions.append(Position(offset: offset, special: special))
                    continue
                }
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    special = true
                } else if byte < 0x20 || byte >= 0x80 {
                    special = true
                }
                continue
            }
            if byte == UInt8(ascii: "\""), !wasEscaped {
                inString = true
                special = false
                inRun = false
                positions.append(Position(offset: offset, special: false))
            } else if isOperator(byte) {
                inRun = false
                positions.append(Position(offset: offset, special: false))
            } else if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                inRun = false
            } else {
                if !inRun { positions.append(Position(offset: offset, special: false)) }
                inRun = true
                escaped = byte == UInt8(ascii: "\\") && !wasEscaped
            }
        }
        return positions
    }

    /// Every level and several ways of cutting the input agree with the reference.
    static func disagreements(_ bytes: [UInt8], name: String) -> [String] {
        let expected = reference(bytes)
        var problems: [String] = []
        for level in JSONStructuralPass.machineLevels {
            for blocks in [1, 3, 16] {
                let found = JSONStructuralPass.positions(of: bytes, level: level, blocksPerCall: blocks)
                if found != expected {
                    let first =
                        (0..<min(found.count, expected.count)).first { found[$0] != expected[$0] }
                        ?? min(found.count, expected.count)
                    let got = first < found.count ? found[first].description : "missing"
                    let wanted = first < expected.count ? expected[first].description : "none"
                    problems.append(
                        "\(name), level \(level), \(blocks) blocks per call: #\(first) is \(got), expected \(wanted)")
                }
            }
        }
        return problems
    }

    @Test("random bytes, and random JSON-like text, at every level")
    func random() {
        var random = SeededGenerator(seed: 0x57A7)
        // Bytes the pass tells apart, non-ASCII ones and control characters
        // included, so that strings, escapes and runs cross block edges.
        let alphabet = Array("\"\\{}[]:, \t\n\rab01-.e".utf8) + [0x01, 0x1F, 0x7F, 0x80, 0xC3, 0xA9, 0xFF]
        var problems: [String] = []
        for round in 0..<3_000 {
            let length = Int.random(in: 0...300, using: &random)
            let bytes: [UInt8] = (0..<length).map { _ in
                round % 3 == 0 ? UInt8.random(in: 0...255, using: &random) : alphabet.randomElement(using: &random)!
            }
            problems += Self.disagreements(bytes, name: "random #\(round)")
            if problems.count > 5 { break }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
    }

    @Test("runs of backslashes and quotes across block edges")
    func backslashRuns() {
        var problems: [String] = []
        for lead in 0..<70 {
            for slashes in 0..<5 {
                let text =
                    "[\"" + String(repeating: "a", count: lead) + String(repeating: "\\", count: slashes)
                    + "\"\", 1]"
                problems += Self.disagreements(Array(text.utf8), name: text)
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
    }

    @Test("every fixture and every JSONTestSuite file, at every level")
    func files() throws {
        var files: [URL] = []
        if let enumerator = FileManager.default.enumerator(at: TestPaths.fixtures, includingPropertiesForKeys: nil) {
            for case let url as URL in enumerator where !url.hasDirectoryPath { files.append(url) }
        }
        #expect(files.count > 10)
        if let corpus = TestPaths.corpus("JSONTestSuite") {
            let folder = corpus.appendingPathComponent("test_parsing")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(names.count > 300)
            files += names.map { folder.appendingPathComponent($0) }
        }
        var problems: [String] = []
        for file in files {
            problems += Self.disagreements(try [UInt8](Data(contentsOf: file)), name: file.lastPathComponent)
        }
        #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
    }

    @Test("EASYBAKE_SCALAR forces the byte-by-byte pass when set to anything but 0")
    func forcingScalar() {
        #expect(JSONStructuralPass.chosenLevel(machine: 2, forced: nil) == 2)
        #expect(JSONStructuralPass.chosenLevel(machine: 2, forced: "") == 2)
        #expect(JSONStructuralPass.chosenLevel(machine: 2, forced: "0") == 2)
        #expect(JSONStructuralPass.chosenLevel(machine: 2, forced: "1") == 0)
        #expect(JSONStructuralPass.chosenLevel(machine: 1, forced: "yes") == 0)
        #expect(JSONStructuralPass.chosenLevel(machine: 1, forced: "00") == 0)
    }
}
