import EasyBake
import EasyBakeTestSupport
import EasyBakeXML
import Foundation
import Testing

// The code of the "XML conventions" article, line for line (`shownCode`
// checks it); its commands run in easybakeTests' DocumentationCommandTests.

@Suite("The XML conventions article")
struct XMLConventionsArticleTests {
    @Test("the article shows the code these tests run")
    func shownCode() throws {
        let check = try DocumentationExamples.checkSwiftListings(in: try DocumentationExamples.article("EasyBakeXML", "XMLConventions"), runBy: #filePath)
        #expect(check.listings == 2)
        #expect(check.notRun == [])
    }

    @Test("trimming and stripped namespaces")
    func options() throws {
        let xml = #"<feed xmlns:atom="http://www.w3.org/2005/Atom"><atom:link href="/a"/> <title> Bread </title></feed>"#
        var options = XMLSourceOptions(trimsText: true, namespaces: .strip)
        options.keepsNamespaceDeclarations = false
        let tree = try XMLFormat(options: options).read(.text(xml))
        // ["feed": ["link": ["@href": "/a"], "title": "Bread"]]
        #expect(tree == ["feed": ["link": ["@href": "/a"], "title": "Bread"]])
    }

    @Test("namespace errors are refused unless accepted")
    func namespaces() throws {
        let legacy = "<rss><item><dc:creator>Ada</dc:creator></item></rss>"
        let refused = #expect(throws: EasyBakeError.self) { try XMLFormat().read(.text(legacy)) }
        #expect(refused?.code == .syntax)
        #expect(refused?.message.hasPrefix("namespace error:") == true)
        #expect(refused?.location?.line == 1)
        let lenient = XMLSourceOptions(acceptsNamespaceErrors: true)
        let item = try XMLFormat(options: lenient).read(.text(legacy))
        // ["rss": ["item": ["dc:creator": "Ada"]]]
        #expect(item == ["rss": ["item": ["dc:creator": "Ada"]]])
    }

    @Test("mixed content, a lone element and writing back")
    func conventions() throws {
        let mixed = try XMLFormat().read(.text("<p>Hello <b>you</b> there</p>"))
        #expect(mixed == ["p": ["#text": ["Hello ", " there"], "b": "you"]])
        let lone = try XMLFormat().read(.text("<rss><item><title>A</title></item></rss>"))
        #expect(try lone.resolve("rss.item[0].title") == "A")
        let tree: Ingredients = ["note": ["@id": "1", "body": "Hi", "tag": ["a", "b"], "empty": .null]]
        #expect(try XMLFormat().read(.bytes(try XMLFormat().write(tree))) == tree)
    }
}
