import Foundation

/// The bake's recipe tally (a recipe's keys must all be properties of the
/// model it bakes) and its errors.
extension BakeSession {
    /// The recipes whose every key the model asked for in this bake.
    var recipesAskedInFull: [ObjectIdentifier] {
        recipeUsages?.filter(\.isComplete).map(\.recipe.identity) ?? []
    }

    /// Ends the bake: the recipe tallies hold the decoders that applied
    /// their recipes (for an error's coding path), and the decoders hold
    /// this session, so the tallies go when the bake is over.
    func finish() {
        recipeUsages = nil
        usageIndex = [:]
        lastUsage = nil
    }

    /// The tally of what the model asks of `recipe`, and whether this is the
    /// first container to apply it (which notes the property names, in the
    /// order the model asks for them, for the error message); `codingPath`
    /// is where it was first applied, taken only when the tally is made.
    /// `nil` when unknown keys are not checked, or when an earlier bake of
    /// the same stream settled the recipe.
    func usage(
        of recipe: Recipe, modelType: @autoclosure () -> Any.Type?, codingPath: @autoclosure () -> [any CodingKey]
    ) -> (usage: RecipeUsage, isFirst: Bool)? {
        guard recipeUsages != nil else { return nil }
        let id = recipe.identity
        if let observer, observer.hasSettled(id) { return nil }
        // Most bakes apply one recipe: its tally is found without hashing.
        if let first = recipeUsages!.first, first.recipe.identity == id { return (first, false) }
        // A nested recipe is applied once per record of its parent's: the
        // tally found last is found again without hashing.
        if let last = lastUsage, last.recipe.identity == id { return (last, false) }
        if let index = usageIndex[id] {
            lastUsage = recipeUsages![index]
            return (recipeUsages![index], false)
        }
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
        // A key the model had not reached when it failed may be a property
        // all the same (`items`, declared after `item`): where the model
        // names its keys (`@Bakeable`), those are no misspelling.
        for usage in recipeUsages where !usage.askedForEverything && !usage.recipe.keys.contains(name) {
            let properties = (usage.modelType as? any IndexBakeable.Type)?.bakingKeys ?? []
            for (index, key) in usage.recipe.keys.enumerated() where !usage.asked[index] && !properties.contains(key) {
                guard RecipeUsage.nearest(to: key, among: [name]) != nil else { continue }
                var noted = error
                let recipeLabel = usage.recipe.name.map { "recipe \($0.debugDescription)" } ?? "the recipe"
                noted.message +=
                    "; \(recipeLabel) maps \(key.debugDescription), which is no property: did you mean \(name.debugDescription)?"
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
            if let warning = usage.nothingResolvedWarning(rootModel: modelTypeName) { warnings.append(warning) }
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
            let (code, context) = EasyBakeError.Code.decoding(decodingError)
            return EasyBakeError(
                code, context?.debugDescription ?? "\(decodingError)",
                baking: .init(modelType: modelTypeName, property: CodingPathText.render(context?.codingPath ?? [])),
                cause: decodingError)
        }
        return EasyBakeError(
            .invalidValue, String(describing: error),
            baking: .init(modelType: modelTypeName, property: ""), cause: error)
    }
}
