/// Reads recipes from a recipe file: JSON, YAML, or any format whose tree has
/// this shape.
///
/// One recipe:
/// ```json
/// {
///   "name": "User",
///   "mapping": {
///     "name": "name",
///     "unreadMessages": "unread_messages",
///     "updatedAt": { "path": "updated_at", "transformer": "iso8601" },
///     "joined": { "path": "joined_on", "transformer": { "date": "yyyy-MM-dd" }, "default": null },
///     "length": { "path": "length", "emptyAsNil": true },
///     "tags": { "path": "labels", "lossy": true },
///     "address": "profile.address"
///   },
///   "transformers": { "name": "trim" },
///   "defaults": { "role": "member" },
///   "defaultsForNull": true,
///   "nested": { "address": { "mapping": { "city": "town" } } }
/// }
/// ```
/// Several: `{"recipes": [ {…}, {…} ]}`. A `nested` value may also be the
/// name of another recipe in the same file or in the box being loaded into.
///
/// A mapping value is either a path, or an object with `path` and optional
/// `transformer`, `default`, `emptyAsNil` and `lossy` (see ``Recipe/lossy``).
/// Transformers are named as the
/// ``TransformerRegistry`` knows them: a name (`"iso8601"`), a factory with
/// its argument (`{"date": "yyyy-MM-dd"}`, `{"lookup": {"a": 1}}`), or a list
/// of these applied in order.
public enum RecipeFile {
    static let recipeFields: Set<String> = ["name", "mapping", "transformers", "defaults", "defaultsForNull", "nested"]
    static let entryFields: Set<String> = ["path", "transformer", "default", "emptyAsNil", "lossy"]

    /// Recipes described by a recipe file's tree.
    ///
    /// ```swift
    /// let recipes = try RecipeFile.recipes(in: ["name": "User", "mapping": ["name": "full_name"]])
    /// recipes[0].entry(for: "name")?.path   // full_name
    /// ```
    ///
    /// - Parameters:
    ///   - tree: one recipe, or `{"recipes": [...]}` for several.
    ///   - registry: where transformer names and factories are looked up.
    ///   - box: where `nested` recipe names not defined in the file
    ///     are looked up.
    /// - Throws: ``EasyBakeError/Code/invalidRecipe`` listing every problem
    ///   with its path in the file (`recipes[1].mapping.age`).
    public static func recipes(
        in tree: Ingredients, registry: TransformerRegistry = .builtIn, resolvingNamesIn box: RecipeBox? = nil
    ) throws(EasyBakeError) -> [Recipe] {
        var descriptions: [(Ingredients, IngredientPath)] = []
        if case .dictionary(let top) = tree, let list = top["recipes"] {
            guard case .array(let elements) = list, top.count == 1 else {
                throw EasyBakeError(
                    .invalidRecipe, "a recipe file with \"recipes\" must hold only a list of recipes",
                    path: IngredientPath([.key("recipes")]))
            }
            for (index, element) in elements.enumerated() {
                descriptions.append((element, IngredientPath([.key("recipes"), .index(index)])))
            }
        } else {
            descriptions.append((tree, IngredientPath()))
        }

        // Recipes named in the file can be nested by name; build those without
        // nested references first, then the ones that refer to them.
        var built: [String: Recipe] = [:]
        var result: [Recipe?] = Array(repeating: nil, count: descriptions.count)
        var problems: [EasyBakeError] = []
        var remaining = Array(descriptions.indices)
        while !remaining.isEmpty {
            var progressed = false
            var stillWaiting: [Int] = []
            var lastErrors: [Int: EasyBakeError] = [:]
            for index in remaining {
                let (description, path) = descriptions[index]
                do {
                    let recipe = try makeRecipe(description, at: path, registry: registry) { name in
                        built[name] ?? (try? box?.recipe(named: name))
                    }
                    result[index] = recipe
                    if let name = recipe.name { built[name] = recipe }
                    progressed = true
                } catch let error where error.code == .recipeNotFound {
                    stillWaiting.append(index)
                    lastErrors[index] = error
                } catch {
                    problems.append(error)
                }
            }
            if !progressed {
                problems.append(contentsOf: stillWaiting.compactMap { lastErrors[$0] })
                break
            }
            remaining = stillWaiting
        }
        guard problems.isEmpty else {
            if problems.count == 1, let only = problems.first { throw only }
            throw EasyBakeError(.invalidRecipe, "the recipe file has \(problems.count) problems", problems: problems)
        }
        return result.compactMap { $0 }
    }

    /// Reads the recipe file `input` in `format` and makes its recipes,
    /// without adding them to a box (``RecipeBox/load(_:format:transformers:)``
    /// adds them).
    ///
    /// ```swift
    /// let recipes = try RecipeFile.load(.file("Fixtures/recipes/users.json"), format: JSONFormat())
    /// ```
    ///
    /// - Parameters:
    ///   - input: the recipe file.
    ///   - format: its format.
    ///   - transformers: where transformer names and factories are looked up.
    ///   - box: where `nested` recipe names not defined in the file are looked up.
    /// - Throws: the format's reading errors, or the errors of
    ///   ``recipes(in:registry:resolvingNamesIn:)`` with the file's name in
    ///   front of the message.
    public static func load(
        _ input: IngredientInput, format: some IngredientFormat,
        transformers: TransformerRegistry = .builtIn, box: RecipeBox? = nil
    ) throws(EasyBakeError) -> [Recipe] {
        let tree = try format.read(input)
        do {
            return try recipes(in: tree, registry: transformers, resolvingNamesIn: box)
        } catch {
            var located = error
            located.message = "in \(input.name): " + error.message
            throw located
        }
    }

    /// Reads the recipe file `input` in the format that `formats` has for
    /// its extension, as ``load(_:format:transformers:box:)`` reads it.
    ///
    /// - Throws: ``EasyBakeError/Code/unknownFormat``, or the errors of
    ///   ``load(_:format:transformers:box:)``.
    public static func load(
        _ input: IngredientInput, formats: FormatRegistry,
        transformers: TransformerRegistry = .builtIn, box: RecipeBox? = nil
    ) throws(EasyBakeError) -> [Recipe] {
        try load(input, format: try formats.format(for: input), transformers: transformers, box: box)
    }

    private static func makeRecipe(
        _ description: Ingredients, at path: IngredientPath, registry: TransformerRegistry,
        lookUp: (String) -> Recipe?
    ) throws(EasyBakeError) -> Recipe {
        guard case .dictionary(let fields) = description else {
            throw problem("a recipe must be a dictionary, found \(description.briefDescription)", at: path)
        }
        var problems: [EasyBakeError] = []
        for key in fields.keys where !recipeFields.contains(key) {
            problems.append(
                problem(
                    "unknown field \(key.debugDescription); a recipe has \(recipeFields.sorted().joined(separator: ", "))",
                    at: path.appending(key: key)))
        }
        var name: String?
        if let value = fields["name"] {
            if case .string(let text) = value {
                name = text
            } else {
                problems.append(
                    problem(
                        "\"name\" must be a string, found \(value.briefDescription)", at: path.appending(key: "name")))
            }
        }
        var mapping: [(property: String, path: String)] = []
        var transformers: [String: TransformerReference] = [:]
        var defaults: [String: Ingredients] = [:]
        /// The properties each boolean entry field names.
        struct Flags {
            var emptyAsNil: Set<String> = []
            var lossy: Set<String> = []
        }
        var flags = Flags()
        var nested: [String: Recipe] = [:]

        switch fields["mapping"] {
        case .dictionary(let entries)?:
            for (property, value) in entries {
                let entryPath = path.appending(key: "mapping").appending(key: property)
                switch value {
                case .string(let text):
                    mapping.append((property, text))
                case .dictionary(let entry):
                    for key in entry.keys where !entryFields.contains(key) {
                        problems.append(
                            problem(
                                "unknown field \(key.debugDescription); a mapping entry has path, transformer, default, emptyAsNil, lossy",
                                at: entryPath.appending(key: key)))
                    }
                    guard case .string(let text)? = entry["path"] else {
                        problems.append(problem("a mapping entry needs a \"path\" string", at: entryPath))
                        continue
                    }
                    mapping.append((property, text))
                    if let spec = entry["transformer"] { transformers[property] = .spec(spec) }
                    if let value = entry["default"] { defaults[property] = value }
                    for (field, set) in [("emptyAsNil", \Flags.emptyAsNil), ("lossy", \Flags.lossy)] {
                        switch entry[field] {
                        case nil, .bool(false)?: break
                        case .bool(true)?: flags[keyPath: set].insert(property)
                        case let other?:
                            problems.append(
                                problem(
                                    "\"\(field)\" must be true or false, found \(other.briefDescription)",
                                    at: entryPath.appending(key: field)))
                        }
                    }
                default:
                    problems.append(
                        problem(
                            "expected a path or {path, transformer, default}, found \(value.briefDescription)",
                            at: entryPath))
                }
            }
        case nil:
            problems.append(problem("a recipe needs a \"mapping\" dictionary", at: path))
        case let other?:
            problems.append(
                problem(
                    "\"mapping\" must be a dictionary, found \(other.briefDescription)",
                    at: path.appending(key: "mapping")))
        }

        if let value = fields["transformers"] {
            if case .dictionary(let entries) = value {
                for (property, spec) in entries { transformers[property] = .spec(spec) }
            } else {
                problems.append(
                    problem("\"transformers\" must be a dictionary", at: path.appending(key: "transformers")))
            }
        }
        if let value = fields["defaults"] {
            if case .dictionary(let entries) = value {
                for (property, value) in entries { defaults[property] = value }
            } else {
                problems.append(problem("\"defaults\" must be a dictionary", at: path.appending(key: "defaults")))
            }
        }
        var defaultsForNull = false
        switch fields["defaultsForNull"] {
        case nil: break
        case .bool(let flag)?: defaultsForNull = flag
        case let other?:
            problems.append(
                problem(
                    "\"defaultsForNull\" must be true or false, found \(other.briefDescription)",
                    at: path.appending(key: "defaultsForNull")))
        }
        if let value = fields["nested"] {
            if case .dictionary(let entries) = value {
                for (property, value) in entries {
                    let nestedPath = path.appending(key: "nested").appending(key: property)
                    if case .string(let recipeName) = value {
                        guard let recipe = lookUp(recipeName) else {
                            throw EasyBakeError(
                                .recipeNotFound, "no recipe named \(recipeName.debugDescription)", path: nestedPath)
                        }
                        nested[property] = recipe
                    } else {
                        do {
                            nested[property] = try makeRecipe(value, at: nestedPath, registry: registry, lookUp: lookUp)
                        } catch let error where error.code == .recipeNotFound {
                            throw error
                        } catch {
                            problems.append(error)
                        }
                    }
                }
            } else {
                problems.append(problem("\"nested\" must be a dictionary", at: path.appending(key: "nested")))
            }
        }
        guard problems.isEmpty else {
            throw EasyBakeError(
                .invalidRecipe,
                "recipe at \(path.isRoot ? "the top" : path.description) has \(problems.count) problem\(problems.count == 1 ? "" : "s")",
                path: path, problems: problems)
        }
        do {
            return try Recipe(
                name: name, orderedMapping: mapping, transformers: transformers,
                nested: nested, defaults: defaults, emptyAsNil: flags.emptyAsNil, lossy: flags.lossy,
                defaultsForNull: defaultsForNull, registry: registry)
        } catch {
            var located = error
            located.path = path
            throw located
        }
    }

    private static func problem(_ message: String, at path: IngredientPath) -> EasyBakeError {
        EasyBakeError(.invalidRecipe, message, path: path)
    }
}
