import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Testing

/// JSON Lines: one JSON value per line, read as one top-level array.
@Suite("JSON Lines")
struct JSONLinesTests {
    struct Person: Decodable, Equatable {
        let id: Int
        let name: String
    }

    static func lines(_ text: String) throws -> Ingredients {
        try JSONLinesFormat().read(.text(text, name: "people.jsonl"))
    }

    static func error(_ text: String) -> EasyBakeError? {
        do throws(EasyBakeError) {
            _ = try JSONLinesFormat().read(.text(text, name: "people.jsonl"))
            return nil
        } catch {
            return error
        }
    }

    @Test("each line is a record; blank lines are skipped; CRLF and a last line without a break are read")
    func linesAndBlanks() throws {
        #expect(try Self.lines("{\"id\": 1}\n{\"id\": 2}\n") == [["id": 1], ["id": 2]])
        #expect(try Self.lines("{\"id\": 1}\r\n\r\n  \t\n{\"id\": 2}\r\n") == [["id": 1], ["id": 2]])
        #expect(try Self.lines("{\"id\": 1}\n[1, 2]\n\"text\"\n3") == [["id": 1], [1, 2], "text", 3])
        #expect(try Self.lines("\u{FEFF}true\nnull\n") == [true, .null])
        #expect(try Self.lines("") == [])
        #expect(try Self.lines("\n\n   \n") == [])
    }

    @Test("a malformed line is an error with its line and column in the whole file")
    func malformedLine() throws {
        let error = try #require(Self.error("{\"id\": 1}\n\n{\"id\": 2, \"name\": }\n{\"id\": 3}\n"))
        #expect(error.code == .syntax)
        #expect(error.message == "expected a JSON value, found '}'")
        #expect(error.location?.line == 3)
        #expect(error.location?.column == 19)
        #expect(error.location?.lineText == "{\"id\": 2, \"name\": }")
    }

    @Test("a value must end on its line, and nothing else may follow it there")
    func oneValuePerLine() throws {
        let split = try #require(Self.error("{\"id\":\n1}\n"))
        #expect(split.message == "expected a JSON value, found the end of the line")
        #expect(split.location?.line == 1)
        #expect(split.location?.column == 7)
        let two = try #require(Self.error("{\"id\": 1}\r\n{\"id\": 2} {\"id\": 3}\r\n"))
        #expect(two.message.hasPrefix("expected the end of the line after the JSON value, found '{'"))
        #expect(two.location?.line == 2)
        #expect(two.location?.column == 11)
        let unclosed = try #require(Self.error("\"abc\n"))
        #expect(unclosed.message == "expected '\"' to close the string that begins here, found the end of the line")
    }

    @Test("the format is found by the extensions jsonl and ndjson")
    func extensions() throws {
        let registry = FormatRegistry([JSONLinesFormat()])
        #expect(try registry.format(forPath: "export.jsonl").name == "jsonl")
        #expect(try registry.format(forPath: "cellphones.ndjson").name == "jsonl")
    }

    @Test("writing puts each element of an array on a line of its own, compact")
    func writing() throws {
        let records: Ingredients = [["id": 1, "name": "Ada"], [1, 2], "line\nbreak", .null]
        let text = String(
            decoding: try JSONLinesFormat().write(records, options: .init(prettyPrinted: true)), as: UTF8.self)
        #expect(text == "{\"id\":1,\"name\":\"Ada\"}\n[1,2]\n\"line\\nbreak\"\nnull\n")
        #expect(try Self.lines(text) == records)
        let sorted = try JSONLinesFormat().write([["b": 1, "a": 2]], options: .init(sortedKeys: true))
        #expect(String(decoding: sorted, as: UTF8.self) == "{\"a\":2,\"b\":1}\n")
        #expect(try JSONLinesFormat().write([]) == [])
        #expect(throws: EasyBakeError.self) { try JSONLinesFormat().write(["id": 1]) }
    }

    @Test("[*] streams every line as a record, and a path reads one line")
    func records() throws {
        let text =
            "{\"id\": 1, \"name\": \"Ada\"}\n\n{\"id\": 2, \"name\": \"Grace\"}\n{\"id\": 3, \"name\": \"Katherine\"}\n"
        var reader = try RecordReader(source: try JSONLinesIngredientSource(.text(text)), each: "[*]")
        var names: [Ingredients] = []
        var paths: [String] = []
        var lines: [Int] = []
        while let record = try reader.next() {
            names.append(record.ingredients["name"] ?? .null)
            paths.append(record.path.description)
            lines.append(record.location.line)
        }
        #expect(names == ["Ada", "Grace", "Katherine"])
        #expect(paths == ["[0]", "[1]", "[2]"])
        #expect(lines == [1, 3, 4])
        var source = try JSONLinesIngredientSource(.bytes(Array(text.utf8)))
        #expect(try PathMatcher(["[1].name"]).resolve(from: &source)["[1].name"] == "Grace")
    }

    @Test("bakeEach over JSON Lines fails a malformed line's record alone and goes on")
    func bakeEachFailsOneRecord() throws {
        let text =
            "{\"id\": 1, \"name\": \"Ada\"}\n{\"id\": 2, \"name\": }\n\n{\"id\": 3, \"name\": \"Katherine\"}\r\n{\"id\": \"four\", \"name\": \"Linus\"}\n{\"id\": 5, \"name\": \"Barbara\"}"
        let results = Array(
            try Baker().bakeEach(
                Person.self, from: try JSONLinesIngredientSource(.text(text, name: "people.jsonl")), each: "[*]"))
        #expect(results.count == 5)
        #expect(try results[0].get() == Person(id: 1, name: "Ada"))
        guard case .failure(let malformed) = results[1] else {
            Issue.record("the malformed line baked")
            return
        }
        #expect(malformed.code == .syntax)
        #expect(malformed.message == "record 1: expected a JSON value, found '}'")
        #expect(malformed.path?.description == "[1]")
        #expect(malformed.location?.line == 2)
        #expect(malformed.location?.column == 19)
        #expect(try results[2].get() == Person(id: 3, name: "Katherine"))
        guard case .failure(let mismatch) = results[3] else {
            Issue.record("a string id baked as Int")
            return
        }
        #expect(mismatch.code == .typeMismatch)
        #expect(mismatch.path?.description == "[3].id")
        #expect(try results[4].get() == Person(id: 5, name: "Barbara"))
        // Records read pruned to the recipe's paths fail alone too.
        let recipe = try Recipe(mapping: ["id": "id", "name": "name"])
        let pruned = Array(
            try Baker().bakeEach(
                Person.self, from: try JSONLinesIngredientSource(.text(text, name: "people.jsonl")), each: "[*]",
                recipe: recipe, materialization: .recipePaths))
        #expect(pruned.map { (try? $0.get())?.id } == [1, nil, 3, nil, 5])
        guard case .failure(let prunedError) = pruned[1] else { return }
        #expect(prunedError.location?.line == 2)
        #expect(prunedError.path?.description == "[1]")
    }

    @Test("streamed records equal the records of the tree, whole or pruned")
    func streamedEqualsTree() throws {
        let text =
            "{\"id\": 1, \"name\": \"Ada\", \"x\": [1, {\"y\": 2}]}\n{\"name\": \"Grace\", \"id\": 2, \"z\": {}}\n"
        let expected = [Person(id: 1, name: "Ada"), Person(id: 2, name: "Grace")]
        #expect(try Self.lines(text).arrayValue?.count == 2)
        for materialization in [Baker.RecordMaterialization.automatic, .wholeRecords] {
            let streamed = try Baker().bakeEach(
                Person.self, from: try JSONLinesIngredientSource(.text(text)), each: "[*]",
                materialization: materialization
            ).map { try $0.get() }
            #expect(streamed == expected)
        }
        let recipe = try Recipe(mapping: ["id": "id", "name": "name"])
        let pruned = try Baker().bakeEach(
            Person.self, from: try JSONLinesIngredientSource(.text(text)), each: "[*]", recipe: recipe,
            materialization: .recipePaths
        ).map { try $0.get() }
        #expect(pruned == expected)
    }

    @Test("records inside lines stream too, and a malformed line fails without ending the stream")
    func nestedRecords() throws {
        let text = "{\"items\": [1, 2]}\n{\"items\": [3,]}\n{\"items\": [4]}\n"
        var reader = try RecordReader(source: try JSONLinesIngredientSource(.text(text)), each: "[*].items[*]")
        var values: [Ingredients] = []
        var failures: [EasyBakeError] = []
        while true {
            do throws(EasyBakeError) {
                guard let record = try reader.next() else { break }
                values.append(record.ingredients)
            } catch {
                failures.append(error)
            }
        }
        #expect(values == [1, 2, 3, 4])
        #expect(failures.count == 1)
        #expect(failures.first?.location?.line == 2)
        #expect(failures.first?.path?.description == "[1]")
    }

    @Test("an input past maximumInputBytes is refused before a line is read, pointing at its first byte past the limit")
    func inputLimit() throws {
        let text = "{\"id\": 1}\n{\"id\": 2, \"name\": \"xxxxxxxxxx\"}\n"
        var options = JSONReadingOptions()
        options.limits.maximumInputBytes = 14
        let error = try #require(
            { () -> EasyBakeError? in
                do throws(EasyBakeError) {
                    _ = try JSONLinesIngredientSource(.text(text, name: "people.jsonl"), options: options)
                    return nil
                } catch {
                    return error
                }
            }())
        #expect(error.code == .limitExceeded)
        #expect(error.message == "maximumInputBytes limit of 14 exceeded")
        // Byte 14 is the fifth of the second line (the first holds 9 bytes and its break).
        #expect(error.location?.sourceName == "people.jsonl")
        #expect(error.location?.line == 2)
        #expect(error.location?.column == 5)
        options.limits.maximumInputBytes = text.utf8.count
        #expect(throws: Never.self) {
            try JSONLinesIngredientSource(.text(text, name: "people.jsonl"), options: options)
        }
    }
}
