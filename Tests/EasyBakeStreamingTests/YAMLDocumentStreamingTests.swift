import EasyBake
import EasyBakeTestSupport
import EasyBakeYAML
import Testing

/// The documents of a YAML stream as records: `[*]` over `documents: .all`.
@Suite("Streaming the documents of a YAML stream")
struct YAMLDocumentStreamingTests {
    struct Service: Decodable, Equatable {
        let name: String
        let port: Int
    }

    static let stream = "name: web\nport: 80\n---\nname: db\nport: five\n---\nname: cache\nport: 6379\n"

    static func source(_ text: String, _ documents: YAMLReadingOptions.Documents = .all) throws -> YAMLIngredientSource
    {
        try YAMLIngredientSource(.text(text), options: YAMLReadingOptions(documents: documents))
    }

    @Test("bakeEach over [*] bakes each document as a record; a failing one fails alone")
    func bakeEachDocument() throws {
        let results = Array(try Baker().bakeEach(Service.self, from: Self.source(Self.stream), each: "[*]"))
        #expect(results.count == 3)
        #expect(try results[0].get() == Service(name: "web", port: 80))
        guard case .failure(let error) = results[1] else {
            Issue.record("\"five\" baked as an Int")
            return
        }
        #expect(error.code == .typeMismatch)
        #expect(error.path?.description == "[1].port")
        // The document is read by the native scanner, whose index knows
        // where each value stands: the line of `port: five`.
        #expect(error.location?.line == 5)
        #expect(try results[2].get() == Service(name: "cache", port: 6379))
    }

    @Test("records come with the line where their document begins")
    func recordLocations() throws {
        var reader = try RecordReader(source: Self.source(Self.stream), each: "[*]")
        var lines: [Int] = []
        while let record = try reader.next() { lines.append(record.location.line) }
        #expect(lines == [1, 4, 7])
    }

    @Test("read as one document, the stream gives no document as a record, and ends with the error")
    func singleDocumentRefused() throws {
        // One document: `[*]` over its mapping gives the mapping's values
        // ("web", 80), which are no services; then the second document is
        // the error.
        let results = Array(try Baker().bakeEach(Service.self, from: Self.source(Self.stream, .single), each: "[*]"))
        #expect(results.count == 3)
        #expect(results.allSatisfy { (try? $0.get()) == nil })
        guard case .failure(let error) = results.last else {
            Issue.record("a second document was read as if there were one")
            return
        }
        #expect(error.code == .multipleDocuments)
        #expect(error.message.hasPrefix("the YAML stream holds 3 documents"))
        guard case .failure(let first) = results.first else { return }
        #expect(first.path?.description == "name")
    }

    @Test("a path at the head of a stream still reads to its end and sees a later syntax error")
    func noEarlyStop() throws {
        var source = try Self.source("name: web\n---\nname: [db\n")
        #expect(throws: EasyBakeError.self) { try PathMatcher(["[0].name"]).resolve(from: &source) }
        var valid = try Self.source(Self.stream)
        let found = try PathMatcher(["[0].name"]).resolve(from: &valid)
        #expect(found["[0].name"] == "web")
        #expect(!found.stoppedEarly)
    }
}
