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
