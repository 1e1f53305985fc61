import EasyBake

/// The shape of what `easybake bake` prints for a recipe: one field per
/// mapped property, in the recipe's order, each with the type its value
/// takes — for an engine that needs a schema before it reads the records
/// (Spark's `StructType`, a Parquet or SQL table).
///
/// A type is known only where the recipe says it:
/// - a **transformer** gives its output's type: `number` a number; `bool` a
///   boolean; `iso8601`, `rfc822`, `unixSeconds`, `unixMilliseconds` and
///   `{"date": …}` a timestamp (printed as canonical ISO 8601 text);
///   `string`, `trim`, `lowercase`, `uppercase`, `url`, `uuid` and `base64`
///   a string; `split` an array of strings; `{"each": t}` an array of what
///   `t` gives; `{"lookup": …}` the type all its table's values (and its
///   fallback) share; a list the type its last transformer gives;
/// - else a **nested recipe** gives a struct of its own fields (an array of
///   them when the path has `[*]`);
/// - else a **default** gives its own type (a string, a number, a boolean,
///   an array of such);
/// - else a path with `[*]` gives an array of unknown values.
///
/// Anything else is unknown: `json`, any JSON value. A consumer that needs
/// a column type reads `json` as a string, holding a string as itself and
/// any other value as its JSON text. Every field is nullable: a missing
/// value without a default is left out, and a null stays null.
struct RecipeSchema {
    /// A field's type.
    indirect enum FieldType: Equatable {
        case string, number, boolean, timestamp, json
        case array(FieldType)
        case structure([Field])

        /// As the schema's JSON writes it: a name, `{"array": T}` or
        /// `{"struct": [fields]}`.
        var ingredients: Ingredients {
            switch self {
            case .string: "string"
            case .number: "number"
            case .boolean: "boolean"
            case .timestamp: "timestamp"
            case .json: "json"
            case .array(let element): ["array": element.ingredients]
            case .structure(let fields): ["struct": .array(IngredientArray(fields.map(\.ingredients)))]
            }
        }
    }

    /// One property of the output.
    struct Field: Equatable {
        var name: String
        var path: String
        var type: FieldType
        /// What the type was derived from, in words.
        var derivation: String

        var ingredients: Ingredients {
            ["name": .string(name), "path": .string(path), "type": type.ingredients, "derivation": .string(derivation)]
        }
    }

    var name: String?
    var fields: [Field]

    init(_ recipe: Recipe) {
        name = recipe.name
        fields = recipe.entries.map { entry in
            let (type, derivation) = Self.type(of: entry, in: recipe)
            return Field(name: entry.property, path: entry.path.description, type: type, derivation: derivation)
        }
    }

    /// The schema as JSON: `{"recipe": name, "fields": [...]}`.
    var ingredients: Ingredients {
        ["recipe": name.map(Ingredients.string) ?? .null, "fields": .array(IngredientArray(fields.map(\.ingredients)))]
    }

    private static func type(of entry: Recipe.Entry, in recipe: Recipe) -> (FieldType, String) {
        let wildcard = entry.path.hasWildcard
        if let nested = recipe.nested[entry.property] {
            let structure = FieldType.structure(RecipeSchema(nested).fields)
            return wildcard ? (.array(structure), "nested recipe, [*] path: an array") : (structure, "nested recipe")
        }
        if let transformer = entry.transformer, let type = type(of: transformer) {
            return (type, "transformer \(entry.transformerName ?? "")")
        }
        if let value = recipe.defaults[entry.property], let type = type(of: value) {
            return (type, "default \(value.briefDescription)")
        }
        if entry.transformer != nil {
            return (.json, "unknown: transformer \(entry.transformerName ?? "") of unknown output")
        }
        if wildcard { return (.array(.json), "[*] path: an array") }
        return (.json, "unknown: no transformer, nested recipe or default")
    }

    /// What a transformer's output is, `nil` when it does not say.
    static func type(of transformer: any IngredientTransformer) -> FieldType? {
        switch transformer {
        case is NumberTransformer: return .number
        case is BoolTransformer: return .boolean
        case is ISO8601DateTransformer, is RFC822DateTransformer, is UnixTimeTransformer, is DateFormatTransformer:
            return .timestamp
        case is StringTransformer, is TextTransformer, is URLTransformer, is UUIDTransformer, is Base64Transformer:
            return .string
        case is SplitTransformer: return .array(.string)
        case let each as EachTransformer: return .array(type(of: each.element) ?? .json)
        case let chain as ChainTransformer: return chain.transformers.last.flatMap { type(of: $0) }
        case let lookup as LookupTransformer:
            let types = Set(
                (Array(lookup.table.values) + [lookup.fallback].compactMap { $0 }).filter { !$0.isNull }.map {
                    type(of: $0)
                })
            guard types.count == 1, let only = types.first else { return nil }
            return only
        default: return nil
        }
    }

    /// The type of a value written in the recipe (a default, a lookup's
    /// result), `nil` for null, a dictionary or an array of mixed types.
    static func type(of value: Ingredients) -> FieldType? {
        switch value {
        case .string: return .string
        case .integer, .float, .exactNumber: return .number
        case .bool: return .boolean
        case .array(let elements):
            let types = Set(elements.filter { !$0.isNull }.map { type(of: $0) })
            guard types.count <= 1 else { return nil }
            return .array((types.first ?? nil) ?? .json)
        default: return nil
        }
    }
}

extension RecipeSchema.FieldType: Hashable {}
extension RecipeSchema.Field: Hashable {}
