import Foundation

/// Named recipes, one per name, safe to use from many threads.
///
/// Make a box of your own and pass it to what needs its recipes; there is no
/// shared box that any code could change under another's feet.
///
/// ```swift
/// let box = RecipeBox()
/// try box.add(userRecipe)                         // userRecipe.name == "UserJSON"
/// let recipe = try box.recipe(named: "UserJSON")
/// ```
public final class RecipeBox: Sendable {
    private let recipes = Locked([String: Recipe]())

    /// An empty box.
    public init() {}

    /// Adds a named recipe.
    ///
    /// - Throws: ``EasyBakeError/Code/invalidRecipe`` when the recipe has no
    ///   name; ``EasyBakeError/Code/duplicateRecipe`` when the box already
    ///   holds a recipe with that name (the box keeps the first).
    public func add(_ recipe: Recipe) throws(EasyBakeError) {
        guard let name = recipe.name, !name.isEmpty else {
            throw EasyBakeError(.invalidRecipe, "a recipe needs a name to go in a recipe box")
        }
        let added: Bool = recipes.withLock { recipes in
            guard recipes[name] == nil else { return false }
            recipes[name] = recipe
            return true
        }
        if !added {
            throw EasyBakeError(.duplicateRecipe, "the box already holds a recipe named \(name.debugDescription)")
        }
    }

    /// The recipe named `name`.
    ///
    /// - Throws: ``EasyBakeError/Code/recipeNotFound`` listing the names held.
    public func recipe(named name: String) throws(EasyBakeError) -> Recipe {
        if let recipe = recipes.withLock({ $0[name] }) { return recipe }
        throw EasyBakeError(
            .recipeNotFound,
            "no recipe named \(name.debugDescription); the box holds: \(names.map(\.debugDescription).joined(separator: ", "))"
        )
    }

    /// Whether the box holds a recipe named `name`.
    public func contains(_ name: String) -> Bool { recipes.withLock { $0[name] != nil } }

    /// Removes and returns the recipe named `name`.
    @discardableResult
    public func remove(named name: String) -> Recipe? { recipes.withLock { $0.removeValue(forKey: name) } }

    /// The names held, sorted.
    public var names: [String] { recipes.withLock { $0.keys.sorted() } }

    /// Reads a recipe file (see ``RecipeFile``) in `format` and adds its
    /// recipes.
    ///
    /// - Returns: the recipes added, in file order.
    /// - Throws: any error of ``RecipeFile/load(_:format:transformers:box:)``,
    ///   or ``EasyBakeError/Code/duplicateRecipe``.
    @discardableResult
    public func load(
        _ input: IngredientInput, format: some IngredientFormat, transformers: TransformerRegistry = .builtIn
    ) throws(EasyBakeError) -> [Recipe] {
        try add(RecipeFile.load(input, format: format, transformers: transformers, box: self))
    }

    /// Reads a recipe file in the format that `formats` has for its
    /// extension and adds its recipes.
    ///
    /// - Returns: the recipes added, in file order.
    /// - Throws: ``EasyBakeError/Code/unknownFormat``, or any error of
    ///   ``load(_:format:transformers:)``.
    @discardableResult
    public func load(
        _ input: IngredientInput, formats: FormatRegistry, transformers: TransformerRegistry = .builtIn
    ) throws(EasyBakeError) -> [Recipe] {
        try add(RecipeFile.load(input, formats: formats, transformers: transformers, box: self))
    }

    /// Adds the named ones of `recipes`, and returns them all.
    private func add(_ recipes: [Recipe]) throws(EasyBakeError) -> [Recipe] {
        for recipe in recipes where recipe.name != nil { try add(recipe) }
        return recipes
    }
}
