import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Foundation
import Testing

// The example in `Document`'s documentation, line for line (`shownCode`
// checks it), run in a process of its own: nothing registered or configured
// before it runs, as in an app that starts with it.

@Suite("The Document example, in a fresh process")
struct DocumentExampleTests {
    /// The code of the Swift listing of `Document`'s doc comment, and its
    /// comment lines, which show the error, without the `// `.
    static func shownExample() throws -> (code: String, error: [String]) {
        let source = try DocumentationExamples.text(of: "Sources/EasyBake/Documents/Document.swift")
        let comment = source.split(separator: "\n").prefix { !$0.hasPrefix("public struct Document") }
            .map { $0.hasPrefix("/// ") ? String($0.dropFirst(4)) : String($0.dropFirst(3)) }
            .joined(separator: "\n")
        let listing = try #require(DocumentationExamples.listings(in: comment, language: "swift").first)
        let lines = listing.text.split(separator: "\n")
        let code = lines.filter { !$0.hasPrefix("// ") }.joined(separator: "\n")
        return (code, lines.filter { $0.hasPrefix("// ") }.map { String($0.dropFirst(3)) })
    }

    @Test("the doc comment shows the code this test runs")
    func shownCode() throws {
        let shown = try Self.shownExample()
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        #expect(DocumentationExamples.missingLines(of: shown.code, in: source) == [])
        #expect(shown.error.count == 2)
    }

    @Test("the example reads users.json and its error points at line 3, column 10")
    func example() async throws {
        await #expect(processExitsWith: .success) {
            struct User: Decodable {
                let name: String
                let age: Int
            }
            let recipe = try Recipe(name: "User", mapping: ["name": "name", "age": "age"])
            // The example reads users.json from the current directory: this
            // process's own, a new temporary one.
            let directory = TestFiles.directory.appendingPathComponent("document-example-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            try Data("{\n  \"name\": \"Ada\",\n  \"age\": \"forty\"\n}\n".utf8).write(
                to: directory.appendingPathComponent("users.json"))
            guard FileManager.default.changeCurrentDirectoryPath(directory.path) else { exit(2) }

            do {
                let document = try Document(reading: .file("users.json"), format: .json)
                let user = try Baker().bake(User.self, from: document, recipe: recipe)
                _ = user
                exit(3)  // the example fails to bake
            } catch {
                let shown = try DocumentExampleTests.shownExample().error
                let lines = String(describing: error).split(separator: "\n").prefix(2).map(String.init)
                guard lines == shown else {
                    FileHandle.standardError.write(Data("shown \(shown), got \(lines)\n".utf8))
                    exit(4)
                }
            }
        }
    }
}
