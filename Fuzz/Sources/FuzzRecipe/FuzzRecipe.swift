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
            if again != path {
                fuzzFailure(
                    "path \(text.debugDescription) writes as \(written.debugDescription), which parses to another path")
            }
        } catch {
            fuzzFailure(
                "path \(text.debugDescription) writes as \(written.debugDescription), which does not parse: \(error)")
        }
        _ = tree.resolve(path)
        // Setting pads an array with nulls up to the index, by contract: a
        // path with a huge index asks for a huge tree. Not a finding.
        if !path.hasWildcard, !hasHugeIndex(path) { _ = tree.setting("new", at: path) }
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

/// Whether a step indexes beyond what a fuzz input should make us allocate.
private func hasHugeIndex(_ path: IngredientPath) -> Bool {
    path.steps.contains { if case .index(let i) = $0 { abs(i) > 4096 } else { false } }
}

/// Whether decomposing through `recipe` would build an array as long as a
/// huge index: decomposing places a value at `a[n]` by making `n + 1`
/// elements, as ``Ingredients/setting(_:at:)`` does. Recipes are the
/// developer's, not the payload's, so this is a documented cost, not a finding.
private func buildsHugeArrays(_ recipe: Recipe) -> Bool {
    recipe.entries.contains { hasHugeIndex($0.path) } || recipe.nested.values.contains(where: buildsHugeArrays)
}

private func exerciseRecipe(_ recipe: Recipe) {
    let baker = Baker(options: .init(lossyArrays: true))
    do {
        let baked = try baker.bakeReporting(Probe.self, from: tree, recipe: recipe)
        if !buildsHugeArrays(recipe) { _ = try baker.decompose(baked.value, recipe: recipe) }
    } catch {
        _ = error.description
    }
}
