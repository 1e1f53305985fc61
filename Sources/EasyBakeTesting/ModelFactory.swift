import EasyBake

/// Makes models for tests from default ingredients with overrides, the way
/// fixture factories do: each model starts from the same defaults, and each
/// override sets the value at an ingredient path (null clears it).
///
/// ```swift
/// let users = try ModelFactory(User.self, defaults: ["id": 1, "name": "Ada", "email": "ada@example.com"])
/// let bob = try users.make(["id": 2, "name": "Bob", "email": .null])
/// ```
public struct ModelFactory<Model: Decodable>: Sendable {
    /// The ingredients every model starts from.
    public var defaults: Ingredients
    /// The recipe models are baked with; `nil` for the type's own.
    public var recipe: Recipe?
    /// The baker.
    public var baker: Baker

    /// A factory for `type` from `defaults`.
    ///
    /// - Throws: the baking error when the defaults alone do not bake, so a
    ///   broken fixture shows up where it is defined.
    public init(_ type: Model.Type, defaults: Ingredients, recipe: Recipe? = nil, baker: Baker = Baker())
        throws(EasyBakeError)
    {
        self.defaults = defaults
        self.recipe = recipe
        self.baker = baker
        _ = try baker.bake(Model.self, from: defaults, recipe: recipe)
    }

    /// The ingredients of a model with overrides applied, by ingredient path
    /// (`"address.city"`, `"tags[0]"`). A path whose first key the defaults
    /// do not have but that names a property the recipe maps starts from
    /// that property's path instead (`"id"` sets `user_id` when the recipe
    /// maps `id` there).
    ///
    /// - Throws: `EasyBakeError.Code.invalidPath` for an override path that
    ///   does not parse; `EasyBakeError.Code.invalidRecipe` when the model's
    ///   own recipe cannot be made.
    public func ingredients(_ overrides: KeyValuePairs<String, Ingredients> = [:]) throws(EasyBakeError) -> Ingredients
    {
        var tree = defaults
        for (pathText, value) in overrides {
            tree = tree.setting(value, at: try payloadPath(try IngredientPath(parsing: pathText), in: tree))
        }
        return tree
    }

    /// Where an override's path goes in `tree`: see ``ingredients(_:)``.
    private func payloadPath(_ path: IngredientPath, in tree: Ingredients) throws(EasyBakeError) -> IngredientPath {
        let recipe =
            if let recipe = self.recipe { recipe } else {
                try (Model.self as? any Bakeable.Type)?.checkedBakingRecipe()
            }
        guard let recipe, case .key(let first)? = path.steps.first,
            let mapped = recipe.payloadPath(forKey: first, in: tree)
        else { return path }
        return IngredientPath(mapped.steps + path.steps.dropFirst())
    }

    /// A model from the defaults with `overrides` applied.
    public func make(_ overrides: KeyValuePairs<String, Ingredients> = [:]) throws(EasyBakeError) -> Model {
        try baker.bake(Model.self, from: ingredients(overrides), recipe: recipe)
    }

    /// `count` models; `overrides` gives each one's overrides from its index.
    public func make(
        count: Int, _ overrides: (Int) -> [(path: String, value: Ingredients)]
    ) throws(EasyBakeError) -> [Model] {
        // A negative count makes no models rather than a range that traps.
        guard count > 0 else { return [] }
        var models: [Model] = []
        models.reserveCapacity(count)
        for index in 0..<count {
            var tree = defaults
            for (pathText, value) in overrides(index) {
                tree = tree.setting(value, at: try payloadPath(try IngredientPath(parsing: pathText), in: tree))
            }
            models.append(try baker.bake(Model.self, from: tree, recipe: recipe))
        }
        return models
    }
}
