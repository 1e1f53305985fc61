import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Testing

// The code of the "JSON Lines" article, line for line (`shownCode` checks
// it); its commands run in easybakeTests' DocumentationCommandTests.

@Suite("The JSON Lines article")
struct JSONLinesArticleTests {
    struct Person: Decodable {
        let id: Int
        let name: String
    }

    @Test("the article shows the code these tests run")
    func shownCode() throws {
        let check = try DocumentationExamples.checkSwiftListings(
            in: try DocumentationExamples.article("EasyBakeJSON", "JSONLines"), runBy: #filePath)
        #expect(check.listings == 1)
        #expect(check.notRun == [])
    }

    @Test("bakeEach over the lines; a malformed line fails alone; writing")
    func records() throws {
        var printed: [String] = []
        func print(_ text: String) { printed.append(text) }
        func print(_ error: EasyBakeError) {
            printed.append("\(error.message) at \(error.location?.description ?? "?")")
        }
        let text =
            "{\"id\": 1, \"name\": \"Ada\"}\r\n\n{\"id\": 2, \"name\": \"Grace\"}\n{\"id\": 3, \"name\": }\n{\"id\": 4, \"name\": \"Linus\"}"
        let source = try JSONLinesIngredientSource(.text(text, name: "people.jsonl"))
        for result in try Baker().bakeEach(Person.self, from: source, each: "[*]") {
            switch result {
            case .success(let person): print(person.name)  // Ada, Grace, Linus
            case .failure(let error): print(error)  // record 2, people.jsonl:4:19
            }
        }
        let lines = try JSONLinesFormat().write([["id": 1], ["id": 2]])  // {"id":1}\n{"id":2}\n
        #expect(
            printed == ["Ada", "Grace", "record 2: expected a JSON value, found '}' at people.jsonl:4:19", "Linus"])
        #expect(String(decoding: lines, as: UTF8.self) == "{\"id\":1}\n{\"id\":2}\n")
    }
}
