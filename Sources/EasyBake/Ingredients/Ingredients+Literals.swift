extension Ingredients: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension Ingredients: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension Ingredients: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .float(value) }
}

extension Ingredients: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension Ingredients: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Ingredients...) { self = .array(IngredientArray(elements)) }
}

extension Ingredients: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, Ingredients)...) {
        self = .dictionary(IngredientDictionary(elements.lazy.map { (key: $0.0, value: $0.1) }))
    }
}

extension Ingredients {
    /// An array of the given values.
    public static func array(_ elements: [Ingredients]) -> Ingredients { .array(IngredientArray(elements)) }

    /// A dictionary of the given entries in order; the first of repeated keys wins.
    public static func dictionary(_ entries: KeyValuePairs<String, Ingredients>) -> Ingredients {
        .dictionary(IngredientDictionary(entries.lazy.map { (key: $0.key, value: $0.value) }))
    }
}
