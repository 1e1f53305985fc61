import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import EasyBakeXML
import EasyBakeYAML
import Testing

/// `[*]` on a dictionary: its values in JSON and YAML (as JSONPath and jq
/// read it), one element for an XML element — the same answer from the
/// tree, the index, streaming and baking (issue 19, item 8).
@Suite("[*] over a dictionary")
struct DictionaryWildcardTests {
    struct Event: Decodable, Equatable, Sendable {
        let name: String
    }

    struct Names: Decodable, Equatable {
        let names: [String]
    }

    /// citm's shape: events keyed by id.
    static let catalog: [(name: String, format: any IngredientFormat, text: String)] = [
        ("json", JSONFormat(), #"{"events": {"138586341": {"name": "Opera"}, "138586345": {"name": "Ballet"}}}"#),
        ("yaml", YAMLFormat(), "events:\n  \"138586341\": {name: Opera}\n  \"138586345\": {name: Ballet}\n"),
    ]

    struct KeyedEvent: Decodable, Equatable, Sendable {
        let id: Int
        let name: String
    }

    @Test(
        "#key names the record's own key: streamed (one job and two), in a map, and in a property's dictionary",
        arguments: 0..<2)
    func ownKey(formatIndex: Int) throws {
        let (name, format, text) = Self.catalog[formatIndex]
        let input = IngredientInput.bytes(Array(text.utf8), name: "catalog.\(name)")
        let recipe = try Recipe(mapping: ["id": "#key", "name": "name"], transformers: ["id": "number"])
        let expected = [KeyedEvent(id: 138586341, name: "Opera"), KeyedEvent(id: 138586345, name: "Ballet")]
        for jobs in [1, 2] {
            let baked = try Baker().bakeEach(
                KeyedEvent.self, from: AnyIngredientSource(try format.makeSource(for: input)), each: "events[*]",
                recipe: recipe, jobs: jobs
            ).map { try $0.get() }
            #expect(baked == expected, "\(name), \(jobs) jobs")
        }
        // The values of a [String: Model] map, through its nested recipe.
        struct Catalog: Decodable { let events: [String: KeyedEvent] }
        let mapRecipe = try Recipe(mapping: ["events": "events"], nested: ["events": recipe])
        let catalog = try Baker().bake(Catalog.self, from: input, format: format, recipe: mapRecipe)
        #expect(catalog.events["138586345"] == expected[1])
        // A property's value is under the last key of its path.
        struct Pick: Decodable { let opera: KeyedEvent }
        let pick = try Baker().bake(
            Pick.self, from: input, format: format,
            recipe: try Recipe(mapping: ["opera": "events.138586341"], nested: ["opera": recipe]))
        #expect(pick.opera == expected[0])
    }

    @Test("#key: a record's own #key member wins; an element has no key, and the default stands in")
    func ownKeyEdges() throws {
        struct Item: Decodable, Equatable, Sendable { let key: String }
        let recipe = try Recipe(mapping: ["key": "#key"], defaults: ["key": "none"])
        let members = try Baker().bakeEach(
            Item.self, from: try JSONIngredientSource(.text(##"{"a": {"#key": "mine"}, "b": {}}"##)), each: "[*]",
            recipe: recipe
        ).map { try $0.get().key }
        #expect(members == ["mine", "b"])
        let elements = try Baker().bakeEach(
            Item.self, from: try JSONIngredientSource(.text(#"[{}, {}]"#)), each: "[*]", recipe: recipe
        ).map { try $0.get().key }
        #expect(elements == ["none", "none"])
        let strict = try Recipe(mapping: ["key": "#key"])
        #expect(throws: EasyBakeError.self) {
            _ = try Baker().bakeEach(
                Item.self, from: try JSONIngredientSource(.text("[{}]")), each: "[*]", recipe: strict
            )
            .map { try $0.get() }
        }
        // The recipe processing that `easybake bake` prints reads it the same way.
        #expect(try recipe.process(["x": 1], ownKey: "138") == ["key": "138"])
        #expect(try recipe.process(["x": 1]) == ["key": "none"])
    }

    @Test("a tree, a path matcher and a record reader all give the values", arguments: 0..<2)
    func values(formatIndex: Int) throws {
        let (name, format, text) = Self.catalog[formatIndex]
        let input = IngredientInput.bytes(Array(text.utf8), name: "catalog.\(name)")
        let tree = try format.read(input)
        #expect(try tree.resolve("events[*].name") == ["Opera", "Ballet"])

        var source = try format.makeSource(for: input)
        let found = try PathMatcher(["events[*].name"]).resolve(from: &source)
        #expect(found["events[*].name"] == ["Opera", "Ballet"])

        var reader = try RecordReader(source: AnyIngredientSource(try format.makeSource(for: input)), each: "events[*]")
        var records: [(path: String, value: Ingredients)] = []
        while let record = try reader.next() { records.append((record.path.description, record.ingredients)) }
        #expect(records.map(\.path) == ["events.138586341", "events.138586345"])
        #expect(records.map(\.value) == [["name": "Opera"], ["name": "Ballet"]])
    }

    @Test(
        "bakeEach bakes every value, on one job or several, and a recipe's [*] reads them from the bytes",
        arguments: 0..<2)
    func baking(formatIndex: Int) throws {
        let (name, format, text) = Self.catalog[formatIndex]
        let input = IngredientInput.bytes(Array(text.utf8), name: "catalog.\(name)")
        for jobs in [1, 2] {
            let events = try Baker().bakeEach(
                Event.self, from: AnyIngredientSource(try format.makeSource(for: input)), each: "events[*]", jobs: jobs
            ).map { try $0.get() }
            #expect(events == [Event(name: "Opera"), Event(name: "Ballet")])
        }
        let recipe = try Recipe(mapping: ["names": "events[*].name"])
        #expect(try Baker().bake(Names.self, from: input, format: format, recipe: recipe).names == ["Opera", "Ballet"])
        #expect(
            try Baker().bake(Names.self, from: try format.read(input), recipe: recipe).names == ["Opera", "Ballet"])
    }

    @Test("an error inside a value names the member's key")
    func errorsNameTheKey() throws {
        let text = #"{"events": {"a": {"name": "Opera"}, "b": {"name": ["no"]}}}"#
        let input = IngredientInput.bytes(Array(text.utf8), name: "events.json")
        let recipe = try Recipe(mapping: ["names": "events[*].name"])
        for (way, bake) in [
            (
                "index",
                { () throws(EasyBakeError) in
                    _ = try Baker().bake(Names.self, from: input, format: JSONFormat(), recipe: recipe)
                }
            ),
            (
                "tree",
                { () throws(EasyBakeError) in
                    _ = try Baker().bake(Names.self, from: try JSONFormat().read(input), recipe: recipe)
                }
            ),
        ] as [(String, () throws(EasyBakeError) -> Void)] {
            let error = #expect(throws: EasyBakeError.self, "\(way)") { try bake() }
            #expect(error?.path?.description == "events.b.name", "\(way)")
        }
        let results = Array(
            try Baker().bakeEach(
                Event.self, from: try JSONIngredientSource(input), each: "events[*]"))
        #expect(results.count == 2)
        guard case .failure(let failed) = results.last else {
            Issue.record("a list baked as a name")
            return
        }
        #expect(failed.path?.description.hasPrefix("events.b") == true, "\(failed)")
    }

    @Test("a repeated key gives its first value, as it does to a lookup")
    func repeatedKeys() throws {
        let text = #"{"e": {"a": 1, "a": 2, "b": 3}}"#
        let input = IngredientInput.bytes(Array(text.utf8), name: "repeats.json")
        #expect(try JSONFormat().read(input).resolve("e[*]") == [1, 3])
        var source = try JSONIngredientSource(input)
        #expect(try PathMatcher(["e[*]"]).resolve(from: &source)["e[*]"] == [1, 3])
        struct Numbers: Decodable { let numbers: [Int] }
        let recipe = try Recipe(mapping: ["numbers": "e[*]"])
        #expect(try Baker().bake(Numbers.self, from: input, format: JSONFormat(), recipe: recipe).numbers == [1, 3])
        var reader = try RecordReader(source: try JSONIngredientSource(input), each: "e[*]")
        var values: [Ingredients] = []
        while let record = try reader.next() { values.append(record.ingredients) }
        #expect(values == [1, 3])
    }

    @Test("a lone XML element is one element, in the tree, the index, streaming and baking")
    func loneXMLElement() throws {
        let rss = "<rss><channel><item><title>Only</title><link>x</link></item></channel></rss>"
        let input = IngredientInput.bytes(Array(rss.utf8), name: "feed.xml")
        let tree = try XMLFormat().read(input)
        #expect(tree.resolve(try IngredientPath(parsing: "rss.channel"))?.dictionaryValue?.isElement == true)
        #expect(try tree.resolve("rss.channel.item[*].title") == ["Only"])

        var source = try XMLIngredientSource(input)
        #expect(
            try PathMatcher(["rss.channel.item[*].title"]).resolve(from: &source)["rss.channel.item[*].title"] == [
                "Only"
            ])

        var reader = try RecordReader(source: try XMLIngredientSource(input), each: "rss.channel.item[*]")
        #expect(try reader.next()?.path.description == "rss.channel.item[0]")
        #expect(try reader.next() == nil)

        struct Titles: Decodable { let titles: [String] }
        let recipe = try Recipe(mapping: ["titles": "rss.channel.item[*].title"])
        #expect(try Baker().bake(Titles.self, from: input, format: XMLFormat(), recipe: recipe).titles == ["Only"])
        #expect(try Baker().bake(Titles.self, from: tree, recipe: recipe).titles == ["Only"])
        // Written as JSON and read back, the same tree is plain JSON: `[*]`
        // on the item's dictionary gives its values.
        let json = try JSONFormat().write(tree)
        #expect(try JSONFormat().read(.bytes(json)).resolve("rss.channel.item[*]") == ["Only", "x"])
    }
}
