import EasyBake
import EasyBakeTesting
import EasyBakeYAML
import Foundation
import Testing
import EasyBakeTestSupport

/// Every API that takes one document from a YAML stream refuses a stream of
/// two rather than dropping the second: the error says how many documents
/// there are and how to read them all (issue 16, item 4).
@Suite("YAML single-document readers")
struct YAMLSingleDocumentReaderTests {
    static let stream = "name: User\nmapping: {id: user_id}\n---\nname: Other\nmapping: {id: other_id}\n"

    /// The stream as a file (read in chunks, unlike text).
    static func file(_ text: String = stream) throws -> IngredientInput {
        let url = TestFiles.directory.appendingPathComponent("\(UUID())-two.yaml")
        try Data(text.utf8).write(to: url)
        return .file(url.path)
    }

    static func inputs() throws -> [IngredientInput] {
        [.text(stream, name: "two.yaml"), .bytes(Array(stream.utf8), name: "two.yaml"), try file()]
    }

    /// The error is the stream's, with its count, the way to read every
    /// document and where the second begins.
    static func check(_ error: EasyBakeError?, _ what: String, secondAt line: Int = 3) {
        guard let error else {
            Issue.record("\(what) read a stream of two documents as one")
            return
        }
        #expect(error.code == .multipleDocuments, "\(what): \(error)")
        #expect(error.message.contains("the YAML stream holds 2 documents where one is expected"), "\(what): \(error)")
        #expect(error.message.contains("documents: .all"), "\(what): \(error)")
        #expect(error.message.contains("--documents all"), "\(what): \(error)")
        #expect(error.location?.line == line, "\(what): \(String(describing: error.location))")
    }

    static func capture(_ body: () throws -> Void) -> EasyBakeError? {
        do {
            try body()
            return nil
        } catch let error as EasyBakeError {
            return error
        } catch {
            Issue.record("not an EasyBakeError: \(error)")
            return nil
        }
    }

    struct User: Decodable {
        let name: String
    }

    @Test("YAMLFormat.read, Ingredients(reading:) and Ingredients(reading:duplicateKeys:)")
    func treeReaders() throws {
        for input in try Self.inputs() {
            Self.check(Self.capture { _ = try YAMLFormat().read(input) }, "YAMLFormat.read(\(input.name))")
            Self.check(
                Self.capture {
                    var source = try YAMLIngredientSource(input)
                    _ = try Ingredients(reading: &source)
                }, "Ingredients(reading:) of \(input.name)")
            Self.check(
                Self.capture {
                    var source = try YAMLIngredientSource(input)
                    _ = try Ingredients(reading: &source, duplicateKeys: .lastWins)
                }, "Ingredients(reading:duplicateKeys:) of \(input.name)")
        }
        // The stream read whole, as the message says, gives both.
        #expect(try YAMLFormat(options: .init(documents: .all)).read(.text(Self.stream)).arrayValue?.count == 2)
        #expect(try YAMLFormat().readDocuments(.text(Self.stream)).count == 2)
    }

    @Test("Document(reading:), by format and by extension")
    func document() throws {
        let formats = FormatRegistry([YAMLFormat()])
        for input in try Self.inputs() {
            Self.check(
                Self.capture { _ = try Document(reading: input, format: YAMLFormat()) },
                "Document(reading: \(input.name))")
            Self.check(
                Self.capture { _ = try Document(reading: input, formats: formats) },
                "Document(reading: \(input.name), formats:)")
        }
    }

    @Test("baking straight from the input (the index reader)")
    func bakeFromInput() throws {
        for input in try Self.inputs() {
            Self.check(
                Self.capture { _ = try Baker().bake(User.self, from: input, format: YAMLFormat()) },
                "Baker.bake(from: \(input.name))")
            Self.check(
                Self.capture {
                    var index = IngredientIndex()
                    try YAMLFormat().readIndex(input, into: &index)
                }, "YAMLFormat.readIndex(\(input.name))")
        }
    }

    @Test("Fixtures(yaml:), Fixtures(reading:format:) and Fixtures(document:) through Document")
    func fixtures() throws {
        let records = "ada: {name: Ada}\n---\ngrace: {name: Grace}\n"
        for input in [IngredientInput.text(records, name: "two.yaml"), try Self.file(records)] {
            Self.check(Self.capture { _ = try Fixtures(yaml: input) }, "Fixtures(yaml: \(input.name))", secondAt: 2)
            Self.check(
                Self.capture { _ = try Fixtures(reading: input, format: YAMLFormat()) },
                "Fixtures(reading: \(input.name))", secondAt: 2)
            Self.check(
                Self.capture { _ = try Fixtures(document: try Document(reading: input, format: YAMLFormat())) },
                "Fixtures(document:) of \(input.name)", secondAt: 2)
        }
    }

    @Test("RecipeFile.load and RecipeBox.load, by format and by extension")
    func recipeFiles() throws {
        let formats = FormatRegistry([YAMLFormat()])
        // One document loads.
        #expect(
            try RecipeFile.load(.text("name: User\nmapping: {id: user_id}\n", name: "one.yaml"), formats: formats).count
                == 1)
        for input in try Self.inputs() {
            Self.check(
                Self.capture { _ = try RecipeFile.load(input, format: YAMLFormat()) }, "RecipeFile.load(\(input.name))")
            Self.check(
                Self.capture { _ = try RecipeFile.load(input, formats: formats) },
                "RecipeFile.load(\(input.name), formats:)")
            let box = RecipeBox()
            Self.check(Self.capture { try box.load(input, format: YAMLFormat()) }, "RecipeBox.load(\(input.name))")
            Self.check(
                Self.capture { try box.load(input, formats: formats) }, "RecipeBox.load(\(input.name), formats:)")
            // Nothing of the first document was added.
            #expect(!box.contains("User"))
        }
    }

    @Test("a path read from the head of the stream, and a baked record stream, still see the second document")
    func streamingReaders() throws {
        var source = try YAMLIngredientSource(.text(Self.stream))
        Self.check(Self.capture { _ = try PathMatcher(["name"]).resolve(from: &source) }, "PathMatcher.resolve")
        Self.check(
            Self.capture {
                var reader = try RecordReader(source: YAMLIngredientSource(.text(Self.stream)), each: "mapping")
                while try reader.next() != nil {}
            }, "RecordReader")
        var values = try YAMLIngredientSource(.text(Self.stream))
        Self.check(Self.capture { _ = try Ingredients.read(from: &values) }, "Ingredients.read(from:)")
        var skipped = try YAMLIngredientSource(.text(Self.stream))
        Self.check(Self.capture { try skipped.skipValue() }, "skipValue() of the document")
        var scalar = try YAMLIngredientSource(.text("--- one\n--- two\n"))
        let error = Self.capture { _ = try scalar.next() }
        #expect(error?.code == .multipleDocuments)
        // One document reads to its end as before.
        var single = try YAMLIngredientSource(.text("name: User\n"))
        #expect(try PathMatcher(["name"]).resolve(from: &single).values == ["User"])
        #expect(try single.next() == nil)
        let results = Array(
            try Baker().bakeEach(User.self, from: YAMLIngredientSource(.text(Self.stream)), each: "mapping"))
        let failure: EasyBakeError? = results.last.flatMap { if case .failure(let error) = $0 { error } else { nil } }
        Self.check(failure, "bakeEach")
    }
}
