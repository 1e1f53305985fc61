import Foundation

/// State shared by all decoders of one bake.
final class BakeContext {
    let options: Baker.Options
    private let modelType: Any.Type
    /// The model type's name, for error messages: computed only when one is
    /// made, since naming a type costs more than baking a small model.
    lazy var modelTypeName = String(describing: modelType)
    var warnings: [EasyBakeError] = []
    /// Set by streaming, which may have left out of a record what its recipe
    /// does not map: what the model asked of the record's root beyond the
    /// recipe (a property name, or `*` for all keys or the whole value).
    var unmappedRootRequests: Set<String>?
    /// What the model asked of each recipe a keyed container applied, in
    /// the order first applied; `nil` when unknown keys are not checked.
    private(set) var recipeUsages: [RecipeUsage]?
    private var usageIndex: [ObjectIdentifier: Int] = [:]
    /// Recipes an earlier bake of the same stream found the model to ask
    /// every key of: not tallied again (a streamed bake is one bake per record).
    var settledRecipes: Set<ObjectIdentifier> = []

    init(options: Baker.Options, modelType: Any.Type) {
        self.options = options
        self.modelType = modelType
        if options.unknownRecipeKeys != .ignore { recipeUsages = [] }
    }

    /// The recipes whose every key the model asked for in this bake.
    var recipesAskedInFull: [ObjectIdentifier] {
        recipeUsages?.filter(\.isComplete).map(\.recipe.identity) ?? []
    }

    /// Ends the bake: the recipe tallies hold the decoders that applied
    /// their recipes (for an error's coding path), and the decoders hold
    /// this context, so the tallies go when the bake is over.
    func finish() {
        recipeUsages = nil
        usageIndex = [:]
    }

    /// The tally of what the model asks of `recipe`, and whether this is the
    /// first container to apply it (which notes the property names, in the
    /// order the model asks for them, for the error message).
    /// The tally of what the model asks of `recipe`; `codingPath` is where it
    /// was first applied, taken only when the tally is made.
    func usage(
        of recipe: Recipe, modelType: @autoclosure () -> Any.Type?, codingPath: @autoclosure () -> [any CodingKey]
    ) -> (usage: RecipeUsage, isFirst: Bool)? {
        guard recipeUsages != nil else { return nil }
        let id = recipe.identity
        if !settledRecipes.isEmpty, settledRecipes.contains(id) { return nil }
        // Most bakes apply one recipe: its tally is found without hashing.
        if let first = recipeUsages!.first, first.recipe.identity == id { return (first, false) }
        if let index = usageIndex[id] { return (recipeUsages![index], false) }
        // The coding path is taken once, for the error it may be needed in.
        let path = codingPath()
        let usage = RecipeUsage(recipe: recipe, modelType: modelType(), codingPath: { path })
        if !recipeUsages!.isEmpty { usageIndex[id] = recipeUsages!.count }
        recipeUsages!.append(usage)
        return (usage, true)
    }

    /// A property that failed for want of a value is most often one whose
    /// recipe key is mistyped; the bake stopped before the recipe check, so
    /// the error says so itself.
    func noteMistypedKeys(in error: EasyBakeError) -> EasyBakeError {
        guard let recipeUsages, error.code == .valueNotFound, let property = error.baking?.property,
              let name = property.split(separator: ".").last.map({ String($0.prefix { $0 != "[" }) }), !name.isEmpty
        else { return error }
        for usage in recipeUsages where !usage.askedForEverything {
            for (index, key) in usage.recipe.keys.enumerated() where !usage.asked[index] {
                guard RecipeUsage.nearest(to: key, among: [name]) != nil else { continue }
                var noted = error
                let recipeLabel = usage.recipe.name.map { "recipe \($0.debugDescription)" } ?? "the recipe"
                noted.message += "; \(recipeLabel) maps \(key.debugDescription), which is no property: did you mean \(name.debugDescription)?"
                return noted
            }
        }
        return error
    }

    /// Throws (or notes a warning) for every recipe key the model never
    /// asked for, as the recipe checks the model: a recipe's keys must all
    /// be properties of the model it bakes.
    func checkRecipeKeys() throws(EasyBakeError) {
        guard let recipeUsages else { return }
        var problems: [EasyBakeError] = []
        for usage in recipeUsages {
            if let problem = usage.problem(rootModel: modelTypeName) { problems.append(problem) }
        }
        guard let first = problems.first else { return }
        if options.unknownRecipeKeys == .warning {
            warnings.append(contentsOf: problems)
            return
        }
        if problems.count == 1 { throw first }
        throw EasyBakeError(
            .unknownRecipeKey, "\(problems.count) recipes name keys that are not properties of their models",
            baking: first.baking, problems: problems)
    }

    /// Any error thrown while decoding, as an EasyBakeError with context.
    func converting(_ error: any Error) -> EasyBakeError {
        if var bakeError = error as? EasyBakeError {
            if bakeError.baking == nil {
                bakeError.baking = .init(modelType: modelTypeName, property: "")
            }
            return bakeError
        }
        if let decodingError = error as? DecodingError {
            let (code, context): (EasyBakeError.Code, DecodingError.Context) = switch decodingError {
            case .typeMismatch(_, let c): (.typeMismatch, c)
            case .valueNotFound(_, let c): (.valueNotFound, c)
            case .keyNotFound(_, let c): (.valueNotFound, c)
            case .dataCorrupted(let c): (.invalidValue, c)
            @unknown default: (.invalidValue, DecodingError.Context(codingPath: [], debugDescription: "\(decodingError)"))
            }
            return EasyBakeError(
                code, context.debugDescription,
                baking: .init(modelType: modelTypeName, property: CodingPathText.render(context.codingPath)),
                cause: decodingError)
        }
        return EasyBakeError(
            .invalidValue, String(describing: error),
            baking: .init(modelType: modelTypeName, property: ""), cause: error)
    }
}
