// Clients import this module alone: the code `@Bakeable` generates names
// EasyBake's types, which must be visible where it expands.
@_exported import EasyBake

/// Makes a struct ``EasyBake/Bakeable`` with a recipe made from its property
/// attributes, checked when the code compiles.
///
/// ```swift
/// @Bakeable
/// struct User: Decodable {
///     @Ingredient("address.town") var town: String
///     @Ingredient("created", transformer: "iso8601") var created: Date
///     @Default(0) var unread: Int
///     var name: String  // implicit key matching
/// }
/// ```
/// The generated `bakingRecipe` maps each property with ``Ingredient(_:)``
/// to its path, with its transformer and ``Default(_:)`` value; properties
/// without attributes are left to implicit key matching, as in any recipe.
/// It also generates an ``EasyBake/IndexBakeable`` initializer
/// (`bakingKeys` and `init(baking:)`), through which the baker reads each
/// property straight from the index under the same rules. The model stays
/// `Decodable` as before, for every road that decodes through a `Decoder`.
///
/// Structs only: a class, an actor or an enum is reported (with a fix-it
/// to make a class or an actor a struct).
@attached(
    extension, conformances: EasyBake.Bakeable, EasyBake.IndexBakeable,
    names: named(bakingRecipe), named(_bakeableRecipe), named(bakingKeys), named(init(baking:)))
public macro Bakeable() = #externalMacro(module: "EasyBakeMacrosPlugin", type: "BakeableMacro")

/// Maps a stored property to an ingredient path (`"address.town"`,
/// `"tags[0]"`, `"[\"first name\"]"`), checked with the grammar of
/// ``EasyBake/IngredientPath/init(parsing:)`` when the code compiles.
@attached(peer)
public macro Ingredient(_ path: String) = #externalMacro(module: "EasyBakeMacrosPlugin", type: "IngredientMacro")

/// Maps a stored property to an ingredient path and transforms its value
/// (`transformer: "iso8601"`, or any ``EasyBake/TransformerReference``).
@attached(peer)
public macro Ingredient(_ path: String, transformer: TransformerReference) =
    #externalMacro(module: "EasyBakeMacrosPlugin", type: "IngredientMacro")

/// Transforms a stored property's value, read from the key of its own name.
@attached(peer)
public macro Ingredient(transformer: TransformerReference) =
    #externalMacro(module: "EasyBakeMacrosPlugin", type: "IngredientMacro")

/// The value a stored property bakes from when the ingredients have none
/// (see ``EasyBake/Recipe/defaults``). A literal that baking would not
/// convert into the property's declared type (`"forty-two"` on an `Int`;
/// `"42"` converts) is reported when the code compiles.
@attached(peer)
public macro Default(_ value: Ingredients) = #externalMacro(module: "EasyBakeMacrosPlugin", type: "DefaultMacro")

/// Makes an array property lossy: an element that does not bake is dropped,
/// with a warning, and the rest are kept (see ``EasyBake/Recipe/lossy``);
/// the model's other arrays stay strict. On a property whose type is not
/// written as an array it warns, since it has no effect there.
@attached(peer)
public macro Lossy() = #externalMacro(module: "EasyBakeMacrosPlugin", type: "LossyMacro")
