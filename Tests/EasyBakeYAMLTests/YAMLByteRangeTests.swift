import EasyBake
import EasyBakeYAML
import Foundation
import Testing
import EasyBakeTestSupport

/// A YAML stream read from byte ranges: the documents that begin in each
/// range, so that the ranges of a partition read every document once, in
/// order (issue 32, item 2).
@Suite("Byte ranges of YAML streams")
struct YAMLByteRangeTests {
    static let streams = [
        // Directives (after a `...`), comments before `---`, a bare first
        // document, a block scalar, a flow collection over several lines,
        // and a quoted scalar that holds "---" inside its line.
        "# a stream\nname: first\nitems:\n  - 1\n  - 2\n---\nname: second\ntext: |\n  ---not a marker\n  line\n...\n# comment\n%YAML 1.2\n%TAG !e! tag:example.com,2024:\n---\nname: third\nflow: [a,\n  b]\n---\n\"quoted --- inside\"\n--- {k: v}\n---\n",
        // CRLF line ends, an empty document, a document end without a next one.
        "---\r\na: 1\r\n---\r\n---\r\nb: [1, 2]\r\n...\r\n",
        // One document, and no document at all.
        "key: value\n",
        "# only a comment\n",
        "",
    ]

    /// Every partition of `0..<count` into two and three ranges (the last
    /// running past the end), and the whole in one.
    static func partitions(of count: Int) -> [[Range<Int>]] {
        var result: [[Range<Int>]] = [[0..<count], [0..<count + 10]]
        for a in 0...count { result.append([0..<a, a..<count]) }
        for a in stride(from: 0, through: count, by: 3) {
            for b in stride(from: a, through: count, by: 2) { result.append([0..<a, a..<b, b..<(count + 1)]) }
        }
        return result
    }

    /// The documents of `ranges` of `text`, one range after another.
    static func union(_ text: String, _ ranges: [Range<Int>]) throws -> [Ingredients] {
        var documents: [Ingredients] = []
        for range in ranges {
            var format = YAMLFormat()
            format.byteRange = range
            let share = try format.read(.text(text, name: "stream.yaml"))
            documents += try #require(share.arrayValue, "\(range) gave \(share)")
        }
        return documents
    }

    @Test("a stream split at every offset into two and three ranges reads every document once, in order")
    func partitionsReadEveryDocument() throws {
        for text in Self.streams {
            let whole = try #require(try YAMLFormat(options: .init(documents: .all)).read(.text(text)).arrayValue).map {
                $0
            }
            for ranges in Self.partitions(of: text.utf8.count) {
                #expect(try Self.union(text, ranges) == whole, "\(text.debugDescription) split \(ranges)")
            }
        }
    }

    @Test("a range begins at the first document at or after its start; directives go with their document")
    func boundaries() throws {
        let text = "a: 1\n...\n%YAML 1.2\n---\nb: 2\n---\nc: 3\n"
        // Offset 5 is the `...` line: the next document begins with its
        // directive, at offset 9.
        #expect(try Self.union(text, [5..<9]) == [])
        #expect(try Self.union(text, [5..<10]) == [["b": 2]])
        // Inside the directive: its document began before the range.
        #expect(try Self.union(text, [10..<21]) == [])
        #expect(try Self.union(text, [10..<30]) == [["c": 3]])
        // A stream's bytes as a file, mapped, read the same.
        let file = TestFiles.directory.appendingPathComponent("stream-\(UUID()).yaml")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var source = try YAMLIngredientSource(.file(file.path), byteRange: 9..<25)
        #expect(try Ingredients(reading: &source) == [["b": 2]])
    }

    @Test("a range that begins before the input reads from its start, as JSON's ranges do")
    func rangeBeforeTheInput() throws {
        // The documents' boundaries were looked for at negative offsets,
        // reading before the input's first byte.
        let text = Self.streams[0]
        let count = text.utf8.count
        for end in [0, 1, 30, count, count + 5] {
            #expect(try Self.union(text, [-5..<end]) == Self.union(text, [0..<end]), "-5..<\(end)")
        }
        #expect(try Self.union(text, [-10 ..< -2]) == [])
        #expect(try Self.union(text, [-10 ..< -2, 0..<count]) == Self.union(text, [0..<count]))
    }

    @Test("a malformed document in a range is named by the whole stream's line and the share's index")
    func errorsInARange() throws {
        let text = "a: 1\n---\na: 2\n---\na: [3\n---\na: 4\n"
        var format = YAMLFormat()
        format.byteRange = 9..<text.utf8.count
        let error = #expect(throws: EasyBakeError.self) { try format.read(.text(text, name: "broken.yaml")) }
        #expect(error?.code == .syntax)
        let whole = yamlError(input: .text(text, name: "broken.yaml"), .init(documents: .all))
        #expect(error?.location?.line == 6)
        #expect(error?.location == whole?.location)
        #expect(error?.message == whole?.message)

        struct Record: Decodable { let a: Int }
        let recordError = #expect(throws: EasyBakeError.self) {
            var shared = YAMLFormat()
            shared.byteRange = 5..<14
            let document = try Document(reading: .text("a: 1\n---\na: x\n", name: "typed.yaml"), format: shared)
            _ = try Baker().bake([Record].self, from: document)
        }
        #expect(recordError?.path?.description == "[0].a")
        #expect(recordError?.location?.line == 3)
        #expect(recordError?.location?.column == 4)
    }

    @Test("a bare document after ... fails in its share as in the whole stream")
    func bareDocumentAfterEnd() throws {
        let text = "a: 1\n...\nb: 2\n---\nc: 3\n"
        let whole = yamlError(text, .init(documents: .all))
        #expect(whole?.location?.line == 3)
        // Every share that holds the start of the stream holds the bare
        // document too, and fails where the whole stream does; the others
        // begin with the `---` after it.
        for end in 1...14 {
            var format = YAMLFormat()
            format.byteRange = 0..<end
            let error = #expect(throws: EasyBakeError.self, "\(end)") { try format.read(.text(text)) }
            #expect(error?.location == whole?.location)
            format.byteRange = end..<text.utf8.count
            #expect(try format.read(.text(text)) == [["c": 3]])
        }
    }
}
