import EasyBake
import EasyBakeTestSupport
import EasyBakeYAML
import Foundation
import Testing

@Suite("YAML anchors, aliases and merge keys")
struct YAMLAliasTests {
    @Test("an alias reads as the anchored value")
    func aliases() throws {
        let tree = try yaml(
            """
            base: &b {x: 1, y: [a, b]}
            copy: *b
            name: &n Ann
            again: *n
            *n : key from alias
            """)
        #expect(
            tree == [
                "base": ["x": 1, "y": ["a", "b"]], "copy": ["x": 1, "y": ["a", "b"]],
                "name": "Ann", "again": "Ann", "Ann": "key from alias",
            ])
    }

    @Test("an undefined anchor and an alias inside its own anchor are errors")
    func badAliases() throws {
        let undefined = try #require(yamlError("a: *nope\n"))
        #expect(undefined.code == .syntax)
        #expect(undefined.message.contains("undefined"))
        #expect(undefined.location?.line == 1)
        #expect(undefined.location?.column == 4)
        let recursive = try #require(yamlError("a: &x [1, *x]\n"))
        #expect(recursive.code == .syntax)
        #expect(recursive.message.contains("contains it"))
    }

    @Test("merge keys: own keys win, earlier merged mappings win over later ones")
    func merges() throws {
        let tree = try yaml(
            """
            a: &a {x: 1, y: 1, z: 1}
            b: &b {y: 2, w: 2}
            one:
              <<: *a
              z: own
            many:
              <<: [*b, *a]
              v: own
            inline:
              k: own
              <<: {k: merged, m: merged}
            """)
        #expect(tree["one"] == ["z": "own", "x": 1, "y": 1])
        #expect(tree["many"] == ["v": "own", "y": 2, "w": 2, "x": 1, "z": 1])
        #expect(tree["inline"] == ["k": "own", "m": "merged"])
    }

    @Test("an anchored scalar replays as a key or as a value, whichever place its alias takes")
    func anchoredScalarsInBothPlaces() throws {
        let tree = try yaml("a: &k 12\n*k : v\n&j true: w\nx: *j\ny: [*k]\n")
        #expect(tree == ["a": 12, "12": "v", "true": "w", "x": true, "y": [12]])
    }

    @Test("merged entries whose values are mappings keep their keys as keys")
    func mergedNestedMappings() throws {
        let tree = try yaml("d: &d {x: {t: 1, u: [{v: 2}]}, y: 3}\na: {<<: *d, y: 4}\nb:\n  <<: {m: {n: {o: 5}}}\n")
        #expect(
            tree == [
                "d": ["x": ["t": 1, "u": [["v": 2]]], "y": 3],
                "a": ["y": 4, "x": ["t": 1, "u": [["v": 2]]]],
                "b": ["m": ["n": ["o": 5]]],
            ])
    }

    @Test("an anchored mapping with a merge replays its merged form")
    func anchoredMerge() throws {
        let tree = try yaml(
            """
            base: &base {a: 1}
            mid: &mid
              <<: *base
              b: 2
            top:
              <<: *mid
              c: 3
            """)
        #expect(tree["top"] == ["c": 3, "b": 2, "a": 1])
    }

    @Test("a merge value that is not a mapping is an error; a quoted << is a plain key")
    func badMerge() throws {
        #expect(yamlError("a:\n  <<: 5\n")?.code == .syntax)
        #expect(yamlError("a:\n  <<: [1, 2]\n")?.code == .syntax)
        #expect(try yaml("a:\n  '<<': 5\n") == ["a": ["<<": 5]])
    }

    @Test("an alias bomb fails fast with limitExceeded")
    func billionLaughs() throws {
        var text = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...9 {
            let previous = "*a\(level - 1)"
            text += "a\(level): &a\(level) [\(Array(repeating: previous, count: 10).joined(separator: ", "))]\n"
        }
        // 10^10 nodes if expanded; the default budget stops it at 10^6 events
        // (no timing here: the budget is what bounds the work).
        let error = try #require(yamlError(text))
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("maximumExpansion limit of 1000000"))
        // A smaller budget stops it sooner, at the alias that passes it.
        let small = try #require(yamlError(text, options(maximumExpansion: 1_000)))
        #expect(small.message.hasPrefix("maximumExpansion limit of 1000 exceeded"))
        #expect(small.location?.line == 3)  // a2: ten replays of a1 (122 events each)
    }

    @Test("a chain of merge keys reads in linear size, and its replays count against the budget")
    func mergeChain() throws {
        var text = "k0: &k0 {a0: 0, b0: 0, c0: 0, d0: 0}\n"
        for level in 1...40 {
            text += "k\(level): &k\(level) {<<: [*k\(level - 1), *k\(level - 1)], a\(level): 0}\n"
        }
        let tree = try yaml(text)
        #expect(tree["k40"]?.dictionaryValue?.count == 44)
        #expect(tree["k40"]?["b0"] == 0)
        #expect(yamlError(text, options(maximumExpansion: 1_000))?.code == .limitExceeded)
    }

    @Test("expansion within the budget reads")
    func withinBudget() throws {
        let text = "a: &a [1, 2, 3]\nb: [*a, *a, *a]\n"
        #expect(try yaml(text, options(maximumExpansion: 15))["b"]?.arrayValue?.count == 3)
        #expect(yamlError(text, options(maximumExpansion: 14))?.code == .limitExceeded)
    }
}

@Suite("YAML documents, keys, depth and errors")
struct YAMLStreamTests {
    let stream = "a: 1\n---\na: 2\n--- text\n"

    @Test("one document by default; several are an error that says how many and how to choose")
    func singleDocument() throws {
        #expect(try yaml("a: 1\n") == ["a": 1])
        #expect(try yaml("--- {a: 1}\n...\n") == ["a": 1])
        #expect(try yaml("") == .null)
        #expect(try yaml("# only a comment\n") == .null)
        let error = try #require(yamlError(stream))
        #expect(error.code == .multipleDocuments)
        #expect(
            error.message.hasPrefix(
                "the YAML stream holds 3 documents where one is expected (the second begins here); "))
        #expect(error.message.contains("--documents all"))
        #expect(error.message.contains("--document N"))
        #expect(error.location?.line == 2)
        #expect(error.location?.column == 1)
    }

    @Test("a syntax error in a later document is reported, whichever documents are read")
    func syntaxErrorInLaterDocument() throws {
        let text = "a: 1\n---\nb: [unclosed\n"
        let choices: [YAMLReadingOptions.Documents] = [.single, .all, .document(0)]
        for documents in choices {
            let error = try #require(yamlError(text, YAMLReadingOptions(documents: documents)), "\(documents)")
            #expect(error.code == .syntax, "\(documents)")
            #expect(
                error.message.hasPrefix("expected ',' or ']' in the flow sequence that begins at line 3, column 4"),
                "\(documents)")
            #expect(error.location?.line == 4, "\(documents)")
        }
        #expect(throws: EasyBakeError.self) { try YAMLFormat().readDocuments(.text(text)) }
        #expect(yamlError("a: 1\n--- [x\n--- c: 3\n", YAMLReadingOptions(documents: .document(2)))?.code == .syntax)
    }

    @Test("one document chosen by its index; the others are checked and dropped")
    func chosenDocument() throws {
        #expect(try yaml(stream, YAMLReadingOptions(documents: .document(0))) == ["a": 1])
        #expect(try yaml(stream, YAMLReadingOptions(documents: .document(1))) == ["a": 2])
        #expect(try yaml(stream, YAMLReadingOptions(documents: .document(2))) == "text")
        #expect(
            try yaml("a: &x 1\nb: *x\n---\nc: &y [1]\nd: *y\n", YAMLReadingOptions(documents: .document(1))) == [
                "c": [1], "d": [1],
            ])
        let missing = try #require(yamlError(stream, YAMLReadingOptions(documents: .document(3))))
        #expect(missing.code == .valueNotFound)
        #expect(missing.message == "the YAML stream holds 3 documents; there is no document 3 (documents count from 0)")
        #expect(yamlError("", YAMLReadingOptions(documents: .document(0)))?.code == .valueNotFound)
    }

    @Test("all documents, as an array or one at a time")
    func allDocuments() throws {
        var options = YAMLReadingOptions()
        options.documents = .all
        #expect(try yaml(stream, options) == [["a": 1], ["a": 2], "text"])
        #expect(try yaml("", options) == [])
        #expect(try YAMLFormat().readDocuments(.text(stream)) == [["a": 1], ["a": 2], "text"])
        options.documents = .each
        var source = try YAMLIngredientSource(.text(stream), options: options)
        #expect(try Ingredients.read(from: &source) == ["a": 1])
        #expect(try Ingredients.read(from: &source) == ["a": 2])
        #expect(try Ingredients.read(from: &source) == "text")
        #expect(try Ingredients.read(from: &source) == nil)
    }

    @Test("anchors do not cross documents")
    func anchorsPerDocument() throws {
        #expect(yamlError("a: &x 1\n---\nb: *x\n", YAMLReadingOptions(documents: .all))?.code == .syntax)
    }

    @Test("duplicate keys are rejected by default, configurable")
    func duplicateKeys() throws {
        let text = "a: 1\nb: 2\na: 3\n"
        let error = try #require(yamlError(text))
        #expect(error.code == .duplicateKey)
        #expect(try yaml(text, YAMLReadingOptions(duplicateKeys: .lastWins)) == ["a": 3, "b": 2])
        #expect(try yaml(text, YAMLReadingOptions(duplicateKeys: .firstWins)) == ["a": 1, "b": 2])
    }

    @Test("100,000 nested brackets fail with limitExceeded, without a crash")
    func deepNesting() throws {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = try #require(yamlError(text))
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("maximumDepth"))
        // Stopped where the limit was passed, not after scanning the rest.
        #expect((error.location?.column ?? .max) <= 1_000, "\(error)")
        #expect(yamlError("a:\n  b:\n    c: 1\n", options(maximumDepth: 2))?.code == .limitExceeded)
        #expect(try yaml("a:\n  b:\n    c: 1\n", options(maximumDepth: 3)) == ["a": ["b": ["c": 1]]])
    }

    @Test("syntax errors carry a 1-based line, column and the line's text")
    func syntaxErrors() throws {
        let error = try #require(yamlError("name: Ann\nlist: [1, 2\nnext: 3\n"))
        #expect(error.code == .syntax)
        let location = try #require(error.location)
        #expect(location.line == 3)
        #expect(location.column == 5)
        #expect(location.lineText == "next: 3")
        #expect(error.message.contains("flow sequence"))

        let indent = try #require(yamlError("a:\n  b: 1\n c: 2\n"))
        #expect(indent.code == .syntax)
        #expect(indent.location?.line == 3)
        #expect(indent.location?.column == 2)
        #expect(indent.description.contains(" c: 2"))

        let tab = try #require(yamlError("a:\n\tb: 1\n"))
        #expect(tab.code == .syntax)
        #expect(tab.location?.line == 2)
    }

    @Test("invalid UTF-8 is an encoding error with its byte offset")
    func invalidUTF8() throws {
        let error = try #require(yamlError(input: .bytes(Array("a: ".utf8) + [0xFF, 0x0A])))
        #expect(error.code == .unsupportedEncoding)
        #expect(error.location?.byteOffset == 3)
    }

    @Test("limits on string size and input size hold")
    func sizeLimits() throws {
        var options = YAMLReadingOptions()
        options.limits.maximumStringBytes = 8
        #expect(yamlError("a: 123456789\n", options)?.code == .limitExceeded)
        #expect(try yaml("a: 12345678\n", options) == ["a": 12_345_678])
        options = YAMLReadingOptions()
        options.limits.maximumInputBytes = 4
        #expect(yamlError("a: 12345\n", options)?.code == .limitExceeded)
    }

    @Test("chunked reading of a large file equals reading from bytes")
    func chunkedFile() throws {
        var generator = SeededGenerator(seed: 7)
        var text = "records:\n"
        for index in 0..<20_000 {
            text += "  - id: \(index)\n    name: \"user \(UInt32.random(in: 0...UInt32.max, using: &generator))\"\n"
            text +=
                "    score: \(Double(Int.random(in: 0...10_000, using: &generator)) / 8)\n    tags: [a, 'b c', \(index % 3 == 0)]\n"
        }
        let bytes = Array(text.utf8)
        #expect(bytes.count > 1 << 20)
        let path = TestFiles.directory.appendingPathComponent("easybake-yaml-\(UUID()).yaml").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fromFile = try YAMLFormat().read(.file(path))
        let fromBytes = try YAMLFormat().read(.bytes(bytes))
        #expect(fromFile == fromBytes)
        #expect(fromFile["records"]?.arrayValue?.count == 20_000)
        #expect(fromFile["records"]?[19_999]?["id"] == 19_999)
    }

    @Test("an error in a file shows the line's text")
    func fileErrorExcerpt() throws {
        let path = TestFiles.directory.appendingPathComponent("easybake-yaml-\(UUID()).yaml").path
        try Data("ok: 1\nbad: [\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = try #require(yamlError(input: .file(path)))
        #expect(error.code == .syntax)
        #expect(error.location?.sourceName == path)
        #expect(error.location?.line == 3)
        #expect(error.location?.lineText != nil)
    }
}
