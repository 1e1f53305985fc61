import EasyBake
import EasyBakeJSON
import EasyBakeYAML
import FuzzSupport

// Paths and recipe files. The first byte picks what the rest is:
// - an ingredient path: parse it, and when it parses, its description must
//   parse back to the same path, and resolving it in a fixed tree must not
//   crash;
// - a JSON or a YAML recipe file: load it into a fresh box, and bake the
//   fixed tree with every recipe it holds.

private let tree: Ingredients = [
    "id": 7, "name": " Ada ", "tags": ["a", "b"], "when": "2024-03-01T12:30:05Z",
    "items": [["id": 1, "name": "x", "value": 1.5], ["id": 2, "name": "y", "tags": "p, q"]],
    "a": ["b": [["c.d": "deep"]]], "meta": ["content.type": "text/plain", "": "empty key"],
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecipe(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let rest = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 3 {
    case 0:
        let text = String(decoding: rest, as: UTF8.self)
        let path: IngredientPath
        do { path = try IngredientPath(parsing: text) } catch {
            _ = error.description
            return 0
        }
        let written = path.description
        do {
            let again = try IngredientPath(parsing: written)
            if again != path { fuzzFailure("path \(text.debugDescription) writes as \(written.debugDescription), which parses to another path") }
        } catch {
            fuzzFailure("path \(text.debugDescription) writes as \(written.debugDescription), which does not parse: \(error)")
        }
        _ = tree.resolve(path)
        if !path.hasWildcard { _ = tree.setting("new", at: path) }
    default:
        let format: any IngredientFormat = data[0] % 3 == 1 ? JSONFormat() : YAMLFormat()
        let box = RecipeBox()
        do {
            let recipes = try RecipeFile.load(.bytes(rest, name: "recipe.\(format.name)"), format: format, box: box)
            for recipe in recipes {
                try? box.add(recipe)
                exerciseRecipe(recipe)
            }
        } catch {
            _ = error.description
        }
    }
    return 0
}

private func exerciseRecipe(_ recipe: Recipe) {
    let baker = Baker(options: .init(lossyArrays: true))
    do {
        let baked = try baker.bakeReporting(Probe.self, from: tree, recipe: recipe)
        _ = try baker.decompose(baked.value, recipe: recipe)
    } catch {
        _ = error.description
    }
}
