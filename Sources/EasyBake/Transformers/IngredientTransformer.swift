/// Turns an ingredient into the form a model property needs, and back.
///
/// A recipe names a transformer per property. Baking calls ``transform(_:)``
/// on the value found at the property's path; decomposing calls
/// ``reverseTransform(_:)`` on the model's value, when
/// ``allowsReverseTransformation`` is true.
///
/// Null reaches a transformer as `nil`, and a transformer's `nil` becomes
/// ``Ingredients/null``. A missing value (the path leads nowhere) does not
/// reach the transformer at all.
///
/// Transformers speak ``Ingredients``: a date transformer turns
/// `"Sat, 07 Sep 2002 00:00:01 GMT"` into the canonical ISO 8601 string
/// `"2002-09-07T00:00:01Z"`, which the baker decodes into a `Date`. So the
/// processed ingredients stay printable and format-neutral.
///
/// ```swift
/// struct Uppercase: IngredientTransformer {
///     func transform(_ value: Ingredients?) throws -> Ingredients? {
///         guard case .string(let s)? = value else { return value }
///         return .string(s.uppercased())
///     }
/// }
/// ```
public protocol IngredientTransformer: Sendable {
    /// Transforms a value found in the ingredients (`nil` for null).
    ///
    /// - Throws: any error; the baker reports it as
    ///   ``EasyBakeError/Code/transformFailed`` with the property and path.
    func transform(_ value: Ingredients?) throws -> Ingredients?

    /// Transforms a model's value back into the ingredient form.
    func reverseTransform(_ value: Ingredients?) throws -> Ingredients?

    /// Whether ``reverseTransform(_:)`` is meaningful. When false,
    /// decomposition passes the model's value through unchanged.
    var allowsReverseTransformation: Bool { get }
}

extension IngredientTransformer {
    public func reverseTransform(_ value: Ingredients?) throws -> Ingredients? { value }
    public var allowsReverseTransformation: Bool { false }
}

/// A transformer of single values: an array is transformed element by
/// element, one level deep, as ``EachTransformer`` (`{"each": …}`)
/// transforms it.
///
/// XML writes one element as a value and two as an array, so a transformer
/// that took only a value would treat a feed's one `<category>` and its two
/// differently. Every built-in transformer that reads one value is a
/// `ScalarTransformer`; ``SplitTransformer`` splits each string element of
/// an array and joins the parts into one array. Write ``transformScalar(_:)``
/// (and ``reverseTransformScalar(_:)``) for one value; an error in an
/// element names its index.
///
/// ```swift
/// struct Shout: ScalarTransformer {
///     func transformScalar(_ value: Ingredients?) throws -> Ingredients? {
///         guard case .string(let text)? = value else { return value }
///         return .string(text.uppercased() + "!")
///     }
/// }
/// try Shout().transform(["a", "b"])   // ["A!", "B!"]
/// ```
public protocol ScalarTransformer: IngredientTransformer {
    /// Transforms one value (`nil` for null); never called with an array
    /// by ``IngredientTransformer/transform(_:)``, though an element may itself be one.
    func transformScalar(_ value: Ingredients?) throws -> Ingredients?

    /// Transforms one of a model's values back; by default passes it.
    func reverseTransformScalar(_ value: Ingredients?) throws -> Ingredients?
}

extension ScalarTransformer {
    public func reverseTransformScalar(_ value: Ingredients?) throws -> Ingredients? { value }

    /// ``transformScalar(_:)`` of a value, or of each element of an array.
    public func transform(_ value: Ingredients?) throws -> Ingredients? {
        guard case .array(let elements)? = value else { return try transformScalar(value) }
        return try EachTransformer.map(elements) { try transformScalar($0) }
    }

    /// ``reverseTransformScalar(_:)`` of a value, or of each element of an array.
    public func reverseTransform(_ value: Ingredients?) throws -> Ingredients? {
        guard case .array(let elements)? = value else { return try reverseTransformScalar(value) }
        return try EachTransformer.map(elements) { try reverseTransformScalar($0) }
    }
}
