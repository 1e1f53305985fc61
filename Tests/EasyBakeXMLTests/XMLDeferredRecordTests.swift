import EasyBake
import EasyBakeTestSupport
import EasyBakeXML
import Testing

// Records of an XML stream left for the jobs to parse (issue 29): two jobs
// find the records' ends with a lexer and each parses its own, which must
// give exactly what one job reading them in place gives — models, errors
// with their messages, lines and columns — while the records are in fact
// left to the jobs where the document allows it, and read in place where it
// does not.

private struct Item: Decodable, Equatable, Sendable {
    let id: String?
    let name: String
    let size: Int
    let tags: [String]?
}

private let itemRecipe = try! Recipe(
    name: "Item", orderedMapping: [("id", "@id"), ("name", "name"), ("size", "size"), ("tags", "tag")])

/// The items at `each` baked on `jobs` jobs, as text (errors with their
/// code, message, path, line and column), and how many records the source
/// left to the jobs.
///
/// The line an error quotes is left out: it is what libxml2 still holds of
/// it, which depends on how the input was fed (a job holds its record
/// alone: the text before a record on its first line, after it on its
/// last, is not in what it parses).
private func bakedItems(
    _ text: String, options: XMLReadingOptions = .init(), each: String = "catalog.item[*]",
    recipe: Recipe = itemRecipe, jobs: Int
) throws -> (results: [String], deferred: Int) {
    let source = try XMLIngredientSource(.text(text, name: "catalog.xml"), options: options)
    let records = try Baker().bakeEach(Item.self, from: source, each: each, recipe: recipe, jobs: jobs)
    let results = records.map { result in
        switch result {
        case .success(let item): "\(item)"
        case .failure(let error):
            "\(error.code) \(error.message) at \(error.path?.description ?? "-") \(RecordRoads.place(error.location))"
        }
    }
    return (results, source.recordsDeferred)
}

/// A catalog of `count` items, item `i` written by `item(i)`, inside
/// `prologue` and `root`'s start tag.
private func catalog(
    _ count: Int, prologue: String = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
    root: String = "<catalog xmlns:m=\"urn:m\">", item: (Int) -> String
) -> String {
    prologue + root + "\n" + (0..<count).map(item).joined() + "</catalog>\n"
}

/// The shapes records come in: attributes or none, on one line or many,
/// with comments, CDATA, instructions and quoted `>` and `/`, namespaces
/// declared outside them, text that is not ASCII before a value.
private let shapes: [(String, @Sendable (Int) -> String)] = [
    (
        "pretty, with attributes",
        { i in
            "  <item id=\"i\(i)\">\n    <name>Item \(i)</name>\n    <size>\(i)</size>\n"
                + (0..<(i % 3)).map { "    <tag>t\($0)</tag>\n" }.joined() + "  </item>\n"
        }
    ),
    (
        "no attributes: the record's first event comes with its first child",
        { i in "<item>\n  <name>n\(i)</name><size>\(i * 3)</size>\n</item>\n" }
    ),
    ("one line", { i in "<item id=\"\(i)\"><name>é\(i)</name><size>\(i)</size><tag>a</tag><tag>b</tag></item>" }),
    (
        "a start tag over lines, markup that holds < and >",
        { i in
            "<item\n   id=\"a>b/\(i)\"\n   m:x='1'><!-- <item> --><?pi > ?><name><![CDATA[<x> & </y>]]>\(i)</name>"
                + "<size>\(i)</size><m:empty/><m:note m:t=\"/>\">é</m:note><tag>é</tag></item>\n"
        }
    ),
    (
        "namespaces declared outside the record, and in it",
        { i in
            "<item xmlns:k=\"urn:k\" id=\"\(i)\"><k:name>x</k:name><name>n</name><m:size>1</m:size><size>\(i)</size></item>\n"
        }
    ),
]

@Suite("XML records left for the jobs to read")
struct XMLDeferredRecordTests {
    @Test("every shape of record: two jobs give what one gives, and the records were left to them")
    func shapesAlike() throws {
        for (name, item) in shapes {
            // Enough records that the chunks the reader takes end inside some.
            for count in [41, 700] {
                let text = catalog(count, item: item)
                let one = try bakedItems(text, jobs: 1)
                let two = try bakedItems(text, jobs: 2)
                #expect(one.results.count == count, "\(name)")
                #expect(two.results == one.results, "\(name), \(count) records")
                #expect(one.deferred == 0, "\(name)")
                // The records libxml2 had read when the first was met are
                // read in place (the lexer takes over there): at most the
                // first KiB's.
                #expect(two.deferred >= count - 40, "\(name), \(count) records: \(two.deferred) deferred")
            }
        }
    }

    @Test("namespaces resolved to URIs and kept declarations read alike")
    func namespaceModes() throws {
        var options = XMLReadingOptions()
        options.namespaces = .resolveToURIs
        options.keepsNamespaceDeclarations = true
        let text = catalog(500, root: "<catalog xmlns=\"urn:d\" xmlns:m=\"urn:m\">") { i in
            "<item id=\"\(i)\"><name>n</name><size>\(i)</size><m:tag>t</m:tag></item>\n"
        }
        let each = "{urn:d}catalog.{urn:d}item[*]"
        let recipe = try Recipe(
            name: "Item",
            orderedMapping: [("id", "@id"), ("name", "{urn:d}name"), ("size", "{urn:d}size"), ("tags", "{urn:m}tag")])
        let one = try bakedItems(text, options: options, each: each, recipe: recipe, jobs: 1)
        let two = try bakedItems(text, options: options, each: each, recipe: recipe, jobs: 2)
        #expect(one.results.first == "Item(id: Optional(\"0\"), name: \"n\", size: 0, tags: Optional([\"t\"]))")
        #expect(two.results == one.results)
        #expect(two.deferred > 450)
    }

    @Test("where the document does not allow it, records are read in place, alike")
    func readInPlace() throws {
        let item: (Int) -> String = { i in "<item id=\"\(i)\"><name>n</name><size>\(i)</size></item>\n" }
        var lenient = XMLReadingOptions()
        lenient.lenientReferences = true
        var markup = XMLReadingOptions()
        markup.markupElements = ["name"]
        let cases: [(String, String, XMLReadingOptions)] = [
            (
                "a DTD", catalog(40, prologue: "<!DOCTYPE catalog [<!ENTITY e \"<size>1</size>\">]>\n", item: item),
                .init()
            ),
            ("a lenient reading", catalog(40, item: item), lenient),
            ("captured markup", catalog(40, item: item), markup),
            ("XML 1.1", catalog(40, prologue: "<?xml version=\"1.1\"?>\n", item: item), .init()),
        ]
        for (name, text, options) in cases {
            let one = try bakedItems(text, options: options, jobs: 1)
            let two = try bakedItems(text, options: options, jobs: 2)
            #expect(two.results == one.results, "\(name)")
            #expect(two.deferred == 0, "\(name)")
        }
        // In ISO-8859-1, libxml2 reads other bytes than the lexer would.
        let latin =
            Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<catalog>".utf8)
            + (0..<40).flatMap { i in
                Array("<item><name>".utf8) + [0xE9] + Array("</name><size>\(i)</size></item>".utf8)
            }
            + Array("</catalog>".utf8)
        for jobs in [1, 2] {
            let source = try XMLIngredientSource(.bytes(latin, name: "latin.xml"))
            let names = try Baker().bakeEach(
                Item.self, from: source, each: "catalog.item[*]", recipe: itemRecipe, jobs: jobs
            )
            .map { try $0.get().name }
            #expect(names == Array(repeating: "é", count: 40), "jobs \(jobs)")
            #expect(source.recordsDeferred == 0)
        }
    }

    @Test(
        "damage anywhere: the same records, then the same error at the same place",
        arguments: ["</oops>", "<", "&bad;", "<a b=\"1>", "<!--"])
    func damaged(damage: String) throws {
        let text = catalog(60, item: shapes[0].1)
        let bytes = Array(text.utf8)
        // Every 97th byte: inside tags, text, attribute values, between records.
        for at in stride(from: 90, to: bytes.count - 20, by: 97) {
            var broken = bytes
            broken.insert(contentsOf: Array(damage.utf8), at: at)
            let damaged = String(decoding: broken, as: UTF8.self)
            let one = try bakedItems(damaged, jobs: 1)
            let two = try bakedItems(damaged, jobs: 2)
            #expect(two.results == one.results, "\(damage) at \(at)")
            #expect(
                one.results.last?.contains("syntax") == true || one.results.last?.contains("not found") == true
                    || one.results.last?.contains("type mismatch") == true,
                "\(damage) at \(at): \(one.results.last ?? "")")
        }
    }

    @Test("the depth and node limits hold in records read by the jobs, failing alike")
    func limits() throws {
        var shallow = XMLReadingOptions()
        shallow.limits.maximumDepth = 4
        let deep = catalog(300) { i in
            "<item id=\"\(i)\"><name>n</name><size>1</size>" + (i == 170 ? "<a><b>x</b></a>" : "") + "</item>\n"
        }
        let one = try bakedItems(deep, options: shallow, jobs: 1)
        let two = try bakedItems(deep, options: shallow, jobs: 2)
        #expect(two.results == one.results)
        #expect(one.results.last?.hasPrefix("limit exceeded") == true, "\(one.results.last ?? "")")
        #expect(two.deferred > 100)

        var few = XMLReadingOptions()
        few.limits.maximumNodes = 9
        let crowded = catalog(300) { i in
            "<item id=\"\(i)\"><name>n</name><size>1</size>" + (i == 210 ? "<tag>a</tag><tag>b</tag><tag>c</tag>" : "")
                + "</item>\n"
        }
        #expect(
            try bakedItems(crowded, options: few, jobs: 2).results
                == (try bakedItems(crowded, options: few, jobs: 1)).results)
    }

    @Test("a record that ends before an error reads whole, however far the parser read past it")
    func recordBeforeAnError() throws {
        // The error stands early in item 7, well within what libxml2 parses
        // ahead of item 6's end.
        let text = catalog(10, item: shapes[0].1).replacingOccurrences(
            of: "<name>Item 7</name>", with: "<name>Item 7</nme>")
        for jobs in [1, 2] {
            let results = try bakedItems(text, jobs: jobs).results
            #expect(results.count == 8, "jobs \(jobs): \(results)")
            #expect(results[6].hasPrefix("Item(id: Optional(\"i6\")"), "jobs \(jobs): \(results[6])")
            #expect(results[7].hasPrefix("syntax"), "jobs \(jobs): \(results[7])")
        }
        // Through events too.
        let source = try XMLIngredientSource(.text(text, name: "catalog.xml"))
        source.readsRecordsNatively = false
        let events = Array(try Baker().bakeEach(Item.self, from: source, each: "catalog.item[*]", recipe: itemRecipe))
        #expect(events.count == 8)
    }
}
