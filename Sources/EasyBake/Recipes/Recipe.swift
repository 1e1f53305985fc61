/// Instructions for preparing ingredients for a model: which ingredient path
/// fills each model property, how values are transformed on the way, and
/// which nested recipes and defaults apply.
///
/// Recipes are validated when made, reporting every problem at once:
/// ```swift
/// let recipe = try Recipe(
///     name: "UserJSON",
///     mapping: [
///         "name": "name",
///         "unreadMessages": "stats.unread_messages",
///         "updatedAt": "updated_at",
///         "city": "addresses[0].city",
///     ],
///     transformers: ["updatedAt": "iso8601"]
/// )
/// ```
/// Properties a recipe does not map are still filled, by implicit key
/// matching (see ``Baker``); an explicit mapping always wins.
public struct Recipe: Sendable {
    /// One mapped property.
    public struct Entry: Sendable {
        /// The model property (a coding key).
        public let property: String
        /// Where its value lives in the ingredients.
        public let path: IngredientPath
        /// The transformer applied to the value, if any.
        public let transformer: (any IngredientTransformer)?
        /// How the transformer was named in the recipe (for descriptions).
        public let transformerName: String?
    }

    /// The recipe's name, used by ``RecipeBox``.
    public var name: String? { storage.name }
    /// The mapped properties in declaration order.
    public var entries: [Entry] { storage.entries }
    /// Recipes for nested models, by property: applied to a property's value
    /// (or to each element when the value is an array).
    public var nested: [String: Recipe] { storage.nested }
    /// Values used when a property's value is missing (or null, with
    /// ``defaultsForNull``).
    public var defaults: [String: Ingredients] { storage.defaults }
    /// Whether a default also stands in for a value that is present but
    /// null. Off by default: an explicit null says "no value", which an
    /// optional property bakes as `nil`.
    public var defaultsForNull: Bool { storage.defaultsForNull }
    /// Properties whose empty text (`""`, or only spaces, as XML writes an
    /// empty `<length></length>`) reads as no value: `nil` for an optional.
    public var emptyAsNil: Set<String> { storage.emptyAsNil }
    /// Properties whose arrays are lossy: an element that does not bake is
    /// dropped, with a warning, and the rest are kept — what
    /// ``Baker/Options/lossyArrays`` does for every array, for these
    /// properties alone (their elements' own arrays stay strict).
    public var lossy: Set<String> { storage.lossy }
    /// Whether the ingredients' root is an array (paths start with `[n]`)
    /// rather than a dictionary.
    public var rootIsArray: Bool { storage.rootIsArray }

    /// Whether a path of the recipe starts at `#text`: such a recipe reads a
    /// bare value (an XML element without attributes) as `{"#text": value}`.
    var readsText: Bool { storage.entries.contains { $0.path.steps.first == .key("#text") } }

    /// Every key the recipe names — mapped, defaulted or nested — in that
    /// order, each of which must be a property of the model baked with it.
    var keys: [String] { storage.keys }
    /// Where each of ``keys`` is in it; an index below `entries.count` is
    /// also the entry's.
    var keyIndex: [String: Int] { storage.keyIndex }
    /// Tells apart recipes while baking (copies share it), so that what a
    /// model asked of each recipe can be tallied.
    var identity: ObjectIdentifier { ObjectIdentifier(storage) }

    /// A recipe is immutable, and baking copies it into every decoder and
    /// container: one reference to copy instead of eight.
    private let storage: Storage

    private final class Storage: Sendable {
        let name: String?
        let entries: [Entry]
        let nested: [String: Recipe]
        let defaults: [String: Ingredients]
        let emptyAsNil: Set<String>
        let lossy: Set<String>
        let defaultsForNull: Bool
        let rootIsArray: Bool
        let keys: [String]
        let keyIndex: [String: Int]

        init(
            name: String?, entries: [Entry], nested: [String: Recipe], defaults: [String: Ingredients],
            emptyAsNil: Set<String>, lossy: Set<String>, defaultsForNull: Bool, rootIsArray: Bool, keys: [String],
            keyIndex: [String: Int]
        ) {
            self.name = name
            self.entries = entries
            self.nested = nested
            self.defaults = defaults
            self.emptyAsNil = emptyAsNil
            self.lossy = lossy
            self.defaultsForNull = defaultsForNull
            self.rootIsArray = rootIsArray
            self.keys = keys
            self.keyIndex = keyIndex
        }
    }

    /// Makes and validates a recipe.
    ///
    /// - Parameters:
    ///   - name: an optional name.
    ///   - mapping: model property → ingredient path, in order.
    ///   - transformers: model property → transformer (an instance, a
    ///     registered name, or a spec such as `["date": "yyyy-MM-dd"]`).
    ///     Each key must be a mapped property.
    ///   - nested: model property → recipe for the nested model(s) there.
    ///   - defaults: model property → value used when the value is missing.
    ///   - emptyAsNil: properties whose empty text reads as no value (see
    ///     ``emptyAsNil``).
    ///   - lossy: properties whose arrays drop the elements that do not
    ///     bake (see ``lossy``).
    ///   - defaultsForNull: whether defaults also replace null values.
    ///   - registry: where transformer names are looked up.
    /// - Throws: ``EasyBakeError/Code/invalidRecipe`` whose
    ///   ``EasyBakeError/problems`` lists every problem: paths that do not
    ///   parse, a root used both as a dictionary and as an array, one step used
    ///   both ways (`a[0]` and `a.b`; `a[*]` beside `a.b` is fine, since `[*]`
    ///   also reads a dictionary's values), transformer keys that are not mapped,
    ///   unknown transformer names, repeated or empty property names.
    public init(
        name: String? = nil,
        mapping: KeyValuePairs<String, String>,
        transformers: [String: TransformerReference] = [:],
        nested: [String: Recipe] = [:],
        defaults: [String: Ingredients] = [:],
        emptyAsNil: Set<String> = [],
        lossy: Set<String> = [],
        defaultsForNull: Bool = false,
        registry: TransformerRegistry = .builtIn
    ) throws(EasyBakeError) {
        try self.init(
            name: name, orderedMapping: mapping.map { ($0.key, $0.value) }, transformers: transformers,
            nested: nested, defaults: defaults, emptyAsNil: emptyAsNil, lossy: lossy, defaultsForNull: defaultsForNull,
            registry: registry)
    }

    /// Makes and validates a recipe from a mapping in an array of pairs (for
    /// mappings built at run time). See ``init(name:mapping:transformers:nested:defaults:emptyAsNil:lossy:defaultsForNull:registry:)``.
    public init(
        name: String? = nil,
        orderedMapping mapping: [(property: String, path: String)],
        transformers: [String: TransformerReference] = [:],
        nested: [String: Recipe] = [:],
        defaults: [String: Ingredients] = [:],
        emptyAsNil: Set<String> = [],
        lossy: Set<String> = [],
        defaultsForNull: Bool = false,
        registry: TransformerRegistry = .builtIn
    ) throws(EasyBakeError) {
        var problems: [EasyBakeError] = []
        var entries: [Entry] = []
        var seen: [String: Int] = [:]
        let recipeLabel = name.map { "recipe \($0.debugDescription)" } ?? "recipe"

        var resolvedTransformers: [String: (any IngredientTransformer, String)] = [:]
        for (property, reference) in transformers.sorted(by: { $0.key < $1.key }) {
            if !mapping.contains(where: { $0.property == property }) {
                problems.append(
                    EasyBakeError(
                        .invalidRecipe, "transformer for \(property.debugDescription), which the mapping does not map"))
            }
            do {
                resolvedTransformers[property] = (try reference.resolve(in: registry), reference.label)
            } catch {
                problems.append(
                    EasyBakeError(
                        error.code, "property \(property.debugDescription): \(error.message)", cause: error))
            }
        }

        for (property, pathText) in mapping {
            if property.isEmpty {
                problems.append(EasyBakeError(.invalidRecipe, "a mapping entry has an empty property name"))
                continue
            }
            if seen[property] != nil {
                problems.append(EasyBakeError(.invalidRecipe, "property \(property.debugDescription) is mapped twice"))
                continue
            }
            let path: IngredientPath
            do {
                path = try IngredientPath(parsing: pathText)
            } catch {
                problems.append(
                    EasyBakeError(
                        .invalidPath, "property \(property.debugDescription): \(error.message)",
                        location: error.location))
                continue
            }
            seen[property] = entries.count
            let transformer = resolvedTransformers[property]
            entries.append(
                Entry(property: property, path: path, transformer: transformer?.0, transformerName: transformer?.1))
        }

        let shapeProblems = RecipeShape.conflicts(in: entries.map { ($0.property, $0.path) })
        problems.append(contentsOf: shapeProblems.problems)

        guard problems.isEmpty else {
            throw EasyBakeError(
                .invalidRecipe, "\(recipeLabel) has \(problems.count) problem\(problems.count == 1 ? "" : "s")",
                problems: problems)
        }
        var keys = entries.map(\.property)
        var keyIndex = seen
        for key in defaults.keys.sorted() + nested.keys.sorted() + emptyAsNil.sorted() + lossy.sorted()
        where keyIndex[key] == nil {
            keyIndex[key] = keys.count
            keys.append(key)
        }
        storage = Storage(
            name: name, entries: entries, nested: nested, defaults: defaults, emptyAsNil: emptyAsNil, lossy: lossy,
            defaultsForNull: defaultsForNull, rootIsArray: shapeProblems.rootIsArray, keys: keys, keyIndex: keyIndex)
    }

    private init(storage: Storage) { self.storage = storage }

    /// This recipe with the transformers of the entries `keeps` rejects
    /// removed, and each nested recipe replaced by what `nested` makes of it:
    /// how an update bakes the properties it does not name from the model's
    /// own values, without transforming them a second time.
    func keepingTransformers(where keeps: (Entry) -> Bool, nested: (String, Recipe) -> Recipe) -> Recipe {
        let entries = storage.entries.map { entry in
            keeps(entry)
                ? entry : Entry(property: entry.property, path: entry.path, transformer: nil, transformerName: nil)
        }
        var nestedRecipes = storage.nested
        for (property, recipe) in storage.nested { nestedRecipes[property] = nested(property, recipe) }
        return Recipe(
            storage: Storage(
                name: storage.name, entries: entries, nested: nestedRecipes, defaults: storage.defaults,
                emptyAsNil: storage.emptyAsNil, lossy: storage.lossy, defaultsForNull: storage.defaultsForNull,
                rootIsArray: storage.rootIsArray,
                keys: storage.keys, keyIndex: storage.keyIndex))
    }

    /// This recipe, and every nested one, with no transformer at all.
    var withoutTransformers: Recipe {
        keepingTransformers(where: { _ in false }, nested: { _, recipe in recipe.withoutTransformers })
    }

    /// The entry that maps `property`, if any.
    public func entry(for property: String) -> Entry? {
        // The first `entries.count` keys are the mapped ones, in order.
        guard let index = storage.keyIndex[property], index < storage.entries.count else { return nil }
        return storage.entries[index]
    }

    /// The mapped property names in order.
    public var properties: [String] { entries.map(\.property) }

    /// Whether `value` is the empty text ``emptyAsNil`` reads as no value.
    static func isEmptyText(_ value: Ingredients) -> Bool {
        guard case .string(let text) = value else { return false }
        return text.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    }
}

/// A transformer as a recipe names it: an instance, a registered name, or a
/// spec (`"iso8601"`, `["date": "yyyy-MM-dd"]`, a list for a chain).
///
/// ```swift
/// let recipe = try Recipe(
///     mapping: ["joined": "joined_on", "role": "role", "price": "price_cents"],
///     transformers: [
///         "joined": .spec(["date": "dd.MM.yyyy"]),                    // a factory and its argument
///         "role": "lowercase",                                        // a registered name
///         "price": .instance(ClosureTransformer { $0?.doubleValue.map { .float($0 / 100) } }),
///     ])
/// ```
public enum TransformerReference: Sendable, ExpressibleByStringLiteral {
    /// A transformer instance, used as it is.
    case instance(any IngredientTransformer)
    /// A spec that the recipe's ``TransformerRegistry`` resolves: a name, a
    /// `[factory: argument]` dictionary, or a list of these for a chain.
    case spec(Ingredients)

    /// A registered name written as a string literal: `"iso8601"`.
    public init(stringLiteral name: String) { self = .spec(.string(name)) }

    /// A transformer looked up by registered name.
    public static func named(_ name: String) -> TransformerReference { .spec(.string(name)) }

    func resolve(in registry: TransformerRegistry) throws(EasyBakeError) -> any IngredientTransformer {
        switch self {
        case .instance(let transformer): transformer
        case .spec(let spec): try registry.resolve(spec)
        }
    }

    var label: String {
        switch self {
        case .instance(let transformer): String(describing: type(of: transformer))
        case .spec(let spec): spec.stringValue ?? spec.description
        }
    }
}

/// Checks that a recipe's paths agree on the shape of the ingredients.
enum RecipeShape {
    private final class Node {
        var usedAsDictionary: [String] = []  // properties whose path steps into it by key
        var usedAsArray: [String] = []  // … by index or [*]
        var usedByIndex: [String] = []  // … by index alone
        var children: [IngredientPath.Step: Node] = [:]
        let label: String
        init(label: String) { self.label = label }
    }

    static func conflicts(in paths: [(property: String, path: IngredientPath)]) -> (
        problems: [EasyBakeError], rootIsArray: Bool
    ) {
        let root = Node(label: "the root")
        for (property, path) in paths {
            var node = root
            var prefix = IngredientPath()
            for step in path.steps {
                if step.isArrayStep {
                    node.usedAsArray.append(property)
                } else {
                    node.usedAsDictionary.append(property)
                }
                if step.isArrayStep && step != .everyElement { node.usedByIndex.append(property) }
                // Indexes and [*] of one array share a node: they all say "array".
                let childKey: IngredientPath.Step = step.isArrayStep ? .everyElement : step
                prefix = prefix.appending(step)
                if let child = node.children[childKey] {
                    node = child
                } else {
                    let child = Node(label: prefix.description)
                    node.children[childKey] = child
                    node = child
                }
            }
        }
        var problems: [EasyBakeError] = []
        var pending = [root]
        while let node = pending.popLast() {
            // `[*]` over a dictionary gives its values, so a value read both
            // by key and by `[*]` can be a dictionary: only an index (`a[0]`
            // beside `a.b`) says it must be an array.
            if !node.usedAsDictionary.isEmpty && !node.usedByIndex.isEmpty {
                problems.append(
                    EasyBakeError(
                        .invalidRecipe,
                        "\(node.label == "the root" ? "the root" : "'\(node.label)'") is used as a dictionary by "
                            + list(node.usedAsDictionary) + " and as an array (by index) by " + list(node.usedByIndex)
                            + "; an index reads only an array, while [*] also reads a dictionary's values"))
            }
            pending.append(contentsOf: node.children.values)
        }
        return (problems, !root.usedAsArray.isEmpty && root.usedAsDictionary.isEmpty)
    }

    private static func list(_ properties: [String]) -> String {
        Array(Set(properties)).sorted().map(\.debugDescription).joined(separator: ", ")
    }
}
