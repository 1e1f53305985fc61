extension Recipe {
    /// Prepares ingredients for baking: resolves each mapped path, applies
    /// defaults for missing paths and the transformers, and returns the
    /// processed ingredients keyed by property.
    ///
    /// A property whose path is missing takes its default (so does a null
    /// one, under ``defaultsForNull``); one that is missing and has no
    /// default is left out (the baker then reports it missing, or leaves an
    /// optional nil). Null otherwise stays null, and reaches a transformer
    /// as `nil`.
    ///
    /// ```swift
    /// let processed = try recipe.process(["stats": ["unread_messages": 10]])
    /// processed["unreadMessages"]   // 10
    /// ```
    /// - Throws: ``EasyBakeError/Code/transformFailed`` naming the property
    ///   and the ingredient path, with the transformer's error as the cause.
    ///
    /// A property with a nested recipe is processed by it in turn — a
    /// dictionary as a whole, an array element by element — as baking would
    /// apply it, and fails where baking would: a plain value where the nested
    /// recipe reads keys is a type mismatch (unless the nested recipe maps
    /// `#text`, which reads it as its text).
    ///
    /// `ownKey` is the key the ingredients stand under in their parent
    /// dictionary (a record of `events[*]` over a dictionary), which the
    /// path ``IngredientPath/ownKey`` (`#key`) reads.
    public func process(_ ingredients: Ingredients, ownKey: String? = nil) throws(EasyBakeError) -> IngredientDictionary {
        try processReporting(ingredients, ownKey: ownKey).processed
    }

    /// ``process(_:ownKey:)``, and whether any of the recipe's paths found a
    /// value: a recipe that finds none reads a payload it was not written
    /// for (or the payload's root instead of its records), which a caller
    /// warns of, as baking does.
    package func processReporting(
        _ ingredients: Ingredients, ownKey: String? = nil
    ) throws(EasyBakeError) -> (processed: IngredientDictionary, foundAny: Bool) {
        var processed = ContiguousArray<IngredientDictionary.Element>()
        processed.reserveCapacity(entries.count)
        var foundAny = false
        for entry in entries {
            if var value = try processedValue(for: entry, in: ingredients, ownKey: ownKey, found: &foundAny) {
                if let inner = nested[entry.property] { value = try inner.processNested(value, at: entry.path) }
                processed.append((entry.property, value))
            }
        }
        return (IngredientDictionary(uniqueEntries: processed), foundAny)
    }

    /// `value`, which the parent recipe found at `path`, processed by this
    /// nested recipe; errors name the path from the parent's root.
    func processNested(_ value: Ingredients, at path: IngredientPath) throws(EasyBakeError) -> Ingredients {
        switch value {
        case .null:
            return .null
        case .dictionary:
            return .dictionary(try processing(value, at: path))
        case .array(let elements):
            if rootIsArray { return .dictionary(try processing(value, at: path)) }
            var processed = ContiguousArray<Ingredients>()
            processed.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                processed.append(try processNested(element, at: path.appending(.index(index))))
            }
            return .array(IngredientArray(processed))
        default:
            if readsText { return .dictionary(try processing(["#text": value], at: path)) }
            let recipeLabel = name.map { "recipe \($0.debugDescription)" } ?? "the nested recipe"
            throw EasyBakeError(
                .typeMismatch, "\(recipeLabel) at \(path.errorDescription): expected a dictionary, found \(value.briefDescription)",
                path: path,
                baking: EasyBakeError.BakingContext(
                    modelType: name ?? "recipe", property: "", expected: "a dictionary", found: value.briefDescription))
        }
    }

    /// ``process(_:ownKey:)`` of a value at `path`, its errors' paths from there.
    private func processing(_ value: Ingredients, at path: IngredientPath) throws(EasyBakeError) -> IngredientDictionary {
        do {
            // An array's element stands under no key, as baking reads it.
            return try process(value, ownKey: path.lastKey)
        } catch {
            var located = error
            located.path = path.appending(error.path ?? IngredientPath())
            throw located
        }
    }

    /// Where a key of an update or a factory override goes in a payload this
    /// recipe reads: the key itself when the payload has it, else — when the
    /// key names a property the recipe maps — that property's path. So
    /// `["email": …]` reaches `contact.email` when the recipe maps `email`
    /// there, and a key the payload has wins over a property of that name.
    package func payloadPath(forKey key: String, in payload: Ingredients) -> IngredientPath? {
        if case .dictionary(let members) = payload, members[key] != nil { return nil }
        return entry(for: key)?.path
    }

    /// The processed value of one entry, or `nil` when missing without default.
    func processedValue(
        for entry: Entry, in ingredients: Ingredients, ownKey: String?, found foundAny: inout Bool
    ) throws(EasyBakeError) -> Ingredients? {
        guard let found = ingredients.resolve(entry.path) ?? (entry.path == .ownKey ? ownKey.map(Ingredients.string) : nil) else {
            return defaults[entry.property]
        }
        foundAny = true
        if found.isNull, defaultsForNull, let fallback = defaults[entry.property] { return fallback }
        return try transform(found, for: entry)
    }

    func transform(_ value: Ingredients, for entry: Entry) throws(EasyBakeError) -> Ingredients {
        guard let transformer = entry.transformer else { return value }
        do {
            return try transformer.transform(value.isNull ? nil : value) ?? .null
        } catch {
            throw EasyBakeError.transform(error, property: entry.property, path: entry.path, value: value, recipe: self)
        }
    }
}

extension EasyBakeError {
    static func transform(
        _ error: any Error, property: String, path: IngredientPath, value: Ingredients, recipe: Recipe
    ) -> EasyBakeError {
        let underlying = (error as? EasyBakeError)?.message ?? String(describing: error)
        // A number the transformer found out of range keeps that code: the
        // value is at fault, not the transformer.
        let code: EasyBakeError.Code = (error as? EasyBakeError)?.code == .numberOutOfRange ? .numberOutOfRange : .transformFailed
        return EasyBakeError(
            code,
            "property \(property.debugDescription) at \(path.errorDescription): \(underlying)",
            path: path,
            baking: BakingContext(modelType: recipe.name ?? "recipe", property: property, found: value.briefDescription),
            cause: error)
    }
}
