/// A model that bakes itself from the index with no `Decoder` in between:
/// what `@Bakeable` (the `EasyBakeMacros` product) generates.
///
/// `Decodable` reaches each property through a `Decoder` existential, a
/// boxed keyed container and a generic call per value, and past a point
/// those, not the parsing, are what a bake costs. A type conforming to this
/// protocol is handed its keyed container as a concrete ``BakingFields``
/// and asks for each property by the index of its key in ``bakingKeys``,
/// whose slot in the model's plan is then found without a string: a
/// string, a number or a date is read from the index in one call, and a
/// nested model of this kind, or an array of them, is baked the same way
/// with no dynamic type check.
///
/// Every rule stays the one of the `Decodable` road: the container applies
/// the recipe (paths, transformers, defaults), implicit key matching, the
/// coercions and the missing-value strategy exactly as it does for
/// `init(from:)`, and an error names the same path, property and place in
/// the input. Only the road is shorter.
///
/// The model keeps its `Decodable` conformance: everything that decodes
/// through a `Decoder` — a tree, decomposing, `Dough`, fixtures — still
/// does. Write the conformance with `@Bakeable` rather than by hand: the
/// initializer must ask for every stored property by the key its
/// `init(from:)` would use.
public protocol IndexBakeable: Bakeable {
    /// The keys the initializer reads, each the `stringValue` of the coding
    /// key `init(from:)` reads the same property by; the initializer names
    /// a key to ``BakingFields`` by its index here. Read once per bake,
    /// when the model's plan is made.
    static var bakingKeys: [String] { get }

    /// Bakes the model from its value's fields.
    init(baking fields: BakingFields) throws
}
