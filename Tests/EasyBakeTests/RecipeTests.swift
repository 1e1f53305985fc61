import Testing
import Foundation
import EasyBake

@Suite("Recipes: construction and validation")
struct RecipeValidationTests {
    @Test("a valid recipe keeps its entries in order with parsed paths and transformers")
    func valid() throws {
        let recipe = try Recipe(
            name: "UserJSON",
            mapping: [
                "name": "name", "unreadMessages": "stats.unread_messages", "city": "addresses[0].city",
                "updatedAt": "updated_at",
            ],
            transformers: ["updatedAt": "iso8601", "name": .spec(["trim", "uppercase"])])
        #expect(recipe.name == "UserJSON")
        #expect(recipe.properties == ["name", "unreadMessages", "city", "updatedAt"])
        #expect(recipe.entry(for: "city")?.path.description == "addresses[0].city")
        #expect(recipe.entry(for: "updatedAt")?.transformer is ISO8601DateTransformer)
        #expect(recipe.entry(for: "updatedAt")?.transformerName == "iso8601")
        #expect(recipe.entry(for: "name")?.transformer is ChainTransformer)
        #expect(recipe.entry(for: "city")?.transformer == nil)
        #expect(recipe.entry(for: "unmapped") == nil)
        #expect(!recipe.rootIsArray)
    }

    @Test("paths starting with an index make an array-rooted recipe")
    func arrayRoot() throws {
        let recipe = try Recipe(mapping: ["first": "[0].name", "last": "[-1].name", "all": "[*].id"])
        #expect(recipe.rootIsArray)
    }

    @Test("every problem is reported at once")
    func allProblemsAtOnce() throws {
        let error = try #require(
            captureError {
                try Recipe(
                    name: "Broken",
                    mapping: [
                        "badPath": "a..b",
                        "fromArray": "[0]",
                        "fromDictionary": "title",
                        "listIndex": "list[0]",
                        "listKey": "list.b",
                        "fine": "fine",
                    ],
                    transformers: ["notMapped": "trim", "fine": "noSuchTransformer"])
            })
        #expect(error.code == .invalidRecipe)
        #expect(error.message.contains("\"Broken\""))
        #expect(error.message.contains("5 problems"))
        #expect(error.problems.count == 5)
        let messages = error.problems.map(\.message)
        func has(_ code: EasyBakeError.Code, _ words: String...) -> Bool {
            error.problems.contains { problem in
                problem.code == code && words.allSatisfy { problem.message.contains($0) }
            }
        }
        #expect(has(.invalidPath, "badPath", "column 3"), "\(messages)")
        #expect(has(.invalidRecipe, "the root", "fromDictionary", "fromArray"), "\(messages)")
        #expect(has(.invalidRecipe, "'list'", "listIndex", "listKey"), "\(messages)")
        #expect(has(.invalidRecipe, "notMapped", "does not map"), "\(messages)")
        #expect(has(.unknownTransformer, "fine", "noSuchTransformer"), "\(messages)")
        // The rendering lists every problem.
        #expect(error.description.components(separatedBy: "\n  - ").count == 6)
    }

    @Test("a conflict deep in the paths names the step, not only the root")
    func deepConflict() throws {
        let error = try #require(
            captureError {
                try Recipe(mapping: ["a": "users[0].tags[1]", "b": "users[2].tags.first", "c": "users[*].name"])
            })
        #expect(error.problems.count == 1)
        #expect(error.problems.first?.message.contains("'users[0].tags'") == true, "\(error.problems.map(\.message))")
    }

    @Test("a dictionary read both by key and by [*] is consistent; an index beside a key is not (issue 27)")
    func keyAndEveryElement() throws {
        let recipe = try Recipe(mapping: ["first": "events.x.name", "all": "events[*].name", "top": "[*]"])
        #expect(!recipe.rootIsArray)
        let tree: Ingredients = ["events": ["x": ["name": "Opera"], "y": ["name": "Ballet"]]]
        let processed = try recipe.process(tree)
        #expect(processed["first"] == "Opera")
        #expect(processed["all"] == ["Opera", "Ballet"])
        // An index says "array": beside a key it stays a conflict, named as such.
        let error = try #require(
            captureError {
                try Recipe(mapping: ["first": "events.x.name", "all": "events[*].name", "second": "events[1].name"])
            })
        #expect(error.problems.count == 1)
        let message = try #require(error.problems.first?.message)
        #expect(
            message.contains("'events'") && message.contains("\"first\"") && message.contains("\"second\""),
            "\(message)")
        #expect(!message.contains("\"all\""), "[*] beside a key is no conflict: \(message)")
    }

    @Test("repeated and empty property names are problems")
    func repeatedProperties() throws {
        let error = try #require(
            captureError {
                try Recipe(orderedMapping: [
                    (property: "a", path: "x"), (property: "a", path: "y"), (property: "", path: "z"),
                ])
            })
        #expect(error.problems.count == 2)
        #expect(error.problems.contains { $0.message.contains("mapped twice") })
        #expect(error.problems.contains { $0.message.contains("empty property name") })
    }

    @Test("one problem is still an invalidRecipe error that lists it")
    func singleProblem() throws {
        let error = try #require(captureError { try Recipe(mapping: ["a": "x["]) })
        #expect(error.code == .invalidRecipe)
        #expect(error.problems.count == 1)
        #expect(error.problems[0].code == .invalidPath)
        #expect(error.problems[0].location?.column == 3)
    }
}

@Suite("Recipes: processing ingredients")
struct RecipeProcessingTests {
    @Test("process resolves paths, applies transformers and defaults, and leaves out what is missing")
    func process() throws {
        let recipe = try Recipe(
            mapping: [
                "name": "user.name", "count": "stats.unread", "role": "user.role", "gone": "nowhere",
                "nothing": "user.nothing",
            ],
            transformers: ["name": "uppercase"],
            defaults: ["role": "member"])
        let processed = try recipe.process(["user": ["name": "ann", "nothing": .null], "stats": ["unread": 3]])
        #expect(processed["name"] == "ANN")
        #expect(processed["count"] == 3)
        #expect(processed["role"] == "member")
        #expect(processed["gone"] == nil)
        #expect(processed["nothing"] == .null)
        #expect(processed.keys == ["name", "count", "role", "nothing"])
    }

    @Test("null reaches a transformer as nil, a transformer's nil becomes null, missing never reaches it")
    func nullAndMissing() throws {
        let seen = LockedBox<[String]>([])
        let probe = ClosureTransformer { value in
            seen.withLock { $0.append(value == nil ? "nil" : value!.description) }
            return value == nil ? "was null" : nil
        }
        let recipe = try Recipe(
            mapping: ["a": "a", "b": "b", "c": "c"],
            transformers: ["a": .instance(probe), "b": .instance(probe), "c": .instance(probe)])
        let processed = try recipe.process(["a": .null, "b": 5])
        #expect(processed["a"] == "was null")
        #expect(processed["b"] == .null)
        #expect(processed["c"] == nil)
        #expect(seen.withLock { $0 } == ["nil", "5"])
    }

    @Test("a failing transformer names the property and the path, with the cause")
    func transformFailure() throws {
        let recipe = try Recipe(
            name: "Feed", mapping: ["published": "item.pubDate"], transformers: ["published": "rfc822"])
        let error = try #require(captureError { try recipe.process(["item": ["pubDate": "yesterday"]]) })
        #expect(error.code == .transformFailed)
        #expect(error.path?.description == "item.pubDate")
        #expect(error.baking?.property == "published")
        #expect(error.baking?.found == #""yesterday" (string)"#)
        #expect(error.message.contains("published"))
        #expect(error.cause != nil)
    }
}

/// A lock-protected value for closures that run in Sendable contexts.
final class LockedBox<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&value) } }
}

@Suite("Recipe box")
struct RecipeBoxTests {
    func recipe(_ name: String?) throws -> Recipe { try Recipe(name: name, mapping: ["id": "id"]) }

    @Test("holds recipes by name and finds them")
    func addAndFind() throws {
        let box = RecipeBox()
        try box.add(recipe("A"))
        try box.add(recipe("B"))
        #expect(box.names == ["A", "B"])
        #expect(box.contains("A"))
        #expect(try box.recipe(named: "B").name == "B")
        #expect(box.remove(named: "A")?.name == "A")
        #expect(!box.contains("A"))
        #expect(box.remove(named: "A") == nil)
    }

    @Test("a second recipe with the same name is an error and the first is kept")
    func duplicate() throws {
        let box = RecipeBox()
        try box.add(try Recipe(name: "User", mapping: ["id": "first"]))
        let error = try #require(captureError { try box.add(try Recipe(name: "User", mapping: ["id": "second"])) })
        #expect(error.code == .duplicateRecipe)
        #expect(error.message.contains("\"User\""))
        #expect(try box.recipe(named: "User").entry(for: "id")?.path.description == "first")
    }

    @Test("an unnamed recipe cannot go in a box; an unknown name lists the names held")
    func unnamedAndUnknown() throws {
        let box = RecipeBox()
        #expect(captureError { try box.add(try recipe(nil)) }?.code == .invalidRecipe)
        try box.add(recipe("Known"))
        let error = try #require(captureError { try box.recipe(named: "Other") })
        #expect(error.code == .recipeNotFound)
        #expect(error.message.contains("\"Known\""))
    }

    @Test("a box of one's own, as RecipeBox's documentation makes it")
    func ownBox() throws {
        let userRecipe = try Recipe(name: "UserJSON", mapping: ["name": "name"])
        let box = RecipeBox()
        try box.add(userRecipe)  // userRecipe.name == "UserJSON"
        let recipe = try box.recipe(named: "UserJSON")
        #expect(recipe.properties == ["name"])
        #expect(box.names == ["UserJSON"])
    }

    @Test("concurrent adds from many tasks: each name once, exactly one winner per name")
    func concurrentAdds() async throws {
        let box = RecipeBox()
        let outcomes = await withTaskGroup(of: (String, Bool).self) { group in
            for task in 0..<200 {
                group.addTask {
                    // 50 names, each added by 4 tasks at once.
                    let name = "R\(task % 50)"
                    do {
                        try box.add(try Recipe(name: name, mapping: ["task": "t\(task)"]))
                        return (name, true)
                    } catch {
                        #expect((error as? EasyBakeError)?.code == .duplicateRecipe)
                        return (name, false)
                    }
                }
            }
            var results: [(String, Bool)] = []
            for await result in group { results.append(result) }
            return results
        }
        #expect(outcomes.count == 200)
        #expect(box.names.count == 50)
        var winners: [String: Int] = [:]
        for (name, won) in outcomes where won { winners[name, default: 0] += 1 }
        #expect(winners.count == 50)
        #expect(winners.values.allSatisfy { $0 == 1 })
        for name in box.names { _ = try box.recipe(named: name) }
    }
}

@Suite("Recipe files")
struct RecipeFileTests {
    @Test("a single recipe with every mapping form")
    func singleRecipe() throws {
        let tree: Ingredients = [
            "name": "User",
            "mapping": [
                "name": "name",
                "updatedAt": ["path": "updated_at", "transformer": "iso8601"],
                "joined": ["path": "joined_on", "transformer": ["date": "yyyy-MM-dd"], "default": .null],
                "city": "profile.address.city",
                "address": "profile.address",
            ],
            "transformers": ["name": "trim"],
            "defaults": ["city": "Nowhere"],
            "nested": ["address": ["mapping": ["town": "city"]]],
        ]
        let recipes = try RecipeFile.recipes(in: tree)
        #expect(recipes.count == 1)
        let recipe = try #require(recipes.first)
        #expect(recipe.name == "User")
        #expect(recipe.properties == ["name", "updatedAt", "joined", "city", "address"])
        #expect(recipe.entry(for: "updatedAt")?.transformer is ISO8601DateTransformer)
        #expect((recipe.entry(for: "joined")?.transformer as? DateFormatTransformer)?.format == "yyyy-MM-dd")
        #expect(recipe.entry(for: "name")?.transformer is TextTransformer)
        #expect(recipe.defaults["joined"] == .null)
        #expect(recipe.defaults["city"] == "Nowhere")
        #expect(recipe.nested["address"]?.properties == ["town"])

        let processed = try recipe.process([
            "name": "  Ann ", "updated_at": "2024-03-01T12:00:00+01:00", "joined_on": "2020-02-29",
        ])
        #expect(processed["name"] == "Ann")
        #expect(processed["updatedAt"] == "2024-03-01T11:00:00Z")
        #expect(processed["joined"] == "2020-02-29T00:00:00Z")
        #expect(processed["city"] == "Nowhere")
    }

    @Test("a list of recipes, nested by name in either order and from the box")
    func nestedByName() throws {
        let box = RecipeBox()
        try box.add(try Recipe(name: "Geo", mapping: ["lat": "latitude"]))
        let tree: Ingredients = [
            "recipes": [
                ["name": "Order", "mapping": ["buyer": "customer"], "nested": ["buyer": "Person"]],
                ["name": "Person", "mapping": ["name": "full_name", "home": "home"], "nested": ["home": "Geo"]],
            ]
        ]
        let recipes = try RecipeFile.recipes(in: tree, resolvingNamesIn: box)
        #expect(recipes.map(\.name) == ["Order", "Person"], "file order is kept")
        #expect(recipes[0].nested["buyer"]?.name == "Person")
        #expect(recipes[0].nested["buyer"]?.nested["home"]?.name == "Geo")
    }

    @Test("an unknown nested name or a cycle is recipeNotFound with its path in the file")
    func unknownNestedName() throws {
        let tree: Ingredients = [
            "recipes": [
                ["name": "A", "mapping": ["b": "b"], "nested": ["b": "B"]],
                ["name": "B", "mapping": ["a": "a"], "nested": ["a": "A"]],
                ["name": "C", "mapping": ["x": "x"], "nested": ["x": "Missing"]],
            ]
        ]
        let error = try #require(captureError { try RecipeFile.recipes(in: tree) })
        let all = error.problems.isEmpty ? [error] : error.problems
        #expect(all.count == 3)
        #expect(all.allSatisfy { $0.code == .recipeNotFound })
        #expect(all.contains { $0.path?.description == "recipes[2].nested.x" && $0.message.contains("\"Missing\"") })
    }

    @Test("problems are reported with their paths in the file, all at once")
    func problemsWithPaths() throws {
        let tree: Ingredients = [
            "recipes": [
                ["name": "Fine", "mapping": ["id": "id"]],
                ["name": 5, "mapping": ["age": ["pth": "age"], "n": 3], "extra": true],
                ["name": "NoMapping"],
                ["name": "BadPath", "mapping": ["a": "a[", "b": "[0]", "c": "c"]],
            ]
        ]
        let error = try #require(captureError { try RecipeFile.recipes(in: tree) })
        #expect(error.code == .invalidRecipe)
        #expect(error.problems.count == 3, "\(error)")
        let second = try #require(error.problems.first { $0.path?.description == "recipes[1]" })
        let paths = Set(second.problems.compactMap { $0.path?.description })
        #expect(
            paths == [
                "recipes[1].extra", "recipes[1].name", "recipes[1].mapping.age.pth", "recipes[1].mapping.age",
                "recipes[1].mapping.n",
            ])
        #expect(
            error.problems.contains {
                $0.path?.description == "recipes[2]" && $0.problems.first?.message.contains("mapping") == true
            })
        let badPath = try #require(error.problems.first { $0.path?.description == "recipes[3]" })
        #expect(badPath.problems.count == 2, "a bad path and the root conflict of the remaining paths")
    }

    @Test("a recipes list must be alone and be a list")
    func recipesListShape() {
        #expect(captureError { try RecipeFile.recipes(in: ["recipes": [], "name": "x"]) }?.code == .invalidRecipe)
        #expect(captureError { try RecipeFile.recipes(in: ["recipes": "no"]) }?.code == .invalidRecipe)
        #expect(captureError { try RecipeFile.recipes(in: [1, 2]) }?.code == .invalidRecipe)
    }

    @Test("a recipe box loads a recipe file through a format")
    func boxLoadsFile() throws {
        let text = """
            {
              key: name
              "Loaded"
              key: mapping
              {
                key: title
                "headline"
              }
            }
            """
        let box = RecipeBox()
        let loaded = try box.load(.text(text, name: "recipe.lines"), format: LineFormat())
        #expect(loaded.map(\.name) == ["Loaded"])
        #expect(try box.recipe(named: "Loaded").entry(for: "title")?.path.description == "headline")
        let again = try #require(captureError { try box.load(.text(text, name: "recipe.lines"), format: LineFormat()) })
        #expect(again.code == .duplicateRecipe)
    }
}
