/// The names of the built-in transformers and factories, in the module the
/// library and the macros share: `TransformerRegistry.builtIn` registers
/// these names (a test pins that it registers exactly these), and
/// `@Ingredient(…, transformer: "iso8061")` warns at compile time of a name
/// that is not one of them, with the nearest as a fix-it.
package enum BuiltInTransformerNames {
    /// The named transformers, sorted.
    package static let transformers: [String] = [
        "base64", "bool", "duration", "geoPoint", "iso8601", "lowercase", "number", "pairs", "rfc1123", "rfc2822",
        "rfc822", "split", "string", "trim", "unixMilliseconds", "unixSeconds", "uppercase", "url", "uuid",
    ]

    /// The factories, which take an argument (`{"date": "yyyy-MM-dd"}`),
    /// sorted; `each` is no factory but is written as one.
    package static let factories: [String] = ["date", "lookup", "pairs", "split", "url"]

    /// The name of the spec that applies a transformer to every element.
    package static let each = "each"
}

/// The name a misspelling most likely meant, for the suggestions of the
/// library (a recipe key that is no property) and the macros (a transformer
/// name that is no built-in one).
package enum NearestName {
    /// The name among `names` nearest to `typed`, for a misspelling: within
    /// one edit (two for names of five or more characters), a swap of
    /// neighbours counting as one, case ignored; `nil` when none is as near.
    package static func nearest(to typed: String, among names: [String]) -> String? {
        let limit = typed.count >= 5 ? 2 : typed.count >= 3 ? 1 : 0
        guard limit > 0 else { return nil }
        let characters = Array(typed.lowercased())
        var best: (name: String, distance: Int)?
        for name in names {
            let distance = editDistance(characters, Array(name.lowercased()))
            if distance <= limit, distance < (best?.distance ?? .max) { best = (name, distance) }
        }
        return best?.name
    }

    /// The optimal string alignment distance: insertions, deletions,
    /// substitutions and swaps of neighbours, each costing one.
    package static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                var cost = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { cost = min(cost, table[i - 2][j - 2] + 1) }
                table[i][j] = cost
            }
        }
        return table[a.count][b.count]
    }
}
