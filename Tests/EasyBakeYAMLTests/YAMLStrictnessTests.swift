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

    @Test("an anchor or a tag on a key's line leaves the flow content below it in its block collection")
    func anchoredBlockCollections() throws {
        // GitHub Actions, Helm values and CloudFormation shapes: the anchor or
        // tag stands right of the keys it introduces.
        #expect(
            try yaml("on:\n  push: &a\n    branches: [ main ]\n  pull_request: *a\n")
                == ["on": ["push": ["branches": ["main"]], "pull_request": ["branches": ["main"]]]])
        #expect(
            try yaml("defaults: &d\n  k: [1, 2]\nother: *d\n") == ["defaults": ["k": [1, 2]], "other": ["k": [1, 2]]])
        #expect(try yaml("Value: !Join\n  - \"\"\n  - [a, b]\n") == ["Value": ["", ["a", "b"]]])
        #expect(try yaml("Value: !Join\n  - \"\"\n  - [a,\n     b]\n") == ["Value": ["", ["a", "b"]]])
        #expect(try yaml("k: !!map &m\n  x: {a: 1,\n    b: 2}\n") == ["k": ["x": ["a": 1, "b": 2]]])
        // Below the document's `---`, and a sequence at its key's column.
        #expect(try yaml("--- &root\nk: [x,\n y]\n") == ["k": ["x", "y"]])
        #expect(try yaml("k: &a\n- [a,\n b]\n") == ["k": [["a", "b"]]])
        #expect(try yaml("k: !t\n- [a,\n b]\n") == ["k": [["a", "b"]]])
        // The column is still the collection's: content at it is refused.
        let error = try #require(yamlError("defaults: &d\n  k: [1,\n  2]\n"))
        #expect(error.code == .syntax)
        #expect(error.location?.line == 3)
        #expect(error.location?.column == 3)
        #expect(
            error.message == "expected flow content on a new line to be indented past column 3, "
                + "where the block collection it is in stands, found '2' at column 3")
        #expect(yamlError("k: &a\n- [a,\nb]\n")?.location?.line == 3)
        #expect(yamlError("Value: !Join\n  - [a,\n  b]\n")?.location?.column == 3)
    }

    @Test("a lone \"-\" before \":\" is a plain key")
    func dashKey() throws {
        #expect(try yaml("-: x\n") == ["-": "x"])
        #expect(try yaml("{-: 1}\n") == ["-": 1])
        #expect(try yaml("[-: 1]\n") == [["-": 1]])
        #expect(try yaml("- -: x\n  y: 2\n") == [["-": "x", "y": 2]])
        #expect(try yaml("a:\n  -: 1\n  b: 2\n") == ["a": ["-": 1, "b": 2]])
        #expect(try yaml("&k -: 1\nb: 2\n") == ["-": 1, "b": 2])
        #expect(try yaml("{-: 1, a: '-'}\n") == ["-": 1, "a": "-"])
        // Before anything else it is still no scalar.
        for text in ["[-]\n", "{-}\n", "[-, a]\n", "{a: -}\n", "[a, -]\n", "{-, a: 1}\n"] {
            let error = try #require(yamlError(text), "\(text.debugDescription)")
            #expect(error.code == .syntax)
            #expect(error.message.hasPrefix("expected a scalar, found a lone '-'"), "\(text.debugDescription)")
        }
    }

    @Test("a flow collection's closing bracket on a new line must be indented past its block collection")
    func closingBracketIndentation() throws {
        let error = try #require(yamlError("a:\n  test: [\n      \"x\"\n  ]\n"))
        #expect(error.code == .syntax)
        #expect(error.location?.line == 4)
        #expect(error.location?.column == 3)
        #expect(
            error.message == "expected flow content on a new line to be indented past column 3, "
                + "where the block collection it is in stands, found ']' at column 3")
        #expect(error.description.hasSuffix("4 |   ]\n  |   ^"))
        for text in [
            "a:\n  m: {\n    x: 1\n  }\n", "key: [\n  a\n]\n", "- [\n]\n", "- {a: 1,\n  b: 2\n}\n",
            "a: &x [\n  1\n]\n", "a:\n- [b,\n  c\n]\n",
        ] {
            let error = try #require(yamlError(text), "\(text.debugDescription)")
            #expect(error.code == .syntax)
            #expect(
                error.message.contains("found ']'") || error.message.contains("found '}'"), "\(text.debugDescription)")
        }
        // Indented past the block collection, or with no block collection around it, it is fine.
        #expect(try yaml("a:\n  test: [\n      \"x\"\n   ]\n") == ["a": ["test": ["x"]]])
        #expect(try yaml("key: [\n  a\n ]\n") == ["key": ["a"]])
        #expect(try yaml("- {a: 1,\n  b: 2\n  }\n") == [["a": 1, "b": 2]])
        #expect(try yaml("[\n  a\n]\n") == ["a"])
        #expect(try yaml("{\n\"a\": [\n1\n]\n}\n") == ["a": [1]])
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
