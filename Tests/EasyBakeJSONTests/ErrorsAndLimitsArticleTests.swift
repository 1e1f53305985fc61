import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Foundation
import Testing

// The code of the "Errors and limits" article, line for line (`shownCode`
// checks it), with `print` caught to check what it prints.

@Suite("The Errors and limits article")
struct ErrorsAndLimitsArticleTests {
    static let article = try! DocumentationExamples.article("EasyBake", "ErrorsAndLimits")

    @Test("the article shows the code these tests run")
    func shownCode() throws {
        let check = try DocumentationExamples.checkSwiftListings(in: Self.article, runBy: #filePath)
        #expect(check.listings == 2)
        #expect(check.notRun == [])
    }

    @Test("the rendered error is the one Getting started shows")
    func rendered() throws {
        let shown = try #require(DocumentationExamples.listings(in: Self.article, language: "").first)
        let gettingStarted = try DocumentationExamples.article("EasyBake", "GettingStarted")
        #expect(DocumentationExamples.listings(in: gettingStarted, language: "").first?.text == shown.text)
    }

    @Test("catching a type mismatch by its code")
    func catching() throws {
        var printed: [String] = []
        func print(_ text: String) { printed.append(text) }
        struct Reading: Decodable { let celsius: Double }
        do {
            _ = try Baker().bake(Reading.self, from: try JSONFormat().read(.text(#"{"celsius": "warm"}"#)))
        } catch {
            if error.code == .typeMismatch { print(error.path?.description ?? "") }  // celsius
        }
        #expect(printed == ["celsius"])
    }

    @Test("a lower node limit for untrusted input")
    func limits() throws {
        var printed: [String] = []
        func print(_ text: String) { printed.append(text) }
        var limits = IngredientLimits.default
        limits.maximumNodes = 1_000
        let format = JSONFormat(options: .init(limits: limits))
        let tooMany = Array(repeating: "1", count: 2_000).joined(separator: ",")
        do {
            _ = try format.read(.text("[\(tooMany)]"))
        } catch {
            print(error.message)  // maximumNodes limit of 1000 exceeded
        }
        #expect(printed == ["maximumNodes limit of 1000 exceeded"])
    }

    @Test("numbers are never rounded; duplicate keys keep the first")
    func policies() throws {
        let tree = try JSONFormat().read(
            .text(#"{"big": 123456789012345678901234567890, "tiny": 1e-400, "a": 1, "a": 2}"#))
        #expect(tree["big"] == .exactNumber("123456789012345678901234567890"))
        #expect(tree["tiny"] == .exactNumber("1e-400"))
        #expect(tree["a"] == 1)
        struct Big: Decodable { let big: Int }
        let error = #expect(throws: EasyBakeError.self) { try Baker().bake(Big.self, from: tree) }
        #expect(error?.code == .numberOutOfRange)
        struct Exact: Decodable { let big: Decimal }
        #expect(try Baker().bake(Exact.self, from: tree).big == Decimal(string: "123456789012345678901234567890"))
    }
}
