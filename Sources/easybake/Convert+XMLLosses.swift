import EasyBake

/// What `easybake convert --to xml` could not keep, found by reading the
/// XML written back and comparing it with the payload: XML has no form for
/// a value's type (every scalar reads back as text) nor for an array of one
/// element (a lone element reads back as itself), and an array inside an
/// array is written as `<item>` elements. The command prints a warning for
/// each kind of loss, with its count and the first path, so that no value
/// changes without a word; the XML is still written.
struct XMLLosses: Equatable {
    /// One kind of loss: how many values, and where the first is.
    struct Kind: Equatable {
        var count = 0
        var first: IngredientPath?

        mutating func note(_ path: IngredientPath) {
            count += 1
            if first == nil { first = path }
        }
    }

    /// Numbers and booleans that read back as their text.
    var retyped = Kind()
    /// Arrays of one element that read back as the element alone.
    var oneElementArrays = Kind()
    /// Any other change (an array inside an array, a dictionary of text
    /// alone that reads back as the text).
    var otherChanges = Kind()

    var isEmpty: Bool { retyped.count + oneElementArrays.count + otherChanges.count == 0 }

    /// The losses between `original` and `readBack`, the XML written read
    /// again; `rootName` is the element the writer wrapped the payload in
    /// when it had no single root of its own.
    init(original: Ingredients, readBack: Ingredients, rootName: String) {
        var back = readBack
        // The writer wraps a payload without a single root element in one
        // (an array's elements as `item`s): compare what it wrapped.
        if !Self.hasOwnRoot(original), case .dictionary(let top) = back, top.count == 1, top[0].key == rootName {
            back = top[0].value
            if case .array = original, case .dictionary(let items) = back, items.count == 1, items[0].key == "item" {
                back = items[0].value
            }
        }
        var pending = original.difference(to: back).reversed() as [IngredientDifference]
        while let difference = pending.popLast() {
            switch (difference.old, difference.new) {
            case (.array(let elements)?, let new?) where elements.count == 1 && !Self.isArray(new):
                oneElementArrays.note(difference.path)
                // What the element itself lost, below the array.
                let inside = difference.path.appending(index: 0)
                pending.append(
                    contentsOf: elements[0].difference(to: new).reversed().map {
                        IngredientDifference(
                            path: IngredientPath(inside.steps + $0.path.steps), old: $0.old, new: $0.new)
                    })
            case (let old?, .string(let text)?) where Self.text(of: old) == text:
                retyped.note(difference.path)
            default:
                otherChanges.note(difference.path)
            }
        }
    }

    private static func isArray(_ value: Ingredients) -> Bool {
        if case .array = value { true } else { false }
    }

    /// Whether the writer writes `tree` as its own root element: a
    /// dictionary of one element key whose value is not repeated.
    private static func hasOwnRoot(_ tree: Ingredients) -> Bool {
        guard case .dictionary(let top) = tree, top.count == 1, !top[0].key.hasPrefix("@"), !top[0].key.hasPrefix("#")
        else { return false }
        if case .array = top[0].value { return false }
        return true
    }

    /// The text XML writes for a number or a boolean; `nil` for anything else.
    private static func text(of scalar: Ingredients) -> String? {
        switch scalar {
        case .bool(let flag): flag ? "true" : "false"
        case .integer(let number): String(number)
        case .float(let number): number.description
        case .exactNumber(let literal): literal
        default: nil
        }
    }

    /// The warnings to print, one per kind of loss.
    var warnings: [String] {
        var lines: [String] = []
        func line(_ kind: Kind, _ what: String) {
            guard kind.count > 0, let first = kind.first else { return }
            lines.append("warning: convert --to xml: \(kind.count) \(what) (first at \(first.errorText))")
        }
        line(retyped, "numbers and booleans become text, which XML has no type for")
        line(oneElementArrays, "arrays of one element become a single element, which reads back as the element alone")
        line(otherChanges, "values do not read back as they were (an array inside an array becomes <item> elements)")
        return lines
    }
}

private extension IngredientPath {
    var errorText: String { isRoot ? "the root" : description }
}
