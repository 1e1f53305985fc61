import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Testing

/// Splittable inputs: a JSON Lines file, or a top-level JSON array, read
/// from byte ranges. Whatever the offsets, the ranges of a partition read
/// every record exactly once, in order (issue 15, item 4).
@Suite("Byte ranges of JSON Lines and JSON arrays")
struct ByteRangeTests {
    static let jsonLines = [
        "{\"id\": 1, \"name\": \"Ada\"}\n\n{\"id\": 2, \"tags\": [\"a\", \"b\"]}\r\n  \n[3, {\"x\": \"4\\n\"}]\n\"five\"\n{\"id\": 6}",
        "{\"a\": 1}\n{\"a\": 2}\n",
        "\n\n",
        "7",
    ]

    static let jsonArrays = [
        #"[{"id": 1}, {"id": 2, "s": "a,]}[\"\n"}, [3, [4, {"k": [5]}]], "six", 7.5e1, null, true, {}]"#,
        "  [\n  {\n    \"id\": 1,\n    \"items\": [\n      {\n        \"x\": 1\n      },\n      {\n        \"x\": 2\n      }\n    ]\n  },\n  {\n    \"id\": 2\n  }\n]\n",
        "[]",
        "[ 1 ]",
        "[[],[[]],{\"a\":[]}]",
    ]

    /// The records of `ranges` of `text`, read by `make`, one after another.
    static func union(
        _ text: String, _ ranges: [Range<Int>],
        _ make: (IngredientInput, Range<Int>) throws(EasyBakeError) -> any IngredientSource
    ) throws -> [Ingredients] {
        var records: [Ingredients] = []
        for range in ranges {
            var source = AnyIngredientSource(try make(.text(text, name: "split"), range))
            let share = try Ingredients(reading: &source)
            records += try #require(share.arrayValue, "\(range) gave \(share)")
        }
        return records
    }

    /// Every partition of `0..<count` into two and three ranges (the last
    /// range running past the end too), and the whole in one.
    static func partitions(of count: Int) -> [[Range<Int>]] {
        var result: [[Range<Int>]] = [[0..<count], [0..<count + 10]]
        for a in 0...count { result.append([0..<a, a..<count]) }
        for a in 0...count {
            for b in a...count { result.append([0..<a, a..<b, b..<(count + 1)]) }
        }
        return result
    }

    @Test("JSON Lines split at every offset into two and three ranges reads every line once, in order")
    func jsonLinesPartitions() throws {
        for text in Self.jsonLines {
            let whole = try #require(try JSONLinesFormat().read(.text(text)).arrayValue).map { $0 }
            for ranges in Self.partitions(of: text.utf8.count) {
                let records = try Self.union(text, ranges) { (input, range) throws(EasyBakeError) in
                    try JSONLinesIngredientSource(input, byteRange: range)
                }
                #expect(records == whole, "\(text.debugDescription) split \(ranges)")
            }
        }
    }

    @Test("a JSON array split at every offset reads every element once, in order, however it is laid out")
    func jsonArrayPartitions() throws {
        for text in Self.jsonArrays {
            let whole = try #require(try JSONFormat().read(.text(text)).arrayValue).map { $0 }
            for ranges in Self.partitions(of: text.utf8.count) {
                let records = try Self.union(text, ranges) { (input, range) throws(EasyBakeError) in
                    try JSONIngredientSource(input, byteRange: range)
                }
                #expect(records == whole, "\(text.debugDescription) split \(ranges)")
            }
        }
    }

    @Test(
        "ranges of generated users, baked with several jobs, bake as the whole file does", arguments: ["jsonl", "json"])
    func bakedShares(format: String) throws {
        struct User: Decodable, Equatable, Sendable {
            let id: Int
            let name: String
            let scores: [Double]
        }
        let users = (0..<300).map { index -> Ingredients in
            [
                "id": .integer(Int64(index)), "name": .string("user \(index), \"quoted\" [\(index)]"),
                "scores": .array(IngredientArray((0..<(index % 4)).map { .float(Double($0) / 2) })),
            ]
        }
        let bytes: [UInt8] =
            format == "jsonl"
            ? try JSONLinesFormat().write(.array(IngredientArray(users)))
            : try JSONFormat().write(.array(IngredientArray(users)), options: .init(prettyPrinted: true))
        let input = IngredientInput.bytes(bytes, name: "users.\(format)")
        let makeFormat: (Range<Int>?) -> any IngredientFormat = { range in
            if format == "jsonl" {
                var jsonLines = JSONLinesFormat()
                jsonLines.byteRange = range
                return jsonLines
            }
            var json = JSONFormat()
            json.byteRange = range
            return json
        }
        let whole = try Baker().bakeEach(
            User.self, from: AnyIngredientSource(try makeFormat(nil).makeSource(for: input)), each: "[*]"
        ).map { try $0.get() }
        #expect(whole.count == 300)
        for shares in [2, 3, 7] {
            var baked: [User] = []
            for share in 0..<shares {
                let range = (bytes.count * share / shares)..<(bytes.count * (share + 1) / shares)
                let source = AnyIngredientSource(try makeFormat(range).makeSource(for: input))
                baked += try Baker().bakeEach(User.self, from: source, each: "[*]", jobs: 2).map { try $0.get() }
            }
            #expect(baked == whole, "\(format) in \(shares) shares")
        }
    }

    @Test("a malformed line in a range fails alone, named by the whole file's line")
    func errorsInARange() throws {
        let text = "{\"id\": 1}\n{\"id\": 2}\n{\"id\": oops}\n{\"id\": 4}\n"
        // Offset 15 is inside the second line: the range begins with the third.
        let start = 15
        struct Record: Decodable, Equatable { let id: Int }
        let results = Array(
            try Baker().bakeEach(
                Record.self,
                from: try JSONLinesIngredientSource(
                    .text(text, name: "broken.jsonl"), byteRange: start..<text.utf8.count),
                each: "[*]"))
        #expect(results.count == 2)
        guard case .failure(let error) = results.first else {
            Issue.record("the malformed line baked")
            return
        }
        #expect(error.location?.line == 3)
        #expect(error.path?.description == "[0]")
        #expect(try results.last?.get() == Record(id: 4))
    }

    @Test("a byte range of JSON that is no array says so, with the position")
    func notAnArray() throws {
        let error = #expect(throws: EasyBakeError.self) {
            try JSONIngredientSource(.text("\n {\"users\": []}", name: "object.json"), byteRange: 0..<5)
        }
        #expect(error?.code == .syntax)
        #expect(error?.message.contains("a byte range reads the elements of a top-level array") == true)
        #expect(error?.location?.line == 2)
        #expect(error?.location?.column == 2)
    }

    @Test("records keep their offsets in the whole file, for a job that tracks them")
    func recordOffsets() throws {
        let text = "{\"id\": 1}\n{\"id\": 2}\n{\"id\": 3}\n"
        var reader = try RecordReader(
            source: try JSONLinesIngredientSource(.text(text), byteRange: 10..<20), each: "[*]")
        let record = try #require(try reader.next())
        #expect(record.ingredients == ["id": 2])
        #expect(record.location.line == 2)
        #expect(try reader.next() == nil)
    }
}
