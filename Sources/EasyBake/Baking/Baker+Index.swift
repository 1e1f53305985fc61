extension Baker {
    /// Bakes a model straight from a payload: the format reads the input
    /// into a flat ``IngredientIndex`` and the model is decoded from it, with
    /// no tree in between — the fastest way to bake a whole document.
    ///
    /// Baking follows exactly the rules of ``bake(_:from:recipe:)-(_,Ingredients,_)``
    /// (recipes, transformers, coercions, implicit key matching, errors), and
    /// an error names the line and column of the value at fault where the
    /// format's index knows it (JSON does).
    ///
    /// ```swift
    /// let user = try Baker().bake(User.self, from: .file("user.json"), format: JSONFormat())
    /// ```
    public func bake<Model: Decodable>(
        _ type: Model.Type, from input: IngredientInput, format: some IngredientFormat, recipe: Recipe? = nil
    ) throws(EasyBakeError) -> Model {
        try bakeReporting(type, from: input, format: format, recipe: recipe).value
    }

    /// Bakes a model straight from a payload, and returns the warnings of
    /// lossy baking with it — after those of reading, when the format
    /// repaired the input (a lenient reading of XML,
    /// ``IngredientFormat/readIndexReporting(_:into:)``).
    public func bakeReporting<Model: Decodable>(
        _ type: Model.Type, from input: IngredientInput, format: some IngredientFormat, recipe: Recipe? = nil
    ) throws(EasyBakeError) -> Result<Model> {
        var index = IngredientIndex()
        let repairs = try format.readIndexReporting(input, into: &index)
        var result = try bakeReporting(type, from: &index, recipe: recipe)
        if !repairs.isEmpty { result.warnings = repairs + result.warnings }
        return result
    }

    /// Bakes a model from an index, which the bake may append to (a path
    /// with `[*]`, a transformer's result, a default).
    package func bakeReporting<Model: Decodable>(
        _ type: Model.Type, from index: inout IngredientIndex, at position: Int = 0, recipe: Recipe? = nil
    ) throws(EasyBakeError) -> Result<Model> {
        var plans: [BakeSession.PlanKey: KeyPlan] = [:]
        var warnings: [EasyBakeError] = []
        let value = try Self.decode(
            type, from: &index, at: position, recipe: recipe, applyingTypeRecipe: recipe == nil, options: options,
            plans: &plans, warnings: &warnings)
        return Result(value: value, warnings: warnings)
    }

    /// Decodes `Model` from the value at `position` in `index` and checks the
    /// recipes' keys, in one bake session; `plans` are the key plans of
    /// earlier records of the same stream, and come back with this one's
    /// added; the bake's `warnings` are added to those given. Streaming
    /// passes its `observer`; a plain bake none.
    ///
    /// The model comes back alone, not in a `Result`: a generic struct's
    /// metadata is looked up at run time, once per record when streaming.
    static func decode<Model: Decodable>(
        _ type: Model.Type, from index: inout IngredientIndex, at position: Int, recipe: Recipe?,
        applyingTypeRecipe: Bool,
        options: Options, observer: BakeObserver? = nil, recordKey: String? = nil,
        plans: inout [BakeSession.PlanKey: KeyPlan], warnings: inout [EasyBakeError]
    ) throws(EasyBakeError) -> Model {
        let bake = BakeSession(options: options, modelType: Model.self, plans: plans)
        defer { plans = bake.madePlans }
        return try decode(
            type, from: &index, at: position, recipe: recipe, applyingTypeRecipe: applyingTypeRecipe, in: bake,
            observer: observer, recordKey: recordKey, warnings: &warnings)
    }

    /// Decodes `Model` as ``decode(_:from:at:recipe:applyingTypeRecipe:options:observer:recordKey:plans:warnings:)``
    /// does, in `bake`, a session made for `Model` and reused from record
    /// to record of a stream.
    static func decode<Model: Decodable>(
        _ type: Model.Type, from index: inout IngredientIndex, at position: Int, recipe: Recipe?,
        applyingTypeRecipe: Bool,
        in bake: BakeSession, observer: BakeObserver?, recordKey: String?, warnings: inout [EasyBakeError]
    ) throws(EasyBakeError) -> Model {
        // The bake takes the index over, so that appending to it never copies it.
        let documentEnd = index.count
        bake.begin(taking: &index, observer: observer, recordKey: recordKey)
        defer {
            bake.takeIndex(into: &index)
            bake.finish()
        }
        do {
            let value = try bake.root(at: position, recipe: recipe).decodeValue(
                Model.self, applyingTypeRecipe: applyingTypeRecipe)
            try bake.checkRecipeKeys()
            observer?.noteBaked(askingInFull: bake.recipesAskedInFull)
            if !bake.warnings.isEmpty { warnings.append(contentsOf: bake.warnings) }
            return value
        } catch {
            var converted = bake.noteMistypedKeys(in: bake.converting(error))
            if converted.location == nil, let failed = bake.failedPosition, failed < documentEnd {
                converted.location = bake.index.mark(at: failed)?.location
            }
            throw converted
        }
    }
}
