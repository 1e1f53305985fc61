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

        /// Options; each default is the strict choice.
        public init(
            lossyArrays: Bool = false, missingValues: MissingValueStrategy = .error, implicitKeyMatching: Bool = true,
            unknownRecipeKeys: UnknownRecipeKeyPolicy = .error, emptyTextAsNil: Bool = false
        ) {
            self.lossyArrays = lossyArrays
            self.missingValues = missingValues
            self.implicitKeyMatching = implicitKeyMatching
            self.unknownRecipeKeys = unknownRecipeKeys
            self.emptyTextAsNil = emptyTextAsNil
        }
    }

    /// A baked model with the warnings of lossy baking.
    public struct Result<Model> {
        /// The model.
        public var value: Model
        /// What was dropped or filled in, each with its path and property.
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
        var index = IngredientIndex(ingredients)
        return try bakeReporting(type, from: &index, recipe: recipe)
    }

    /// Bakes a model from a document, adding the line and column of the
    /// offending value to any error.
    public func bake<Model: Decodable>(
        _ type: Model.Type, from document: Document, recipe: Recipe? = nil
    ) throws(EasyBakeError) -> Model {
        do {
            return try bake(type, from: document.tree, recipe: recipe)
        } catch {
            throw document.locating(error)
        }
    }
}

/// State shared by all decoders of one bake.
final class BakeContext {
    let options: Baker.Options
    private let modelType: Any.Type
    /// The model type's name, for error messages: computed only when one is
    /// made, since naming a type costs more than baking a small model.
    lazy var modelTypeName = String(describing: modelType)
    var warnings: [EasyBakeError] = []
    /// Set by streaming, which may have left out of a record what its recipe
    /// does not map: what the model asked of the record's root beyond the
    /// recipe (a property name, or `*` for all keys or the whole value).
    var unmappedRootRequests: Set<String>?
    /// What the model asked of each recipe a keyed container applied, in
    /// the order first applied; `nil` when unknown keys are not checked.
    private(set) var recipeUsages: [RecipeUsage]?
    private var usageIndex: [ObjectIdentifier: Int] = [:]
    /// Recipes an earlier bake of the same stream found the model to ask
    /// every key of: not tallied again (a streamed bake is one bake per record).
    var settledRecipes: Set<ObjectIdentifier> = []

    init(options: Baker.Options, modelType: Any.Type) {
        self.options = options
        self.modelType = modelType
        if options.unknownRecipeKeys != .ignore { recipeUsages = [] }
    }

    /// The recipes whose every key the model asked for in this bake.
    var recipesAskedInFull: [ObjectIdentifier] {
        recipeUsages?.filter(\.isComplete).map(\.recipe.identity) ?? []
    }

    /// Ends the bake: the recipe tallies hold the decoders that applied
    /// their recipes (for an error's coding path), and the decoders hold
    /// this context, so the tallies go when the bake is over.
    func finish() {
        recipeUsages = nil
        usageIndex = [:]
    }

    /// The tally of what the model asks of `recipe`, and whether this is the
    /// first container to apply it (which notes the property names, in the
    /// order the model asks for them, for the error message).
    /// The tally of what the model asks of `recipe`; `codingPath` is where it
    /// was first applied, taken only when the tally is made.
    func usage(
        of recipe: Recipe, modelType: @autoclosure () -> Any.Type?, codingPath: @autoclosure () -> [any CodingKey]
    ) -> (usage: RecipeUsage, isFirst: Bool)? {
        guard recipeUsages != nil else { return nil }
        let id = recipe.identity
        if !settledRecipes.isEmpty, settledRecipes.contains(id) { return nil }
        // Most bakes apply one recipe: its tally is found without hashing.
        if let first = recipeUsages!.first, first.recipe.identity == id { return (first, false) }
        if let index = usageIndex[id] { return (recipeUsages![index], false) }
        // The coding path is taken once, for the error it may be needed in.
        let path = codingPath()
        let usage = RecipeUsage(recipe: recipe, modelType: modelType(), codingPath: { path })
        if !recipeUsages!.isEmpty { usageIndex[id] = recipeUsages!.count }
        recipeUsages!.append(usage)
        return (usage, true)
    }

    /// A property that failed for want of a value is most often one whose
    /// recipe key is mistyped; the bake stopped before the recipe check, so
    /// the error says so itself.
    func noteMistypedKeys(in error: EasyBakeError) -> EasyBakeError {
        guard let recipeUsages, error.code == .valueNotFound, let property = error.baking?.property,
              let name = property.split(separator: ".").last.map({ String($0.prefix { $0 != "[" }) }), !name.isEmpty
        else { return error }
        for usage in recipeUsages where !usage.askedForEverything {
            for (index, key) in usage.recipe.keys.enumerated() where !usage.asked[index] {
                guard RecipeUsage.nearest(to: key, among: [name]) != nil else { continue }
                var noted = error
                let recipeLabel = usage.recipe.name.map { "recipe \($0.debugDescription)" } ?? "the recipe"
                noted.message += "; \(recipeLabel) maps \(key.debugDescription), which is no property: did you mean \(name.debugDescription)?"
                return noted
            }
        }
        return error
    }

    /// Throws (or notes a warning) for every recipe key the model never
    /// asked for, as the recipe checks the model: a recipe's keys must all
    /// be properties of the model it bakes.
    func checkRecipeKeys() throws(EasyBakeError) {
        guard let recipeUsages else { return }
        var problems: [EasyBakeError] = []
        for usage in recipeUsages {
            if let problem = usage.problem(rootModel: modelTypeName) { problems.append(problem) }
        }
        guard let first = problems.first else { return }
        if options.unknownRecipeKeys == .warning {
            warnings.append(contentsOf: problems)
            return
        }
        if problems.count == 1 { throw first }
        throw EasyBakeError(
            .unknownRecipeKey, "\(problems.count) recipes name keys that are not properties of their models",
            baking: first.baking, problems: problems)
    }

    /// Any error thrown while decoding, as an EasyBakeError with context.
    func converting(_ error: any Error) -> EasyBakeError {
        if var bakeError = error as? EasyBakeError {
            if bakeError.baking == nil {
                bakeError.baking = .init(modelType: modelTypeName, property: "")
            }
            return bakeError
        }
        if let decodingError = error as? DecodingError {
            let (code, context): (EasyBakeError.Code, DecodingError.Context) = switch decodingError {
            case .typeMismatch(_, let c): (.typeMismatch, c)
            case .valueNotFound(_, let c): (.valueNotFound, c)
            case .keyNotFound(_, let c): (.valueNotFound, c)
            case .dataCorrupted(let c): (.invalidValue, c)
            @unknown default: (.invalidValue, DecodingError.Context(codingPath: [], debugDescription: "\(decodingError)"))
            }
            return EasyBakeError(
                code, context.debugDescription,
                baking: .init(modelType: modelTypeName, property: CodingPathText.render(context.codingPath)),
                cause: decodingError)
        }
        return EasyBakeError(
            .invalidValue, String(describing: error),
            baking: .init(modelType: modelTypeName, property: ""), cause: error)
    }
}

enum CodingPathText {
    static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue, key is IndexKey {
                text += "[\(index)]"
            } else {
                if !text.isEmpty { text += "." }
                text += key.stringValue
            }
        }
        return text
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
