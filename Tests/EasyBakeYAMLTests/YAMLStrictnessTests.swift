import EasyBake
import EasyBakeYAML
import Testing

/// Invalid YAML that libyaml 0.2.5 lets through and EasyBake rejects.
@Suite("YAML strictness beyond libyaml")
struct YAMLStrictnessTests {
    @Test("a lone plain \"-\" is not a scalar")
    func loneDash() throws {
        let error = try #require(yamlError("- [-, -]\n"))
        #expect(error.code == .syntax)
        #expect(error.location?.line == 1)
        #expect(error.location?.column == 4)
        #expect(yamlError("[-]") != nil)
        // Quoted, or followed by more text, it is fine.
        #expect(try yaml("- ['-', -a, a-]\n") == [["-", "-a", "a-"]])
    }

    @Test("flow content on a new line must be indented past its block collection")
    func flowIndentation() throws {
        let error = try #require(yamlError("flow: [a,\nb,\nc]\n"))
        #expect(error.code == .syntax)
        #expect(error.location?.line == 2)
        #expect(error.location?.column == 1)
        #expect(yamlError("- [a,\nb]\n") != nil)
        #expect(try yaml("flow: [a,\n b,\n  c]\n") == ["flow": ["a", "b", "c"]])
        #expect(try yaml("[a,\nb]\n") == ["a", "b"])  // no block collection around it
        #expect(try yaml("- - {x: 1,\n    y: 2}\n") == [[["x": 1, "y": 2]]])
    }

    @Test("a directive after a document needs a document end marker")
    func directiveAfterDocument() throws {
        var options = YAMLReadingOptions()
        options.documents = .all
        let error = try #require(yamlError("---\nkey: value\n%YAML 1.2\n---\nb: 2\n", options))
        #expect(error.code == .syntax)
        #expect(error.message.contains("document end marker"))
        #expect(try yaml("---\nkey: value\n...\n%YAML 1.2\n---\nb: 2\n", options) == [["key": "value"], ["b": 2]])
    }
}
