import Foundation

/// A model type that names the recipe it is baked with, so that nested
/// values of this type use it wherever they appear.
///
/// Make the recipe once and keep its error, so that a mistake in it fails
/// every bake that needs it, naming the model, instead of vanishing into
/// implicit matching (which `try?` would do):
///
/// ```swift
/// struct Address: Bakeable {
///     let city: String
///     static var bakingRecipe: Recipe? { get throws { try recipe.get() } }
///     static let recipe = Result { try Recipe(mapping: ["city": "town_name"]) }
/// }
/// ```
public protocol Bakeable: Decodable {
    /// The recipe to bake this type with; `nil` for implicit key matching
    /// only. It is read for every value of the type baked, so it should be
    /// made once (a `static let`), not on every read.
    static var bakingRecipe: Recipe? { get throws }
}

extension Bakeable {
    public static var bakingRecipe: Recipe? { nil }

    /// ``bakingRecipe``, its error an ``EasyBakeError/Code/invalidRecipe``
    /// that names the type: how every road reads a type's recipe, so that a
    /// recipe the type cannot make fails the bake rather than vanishing.
    package static func checkedBakingRecipe() throws(EasyBakeError) -> Recipe? {
        do {
            return try bakingRecipe
        } catch {
            let underlying = error as? EasyBakeError
            throw EasyBakeError(
                .invalidRecipe, "\(Self.self).bakingRecipe: \(underlying?.message ?? String(describing: error))",
                problems: underlying?.problems ?? [], cause: error)
        }
    }
}

/// Bakes `Decodable` models from ingredients through recipes.
///
/// Baking resolves each mapped path, applies transformers, then decodes the
/// model with EasyBake's own `Decoder` over a flat ``IngredientIndex`` of the
/// payload — no detour through JSON bytes or `Any`. A payload's bytes are
/// indexed directly (``bake(_:from:format:recipe:)``); a tree is indexed
/// first. Properties no recipe maps are matched implicitly:
/// keys match when their letters and digits match case-insensitively, so
/// `unread_messages`, `unread-messages` and `UnreadMessages` all fill
/// `unreadMessages`. An explicit recipe entry always wins.
///
/// Values are coerced as users expect (see <doc:TransformersAndCoercions>):
/// `"42"` → `Int`, `42` → `String`, `0`/`1`/`"true"` → `Bool`, an ISO 8601
/// string or a Unix time → `Date`, a string → `URL`, a number or numeric
/// string → `Decimal`, null or missing → `nil` for optionals, and a single
/// value where an array is wanted → a one-element array.
///
/// ```swift
/// struct User: Decodable { let name: String; let unreadMessages: Int; let updatedAt: Date }
/// let user = try Baker().bake(User.self, from: ingredients, recipe: recipe)
/// ```
public struct Baker: Sendable {
    /// What to do with a non-optional property that has no value.
    public enum MissingValueStrategy: Sendable, Hashable {
        /// Throw ``EasyBakeError/Code/valueNotFound``.
        case error
        /// Fill the empty value of the type: `false`, `0`, `""`, `[]`, `[:]`
        /// (other types still throw). Each fill is reported as a warning.
        case emptyValue
    }

    /// What to do when a recipe names a key that the model never asks for:
    /// a key that is no property of the model, most often a typo
    /// (`"emial": "email"`) that would otherwise leave a property to implicit
    /// matching or `nil` without a word.
    public enum UnknownRecipeKeyPolicy: Sendable, Hashable {
        /// Throw ``EasyBakeError/Code/unknownRecipeKey``, listing the unknown
        /// keys and the model's properties. The default.
        case error
        /// Bake, and report each recipe with unknown keys as a warning
        /// (``Baker/bakeReporting(_:from:recipe:)`` returns them; a streamed
        /// bake has no warnings to return, so there it is the same as
        /// ``ignore``).
        case warning
        /// Bake without checking. A recipe shared by several models, each
        /// using part of it, needs this.
        case ignore
    }

    /// Where baking converts a value of one kind into the type asked — the
    /// string `"42"` into an `Int`, `1` into a `Bool`, a number into a
    /// `String` (the coercions of the "Transformers and coercions" article).
    public enum CoercionPolicy: Sendable, Hashable {
        /// Where the model declares the type: a property (a `Decodable`
        /// model's key, a recipe's entry, a `@Bakeable` field), an element
        /// of an array property, a value of a dictionary property, the raw
        /// value of a `RawRepresentable` enum, an optional's value. Not where
        /// a custom `init(from:)` probes a single-value container with one
        /// type after another (`try? c.decode(Bool.self)`, then `Int64`, …,
        /// the "any JSON value" enum): there a value reads only as its own
        /// kind, as with `JSONDecoder`, so that the first probe does not
        /// turn `0` into `false` — except in XML, whose every value is text.
        /// The default.
        case declaredTypes
        /// Everywhere, custom `init(from:)` probes included: what baking did
        /// before this option.
        case everywhere
        /// Nowhere: every value must already be of the kind asked, as with
        /// `JSONDecoder`. Transformers still run, and the types baking reads
        /// from text by definition (`Date`, `URL`, `UUID`, `Data`,
        /// `Decimal`) still read it.
        case none
    }

    /// Options that change how baking treats imperfect ingredients.
    public struct Options: Sendable, Hashable {
        /// Drop array elements that fail to bake, reporting each as a
        /// warning, instead of failing the whole model. Default `false`.
        public var lossyArrays: Bool
        /// What a missing non-optional value does. Default ``MissingValueStrategy/error``.
        public var missingValues: MissingValueStrategy
        /// Match unmapped properties to keys by letters and digits. Default `true`.
        public var implicitKeyMatching: Bool
        /// What a recipe key that names no property of the model does.
        /// Default ``UnknownRecipeKeyPolicy/error``.
        public var unknownRecipeKeys: UnknownRecipeKeyPolicy
        /// Read empty text (`""`, or only spaces — XML's `<length></length>`)
        /// as no value, so that an optional property of any type gets `nil`
        /// instead of failing to coerce it. Default `false`; a recipe can ask
        /// it of single properties (``Recipe/emptyAsNil``).
        public var emptyTextAsNil: Bool
        /// Where a value of one kind converts into the type asked. Default
        /// ``CoercionPolicy/declaredTypes``.
        public var coercions: CoercionPolicy

        /// Options; each default is the strict choice.
        public init(
            lossyArrays: Bool = false, missingValues: MissingValueStrategy = .error, implicitKeyMatching: Bool = true,
            unknownRecipeKeys: UnknownRecipeKeyPolicy = .error, emptyTextAsNil: Bool = false,
            coercions: CoercionPolicy = .declaredTypes
        ) {
            self.lossyArrays = lossyArrays
            self.missingValues = missingValues
            self.implicitKeyMatching = implicitKeyMatching
            self.unknownRecipeKeys = unknownRecipeKeys
            self.emptyTextAsNil = emptyTextAsNil
            self.coercions = coercions
        }
    }

    /// A baked model with the warnings of lossy baking.
    public struct Result<Model> {
        /// The model.
        public var value: Model
        /// What was dropped or filled in, each with its path and property;
        /// from ``Baker/bakeReporting(_:from:format:recipe:)``, first what
        /// reading repaired (a lenient XML reading's bare `&` and HTML
        /// entities), each with its line and column.
        public var warnings: [EasyBakeError]
    }

    /// The options.
    public var options: Options

    /// A baker with the given options.
    public init(options: Options = Options()) { self.options = options }

    /// Bakes a model from ingredients.
    ///
    /// - Parameters:
    ///   - type: the model type.
    ///   - ingredients: the tree to bake from.
    ///   - recipe: the recipe; by default the type's ``Bakeable/bakingRecipe``,
    ///     or implicit key matching alone.
    /// - Throws: ``EasyBakeError`` naming the model type, the property, the
    ///   ingredient path, the expected type and the value found.
    public func bake<Model: Decodable>(
        _ type: Model.Type, from ingredients: Ingredients, recipe: Recipe? = nil
    ) throws(EasyBakeError) -> Model {
        try bakeReporting(type, from: ingredients, recipe: recipe).value
    }

    /// Bakes a model and returns the warnings of lossy baking with it.
    public func bakeReporting<Model: Decodable>(
        _ type: Model.Type, from ingredients: Ingredients, recipe: Recipe? = nil
    ) throws(EasyBakeError) -> Result<Model> {
        // A tree a format read bakes from the index it was read into; any
        // other is indexed once (`IngredientIndex(_:)` says which).
        var index = IngredientIndex(ingredients)
        return try bakeReporting(type, from: &index, recipe: recipe)
    }
}

enum CodingPathText {
    /// The coding path as errors show it (`orders[2].total`), its middle
    /// elided when long (``ErrorPathText``).
    static func render(_ path: [any CodingKey]) -> String {
        ErrorPathText.render(stepCount: path.count) { text, index in
            let key = path[index]
            if let index = key.intValue, key is IndexKey {
                text += "[\(index)]"
            } else {
                if !text.isEmpty { text += "." }
                text += key.stringValue
            }
        }
    }
}

/// The coding key of an array element.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { return nil }
}

/// The coding key of a dictionary entry decoded into a `[String: T]`.
struct NameKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}
