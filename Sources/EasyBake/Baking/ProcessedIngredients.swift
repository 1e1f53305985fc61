/// What a recipe makes of a value with no model to bake it into: each
/// property the recipe maps, with its path resolved, its default applied
/// and its transformer run, as the value it would give a model's property
/// of type ``Ingredients``.
///
/// It is a model like any other, baked by the same reader and rules as
/// every model (``Baker``'s recipes, transformers, defaults, nested recipes
/// and errors), so any road of the baker makes it — a tree, a payload's
/// bytes, the records of ``Baker/bakeEach(_:from:each:recipe:materialization:)``:
///
/// ```swift
/// let processed = try Baker().bake(ProcessedIngredients.self, from: payload, recipe: recipe)
/// processed.ingredients["unreadMessages"]   // 10
/// ```
///
/// Its properties are the recipe's mapped properties (``Recipe/properties``),
/// in the recipe's order. A property whose path is missing and that has no
/// default is left out; null stays null. A property with a nested recipe
/// holds what that recipe makes of its value: a dictionary of the nested
/// recipe's properties, or an array of them, element by element, for an
/// array (under ``Recipe/lossy`` an element that fails is dropped, with a
/// warning). `easybake bake` prints ``ingredients`` of each record.
///
/// A recipe is required: without one there are no properties to bake
/// (``EasyBakeError/Code/invalidRecipe``). Only EasyBake's baker makes it;
/// another `Decoder` gets ``EasyBakeError/Code/unsupported``.
public struct ProcessedIngredients: Decodable, Sendable {
    /// The recipe's properties that have a value, in the recipe's order.
    public var ingredients: IngredientDictionary
    /// Whether any of the recipe's paths found a value: a recipe that finds
    /// none reads a payload it was not written for (or the payload's root
    /// instead of its records), which deserves a warning.
    public var foundAnyPath: Bool

    /// Bakes the recipe's properties of the decoder's value.
    ///
    /// - Throws: ``EasyBakeError/Code/typeMismatch`` for a value the recipe
    ///   cannot read by key (a plain value or an array, unless the recipe
    ///   reads `#text` or starts with an index), and the errors of the
    ///   recipe's transformers, as baking any model throws them.
    public init(from decoder: any Decoder) throws {
        let reader = try IndexDecoder.baking(decoder, Self.self).recipePropertiesReader()
        ingredients = try reader.processedProperties()
        foundAnyPath = reader.resolvedAny
    }
}

/// A value under a nested recipe in a model-less bake: what the nested
/// recipe makes of it (see ``ProcessedIngredients``).
struct RecipeValue: Decodable {
    let ingredients: Ingredients

    init(from decoder: any Decoder) throws {
        let decoder = try IndexDecoder.baking(decoder, Self.self)
        if decoder.isNull {
            ingredients = .null
        } else if decoder.holdsRecipeElements {
            // An element that is itself an array: its elements in turn.
            ingredients = try decoder.processedValue(lossy: false)
        } else {
            ingredients = .dictionary(try decoder.recipePropertiesReader().processedProperties())
        }
    }
}

extension IndexDecoder {
    /// `decoder` as EasyBake's own, which a model-less value (`type`) needs:
    /// its properties are its recipe's, which only the baker's decoder holds.
    static func baking(_ decoder: any Decoder, _ type: Any.Type) throws(EasyBakeError) -> IndexDecoder {
        guard let decoder = decoder as? IndexDecoder else {
            throw EasyBakeError(
                .unsupported,
                "\(type) is baked by EasyBake's Baker with a recipe, whose properties it holds; \(Swift.type(of: decoder)) cannot decode it"
            )
        }
        return decoder
    }

    /// Whether this value, under its recipe, is read element by element: an
    /// array, unless the recipe's own paths start with an index.
    var holdsRecipeElements: Bool {
        position >= 0 && bake.reader.kind(at: position) == .array && recipe?.rootIsArray == false
    }

    /// The reader of the recipe's properties of this value: the keyed read
    /// every model gets (a plain value or an array where the recipe reads
    /// keys fails here, as it does for a model), planned as the recipe's
    /// mapped properties in order.
    func recipePropertiesReader() throws -> KeyedValueReader {
        guard let recipe else {
            throw EasyBakeError(
                .invalidRecipe, "ProcessedIngredients bakes the properties of a recipe, and none was given",
                path: bake.ingredientPath(depth: depth))
        }
        let value = try keyedValue(IngredientDictionary.self)
        return KeyedValueReader(decoder: value, recipe: recipe, plan: bake.plan(forPropertiesOf: recipe))
    }

    /// What this value's nested recipe makes of it, as a model's property
    /// would be baked: element by element for an array (dropping the
    /// elements that fail when `lossy`, as a lossy array of models does),
    /// the recipe's properties otherwise, null as null.
    func processedValue(lossy: Bool) throws -> Ingredients {
        if holdsRecipeElements {
            let elements = try decodeValue([RecipeValue].self, lossyArray: lossy)
            return .array(IngredientArray(ContiguousArray(elements.lazy.map(\.ingredients))))
        }
        return try decodeValue(RecipeValue.self).ingredients
    }
}

extension KeyedValueReader {
    /// The recipe's mapped properties of this reader's value, in the
    /// recipe's order (the plan's fields), each looked up as a model's
    /// property is: a missing one without default is left out, any other
    /// is decoded as ``Ingredients``, or through its nested recipe.
    final func processedProperties() throws -> IngredientDictionary {
        // A dictionary of the recipe's properties asks for all of them: no
        // key of the recipe can name a property it lacks.
        usage?.askedForEverything = true
        let noKey: CodingKeyMaker = { nil }
        var processed = ContiguousArray<IngredientDictionary.Element>()
        processed.reserveCapacity(plan.fieldCount)
        for field in 0..<plan.fieldCount {
            let slot = plan.fieldSlot(field)
            let child = try childDecoder(for: noKey, slot: slot)
            guard !child.isMissing else { continue }
            let value: Ingredients
            if plan.nested[slot.ordinal] == nil {
                // The value whole, as a model's `Ingredients` property gets it.
                guard let whole = bake.ingredients(at: child.position) else { throw child.missing(Ingredients.self) }
                value = whole
            } else {
                value = try child.processedValue(lossy: slot.lossy)
            }
            processed.append((plan.names[slot.ordinal], value))
        }
        return IngredientDictionary(uniqueEntries: processed)
    }
}
