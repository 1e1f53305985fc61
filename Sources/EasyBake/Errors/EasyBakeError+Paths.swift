/// How an error renders a path — an ingredient path or a coding path —
/// for a reader: whole when short, and with its middle elided when long, so
/// that a value nested a thousand deep (a depth-limit error on fifteen
/// bytes of `[[[[…`) takes a line, not kilobytes of `[0][0]…`. The first and
/// last ``keptSteps`` steps are kept — where the path starts and what it
/// ends at — and the steps between are counted: `a[0][0]…(984 more)…[0].b`.
///
/// Only the rendering elides: ``EasyBakeError/path`` keeps the whole path.
enum ErrorPathText {
    /// How many steps are kept at each end of a long path.
    static let keptSteps = 8

    /// The text of a path of `count` steps, `appendStep(&text, i)` appending
    /// the text of step `i` (with its separator, from what `text` holds).
    static func render(stepCount count: Int, appendStep: (inout String, Int) -> Void) -> String {
        var text = ""
        // Eliding fewer steps than the marker's own length would save nothing.
        guard count > 2 * keptSteps + 2 else {
            for index in 0..<count { appendStep(&text, index) }
            return text
        }
        for index in 0..<keptSteps { appendStep(&text, index) }
        text += "…(\(count - 2 * keptSteps) more)…"
        for index in (count - keptSteps)..<count { appendStep(&text, index) }
        return text
    }
}

extension IngredientPath {
    /// The path as an error renders it: the ``description``, with the middle
    /// of a long path elided (see ``ErrorPathText``); `(root)` for the empty
    /// path.
    var errorDescription: String {
        guard !steps.isEmpty else { return "(root)" }
        return ErrorPathText.render(stepCount: steps.count) { text, index in
            text += IngredientPath([steps[index]]).description.withSeparator(after: text)
        }
    }
}

private extension String {
    /// A key step's text after `previous`: a bare key after other steps
    /// needs its dot, as ``IngredientPath/description`` writes it.
    func withSeparator(after previous: String) -> String {
        guard !previous.isEmpty, let first = utf8.first, first != UInt8(ascii: "[") else { return self }
        return "." + self
    }
}
