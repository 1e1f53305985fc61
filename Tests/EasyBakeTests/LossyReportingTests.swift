import EasyBake
import Testing

/// Lossy baking may drop values, but never without a trace: every dropped
/// element is reported with its ingredient path and the value found.
@Suite("Baking: lossy arrays report every dropped element")
struct LossyReportingTests {
    struct Tagged: Decodable, Equatable {
        let tags: [Int]
    }

    struct Line: Decodable, Equatable {
        let sku: String
        let count: Int
    }

    struct Order: Decodable, Equatable {
        let lines: [Line]
        let ids: [Int]
    }

    @Test("each dropped scalar is reported with its path and value")
    func droppedScalars() throws {
        let result = try Baker(options: .init(lossyArrays: true))
            .bakeReporting(Tagged.self, from: ["tags": [1, "two", 3, ["x": 1], true, 1e19]])
        #expect(result.value.tags == [1, 3])
        #expect(result.warnings.map { $0.path?.description } == ["tags[1]", "tags[3]", "tags[4]", "tags[5]"])
        #expect(result.warnings.map(\.code) == [.typeMismatch, .typeMismatch, .typeMismatch, .numberOutOfRange])
        let found = result.warnings.map { $0.baking?.found ?? $0.message }
        #expect(found[0].contains("\"two\""))
        #expect(found[1].contains("dictionary"))
        #expect(found[2].contains("true"))
        #expect(found[3].contains("1e+19"))
        #expect(result.warnings.allSatisfy { $0.message.hasPrefix("dropped array element") })
        #expect(result.warnings.allSatisfy { $0.baking?.modelType == "Tagged" })
    }

    @Test("a recipe makes one property's array lossy, and leaves the others strict")
    func lossyProperty() throws {
        struct Nested: Decodable, Equatable {
            let lines: [Line]
            let ids: [Int]
            let more: [Int]?
        }
        let payload: Ingredients = [
            "lines": [["sku": "a", "count": 1], ["sku": "b", "count": "many"], ["sku": "c", "count": 3]],
            "ids": [1, 2], "more": [4, "five", 6],
        ]
        let recipe = try Recipe(mapping: [:], lossy: ["lines", "more"])
        let result = try Baker().bakeReporting(Nested.self, from: payload, recipe: recipe)
        #expect(result.value.lines.map(\.sku) == ["a", "c"])
        #expect(result.value.more == [4, 6])
        #expect(result.warnings.map { $0.path?.description } == ["lines[1].count", "more[1]"])
        #expect(result.warnings.allSatisfy { $0.message.hasPrefix("dropped array element") })

        // `ids` is not lossy: its bad element fails the bake, with its path.
        let strict: Ingredients = ["lines": [], "ids": [1, "two"]]
        let error = #expect(throws: EasyBakeError.self) { try Baker().bake(Nested.self, from: strict, recipe: recipe) }
        #expect(error?.path?.description == "ids[1]")

        // A recipe file says so per mapping entry.
        let file: Ingredients = ["mapping": ["lines": ["path": "lines", "lossy": true], "ids": "ids"]]
        let fromFile = try #require(try RecipeFile.recipes(in: file).first)
        #expect(fromFile.lossy == ["lines"])
        let bad: Ingredients = ["mapping": ["lines": ["path": "lines", "lossy": 1]]]
        let badError = #expect(throws: EasyBakeError.self) { _ = try RecipeFile.recipes(in: bad) }
        #expect(badError?.problems.first?.message.contains("\"lossy\" must be true or false") == true)
    }

    @Test("elements dropped through a recipe's paths are reported with the payload's paths")
    func droppedThroughRecipe() throws {
        let recipe = try Recipe(mapping: ["lines": "order.items", "ids": "order.items[*].id"])
        let payload: Ingredients = [
            "order": [
                "items": [
                    ["sku": "A", "count": 1, "id": 10],
                    ["sku": "B", "count": "many", "id": "eleven"],
                    ["sku": "C", "count": 3, "id": 12],
                ]
            ]
        ]
        let result = try Baker(options: .init(lossyArrays: true)).bakeReporting(
            Order.self, from: payload, recipe: recipe)
        #expect(result.value.lines == [Line(sku: "A", count: 1), Line(sku: "C", count: 3)])
        #expect(result.value.ids == [10, 12])
        #expect(result.warnings.count == 2)
        let byPath = Dictionary(uniqueKeysWithValues: result.warnings.map { ($0.path?.description ?? "", $0) })
        #expect(byPath["order.items[1].count"]?.baking?.found?.contains("\"many\"") == true)
        // The recipe path is `order.items[*].id`; the warning names the payload's element.
        #expect(byPath["order.items[1].id"]?.baking?.found?.contains("\"eleven\"") == true)
        // The rendered warning names the path and the value.
        let rendered = result.warnings.map(\.description).joined(separator: "\n")
        #expect(rendered.contains("\"many\""))
        #expect(rendered.contains("\"eleven\""))
    }

    struct Groups: Decodable {
        let ids: [Int]
        let nested: [[Int]]
    }

    @Test("through `[*]`, skipped elements do not shift the reported path")
    func wildcardPathsAreConcrete() throws {
        let recipe = try Recipe(mapping: ["ids": "groups[*].id", "nested": "groups[*].members[*].n"])
        let payload: Ingredients = [
            "groups": [
                ["id": 1, "members": [["n": 1]]],
                ["name": "no id, no members"],
                ["id": "x", "members": [["m": 0], ["n": "bad"], ["n": 3]]],
            ]
        ]
        let result = try Baker(options: .init(lossyArrays: true)).bakeReporting(
            Groups.self, from: payload, recipe: recipe)
        #expect(result.value.ids == [1])
        #expect(result.value.nested == [[1], [3]])
        #expect(
            result.warnings.compactMap { $0.path?.description }.sorted() == ["groups[2].id", "groups[2].members[1].n"])
        // Without lossy arrays, the error names the same concrete path.
        let error = captureError { try Baker().bake(Groups.self, from: payload, recipe: recipe) }
        #expect(error?.path?.description == "groups[2].id")
    }

    @Test("without lossy arrays the first bad element is an error, not a drop")
    func strictFails() {
        let error = captureError { try Baker().bake(Tagged.self, from: ["tags": [1, "two"]]) }
        #expect(error?.code == .typeMismatch)
        #expect(error?.path?.description == "tags[1]")
    }
}
