/// The name a misspelling most likely meant by spelling alone, shared by
/// the library's `NearestName` (which first matches names that differ only
/// in case and punctuation) and the macros (a transformer name that is no
/// built-in one).
package enum NameDistance {
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
                var cost = min(
                    table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    cost = min(cost, table[i - 2][j - 2] + 1)
                }
                table[i][j] = cost
            }
        }
        return table[a.count][b.count]
    }
}
