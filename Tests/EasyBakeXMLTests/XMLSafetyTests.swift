import EasyBake
import EasyBakeXML
import Foundation
import Testing
import EasyBakeTestSupport

@Suite("XML safety: entities, DTDs and limits")
struct XMLSafetyTests {
    @Test("billion laughs stops with a limit error, fast")
    func billionLaughs() {
        var xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n"
        xml += "<!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
        for level in 2...9 {
            let previous = "&lol\(level - 1);"
            xml += "<!ENTITY lol\(level) \"\(String(repeating: previous, count: 10))\">\n"
        }
        xml += "]>\n<lolz>&lol9;</lolz>\n"
        let start = ContinuousClock.now
        let error = xmlError(xml)
        #expect(error?.code == .limitExceeded)
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test("quadratic blowup stops with a limit error, fast")
    func quadraticBlowup() {
        let big = String(repeating: "a", count: 50_000)
        let references = String(repeating: "&a;", count: 20_000)
        let xml = "<!DOCTYPE r [<!ENTITY a \"\(big)\">]><r>\(references)</r>"
        let start = ContinuousClock.now
        let error = xmlError(xml)
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("maximumExpansion") == true)
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test("quadratic blowup in attribute values is charged too")
    func quadraticBlowupInAttributes() {
        let big = String(repeating: "a", count: 50_000)
        let references = String(repeating: "&a;", count: 2_000)
        let error = xmlError("<!DOCTYPE r [<!ENTITY a \"\(big)\">]><r x=\"\(references)\"/>")
        #expect(error?.code == .limitExceeded)
    }

    @Test("expansion within the budget works, and a raised budget admits more")
    func expansionBudget() throws {
        let xml = "<!DOCTYPE r [<!ENTITY e \"0123456789\">]><r>\(String(repeating: "&e;", count: 200))</r>"
        var limits = IngredientLimits()
        limits.maximumExpansion = 1_000
        #expect(xmlError(xml, options: XMLReadingOptions(limits: limits))?.code == .limitExceeded)
        limits.maximumExpansion = 10_000
        let tree = try xmlTree(xml, options: XMLReadingOptions(limits: limits))
        #expect(tree["r"]?.stringValue == String(repeating: "0123456789", count: 200))
    }

    @Test("an external entity is refused and the file is not read")
    func externalEntityRefused() throws {
        let xml = #"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><r>&xxe;</r>"#
        let error = try #require(xmlError(xml))
        #expect(error.code == .forbidden)
        #expect(error.message.contains("xxe"))
        #expect(!error.description.contains("root:"))
        #expect(error.location?.line == 1)
    }

    @Test("an external parameter entity is refused")
    func externalParameterEntityRefused() throws {
        let xml = #"<!DOCTYPE r [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]><r/>"#
        let error = try #require(xmlError(xml))
        #expect(error.code == .forbidden)
        #expect(!error.description.contains("root:"))
    }

    @Test("an external entity over http is refused")
    func networkEntityRefused() throws {
        let xml = #"<!DOCTYPE r [<!ENTITY x SYSTEM "http://127.0.0.1:9/x">]><r>&x;</r>"#
        #expect(xmlError(xml)?.code == .forbidden)
    }

    @Test("an external DTD is not fetched: its entities and attribute defaults do not apply")
    func externalDTDNotFetched() throws {
        let directory = TestFiles.directory.appendingPathComponent("easybake-xml-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dtd = directory.appendingPathComponent("r.dtd")
        try #"<!ENTITY secret "leaked"><!ATTLIST r a CDATA "from-dtd">"#.write(
            to: dtd, atomically: true, encoding: .utf8)
        let plain = try xmlTree("<!DOCTYPE r SYSTEM \"\(dtd.absoluteString)\"><r>x</r>")
        #expect(plain == ["r": "x"])
        // The entity it would define stays unknown; rather than drop the
        // reference silently, the document is refused, naming the entity.
        let error = try #require(xmlError("<!DOCTYPE r SYSTEM \"\(dtd.absoluteString)\">\n<r>&secret;</r>"))
        #expect(error.code == .forbidden)
        #expect(error.message.contains("&secret;"))
        #expect(!"\(error)".contains("leaked"))
        #expect(error.location?.line == 2)
    }

    @Test("XInclude is not processed")
    func xincludeIgnored() throws {
        let xml =
            #"<r xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="file:///etc/passwd" parse="text"/></r>"#
        let tree = try xmlTree(xml, options: XMLReadingOptions(keepsNamespaceDeclarations: false))
        #expect(tree == ["r": ["xi:include": ["@href": "file:///etc/passwd", "@parse": "text"]]])
    }

    @Test("nesting 100,000 deep gives a limit error, not a crash")
    func deepNesting() {
        let depth = 100_000
        let xml = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        let error = xmlError(xml)
        #expect(error?.code == .limitExceeded)
    }

    @Test("the depth limit is EasyBake's own below libxml2's")
    func depthLimit() throws {
        var limits = IngredientLimits()
        limits.maximumDepth = 10
        let options = XMLReadingOptions(limits: limits)
        let deep = String(repeating: "<a>", count: 12) + String(repeating: "</a>", count: 12)
        let error = try #require(xmlError(deep, options: options))
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("maximumDepth"))
        let shallow = String(repeating: "<a>", count: 8) + String(repeating: "</a>", count: 8)
        #expect(xmlError(shallow, options: options) == nil)
    }

    @Test("text nodes, attributes and the input are bounded")
    func sizeLimits() throws {
        var limits = IngredientLimits()
        limits.maximumStringBytes = 1_000
        let options = XMLReadingOptions(limits: limits)
        let long = String(repeating: "x", count: 2_000)
        #expect(xmlError("<a>\(long)</a>", options: options)?.code == .limitExceeded)
        #expect(xmlError("<a>\(String(repeating: "<b/>\(long.prefix(600))", count: 4))</a>", options: options) == nil)
        #expect(xmlError("<a v=\"\(long)\"/>", options: options)?.code == .limitExceeded)
        #expect(xmlError("<a>\(long.prefix(900))</a>", options: options) == nil)

        var inputLimits = IngredientLimits()
        inputLimits.maximumInputBytes = 100
        let error = xmlError("<a>\(long)</a>", options: XMLReadingOptions(limits: inputLimits))
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("maximumInputBytes") == true)
    }

    @Test("sources on many threads at once read independently")
    func concurrentParsing() async throws {
        let results = await withTaskGroup(of: Bool.self) { group in
            for i in 0..<16 {
                group.addTask {
                    let xml = i.isMultiple(of: 2) ? "<r><n>\(i)</n></r>" : "<r><n>\(i)</r>"
                    do {
                        let tree = try xmlTree(xml)
                        return tree == ["r": ["n": .string(String(i))]]
                    } catch let error as EasyBakeError {
                        return !i.isMultiple(of: 2) && error.code == .syntax
                    } catch {
                        return false
                    }
                }
            }
            var all: [Bool] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 })
    }
}
