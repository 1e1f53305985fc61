import EasyBakePathGrammar

/// Where a value lives in an ingredient tree: `users[3].address.city`.
///
/// Syntax:
/// - `name` or `.name` — a dictionary key. Unquoted keys are any characters
///   but `.`, `[`, `]`, quotes and white space (`@id`, `#text`, `atom:link`
///   and `unread-count` need no quotes).
/// - `["any key"]` or `['any key']` — a quoted key, for keys that hold dots,
///   brackets, spaces or nothing at all: `meta["content.type"]`. Inside
///   quotes, `\"`, `\'` and `\\` escape.
/// - `[3]` — an array index from 0; `[-1]` is the last element.
/// - `[*]` — every element: the rest of the path is resolved on each
///   element, and the results form an array.
/// - the empty path names the root itself.
///
/// ```swift
/// let path = try IngredientPath(parsing: #"users[*].meta["content.type"]"#)
/// path.steps  // [.key("users"), .everyElement, .key("meta"), .key("content.type")]
/// ```
public struct IngredientPath: Sendable, Hashable {
    /// One step of a path.
    public enum Step: Sendable, Hashable {
        /// A dictionary key.
        case key(String)
        /// An array index; negative indexes count from the end.
        case index(Int)
        /// Every element of an array.
        case everyElement

        /// Whether this step reads an array (an index or every element).
        public var isArrayStep: Bool {
            if case .key = self { false } else { true }
        }
    }

    /// The steps from the root.
    public var steps: [Step]

    /// A path of the given steps.
    public init(_ steps: [Step] = []) { self.steps = steps }

    /// The path of the root.
    public static let root = IngredientPath()

    /// `#key`: in a recipe, the key the record (or nested value) being
    /// baked stands under in its parent dictionary — the id of a record of
    /// `events[*]` over `{"events": {"138586341": {…}}}`, of a value of a
    /// `[String: Model]` map, or of a property's dictionary. A record with
    /// a member named `#key` reads that member instead; a value that stands
    /// under no key (an array's element, the whole payload) has none, and
    /// the recipe's default, if any, stands in.
    public static let ownKey = IngredientPath([.key("#key")])

    /// The key of the last step, when it is one: the key a record at this
    /// path stands under, for ``ownKey``.
    public var lastKey: String? {
        guard case .key(let key)? = steps.last else { return nil }
        return key
    }

    /// Whether the path has no steps (names the root).
    public var isRoot: Bool { steps.isEmpty }

    /// Whether any step is ``Step/everyElement``.
    public var hasWildcard: Bool { steps.contains(.everyElement) }

    /// This path with `step` added at the end.
    public func appending(_ step: Step) -> IngredientPath {
        var copy = self
        copy.steps.append(step)
        return copy
    }

    /// This path with the steps of `other` added at the end.
    public func appending(_ other: IngredientPath) -> IngredientPath {
        var copy = self
        copy.steps.append(contentsOf: other.steps)
        return copy
    }

    /// This path with a key step added at the end.
    public func appending(key: String) -> IngredientPath { appending(.key(key)) }

    /// This path with an index step added at the end.
    public func appending(index: Int) -> IngredientPath { appending(.index(index)) }
}

extension IngredientPath: CustomStringConvertible {
    /// The canonical text of the path, which parses back to the same path.
    /// Keys are quoted only where they must be.
    public var description: String {
        var text = ""
        for step in steps {
            switch step {
            case .key(let key):
                if Self.needsQuotes(key) {
                    text += "[\"" + key.replacingQuotes() + "\"]"
                } else {
                    if !text.isEmpty { text += "." }
                    text += key
                }
            case .index(let index): text += "[\(index)]"
            case .everyElement: text += "[*]"
            }
        }
        return text
    }

    static func needsQuotes(_ key: String) -> Bool {
        key.isEmpty || key.unicodeScalars.contains { !isUnquotedKeyScalar($0) }
    }

    static func isUnquotedKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
        IngredientPathGrammar.isUnquotedKeyScalar(scalar)
    }
}

private extension String {
    func replacingQuotes() -> String {
        var escaped = ""
        for scalar in unicodeScalars {
            if scalar == "\"" || scalar == "\\" { escaped.unicodeScalars.append("\\") }
            escaped.unicodeScalars.append(scalar)
        }
        return escaped
    }
}

extension IngredientPath: ExpressibleByArrayLiteral {
    public init(arrayLiteral steps: Step...) { self.init(steps) }
}
