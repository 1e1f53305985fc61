/// What one bake asked of one recipe: which of its keys the model asked for,
/// and the model's property names, to check that the recipe names only
/// properties of the model.
///
/// A model asks for its properties by name as it decodes, so a key the
/// model never asked for is no property of it. That is the only way to
/// learn a `Decodable` type's properties without reflection, and it costs
/// one array store per property looked up.
final class RecipeUsage {
    let recipe: Recipe
    /// The type that first applied the recipe (`nil` when not known).
    let modelType: Any.Type?
    /// The coding path where the recipe was first applied, for an error:
    /// rendered only then, since rendering it costs more than the check. It
    /// may hold a decoder, which holds the bake's session, which holds this
    /// usage: the session drops its usages when the bake ends
    /// (`BakeSession.finish`).
    private let codingPath: () -> [any CodingKey]
    /// For each of the recipe's keys, whether the model asked for it. A
    /// buffer the usage owns rather than an array property: it is written on
    /// every property looked up, and a class's array property would be
    /// checked for exclusive access each time.
    let asked: UnsafeMutableBufferPointer<Bool>
    /// Set when the model asked for every key (a dictionary, or `allKeys`).
    var askedForEverything = false
    /// Set when a value the recipe was applied to baked: a value that failed
    /// stopped asking part way (a lossy array drops it), so until one bakes
    /// the keys never asked for say nothing about the model.
    var baked = false
    /// The names the first container was asked for, in order, repeats and all.
    var properties: [String] = []
    /// Set when one of the recipe's paths found a value: a recipe that baked
    /// values and never found one reads a payload it was not written for.
    var resolvedAny = false

    init(recipe: Recipe, modelType: Any.Type?, codingPath: @escaping () -> [any CodingKey]) {
        self.recipe = recipe
        self.modelType = modelType
        self.codingPath = codingPath
        asked = .allocate(capacity: recipe.keys.count)
        asked.initialize(repeating: false)
    }

    deinit { asked.deallocate() }

    /// Whether the model asked for every key of the recipe.
    var isComplete: Bool { askedForEverything || !asked.contains(false) }

    /// The warning for a recipe that baked values and found none of its
    /// paths in them (a record path one level off, a recipe for another
    /// payload): its properties baked from defaults or as `nil`.
    func nothingResolvedWarning(rootModel rootModelName: @autoclosure () -> String) -> EasyBakeError? {
        guard baked, !resolvedAny, !recipe.entries.isEmpty else { return nil }
        let property = CodingPathText.render(codingPath())
        let recipeLabel = recipe.name.map { "recipe \($0.debugDescription)" } ?? "the recipe"
        let place = property.isEmpty ? "" : " at \(rootModelName()).\(property)"
        let paths =
            recipe.entries.prefix(4).map(\.path.description).joined(separator: ", ")
            + (recipe.entries.count > 4 ? ", …" : "")
        return EasyBakeError(
            .valueNotFound,
            "\(recipeLabel) found none of its paths (\(paths)) in the value it baked\(place): is it written for another payload, or for its records (--each)?",
            baking: .init(modelType: modelType.map { String(describing: $0) } ?? rootModelName(), property: property))
    }

    /// The error for the keys never asked for, or `nil` when there are none.
    /// `rootModel` is asked for only when there is a problem: naming a type
    /// costs more than baking a small model.
    func problem(rootModel rootModelName: @autoclosure () -> String) -> EasyBakeError? {
        guard baked, !askedForEverything, asked.contains(false) else { return nil }
        let rootModel = rootModelName()
        let property = CodingPathText.render(codingPath())
        let unknown = recipe.keys.indices.filter { !asked[$0] }.map { recipe.keys[$0] }
        guard !unknown.isEmpty else { return nil }
        var seen = Set<String>()
        let names = properties.filter { seen.insert($0).inserted }
        let model = modelType.map { String(describing: $0) } ?? rootModel
        let recipeLabel = recipe.name.map { "recipe \($0.debugDescription)" } ?? "the recipe"
        let place = property.isEmpty ? "" : " (at \(rootModel).\(property))"
        let keys = unknown.map { key in
            guard let near = Self.nearest(to: key, among: names) else { return key.debugDescription }
            return "\(key.debugDescription) (did you mean \(near.debugDescription)?)"
        }
        let message =
            "\(recipeLabel) names \(unknown.count == 1 ? "a key that is not a property" : "keys that are not properties") of \(model)\(place): "
            + keys.joined(separator: ", ")
            + "; \(model)'s properties: " + (names.isEmpty ? "none asked for" : names.joined(separator: ", "))
        return EasyBakeError(
            .unknownRecipeKey, message,
            baking: .init(
                modelType: model, property: property, expected: "a property of \(model)",
                found: unknown.joined(separator: ", ")))
    }

    /// The property a mistyped key most likely meant (see ``NearestName``).
    static func nearest(to key: String, among names: [String]) -> String? { NearestName.nearest(to: key, among: names) }
}
