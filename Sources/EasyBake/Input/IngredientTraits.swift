/// The ways a format's values differ from JSON's that the core must know to
/// read them: one value a source declares (``IngredientSource/traits``) and
/// every index read from it keeps (``IngredientIndex/traits``), so that
/// paths, records and baking ask the value, not the format.
///
/// A JSON-like format has none (`[]`, the default). A format of elements
/// whose every value is text, as XML, declares both traits, ``markup``:
/// ```swift
/// struct MarkupSource: IngredientSource {
///     var traits: IngredientTraits { .markup }
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

    /// Every scalar is text, which the format has no other way to type
    /// (XML): under the default ``Baker/CoercionPolicy/declaredTypes``, a
    /// custom `init(from:)` that asks its single-value container for an
    /// `Int` gets `"42"` converted, as a declared property would. Without
    /// it, such a probe gets the value as the format typed it, as
    /// `JSONDecoder` gives it.
    public static let scalarsAreText = IngredientTraits(rawValue: 1 << 1)

    /// Elements whose every scalar is text (``dictionariesAreElements`` and
    /// ``scalarsAreText``), as XML's: also what a tree whose root is marked
    /// ``IngredientDictionary/isElement`` is taken to hold, and what a
    /// source that declares only the older
    /// ``IngredientSource/dictionariesAreElements`` means.
    public static let markup: IngredientTraits = [.dictionariesAreElements, .scalarsAreText]

    /// The traits by name, as `[.dictionariesAreElements, .scalarsAreText]`.
    public var description: String {
        var names: [String] = []
        if contains(.dictionariesAreElements) { names.append(".dictionariesAreElements") }
        if contains(.scalarsAreText) { names.append(".scalarsAreText") }
        let unnamed = rawValue & ~(Self.dictionariesAreElements.rawValue | Self.scalarsAreText.rawValue)
        if unnamed != 0 { names.append("IngredientTraits(rawValue: \(unnamed))") }
        return "[" + names.joined(separator: ", ") + "]"
    }
}
