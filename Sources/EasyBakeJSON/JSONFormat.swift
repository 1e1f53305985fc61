import EasyBake

/// The JSON format: ``JSONIngredientSource`` to read, ``JSONWriter`` to write.
///
/// ```swift
/// FormatRegistry.shared.register(JSONFormat())
/// let tree = try JSONFormat().read(.file("users.json"))
/// let text = try JSONFormat().write(tree, options: .init(prettyPrinted: true, sortedKeys: true))
/// ```
public struct JSONFormat: IngredientFormat {
    /// The limits every source of this format enforces.
    public var limits: IngredientLimits
    /// The duplicate-key policy of its sources. Default first wins.
    public var duplicateKeyPolicy: DuplicateKeyPolicy

    public init(limits: IngredientLimits = .default, duplicateKeyPolicy: DuplicateKeyPolicy = .firstWins) {
        self.limits = limits
        self.duplicateKeyPolicy = duplicateKeyPolicy
    }

    public var name: String { "json" }
    public var fileExtensions: [String] { ["json"] }

    public func makeSource(for input: IngredientInput) throws(EasyBakeError) -> any IngredientSource {
        try JSONIngredientSource(input: input, limits: limits, duplicateKeyPolicy: duplicateKeyPolicy)
    }

    public func write(_ source: inout some IngredientSource, options: WritingOptions) throws(EasyBakeError) -> [UInt8] {
        try JSONWriter(options: options).write(&source)
    }

    /// Reads `input` into a tree (without going through an existential source).
    public func read(_ input: IngredientInput) throws(EasyBakeError) -> Ingredients {
        var source = try JSONIngredientSource(input: input, limits: limits, duplicateKeyPolicy: duplicateKeyPolicy)
        return try Ingredients(reading: &source)
    }
}
