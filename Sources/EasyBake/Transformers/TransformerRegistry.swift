import EasyBakePathGrammar
import Foundation

/// Named transformers and transformer factories: a value that recipes and
/// recipe files look transformer names up in. ``builtIn`` is the default;
/// a registry of your own starts from it and adds to it, and is passed to
/// the recipes that use it (there is no shared registry to register into).
///
/// A transformer spec is one of:
/// - a name: `"iso8601"`;
/// - a factory with its argument: `["date": "yyyy-MM-dd"]`, `["lookup": ["a": 1]]`;
/// - a list of specs, applied in order: `["trim", "lowercase"]`;
/// - `["each": spec]`: the spec applied to every element of an array
///   (``EachTransformer``).
///
/// The built-in names are `iso8601`, `rfc822` (`rfc1123`, `rfc2822`),
/// `unixSeconds`, `unixMilliseconds`, `url`, `uuid`, `number`, `string`,
/// `bool`, `trim`, `lowercase`, `uppercase`, `split`, `pairs`, `base64`,
/// `duration` and `geoPoint`; the built-in factories are `date` (a
/// `DateFormatter` pattern), `lookup` (a table), `split` (a separator),
/// `pairs` (a separator, a delimiter and a default) and `url` (a base URL).
///
/// ```swift
/// var registry = TransformerRegistry.builtIn
/// registry.register(ClosureTransformer { $0 }, named: "identity")
/// let recipe = try Recipe(mapping: ["joined": "joined_on"], transformers: ["joined": "identity"], registry: registry)
/// ```
public struct TransformerRegistry: Sendable {
    /// Makes a transformer from a factory argument: the value that follows
    /// the factory's name in a spec (`"yyyy-MM-dd"` in `{"date": "yyyy-MM-dd"}`).
    ///
    /// Throw ``EasyBakeError/Code/invalidRecipe`` for an argument the factory
    /// cannot use; the recipe that names it then reports the problem.
    public typealias Factory = @Sendable (Ingredients) throws(EasyBakeError) -> any IngredientTransformer

    /// How factories are stored. Not ``Factory`` itself: a typed-throws
    /// function type used as a generic argument (a dictionary's value) needs
    /// runtime support that Apple platforms have only from macOS 15 and iOS 18
    /// on, later than the package's deployment targets. Every stored factory
    /// throws only ``EasyBakeError``.
    private typealias StoredFactory = @Sendable (Ingredients) throws -> any IngredientTransformer

    private var transformers: [String: any IngredientTransformer] = [:]
    private var factories: [String: StoredFactory] = [:]

    /// The built-in transformers and factories: what recipes use unless
    /// given another registry. Made once, and never changed.
    public static let builtIn = TransformerRegistry()

    /// A registry with the built-in transformers, or an empty one.
    public init(includingBuiltins: Bool = true) {
        guard includingBuiltins else { return }
        transformers = [
            "iso8601": ISO8601DateTransformer(),
            "rfc822": RFC822DateTransformer(), "rfc1123": RFC822DateTransformer(), "rfc2822": RFC822DateTransformer(),
            "unixSeconds": UnixTimeTransformer(), "unixMilliseconds": UnixTimeTransformer(milliseconds: true),
            "url": URLTransformer(), "uuid": UUIDTransformer(),
            "number": NumberTransformer(), "string": StringTransformer(), "bool": BoolTransformer(),
            "split": SplitTransformer(), "base64": Base64Transformer(),
            "duration": DurationTransformer(), "pairs": KeyValuePairsTransformer(), "geoPoint": GeoPointTransformer(),
        ]
        for edit in TextTransformer.Edit.allCases { transformers[edit.rawValue] = TextTransformer(edit) }
        factories = [
            "date": { argument in
                guard let format = argument.stringValue, !format.isEmpty else {
                    throw EasyBakeError(
                        .invalidRecipe,
                        "the date factory takes a date format string, found \(argument.briefDescription)")
                }
                return DateFormatTransformer(format: format)
            },
            "lookup": { argument in
                guard case .dictionary(let table) = argument else {
                    throw EasyBakeError(
                        .invalidRecipe, "the lookup factory takes a dictionary, found \(argument.briefDescription)")
                }
                return LookupTransformer(
                    Dictionary(table.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first }))
            },
            "split": { argument in
                guard let separator = argument.stringValue, !separator.isEmpty else {
                    throw EasyBakeError(
                        .invalidRecipe, "the split factory takes a separator string, found \(argument.briefDescription)"
                    )
                }
                return SplitTransformer(separator: separator)
            },
            "pairs": { argument throws(EasyBakeError) in try KeyValuePairsTransformer.make(argument) },
            "url": { argument in
                guard let text = argument.stringValue, let base = URL(string: text) else {
                    throw EasyBakeError(
                        .invalidRecipe, "the url factory takes a base URL, found \(argument.briefDescription)")
                }
                return URLTransformer(base: base)
            },
        ]
    }

    /// Registers `transformer` under `name`, replacing any transformer of that name.
    public mutating func register(_ transformer: any IngredientTransformer, named name: String) {
        transformers[name] = transformer
    }

    /// Registers a factory: `[name: argument]` in a spec calls it with the argument.
    public mutating func registerFactory(named name: String, _ factory: @escaping Factory) {
        factories[name] = { argument in try factory(argument) }
    }

    /// The transformer registered under `name`.
    public func transformer(named name: String) -> (any IngredientTransformer)? {
        transformers[name]
    }

    /// The registered transformer names, sorted.
    public var names: [String] { transformers.keys.sorted() }

    /// The registered factory names, sorted.
    public var factoryNames: [String] { factories.keys.sorted() }

    /// The transformer a spec describes (see the type's discussion).
    ///
    /// - Throws: ``EasyBakeError/Code/unknownTransformer`` naming the known
    ///   names, or ``EasyBakeError/Code/invalidRecipe`` for a malformed spec.
    public func resolve(_ spec: Ingredients) throws(EasyBakeError) -> any IngredientTransformer {
        switch spec {
        case .string(let name):
            if let transformer = transformer(named: name) { return transformer }
            // The factories are named too, since a factory's name alone
            // (`"date"`) is a common slip for `{"date": "yyyy-MM-dd"}`.
            let near = NearestName.nearest(to: name, among: names).map { "did you mean \($0.debugDescription)? " } ?? ""
            throw EasyBakeError(
                .unknownTransformer,
                "unknown transformer \(name.debugDescription); \(near)known: \(names.joined(separator: ", ")); "
                    + "factories, written {\"name\": argument}: \((factoryNames + [BuiltInTransformerNames.each]).joined(separator: ", "))"
            )
        case .dictionary(let call) where call.count == 1 && call[0].key == "each":
            return EachTransformer(try resolve(call[0].value))
        case .dictionary(let call) where call.count == 1:
            let (name, argument) = call[0]
            guard let factory = factories[name] else {
                throw EasyBakeError(
                    .unknownTransformer,
                    "unknown transformer factory \(name.debugDescription); known: \(factoryNames.joined(separator: ", "))"
                )
            }
            do {
                return try factory(argument)
            } catch let error as EasyBakeError {
                throw error
            } catch {
                // Unreachable: stored factories throw only EasyBakeError.
                throw EasyBakeError(.invalidRecipe, "the \(name) factory failed: \(error)", cause: error)
            }
        case .array(let specs):
            var chain: [any IngredientTransformer] = []
            for spec in specs { chain.append(try resolve(spec)) }
            return ChainTransformer(chain)
        default:
            throw EasyBakeError(
                .invalidRecipe,
                "a transformer is a name, a {factory: argument} dictionary or a list of these; found \(spec.briefDescription)"
            )
        }
    }
}
