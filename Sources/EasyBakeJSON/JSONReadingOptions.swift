import EasyBake

/// How a JSON or JSON Lines source reads: what it does with a key that
/// repeats in one object, and the limits that bound what one payload may
/// cost. The counterpart of `YAMLReadingOptions` and `XMLReadingOptions`, so
/// that the three sources are made the same way:
///
/// ```swift
/// let source = try JSONIngredientSource(.file("users.json"), options: .init(duplicateKeys: .reject))
/// ```
public struct JSONReadingOptions: Sendable, Hashable {
    /// What the consumer should do with a key that repeats in one object.
    /// Default `DuplicateKeyPolicy.firstWins`.
    public var duplicateKeys: DuplicateKeyPolicy
    /// The bounds on depth, string and number size, input size and node
    /// count.
    public var limits: IngredientLimits

    /// Options with the given values; each defaults to the value its
    /// property documents.
    public init(duplicateKeys: DuplicateKeyPolicy = .firstWins, limits: IngredientLimits = .default) {
        self.duplicateKeys = duplicateKeys
        self.limits = limits
    }
}
