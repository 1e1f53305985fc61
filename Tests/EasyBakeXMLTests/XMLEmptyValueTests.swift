import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import EasyBakeXML
import Foundation
import Testing

/// Empty arrays, strings and dictionaries survive a trip through XML: the
/// writer marks them with `easybake:empty`, the reader reads the marker back.
@Suite("Empty values through XML")
struct XMLEmptyValueTests {
    static func roundTrip(_ tree: Ingredients) throws -> Ingredients {
        try XMLFormat().read(.bytes(try XMLFormat().write(tree)))
    }

    @Test("empty arrays, strings and dictionaries come back as written, nested and repeated too")
    func roundTrips() throws {
        let tree: Ingredients = [
            "e": [
                "a": [], "s": "", "d": [:], "n": .null,
                "x": ["inner": [], "k": "1", "deeper": ["s": ""]],
                "list": ["", "b"],
            ]
        ]
        #expect(try Self.roundTrip(tree) == tree)
        #expect(try Self.roundTrip(["e": [:]]) == ["e": [:]])
        #expect(try Self.roundTrip(["e": ["only": []]]) == ["e": ["only": []]])
        // No marker, no declaration.
        let plain = String(decoding: try XMLFormat().write(["e": ["k": "v"]]), as: UTF8.self)
        #expect(!plain.contains("easybake"))
        let marked = String(decoding: try XMLFormat().write(["e": ["a": []]]), as: UTF8.self)
        #expect(marked.contains(#"<e xmlns:easybake="urn:easybake:xml"><a easybake:empty="array"/></e>"#))
    }

    @Test("the marker is known by its namespace, not its prefix, and shows as no attribute")
    func anyPrefix() throws {
        let tree = try XMLFormat().read(
            .text(
                #"<r xmlns:e="urn:easybake:xml" id="1"><a e:empty="array"/><s e:empty="string"/><d e:empty="dictionary"/></r>"#
            ))
        #expect(tree == ["r": ["@id": "1", "a": [], "s": "", "d": [:]]])
        // An unmarked empty element stays null; another namespace's `empty`
        // is an attribute, and its declaration one too.
        let other = try XMLFormat().read(.text(#"<r xmlns:o="urn:other"><a/><b o:empty="array"/></r>"#))
        #expect(other == ["r": ["@xmlns:o": "urn:other", "a": .null, "b": ["@o:empty": "array"]]])
    }

    @Test("a marker of another value, or a marked element with content, is an error at its place")
    func errors() throws {
        let cases = [
            (#"<r xmlns:e="urn:easybake:xml"><a e:empty="list"/></r>"#, #"found "list""#),
            (#"<r xmlns:e="urn:easybake:xml"><a e:empty="array">x</a></r>"#, "found content"),
            (#"<r xmlns:e="urn:easybake:xml"><a e:empty="string"><b/></a></r>"#, "found content"),
            (#"<r xmlns:e="urn:easybake:xml"><a e:empty="string" id="1"/></r>"#, "other attributes"),
        ]
        for (xml, found) in cases {
            #expect {
                try XMLFormat().read(.text(xml))
            } throws: { error in
                guard let error = error as? EasyBakeError else { return false }
                return error.code == .invalidValue && error.message.contains(found) && error.location?.line == 1
                    && (error.location?.column ?? 0) > 1
            }
        }
    }

    struct E: Codable, Equatable {
        let a: [String]
        let s: String
        let d: [String: String]
        let n: Int?
    }

    @Test("a model with empty values decomposes to XML and bakes back equal, from the tree and from the bytes")
    func model() throws {
        let model = E(a: [], s: "", d: [:], n: nil)
        let xml = try XMLFormat().write(["e": try Baker().decompose(model)])
        let tree = try XMLFormat().read(.bytes(xml))
        #expect(try Baker().bake(E.self, from: tree.resolve("e") ?? .null) == model)
        struct Document: Codable, Equatable { let e: E }
        #expect(try Baker().bake(Document.self, from: .bytes(xml), format: XMLFormat()).e == model)
    }

    @Test("JSON to XML and back keeps every empty value")
    func throughJSON() throws {
        let json = #"{"data": [], "meta": {}, "title": "", "items": [{"tags": []}]}"#
        let tree = try JSONFormat().read(.text(json))
        let back = try Self.roundTrip(["root": tree])
        #expect(back == ["root": ["data": [], "meta": [:], "title": "", "items": ["tags": []]]])
    }

    @Test("a tree that binds the prefix easybake itself gets the marker under another prefix (a fuzz finding)")
    func prefixTaken() throws {
        let tree: Ingredients = [
            "r": [
                "@xmlns:easybake": "urn:other", "a": ["@easybake:empty": "array"], "tags": [],
                "x": ["@xmlns:easybake1": "urn:also-taken", "note": ""],
            ]
        ]
        let written = String(decoding: try XMLFormat().write(tree), as: UTF8.self)
        #expect(written.contains(#"xmlns:easybake2="urn:easybake:xml""#), "\(written)")
        #expect(try XMLFormat().read(.text(written)) == tree)
        // The fuzz input: kept markup of every element, empty, needs no marker.
        let input = try Data(
            contentsOf: TestPaths.fixture("regressions/xml/easybake-prefix-bound-elsewhere-with-kept-markup.xml"))
        let options = XMLReadingOptions(markupElements: ["r", "a", "s", "d", "items", "item"])
        let kept = try XMLFormat(options: options).read(.bytes(Array(input)))
        #expect(try XMLFormat(options: options).read(.bytes(try XMLFormat().write(kept))) == kept)
    }

    @Test(
        "an attribute of EasyBake's namespace other than the marker is an error; kept markup declares the marker's prefix"
    )
    func otherAttributesOfTheNamespace() throws {
        let error = #expect(throws: EasyBakeError.self) {
            try XMLFormat().read(.text(#"<r xmlns:e="urn:easybake:xml">\#n<s e:other="x"/></r>"#))
        }
        #expect(error?.code == .invalidValue)
        #expect(error?.message.contains("EasyBake's namespace urn:easybake:xml") == true)
        #expect(error?.location?.line == 2)
        let options = XMLReadingOptions(markupElements: ["r"])
        let kept = try XMLFormat(options: options).read(
            .text(#"<r xmlns:e="urn:easybake:xml">t <s e:empty="array"/></r>"#))
        #expect(kept["r"]?["#innerXML"] == #"t <s xmlns:e="urn:easybake:xml" e:empty="array"/>"#)
        #expect(kept["r"]?["s"] == [])
        #expect(try XMLFormat(options: options).read(.bytes(try XMLFormat().write(kept))) == kept)
    }
}
