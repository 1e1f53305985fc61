import EasyBakePathGrammar

/// The ingredient path grammar of `IngredientPath(parsing:)`, checked when
/// the code compiles: the library's own parser, from the dependency-free
/// `EasyBakePathGrammar` module, so the verdict, column and wording are the
/// library's.
enum PathGrammar {
    typealias Problem = IngredientPathGrammar.Problem

    /// The problem with `text` as an ingredient path, or `nil` if it parses.
    static func problem(in text: String) -> Problem? {
        do {
            _ = try IngredientPathGrammar.parse(text)
            return nil
        } catch {
            return error
        }
    }

    static func isUnquotedKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
        IngredientPathGrammar.isUnquotedKeyScalar(scalar)
    }

    /// A path that probably means what a malformed `text` meant, for a
    /// fix-it: dotted keys with the empty ones dropped and the ones that need
    /// it quoted (`"address..first name"` → `address["first name"]`). `nil`
    /// when `text` has brackets (no safe guess) or no key at all.
    static func suggestion(for text: String) -> String? {
        guard !text.contains("["), !text.contains("]") else { return nil }
        let keys = text.split(separator: ".", omittingEmptySubsequences: true)
            .map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
        guard !keys.isEmpty else { return nil }
        var path = ""
        for key in keys {
            if key.unicodeScalars.allSatisfy(isUnquotedKeyScalar) {
                path += path.isEmpty ? key : ".\(key)"
            } else {
                let escaped = key.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"")
                path += "[\"\(escaped)\"]"
            }
        }
        guard path != text, problem(in: path) == nil else { return nil }
        return path
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }
}
