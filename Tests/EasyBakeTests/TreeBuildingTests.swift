import Testing
import EasyBake
import EasyBakeTestSupport

@Suite("Building trees from events")
struct TreeBuildingTests {
    @Test("a tree reads as the documented events and builds back into an equal tree")
    func treeEventsRoundTrip() throws {
        let tree: Ingredients = ["id": 7, "tags": ["a", ["b": .null]], "empty": [], "none": [:]]
        var source = IngredientTreeSource(tree)
        let events = try collectEvents(&source)
        #expect(
            events == [
                .beginDictionary,
                .key("id"), .scalar(7),
                .key("tags"), .beginArray, .scalar("a"), .beginDictionary, .key("b"), .scalar(.null), .endDictionary,
                .endArray,
                .key("empty"), .beginArray, .endArray,
                .key("none"), .beginDictionary, .endDictionary,
                .endDictionary,
            ])
        var replay = EventListSource(events)
        let rebuilt = try Ingredients(reading: &replay)
        #expect(rebuilt == tree)
        #expect(rebuilt.dictionaryValue?.keys == ["id", "tags", "empty", "none"])
    }

    @Test("a scalar alone is a whole tree")
    func scalarRoot() throws {
        var source = EventListSource([.scalar("just this")])
        #expect(try Ingredients(reading: &source) == "just this")
    }

    @Test("read(from:) returns one value at a time, then nil")
    func readSeveralValues() throws {
        var source = EventListSource([.scalar(1), .beginArray, .scalar(2), .endArray])
        #expect(try Ingredients.read(from: &source) == 1)
        #expect(try Ingredients.read(from: &source) == [2])
        #expect(try Ingredients.read(from: &source) == nil)
    }

    @Test("skipValue on a tree source skips whole containers")
    func treeSourceSkip() throws {
        var source = IngredientTreeSource(["a": ["deep": [1, 2]], "b": 2])
        #expect(try source.next() == .beginDictionary)
        #expect(try source.next() == .key("a"))
        try source.skipValue()
        #expect(try source.next() == .key("b"))
        #expect(try source.next() == .scalar(2))
        #expect(try source.next() == .endDictionary)
        #expect(try source.next() == nil)
    }

    // MARK: Duplicate keys

    /// `{"a": 1, "b": 2, "a": {"x": [3]}, "a": 4}`
    static let repeatedKeys: [IngredientEvent] = [
        .beginDictionary,
        .key("a"), .scalar(1),
        .key("b"), .scalar(2),
        .key("a"), .beginDictionary, .key("x"), .beginArray, .scalar(3), .endArray, .endDictionary,
        .key("a"), .scalar(4),
        .endDictionary,
    ]

    @Test("firstWins keeps the first value and skips later ones, containers included")
    func firstWins() throws {
        var source = EventListSource(Self.repeatedKeys, policy: .firstWins)
        let tree = try Ingredients(reading: &source)
        #expect(tree == ["a": 1, "b": 2])
        #expect(tree.dictionaryValue?.keys == ["a", "b"])
    }

    @Test("lastWins keeps the last value at the first key's place")
    func lastWins() throws {
        var source = EventListSource(Self.repeatedKeys, policy: .lastWins)
        let tree = try Ingredients(reading: &source)
        #expect(tree == ["a": 4, "b": 2])
        #expect(tree.dictionaryValue?.keys == ["a", "b"])
    }

    @Test("reject throws duplicateKey with the path of the repeated key")
    func reject() throws {
        var source = EventListSource(Self.repeatedKeys, policy: .reject)
        let error = try #require(captureError { try Ingredients(reading: &source) })
        #expect(error.code == .duplicateKey)
        #expect(error.path == [.key("a")])
        #expect(error.message.contains("\"a\""))
        #expect(error.location != nil)
    }

    @Test("reject names the full path of a repeated key inside arrays and dictionaries")
    func rejectNestedPath() throws {
        // [{}, {"outer": {"k": 1, "k": 2}}]
        var source = EventListSource(
            [
                .beginArray, .beginDictionary, .endDictionary,
                .beginDictionary, .key("outer"), .beginDictionary, .key("k"), .scalar(1), .key("k"), .scalar(2),
                .endDictionary, .endDictionary, .endArray,
            ], policy: .reject)
        let error = try #require(captureError { try Ingredients(reading: &source) })
        #expect(error.code == .duplicateKey)
        #expect(error.path?.description == "[1].outer.k")
    }

    @Test("collect gathers a repeated key's values into an array in document order")
    func collect() throws {
        var source = EventListSource(Self.repeatedKeys, policy: .collect)
        let tree = try Ingredients(reading: &source)
        #expect(tree == ["a": [1, ["x": [3]], 4], "b": 2])
        #expect(tree.dictionaryValue?.keys == ["a", "b"])
    }

    @Test("collect leaves a key that occurs once as a single value")
    func collectSingle() throws {
        var source = EventListSource(
            [.beginDictionary, .key("item"), .scalar("one"), .endDictionary], policy: .collect)
        #expect(try Ingredients(reading: &source) == ["item": "one"])
    }

    @Test("an explicit policy overrides the source's own")
    func explicitPolicy() throws {
        var source = EventListSource(Self.repeatedKeys, policy: .reject)
        #expect(try Ingredients(reading: &source, duplicateKeys: .lastWins) == ["a": 4, "b": 2])
    }

    @Test(
        "duplicates are found in dictionaries large enough to be hash indexed", arguments: DuplicateKeyPolicy.allCases)
    func largeDictionaryDuplicates(policy: DuplicateKeyPolicy) throws {
        var events: [IngredientEvent] = [.beginDictionary]
        for i in 0..<40 { events += [.key("k\(i)"), .scalar(.integer(Int64(i)))] }
        events += [.key("k33"), .scalar("again"), .endDictionary]
        var source = EventListSource(events, policy: policy)
        let result = Result { () throws(EasyBakeError) in try Ingredients(reading: &source) }
        switch policy {
        case .reject:
            #expect(throws: EasyBakeError.self) { try result.get() }
        case .firstWins:
            let tree = try result.get()
            #expect(tree["k33"] == 33)
            #expect(tree.dictionaryValue?.count == 40)
        case .lastWins:
            #expect(try result.get()["k33"] == "again")
        case .collect:
            #expect(try result.get()["k33"] == [33, "again"])
        }
    }

    // MARK: Malformed streams

    @Test(
        "malformed event orders throw syntax errors, never crash",
        arguments: [
            [IngredientEvent.key("a")],
            [.endArray],
            [.endDictionary],
            [.beginArray, .endDictionary],
            [.beginDictionary, .endArray],
            [.beginDictionary, .scalar(1), .endDictionary],
            [.beginDictionary, .beginArray, .endArray, .endDictionary],
            [.beginDictionary, .key("a"), .key("b"), .scalar(1), .endDictionary],
            [.beginDictionary, .key("a"), .endDictionary],
            [.beginArray, .key("a"), .scalar(1), .endArray],
            [.beginArray],
            [.beginDictionary, .key("a")],
            [.beginArray, .beginArray, .endArray],
        ])
    func malformed(events: [IngredientEvent]) throws {
        var source = EventListSource(events)
        let error = try #require(captureError { try Ingredients(reading: &source) }, "\(events)")
        #expect(error.code == .syntax)
        #expect(error.location != nil)
    }

    @Test("no value, or a second value, is a syntax error for init(reading:)")
    func wrongValueCount() throws {
        var empty = EventListSource([])
        let none = try #require(captureError { try Ingredients(reading: &empty) })
        #expect(none.code == .syntax)
        #expect(none.message.contains("end of input"))
        var two = EventListSource([.scalar(1), .scalar(2)])
        let second = try #require(captureError { try Ingredients(reading: &two) })
        #expect(second.code == .syntax)
    }

    @Test("a source's errors pass through unchanged")
    func sourceErrors() throws {
        var source = LineSource(text: "[\n  1\n  oops\n]", name: "x.lines", policy: .firstWins)
        let error = try #require(captureError { try Ingredients(reading: &source) })
        #expect(error.code == .syntax)
        #expect(error.location?.line == 3)
        #expect(error.location?.column == 3)
    }

    // MARK: Depth

    @Test("200,000 nested arrays are built, compared, described and freed without stack overflow")
    func deepArrays() throws {
        let depth = 200_000
        var source = DeepSource(depth: depth)
        var tree: Ingredients? = try Ingredients(reading: &source)
        #expect(nestingDepth(tree!) == depth)
        var again = DeepSource(depth: depth)
        var other: Ingredients? = try Ingredients(reading: &again)
        #expect(tree == other)
        #expect(tree!.hashValue == other!.hashValue)
        let text = tree!.description
        #expect(text.count == 2 * depth + 1)
        #expect(text == String(repeating: "[", count: depth) + "7" + String(repeating: "]", count: depth))
        var path = IngredientPath(Array(repeating: .index(0), count: depth))
        #expect(tree!.resolve(path) == 7)
        path.steps.removeLast()
        #expect(tree!.resolve(path) == [7])
        tree = nil
        other = nil
        #expect(tree == nil && other == nil)
    }

    @Test("200,000 nested dictionaries are built, replayed as events and freed without stack overflow")
    func deepDictionaries() throws {
        let depth = 200_000
        var source = DeepSource(depth: depth, dictionaries: true)
        var tree: Ingredients? = try Ingredients(reading: &source)
        #expect(nestingDepth(tree!) == depth)
        var replay = IngredientTreeSource(tree!)
        var copy: Ingredients? = try Ingredients(reading: &replay)
        #expect(copy == tree)
        // Free one while the other still shares nothing with it.
        copy = nil
        tree = nil
        #expect(copy == nil && tree == nil)
    }

    @Test("a deep tree shared by two owners survives the first owner's release")
    func deepSharedTree() throws {
        var source = DeepSource(depth: 50_000)
        var first: Ingredients? = try Ingredients(reading: &source)
        let second = first!
        first = nil
        #expect(nestingDepth(second) == 50_000)
        #expect(second.resolve(IngredientPath(Array(repeating: .index(-1), count: 50_000))) == 7)
    }
}
