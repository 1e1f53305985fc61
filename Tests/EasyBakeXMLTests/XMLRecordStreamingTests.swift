import EasyBake
import EasyBakeTestSupport
@testable import EasyBakeXML
import Testing

// Streamed XML records read straight from libxml2's callbacks into the
// record's index (issue 29), against the same records read through their
// events and the whole document: values, errors and warnings alike, and a
// bake error at the line and column of the value at fault.

private struct Person: Decodable, Equatable, Sendable {
    let name: String
    let age: Int
    let tags: [String]
}

private let personRecipe = try! Recipe(
    name: "Person", orderedMapping: [("name", "@name"), ("age", "age"), ("tags", "tag")])

/// `count` people, each with a long note so that a record spans several of
/// the slices libxml2 is fed, and whatever `extra(i)` adds to person `i`.
private func people(_ count: Int, extra: (Int) -> String = { _ in "" }) -> [UInt8] {
    var text = "<?xml version=\"1.0\"?>\n<people>\n"
    for i in 0..<count {
        text += "<person name=\"p\(i)\">\n  <age>\(20 + i)</age>\n"
        text += "  <note>" + String(repeating: "word\(i) ", count: 40 + i % 7) + "</note>\n"
        for t in 0..<(i % 4) { text += "  <tag>t\(t)</tag>\n" }
        text += extra(i) + "</person>\n"
    }
    return Array((text + "</people>\n").utf8)
}

/// The records at `each`, each read by `readValue` into an index, as trees.
private func indexedRecords(
    _ bytes: [UInt8], options: XMLReadingOptions = .init(), each: String, natively: Bool
) throws(EasyBakeError) -> [Ingredients] {
    let source = try XMLIngredientSource(.bytes(bytes, name: "people.xml"), options: options)
    source.readsRecordsNatively = natively
    var reader = try RecordReader(source: source, each: each)
    var index = IngredientIndex()
    var records: [Ingredients] = []
    while let record = try reader.nextRecord(reading: { (first, source) throws(EasyBakeError) in
        try source.readValue(startingWith: first, into: &index)
        return try Ingredients(index: index)
    }) {
        records.append(record.value)
    }
    return records
}

/// What baking `Person` from each record gives, as text with each error's
/// place, and the source's warnings after.
private func bakedPeople(
    _ bytes: [UInt8], options: XMLReadingOptions = .init(), natively: Bool, jobs: Int = 1,
    materialization: Baker.RecordMaterialization = .automatic
) throws -> (results: [String], warnings: [String]) {
    let source = try XMLIngredientSource(.bytes(bytes, name: "people.xml"), options: options)
    source.readsRecordsNatively = natively
    let records = try Baker().bakeEach(
        Person.self, from: source, each: "people.person[*]", recipe: personRecipe, materialization: materialization,
        jobs: jobs)
    let results = records.map { result in
        switch result {
        case .success(let person): "\(person)"
        case .failure(let error):
            "\(error.code) \(error.message) at \(error.path?.description ?? "-") \(RecordRoads.place(error.location))"
        }
    }
    return (results, source.warnings.map(\.description))
}

/// `count` people baked under a node limit of 8, natively and through
/// events: a person holds 4 to 7 values, and person `crowded` four more.
private func crowdedPeople(
    _ count: Int, crowded: Int, materialization: Baker.RecordMaterialization
) throws -> (native: (results: [String], warnings: [String]), events: (results: [String], warnings: [String])) {
    var options = XMLReadingOptions()
    options.limits.maximumNodes = 8
    let bytes = people(count) { i in i == crowded ? "<a>1</a><b>2</b><c>3</c><d>4</d>" : "" }
    return (
        try bakedPeople(bytes, options: options, natively: true, materialization: materialization),
        try bakedPeople(bytes, options: options, natively: false, materialization: materialization)
    )
}

@Suite("Streamed XML records straight into the index")
struct XMLRecordStreamingTests {
    @Test("records past one slice read alike natively, through events and as the tree's")
    func recordsAlike() throws {
        var options = XMLReadingOptions()
        options.markupElements = ["b"]
        let bytes = people(40) { i in
            i % 5 == 0
                ? "  <mixed>x<b>bold</b>y</mixed><empty xmlns:eb=\"urn:easybake:xml\" eb:empty=\"array\"/>\n" : ""
        }
        let native = try indexedRecords(bytes, options: options, each: "people.person[*]", natively: true)
        let events = try indexedRecords(bytes, options: options, each: "people.person[*]", natively: false)
        let tree = try XMLFormat(options: options).read(.bytes(bytes))
        #expect(native.count == 40)
        #expect(native == events)
        #expect(native == Array(tree.resolve(try IngredientPath(parsing: "people.person"))?.arrayValue ?? []))
    }

    @Test("namespaces, kept declarations and text around elements read alike in records")
    func namespaces() throws {
        var options = XMLReadingOptions()
        options.namespaces = .resolveToURIs
        options.keepsNamespaceDeclarations = true
        let bytes = people(12) { i in
            "  <x:extra xmlns:x=\"urn:x\" x:kind=\"k\(i)\">text <x:part>\(i)</x:part> tail</x:extra>\n"
        }
        let native = try indexedRecords(bytes, options: options, each: "people.person[*]", natively: true)
        let events = try indexedRecords(bytes, options: options, each: "people.person[*]", natively: false)
        #expect(native.count == 12)
        #expect(native == events)
        #expect(native[3].resolve(try IngredientPath(parsing: "{urn:x}extra.#text")) != nil)
    }

    @Test("a bake error names the value's line and column, as the whole document's does")
    func bakeErrorPlace() throws {
        let bytes = people(30)
        var broken = String(decoding: bytes, as: UTF8.self)
        broken = broken.replacingOccurrences(of: "<age>37</age>", with: "<age>old</age>")
        let brokenBytes = Array(broken.utf8)
        let native = try bakedPeople(brokenBytes, natively: true)
        let failure = try #require(native.results.first { $0.hasPrefix("type mismatch") })
        // Person 17's age: a text's place is where libxml2 reports it, after its end tag.
        let lines = broken.split(separator: "\n", omittingEmptySubsequences: false)
        let lineIndex = lines.firstIndex { $0.contains("<age>old</age>") }!
        let place = "\(lineIndex + 1):\(lines[lineIndex].utf8.count + 1)"
        #expect(failure.hasSuffix(" \(place)"), "\(failure)")
        #expect(failure.hasPrefix("type mismatch record 17: Person.age"), "\(failure)")
        // The whole document's bake names the same place.
        var index = IngredientIndex()
        try XMLFormat().readIndex(.bytes(brokenBytes, name: "people.xml"), into: &index)
        let whole = try #require(
            RecordRoads.wholeDocumentResults(
                Person.self, from: &index, each: try IngredientPath(parsing: "people.person[*]"), recipe: personRecipe))
        guard case .failure(let error) = whole[17] else { Issue.record("person 17 baked"); return }
        #expect(RecordRoads.place(error.location) == place)
        // Through events, only the record's place is known.
        let events = try bakedPeople(brokenBytes, natively: false)
        #expect(events.results.count == native.results.count)
        #expect(events.results[17] != native.results[17])
        #expect(Array(events.results[..<17]) == Array(native.results[..<17]))
        // Several jobs name the same places.
        #expect(try bakedPeople(brokenBytes, natively: true, jobs: 2).results == native.results)
    }

    @Test(
        "a malformed record fails alike on both roads, after the same records", arguments: [700, 2_500, 4_100, 9_000])
    func malformed(cut: Int) throws {
        var bytes = people(30)
        // A stray end tag in the middle of the document.
        bytes.insert(contentsOf: Array("</oops>".utf8), at: cut)
        let native = try bakedPeople(bytes, natively: true)
        let events = try bakedPeople(bytes, natively: false)
        #expect(native.results == events.results)
        #expect(native.results.last?.hasPrefix("syntax") == true, "\(native.results.last ?? "")")
        #expect(try bakedPeople(bytes, natively: true, jobs: 2).results == native.results)
    }

    /// libxml2 hands an open CDATA section's text out a few hundred bytes at
    /// a time, so where it stands when the input ends depends on how the
    /// input was sliced; the error names the input's end on every road,
    /// strictly and leniently (a lenient rewrite adds bytes, but the input
    /// as written ends where it ends). A fuzzed feed found the lenient case.
    @Test("an input that ends in an open CDATA section fails at its end on every road, strictly and leniently")
    func openCDATAAtTheEnd() throws {
        var text = String(decoding: people(6), as: UTF8.self)
        text.removeLast("</people>\n".count)
        text += "<person name=\"late\"><note><![CDATA[ fish & chips\n"
        for line in 0..<40 { text += "  line \(line) of a section that is never closed <raw> & ]\n" }
        let bytes = Array(text.utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        var lenient = XMLReadingOptions()
        lenient.lenientReferences = true
        for options in [XMLReadingOptions(), lenient] {
            for natively in [true, false] {
                let results = try bakedPeople(bytes, options: options, natively: natively).results
                #expect(results.count == 7, "\(results)")
                #expect(
                    results.last
                        == "syntax expected ']]>' to end the CDATA section, found the end of the input at - \(lines):1")
            }
            #expect(throws: EasyBakeError.self) { try XMLFormat(options: options).read(.bytes(bytes)) }
            do {
                _ = try XMLFormat(options: options).read(.bytes(bytes))
            } catch {
                #expect(error.location?.line == lines && error.location?.column == 1)
            }
        }
    }

    /// libxml2 checks a CDATA section's characters a block at a time, the
    /// blocks cut where the slices it was fed end: a character it refuses
    /// is reported at that character on every road, closed section or not
    /// (a fuzzed feed found one road naming the character and the other
    /// the end of the input).
    @Test(
        "a character XML refuses in a CDATA section fails at that character on every road",
        arguments: [false, true])
    func refusedCharacterInCDATA(closed: Bool) throws {
        var text = String(decoding: people(6), as: UTF8.self)
        text.removeLast("</people>\n".count)
        text += "<person name=\"late\"><note><![CDATA[ fish & chips\n"
        for line in 0..<40 {
            text += line == 17 ? "  here: \u{0}, a NUL\n" : "  line \(line) of a section <raw> & ]\n"
        }
        if closed { text += "]]></note></person></people>\n" }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.contains("\u{0}") }) + 1
        let expected = "syntax expected a character XML allows, found U+0000 at - \(line):9"
        let bytes = Array(text.utf8)
        var lenient = XMLReadingOptions()
        lenient.lenientReferences = true
        for options in [XMLReadingOptions(), lenient] {
            for natively in [true, false] {
                let results = try bakedPeople(bytes, options: options, natively: natively).results
                #expect(results.last == expected, "natively: \(natively)")
            }
        }
    }

    /// Bytes that are not UTF-8 are named as bytes (libxml2 gives their
    /// error no character: it was worded "found U+0000"), in a CDATA
    /// section at their own place on every road, closed section or not.
    @Test("bytes that are not UTF-8 are named, at their place on every road", arguments: [false, true])
    func notUTF8(closed: Bool) throws {
        var text = String(decoding: people(6), as: UTF8.self)
        text.removeLast("</people>\n".count)
        var bytes = Array(text.utf8)
        bytes += Array("<person name=\"late\"><note><![CDATA[ fish & chips\n".utf8)
        for line in 0..<40 {
            bytes += Array("  line \(line) of a section".utf8)
            if line == 23 { bytes += [0xDE, 0xDE, 0xDE, 0xDE, 0xDE] }
            bytes += Array("\n".utf8)
        }
        if closed { bytes += Array("]]></note></person></people>\n".utf8) }
        let badOffset = try #require(bytes.firstIndex(of: 0xDE))
        let line = bytes[..<badOffset].filter { $0 == 0x0A }.count + 1
        let column = badOffset - (bytes[..<badOffset].lastIndex(of: 0x0A) ?? -1)
        let expected =
            "syntax expected UTF-8 text (or the encoding the XML declaration names), found the bytes 0xDE 0xDE 0xDE 0xDE at - \(line):\(column)"
        for natively in [true, false] {
            #expect(try bakedPeople(bytes, natively: natively).results.last == expected, "natively: \(natively)")
        }
        // Outside a CDATA section too: named at their place, on both roads,
        // also after a lenient reading's rewrites of bare `&`s.
        var lenient = XMLReadingOptions()
        lenient.lenientReferences = true
        for (options, extra) in [(XMLReadingOptions(), ""), (lenient, "  <x>fish & chips & peas</x>\n")] {
            var inText = people(20) { i in i == 2 ? extra : "" }
            let cut = try #require(inText.indices.first { inText[$0...].starts(with: Array("<age>27".utf8)) }) + 6
            inText.insert(contentsOf: [0xFF, 0xFF], at: cut)
            let textLine = inText[..<cut].filter { $0 == 0x0A }.count + 1
            let textColumn = cut - (inText[..<cut].lastIndex(of: 0x0A) ?? -1)
            for natively in [true, false] {
                let result = try bakedPeople(inText, options: options, natively: natively).results.last
                #expect(
                    result == "syntax \(XMLParserDriver.notUTF8("0xFF 0xFF 0x37 0x3C")) at - \(textLine):\(textColumn)",
                    "natively: \(natively), lenient: \(options.lenientReferences)")
            }
        }
    }

    /// Inside a tag, what libxml2 was reading when it met the character
    /// (an attribute's name, the tag's end) depends on the slices too: the
    /// character is the fault named on every road.
    @Test("a character XML refuses inside a tag is the fault named on every road", arguments: [3, 20])
    func refusedCharacterInTag(person: Int) throws {
        let bytes = people(30) { i in i == person ? "<mark a=\"1\" \u{0}/>\n" : "" }
        var results: [String] = []
        for natively in [true, false] {
            results.append(try bakedPeople(bytes, natively: natively).results.last ?? "")
        }
        #expect(results[0] == results[1])
        #expect(results[0].hasPrefix("syntax expected a character XML allows, found U+0000 at - "), "\(results[0])")
    }

    @Test("a lenient reading repairs records alike, with the same warnings")
    func lenient() throws {
        var options = XMLReadingOptions()
        options.lenientReferences = true
        let bytes = people(25) { i in i % 3 == 0 ? "  <note2>fish & chips &eacute; \(i)</note2>\n" : "" }
        let native = try bakedPeople(bytes, options: options, natively: true)
        let events = try bakedPeople(bytes, options: options, natively: false)
        #expect(native.results == events.results)
        #expect(native.warnings == events.warnings)
        #expect(native.warnings.count == 18)
        #expect(
            try indexedRecords(bytes, options: options, each: "people.person[*]", natively: true)
                == indexedRecords(bytes, options: options, each: "people.person[*]", natively: false))
    }

    @Test("the node and depth limits hold for each record, failing alike")
    func limits() throws {
        let (native, events) = try crowdedPeople(20, crowded: 9, materialization: .wholeRecords)
        #expect(native.results == events.results)
        #expect(native.results.count == 10)
        #expect(native.results.last?.hasPrefix("limit exceeded") == true, "\(native.results.last ?? "")")

        var shallow = XMLReadingOptions()
        shallow.limits.maximumDepth = 4
        let deep = people(20) { i in i == 4 ? "<a><b>deep</b></a>" : "" }
        let nativeDeep = try bakedPeople(deep, options: shallow, natively: true)
        #expect(nativeDeep.results == (try bakedPeople(deep, options: shallow, natively: false)).results)
        #expect(nativeDeep.results.last?.hasPrefix("limit exceeded") == true, "\(nativeDeep.results.last ?? "")")
    }

    @Test("a record read for a recipe's paths is indexed whole, and counts whole against the node limit")
    func nodeLimitCountsWholeRecords() throws {
        let (native, events) = try crowdedPeople(6, crowded: 3, materialization: .recipePaths)
        // Through events only the recipe's values are built, and counted.
        #expect(events.results.count == 6)
        #expect(native.results.count == 4)
        #expect(Array(native.results.prefix(3)) == Array(events.results.prefix(3)))
        #expect(native.results[3].hasPrefix("limit exceeded"), "\(native.results[3])")
    }
}
