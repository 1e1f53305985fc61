import EasyBake
import EasyBakeTestSupport
import Foundation
import Testing

/// Decompose and update over random payloads and recipes of the shapes that
/// used to lose data: `[0]` beside `[-1]`, parallel `[*]` with gaps, a one-way
/// transformer and a lookup with two keys for one value (issue 19, items 3
/// and 4).
@Suite("Decompose and update, random shapes")
struct UpdatePropertyTests {
    struct Shelf: Dough {
        let id: Int
        let title: String
        let first: String?
        let last: String?
        let names: [String]?
        let emails: [String]?
        let cents: Int?
        let kind: String?
    }

    static let entries: [(property: String, path: String)] = [
        ("first", "items[0].name"), ("last", "items[-1].name"), ("names", "items[*].name"),
        ("emails", "items[*].email"), ("cents", "price"), ("kind", "kind"),
    ]

    @Test("no-op updates change nothing, renames keep every other value, decompose bakes back or refuses")
    func shapes() throws {
        var random = SeededGenerator(seed: 0x5EAF)
        var refused = 0, compared = 0
        for _ in 0..<300 {
            let chosen = Self.entries.filter { _ in Bool.random(using: &random) }
            let recipe = try Recipe(
                name: "Shelf", orderedMapping: [("id", "id"), ("title", "title")] + chosen,
                transformers: [
                    "cents": .instance(
                        ClosureTransformer { value in value?.doubleValue.map { .integer(Int64($0 * 100)) } }),
                    "kind": .spec(["lookup": ["A": "art", "B": "art", "S": "science"]]),
                ].filter { key, _ in chosen.contains { $0.property == key } })
            let count = Int.random(in: 1...4, using: &random)
            let items: [Ingredients] = (0..<count).map { index in
                Bool.random(using: &random)
                    ? ["name": .string("n\(index)"), "email": .string("e\(index)@x")] : ["name": .string("n\(index)")]
            }
            let payload: Ingredients = [
                "id": 1, "title": "Old", "items": .array(IngredientArray(items)),
                "price": .float(Double(Int.random(in: 1...999, using: &random)) / 100),
                "kind": .string(["A", "B", "S"].randomElement(using: &random)!),
            ]
            let shelf = try Baker().bake(Shelf.self, from: payload, recipe: recipe)
            do {
                let tree = try Baker().decompose(shelf, recipe: recipe)
                let again = try Baker().bake(Shelf.self, from: tree, recipe: recipe.withoutTransformersForTests)
                #expect(again.hasSameContents(as: shelf), "\(chosen.map(\.path)) \(payload)")
                let same = try shelf.updated(with: [:], recipe: recipe)
                #expect(same.hasSameContents(as: shelf), "\(chosen.map(\.path)) \(payload)")
                let renamed = try same.updated(with: ["title": "New"], recipe: recipe)
                #expect(renamed.title == "New")
                #expect(renamed.first == shelf.first && renamed.last == shelf.last && renamed.names == shelf.names)
                #expect(renamed.emails == shelf.emails && renamed.cents == shelf.cents && renamed.kind == shelf.kind)
                compared += 1
            } catch {
                // Only paths through `items` that cannot be lined up may refuse:
                // parallel `[*]` with different counts, or an index beside a
                // `[*]` that skipped elements.
                #expect(error.code == .unsupported, "\(error)")
                #expect(error.path?.description.hasPrefix("items") == true, "\(error)")
                #expect(chosen.filter { $0.path.hasPrefix("items") }.count >= 2)
                refused += 1
            }
        }
        #expect(compared > 200 && refused > 5)
    }
}

extension Recipe {
    /// The recipe with no transformers: what a decomposition, which holds the
    /// model's values, bakes back with when some transformers have no way back.
    var withoutTransformersForTests: Recipe {
        // One-way transformers wrote the model's own values: baking them again
        // must not transform them.
        (try? Recipe(name: name, orderedMapping: entries.map { ($0.property, $0.path.description) })) ?? self
    }
}
