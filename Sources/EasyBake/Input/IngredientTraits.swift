/// The ways a format's values differ from JSON's that the core must know to
/// read them: one value a source declares (``IngredientSource/traits``) and
/// every index read from it keeps (``IngredientIndex/traits``), so that
/// paths, records and baking ask the value, not the format.
///
/// A JSON-like format has none (`[]`, the default). A format of elements,
/// as XML, declares ``dictionariesAreElements``:
/// ```swift
/// struct MarkupSource: IngredientSource {
///     var traits: IngredientTraits { .dictionariesAreElements }
///     // …
/// }
/// ```
public struct IngredientTraits: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8

    /// The traits whose bits are set in `rawValue`.
    @inlinable
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The dictionaries are elements of a format where a repeated element
    /// becomes an array and a lone one stays a dictionary (XML): a path's
    /// `[*]` takes a dictionary as one element, a record path's `[*]` finds
    /// a lone element as one record, and the trees read from the source mark
    /// their dictionaries ``IngredientDictionary/isElement``. Without it,
    /// `[*]` on a dictionary gives its values.
    public static let dictionariesAreElements = IngredientTraits(rawValue: 1 << 0)

    /// The traits by name, as `[.dictionariesAreElements]`.
    public var description: String {
        var names: [String] = []
        if contains(.dictionariesAreElements) { names.append(".dictionariesAreElements") }
        let unnamed = rawValue & ~Self.dictionariesAreElements.rawValue
        if unnamed != 0 { names.append("IngredientTraits(rawValue: \(unnamed))") }
        return "[" + names.joined(separator: ", ") + "]"
    }
}
