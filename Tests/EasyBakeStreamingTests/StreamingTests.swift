import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import EasyBakeXML
import EasyBakeYAML
import Foundation
import Testing

/// A source that counts what it is asked for, to show what streaming skips
/// and where it stops.
struct CountingSource<Base: IngredientSource>: IngredientSource {
    var base: Base
    var events = 0
    var skips = 0

    mutating func next() throws(EasyBakeError) -> IngredientEvent? {
        let event = try base.next()
        if event != nil { events += 1 }
        return event
    }

    mutating func skipValue() throws(EasyBakeError) {
        skips += 1
        try base.skipValue()
    }

    mutating func skipRestOfContainer() throws(EasyBakeError) {
        skips += 1
        try base.skipRestOfContainer()
    }

    var location: EasyBake.SourceLocation { base.location }
    var duplicateKeyPolicy: DuplicateKeyPolicy { base.duplicateKeyPolicy }
}

func json(_ text: String) throws -> CountingSource<JSONIngredientSource> {
    CountingSource(base: try JSONIngredientSource(.text(text, name: "test.json")))
}

@Suite("Streaming path resolution")
struct StreamingResolutionTests {
    @Test("values no path needs are skipped, not read")
    func skipsWhatNoPathNeeds() throws {
        var source = try json(#"{"big": {"a": [1, 2, {"b": "c"}], "d": "e"}, "name": "Ada", "more": [1, 2, 3]}"#)
        let found = try PathMatcher(["name"]).resolve(from: &source)
        #expect(found["name"] == "Ada")
        // beginDictionary, key big (its value skipped), key name, "Ada" —
        // and then nothing, since "name" is settled.
        #expect(source.events == 4)
        #expect(source.skips == 1)
        #expect(found.stoppedEarly)

        var wildcard = try json(#"{"big": {"a": [1, 2, {"b": "c"}], "d": "e"}, "names": ["Ada"], "more": [1, 2, 3]}"#)
        #expect(try PathMatcher(["names[*]"]).resolve(from: &wildcard)["names[*]"] == ["Ada"])
        // … key names, [, "Ada", ], key more (skipped), }.
        #expect(wildcard.events == 8)
        #expect(wildcard.skips == 2)
    }

    @Test("missing and null are told apart, as by the tree")
    func missingAndNull() throws {
        var source = try json(#"{"a": null, "b": {"c": 1}}"#)
        let found = try PathMatcher(["a", "b.x", "b.c", "z[0]"]).resolve(from: &source)
        #expect(found.values == [.null, nil, 1, nil])
    }

    @Test("reading stops once every path is settled; the rest is not read")
    func stopsEarly() throws {
        // Everything after the first user is malformed: never read.
        var source = try json(#"{"users": [{"name": "Ada", "id": 1}, {"name": "Bob"}, {{{ not json"#)
        let found = try PathMatcher(["users[0].name"]).resolve(from: &source)
        #expect(found["users[0].name"] == "Ada")
        #expect(found.stoppedEarly)
    }

    @Test("[*] and negative indexes read to the end, and see its errors")
    func wildcardsReadToTheEnd() throws {
        for path in ["users[*].name", "users[-1].name"] {
            var source = try json(#"{"users": [{"name": "Ada"}, {"name": "Bob"}], "tail": [1, 2,]}"#)
            #expect(throws: EasyBakeError.self) { try PathMatcher([path]).resolve(from: &source) }
            var valid = try json(#"{"users": [{"name": "Ada"}, {"name": "Bob"}], "tail": [1, 2]}"#)
            let found = try PathMatcher([path]).resolve(from: &valid)
            #expect(found.values[0] == (path.contains("*") ? ["Ada", "Bob"] : "Bob"))
            #expect(!found.stoppedEarly)
        }
    }

    @Test("negative indexes keep only the last elements whole, in every format, and answer as the whole tree")
    func negativeIndexesKeepTheLast() throws {
        let whole: Ingredients = [
            "items": [
                ["id": 1, "tags": ["a"]], ["id": 2, "tags": ["b", "c"]], ["id": 3, "tags": []],
                ["id": 4, "tags": ["d"]], ["id": 5, "tags": ["e", "f"]],
            ],
            "lone": ["id": 9],
        ]
        let pathSets = [
            ["items[-1]"], ["items[-2].id", "items[-1].tags[-1]"], ["items[-5].id", "items[-6].id"],
            ["items[-3].tags", "lone[-1].id"], ["items[-1].id", "items[0].id"], ["items[-2]", "items[*].id"],
        ]
        let formats: [(String, any IngredientFormat)] = [
            ("json", JSONFormat()), ("yaml", YAMLFormat()), ("xml", XMLFormat()),
        ]
        for (name, format) in formats {
            let text = try format.write(name == "xml" ? ["root": whole] : whole)
            let tree = try format.read(.bytes(Array(text)))
            for paths in pathSets {
                // An XML document's paths start at its root element.
                let matcher = try PathMatcher(paths.map { name == "xml" ? "root." + $0 : $0 })
                var source = try format.makeSource(for: .bytes(Array(text)))
                let found = try matcher.resolve(from: &source)
                for (path, value) in zip(matcher.paths, found.values) {
                    #expect(value == tree.resolve(path), "\(name) \(paths): \(path)")
                }
            }
        }
        // The elements before the last ones are not kept: their places are null.
        var source = try json(#"{"items": [{"id": 1}, {"id": 2}, {"id": 3}, {"id": 4}]}"#)
        let pruned = try #require(try PathMatcher(["items[-2].id"]).read(from: &source))
        #expect(pruned == ["items": [.null, .null, ["id": 3], ["id": 4]]])
        // Every element is read as strictly as any: a malformed early one is an error.
        var malformed = try json(#"{"items": [{"id": 1,}, {"id": 2}]}"#)
        #expect(throws: EasyBakeError.self) { try PathMatcher(["items[-1].id"]).resolve(from: &malformed) }
    }

    @Test("a JSON element skipped for later reads as it would have in place; its errors are reading's")
    func skippedForLater() throws {
        let text = #"{"items": [{"id": 1, "tags": ["a", "\u00e9\n", "é"]}, [1, -2.5e3, null, {}], 7, "s"]}"#
        var skipping = try JSONIngredientSource(.text(text))
        var reading = try JSONIngredientSource(.text(text))
        for _ in 0..<3 {
            #expect(try skipping.next() == reading.next())
        }
        for _ in 0..<4 {
            let first = try #require(try skipping.next())
            #expect(try reading.next() == first)
            var read = IngredientIndex()
            try reading.readValue(startingWith: first, into: &read)
            guard let later = try skipping.skipValueForLater(startingWith: first) else {
                // Scalars are read in place.
                guard case .scalar = first else {
                    Issue.record("a container was not skipped for later: \(first)")
                    continue
                }
                var inPlace = IngredientIndex()
                try skipping.readValue(startingWith: first, into: &inPlace)
                #expect(try Ingredients(index: inPlace) == Ingredients(index: read))
                continue
            }
            var index = IngredientIndex()
            #expect(try later.read(into: &index, keeping: nil))
            #expect(try Ingredients(index: index) == Ingredients(index: read))
            #expect(index.mark(at: 0)?.location.column == read.mark(at: 0)?.location.column)
        }
        #expect(try skipping.next() == .endArray)
        // Arrays at several depths, one after another, each read from its own place.
        let nested = #"{"a": [[1, [2]], {"k": [3]}], "b": {"c": [{"x": 1}, [4, [5]], {"x": 2}]}, "d": [[6], [7]]}"#
        let tree = try JSONFormat().read(.text(nested))
        let matcher = try PathMatcher(["a[-1]", "b.c[-2]", "b.c[-1].x", "d[-2]", "a[-2][-1]"])
        var source = try JSONIngredientSource(.text(nested))
        let found = try matcher.resolve(from: &source)
        for (path, value) in zip(matcher.paths, found.values) {
            #expect(value == tree.resolve(path), "\(path)")
        }
        // What is wrong in a skipped element is the same error, at the same place.
        for malformed in [
            #"[{"id": 1,}, 2]"#, #"[[1, 02], 2]"#, #"[{"a": "\x"}, 2]"#, #"[{"a": tru}, 2]"#, "[[1, 2}, 3]",
            "[{\"a\": \"\u{1}\"}]", #"[{"a": [[[[1]]]]}]"#,
        ] {
            var skipping = try JSONIngredientSource(
                .text(malformed), options: JSONReadingOptions(limits: IngredientLimits(maximumDepth: 4)))
            var reading = try JSONIngredientSource(
                .text(malformed), options: JSONReadingOptions(limits: IngredientLimits(maximumDepth: 4)))
            _ = try skipping.next()
            _ = try reading.next()
            let first = try #require(try skipping.next())
            _ = try reading.next()
            var index = IngredientIndex()
            let expected = #expect(throws: EasyBakeError.self, "\(malformed)") {
                try reading.readValue(startingWith: first, into: &index)
            }
            let error = #expect(throws: EasyBakeError.self, "\(malformed)") {
                try skipping.skipValueForLater(startingWith: first)
            }
            #expect(error?.message == expected?.message, "\(malformed)")
            #expect(error?.location == expected?.location, "\(malformed)")
        }
    }

    @Test("an index skips the elements before it and keeps their places")
    func indexKeepsPlaces() throws {
        var source = try json(#"[{"a": 1}, {"a": 2}, {"a": 3}, {"a": 4}]"#)
        let pruned = try #require(try PathMatcher(["[2].a"]).read(from: &source))
        #expect(pruned == [.null, .null, ["a": 3], .null])
        #expect(source.skips == 3)
    }

    @Test("a lone value answers [0], [-1] and [*] as a one-element array")
    func loneValues() throws {
        let xml = "<rss><channel><item><title>Only</title></item></channel></rss>"
        for path in ["rss.channel.item[0].title", "rss.channel.item[-1].title"] {
            var source = try XMLIngredientSource(.text(xml))
            #expect(try PathMatcher([path]).resolve(from: &source).values[0] == "Only")
        }
        var source = try XMLIngredientSource(.text(xml))
        #expect(try PathMatcher(["rss.channel.item[*].title"]).resolve(from: &source).values[0] == ["Only"])
    }

    @Test("repeated XML elements are elements of an array, in order")
    func collectedElements() throws {
        let xml =
            "<feed><entry><id>1</id></entry><note>x</note><entry><id>2</id></entry><entry><id>3</id></entry></feed>"
        let paths = ["feed.entry[1].id", "feed.entry[*].id", "feed.entry.id", "feed.note"]
        var source = try XMLIngredientSource(.text(xml))
        let found = try PathMatcher(paths).resolve(from: &source)
        #expect(found.values == ["2", ["1", "2", "3"], nil, "x"])
    }

    @Test("duplicate keys follow the source's policy")
    func duplicateKeys() throws {
        let text = #"{"a": 1, "a": 2}"#
        var first = try JSONIngredientSource(.text(text))
        #expect(try PathMatcher(["a"]).resolve(from: &first)["a"] == 1)
        var last = try JSONIngredientSource(.text(text), options: .init(duplicateKeys: .lastWins))
        #expect(try PathMatcher(["a"]).resolve(from: &last)["a"] == 2)
        var reject = try JSONIngredientSource(.text(text), options: .init(duplicateKeys: .reject))
        let error = #expect(throws: EasyBakeError.self) { try PathMatcher(["a"]).read(from: &reject) }
        #expect(error?.code == .duplicateKey)
    }
}

@Suite("Streaming records")
struct StreamingRecordTests {
    @Test("records come one at a time with index, path and location")
    func records() throws {
        let text = """
            {"meta": {"count": 2},
             "users": [
              {"id": 1, "name": "Ada"},
              {"id": 2, "name": "Bob"}
             ]}
            """
        var reader = try RecordReader(
            source: try JSONIngredientSource(.text(text, name: "users.json")), each: "users[*]")
        let first = try #require(try reader.next())
        #expect(first.index == 0)
        #expect(first.path.description == "users[0]")
        #expect(first.ingredients == ["id": 1, "name": "Ada"])
        #expect(first.location.line == 3)
        #expect(first.location.column == 3)
        let second = try #require(try reader.next())
        #expect(second.path.description == "users[1]")
        #expect(try reader.next() == nil)
        #expect(try reader.next() == nil)
    }

    @Test("records are kept pruned to the paths asked for")
    func keeping() throws {
        let text = #"{"users": [{"id": 1, "name": "Ada", "bio": "long"}, {"id": 2, "bio": "longer"}]}"#
        var reader = try RecordReader(
            source: try JSONIngredientSource(.text(text)), each: "users[*]", keeping: try PathMatcher(["id"]))
        #expect(try reader.next()?.ingredients == ["id": 1])
        #expect(try reader.next()?.ingredients == ["id": 2])
    }

    @Test("nested [*] paths visit every inner record in order")
    func nestedWildcards() throws {
        // `lines` as a dictionary gives its values to `[*]`; a lone scalar is one element.
        let text = #"""
            {"orders": [{"lines": [{"sku": "a"}, {"sku": "b"}]}, {"lines": {"x": {"sku": "c"}, "y": {"sku": "d"}}},
             {"lines": null}, {"lines": {"sku": "e"}}]}
            """#
        var reader = try RecordReader(source: try JSONIngredientSource(.text(text)), each: "orders[*].lines[*].sku")
        var skus: [Ingredients] = []
        while let record = try reader.next() { skus.append(record.ingredients) }
        #expect(skus == ["a", "b", "c", "d"])
    }

    @Test("RSS items stream from XML, YAML records from YAML")
    func otherFormats() throws {
        let rss =
            "<rss><channel><title>T</title><item><title>A</title></item><item><title>B</title></item></channel></rss>"
        var xmlReader = try RecordReader(source: try XMLIngredientSource(.text(rss)), each: "rss.channel.item[*]")
        #expect(try xmlReader.next()?.ingredients == ["title": "A"])
        #expect(try xmlReader.next()?.path.description == "rss.channel.item[1]")
        #expect(try xmlReader.next() == nil)

        let yaml = "users:\n  - name: Ada\n  - name: Bob\n"
        var yamlReader = try RecordReader(source: YAMLIngredientSource(.text(yaml)), each: "users[*].name")
        #expect(try yamlReader.next()?.ingredients == "Ada")
        #expect(try yamlReader.next()?.ingredients == "Bob")
        #expect(try yamlReader.next() == nil)
    }

    @Test("malformed input after some records fails with its position, and the reader ends")
    func malformed() throws {
        let text = "{\"users\": [{\"id\": 1},\n {\"id\": 2}\n {\"id\": 3}]}"
        var reader = try RecordReader(source: try JSONIngredientSource(.text(text, name: "bad.json")), each: "users[*]")
        #expect(try reader.next() != nil)
        #expect(try reader.next() != nil)
        let error = #expect(throws: EasyBakeError.self) { try reader.next() }
        #expect(error?.code == .syntax)
        #expect(error?.location?.line == 3)
        #expect(try reader.next() == nil)
    }

    @Test("a source that keeps the last of repeated keys cannot be streamed")
    func lastWinsIsRefused() throws {
        let source = try JSONIngredientSource(.text("{}"), options: .init(duplicateKeys: .lastWins))
        let error = #expect(throws: EasyBakeError.self) { try RecordReader(source: source, each: "a[*]") }
        #expect(error?.code == .unsupported)
    }
}

@Suite("Baking streamed records")
struct StreamingBakingTests {
    struct User: Decodable, Equatable {
        let id: Int
        let name: String
        let unreadMessages: Int?
    }

    static let text = """
        {"users": [
          {"user_id": 1, "full_name": "Ada", "unread_messages": 3, "bio": "…"},
          {"user_id": "2", "full_name": "Bob", "unread_messages": null},
          {"user_id": "three", "full_name": "Cy"},
          {"user_id": 4, "full_name": "Di", "unread_messages": "5"}
        ]}
        """

    static let recipe = try! Recipe(name: "User", mapping: ["id": "user_id", "name": "full_name"])

    @Test("each record bakes as the tree bakes it; a bad record fails alone, with its path and line")
    func bakesEach() throws {
        let tree = try JSONFormat().read(.text(Self.text))
        let expected = try #require(tree.resolve("users")?.arrayValue).map { record in
            Result { () throws(EasyBakeError) -> User in try Baker().bake(User.self, from: record, recipe: Self.recipe)
            }
        }
        let streamed = Array(
            try Baker().bakeEach(
                User.self, from: JSONIngredientSource(.text(Self.text, name: "users.json")), each: "users[*]",
                recipe: Self.recipe))
        #expect(streamed.count == 4)
        #expect(try streamed[0].get() == User(id: 1, name: "Ada", unreadMessages: 3))
        #expect(try streamed[1].get() == expected[1].get())
        #expect(try streamed[3].get() == User(id: 4, name: "Di", unreadMessages: 5))
        guard case .failure(let error) = streamed[2] else {
            Issue.record("record 2 should fail")
            return
        }
        #expect(error.code == .typeMismatch)
        #expect(error.path?.description == "users[2].user_id")
        #expect(error.message.hasPrefix("record 2: "))
        #expect(error.location?.line == 4)
    }

    @Test("an unmapped property is matched implicitly: the automatic mode keeps records whole")
    func automaticKeepsWholeRecordsForImplicitMatching() throws {
        // unreadMessages is not in the recipe: it is matched implicitly, so
        // streaming must not prune it away.
        let models = try Baker().bakeEach(
            User.self, from: JSONIngredientSource(.text(Self.text)), each: "users[*]", recipe: Self.recipe
        )
        .compactMap { try? $0.get() }
        #expect(models.map(\.unreadMessages) == [3, nil, 5])
    }

    @Test("recipePaths refuses a model that asks for more than the recipe maps")
    func recipePathsRefusesUnmapped() throws {
        var records = try Baker().bakeEach(
            User.self, from: JSONIngredientSource(.text(Self.text)), each: "users[*]", recipe: Self.recipe,
            materialization: .recipePaths)
        let error = #expect(throws: EasyBakeError.self) { try records.nextModel() }
        #expect(error?.code == .unsupported)
        #expect(error?.message.contains("\"unreadMessages\"") == true)
    }

    /// A stream's session keeps one observer for its records: what one
    /// record's bake asked of the root must not be held against the next.
    @Test("a record that asks for an unmapped key fails alone; the records after it bake")
    func unmappedAskFailsOneRecord() throws {
        struct Person: Decodable, Equatable {
            let id: Int
            let name: String
            let extra: String?
            enum CodingKeys: String, CodingKey { case id, name, extra }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                id = try container.decode(Int.self, forKey: .id)
                name = try container.decode(String.self, forKey: .name)
                // Only some records make the model ask for a key the recipe
                // does not map.
                extra = name == "Bob" ? try container.decodeIfPresent(String.self, forKey: .extra) : nil
            }
            init(id: Int, name: String) {
                self.id = id
                self.name = name
                extra = nil
            }
        }
        let text =
            #"{"people": [{"user_id": 1, "full_name": "Ada"}, {"user_id": 2, "full_name": "Bob"}, "#
            + #"{"user_id": 3, "full_name": "Cy"}, {"user_id": 4, "full_name": "Di"}]}"#
        let recipe = try Recipe(mapping: ["id": "user_id", "name": "full_name"])
        let results = try Baker().bakeEach(
            Person.self, from: JSONIngredientSource(.text(text)), each: "people[*]", recipe: recipe,
            materialization: .recipePaths)
        let collected = Array(results)
        let baked = collected.map { try? $0.get() }
        #expect(baked == [Person(id: 1, name: "Ada"), nil, Person(id: 3, name: "Cy"), Person(id: 4, name: "Di")])
        let failure = collected.compactMap { result -> EasyBakeError? in
            if case .failure(let error) = result { return error }
            return nil
        }
        #expect(failure.count == 1)
        #expect(failure.first?.code == .unsupported)
        #expect(failure.first?.message.contains("\"extra\"") == true)
    }

    @Test("a fully mapped model is baked from pruned records, with the same results")
    func fullyMappedPrunes() throws {
        let full = try Recipe(mapping: ["id": "user_id", "name": "full_name", "unreadMessages": "unread_messages"])
        for materialization in [Baker.RecordMaterialization.automatic, .recipePaths, .wholeRecords] {
            let results = try Baker().bakeEach(
                User.self, from: JSONIngredientSource(.text(Self.text)), each: "users[*]", recipe: full,
                materialization: materialization)
            #expect(
                results.map { try? $0.get() } == [
                    User(id: 1, name: "Ada", unreadMessages: 3), User(id: 2, name: "Bob", unreadMessages: nil), nil,
                    User(id: 4, name: "Di", unreadMessages: 5),
                ])
        }
    }

    @Test("models arrive through an AsyncSequence")
    func asyncSequence() async throws {
        let full = try Recipe(mapping: ["id": "user_id", "name": "full_name"])
        let text = #"{"users": [{"user_id": 1, "full_name": "Ada"}, {"user_id": 2, "full_name": "Bob"}]}"#
        var names: [String] = []
        for try await user in try Baker().bakeEach(
            User.self, from: JSONIngredientSource(.text(text)), each: "users[*]", recipe: full
        ).models {
            names.append(user.name)
        }
        #expect(names == ["Ada", "Bob"])
    }

    @Test("a model's own bakingRecipe is used when none is given")
    func typeRecipe() throws {
        struct Item: Bakeable, Equatable {
            let title: String
            static let bakingRecipe: Recipe? = try? Recipe(mapping: ["title": "t"])
        }
        let items = try Baker().bakeEach(
            Item.self, from: JSONIngredientSource(.text(#"[{"t": "x"}, {"t": "y"}]"#)), each: "[*]"
        )
        .map { try $0.get() }
        #expect(items == [Item(title: "x"), Item(title: "y")])
    }
}
