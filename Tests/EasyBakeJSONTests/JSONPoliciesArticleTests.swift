import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Foundation
import Testing

// The code of the JSON module's landing page and "JSON policies" article,
// line for line (`shownCode` checks it).

@Suite("The JSON module's documentation")
struct JSONPoliciesArticleTests {
    @Test("the pages show the code these tests run")
    func shownCode() throws {
        for page in ["EasyBakeJSON", "JSONPolicies"] {
            let check = try DocumentationExamples.checkSwiftListings(
                in: try DocumentationExamples.article("EasyBakeJSON", page), runBy: #filePath)
            #expect(check.listings == 1, "\(page)")
            #expect(check.notRun == [], "\(page)")
        }
    }

    @Test("read, write, and choose by extension")
    func landing() throws {
        let tree = try JSONFormat().read(.text(#"{"id": 7, "tags": ["a", "b"]}"#))
        let text = try JSONFormat().write(tree, options: .init(sortedKeys: true))  // {"id":7,"tags":["a","b"]}
        #expect(String(decoding: text, as: UTF8.self) == #"{"id":7,"tags":["a","b"]}"#)
        let formats = FormatRegistry([.json, .jsonLines])  // by extension: .json, .jsonl, .ndjson
        let records = try Document(reading: .text("{\"id\": 1}\n", name: "users.jsonl"), formats: formats)
        #expect(records.format.name == "jsonl")
        #expect(records.tree == [["id": 1]])
        #expect(formats.fileExtensions == ["json", "jsonl", "ndjson"])
    }

    @Test("repeated keys and exact numbers")
    func policies() throws {
        let strict = JSONFormat(options: .init(duplicateKeys: .reject))
        let numbers = try JSONFormat().read(.text(#"{"id": 1, "id": 2, "big": 18446744073709551616}"#))
        // numbers["id"] == 1, numbers["big"] == .exactNumber("18446744073709551616")
        var printed: [String] = []
        func print(_ code: EasyBakeError.Code, _ location: String) { printed.append("\(code) \(location)") }
        do {
            _ = try strict.read(.text(#"{"id": 1, "id": 2}"#))
        } catch {
            print(error.code, error.location?.description ?? "")  // duplicate key <text>:1:11
        }
        #expect(numbers["id"] == 1)
        #expect(numbers["big"] == .exactNumber("18446744073709551616"))
        #expect(printed == ["duplicate key <text>:1:11"])
    }

    @Test("strictness")
    func strict() throws {
        for bad in ["[1,]", "// c\n1", "01", #""\x""#, "[1] 2", "\"\u{1}\""] {
            #expect(throws: EasyBakeError.self, "\(bad)") { try JSONFormat().read(.text(bad)) }
        }
        #expect(try JSONFormat().read(.bytes([0xEF, 0xBB, 0xBF] + Array("[1]".utf8))) == [1])
        #expect(try JSONFormat().read(.bytes([0, 0x5B, 0, 0x31, 0, 0x5D])) == [1])  // UTF-16BE
    }
}
