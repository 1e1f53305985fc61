import EasyBake
import EasyBakeJSON

// MARK: - Type plans

extension ModelScaffold {
    /// A property's Swift type, without the optional.
    indirect enum PropertyType: Hashable, CustomStringConvertible {
        case string, int, double, decimal, bool, url
        case date(PathSurvey.DateStyle)
        /// A nested struct, by name.
        case model(String)
        case array(PropertyType, optionalElements: Bool)
        /// A dictionary keyed by ids (`{"138586341": {…}, …}`).
        case map(PropertyType, optionalValues: Bool)

        var description: String {
            switch self {
            case .string: "String"
            case .int: "Int"
            case .double: "Double"
            case .decimal: "Decimal"
            case .bool: "Bool"
            case .url: "URL"
            case .date: "Date"
            case .model(let name): name
            case .array(let element, let optional): "[\(element)\(optional ? "?" : "")]"
            case .map(let value, let optional): "[String: \(value)\(optional ? "?" : "")]"
            }
        }
    }

    /// One stored property and the path it is baked from.
    struct PropertyPlan {
        /// The Swift name, without backticks.
        var name: String
        /// The payload's key, relative to the enclosing struct.
        var key: String
        var type: PropertyType
        var isOptional: Bool
        /// The transformer the recipe names for it, if any.
        var transformer: String?
        /// The struct of a `.model` or array-of-model property.
        var nested: TypePlan?
        /// A line for the doc comment: where the value comes from, an example,
        /// and what the samples did not tell.
        var comment: String

        var swiftType: String { type.description + (isOptional ? "?" : "") }
    }

    /// A struct to generate.
    final class TypePlan {
        let name: String
        var properties: [PropertyPlan] = []
        /// The property holding XML text, when the element is sometimes the
        /// text alone (the struct gets an `init(from:)` that accepts that).
        var textProperty: String?

        init(name: String) { self.name = name }

        /// The scaffold's transformers whose work the baker's coercions do
        /// for the type it writes (`Int` from `"42"`, `Date` from ISO 8601).
        static let coercedTransformers: Set<String> = ["number", "bool", "iso8601", "url"]

        /// The nested structs, in property order.
        var nestedTypes: [TypePlan] { properties.compactMap(\.nested) }

        /// Whether baking this struct needs its recipe: a transformer that
        /// the baker's coercions do not already apply to the property's type
        /// (`rfc822`), or a key that implicit key matching does not find from
        /// the property's name (`dc:creator` for `creator`), here or in a
        /// nested struct.
        var needsRecipe: Bool {
            properties.contains { property in
                property.transformer.map { !Self.coercedTransformers.contains($0) } == true
                    || ImplicitKeyMatching.normalize(property.name) != ImplicitKeyMatching.normalize(property.key)
                    || property.nested?.needsRecipe == true
            }
        }
    }

    /// Names and types, with the names already taken.
    struct Planner {
        var usedTypeNames: Set<String> = []
        var notes: [String] = []
        /// Whether the format writes numbers and strings apart (JSON, YAML),
        /// so that a string of digits is the producer's choice (an id, a zip
        /// code) and stays a `String`; in XML every value is text.
        var stringsAreTyped = true

        mutating func plan(_ shape: Shape, name: String, key: String?, path: String = "") -> TypePlan {
            usedTypeNames.insert(name)
            let plan = TypePlan(name: name)
            if !shape.unplacedKinds.isEmpty {
                notes.append(
                    "\(path.isEmpty ? "the records" : path) also held \(shape.unplacedKinds.map(\.description).joined(separator: ", ")) values beside dictionaries; those fail to bake as \(name)"
                )
            }
            let names = SwiftNames.propertyNames(for: shape.fields.map(\.key))
            for (index, (fieldKey, field)) in shape.fields.enumerated() {
                let fieldPath =
                    path.isEmpty
                    ? IngredientPath([.key(fieldKey)]).description
                    : path + IngredientPath([.key(fieldKey)]).description.withLeadingDot
                var property = self.property(field, key: fieldKey, name: names[index], parent: plan, path: fieldPath)
                if shape.missing(fieldKey) > 0 { property.isOptional = true }
                plan.properties.append(property)
            }
            if shape.isTextWithAttributes {
                plan.textProperty = plan.properties.first { $0.key == "#text" }?.name
                // The bare-text form fills no attribute.
                for index in plan.properties.indices where plan.properties[index].key != "#text" {
                    plan.properties[index].isOptional = true
                }
                // Bare text is decoded without the recipe, so without a transformer.
                if let index = plan.properties.firstIndex(where: { $0.key == "#text" }),
                    plan.properties[index].type == .date(.rfc822)
                {
                    plan.properties[index].type = .string
                    plan.properties[index].transformer = nil
                }
            }
            return plan
        }

        mutating func property(
            _ shape: Shape, key: String, name: String, parent: TypePlan, path: String
        ) -> PropertyPlan {
            let (type, transformer, nested, unknown) = resolve(
                shape, key: key, parent: parent, path: path, singular: false)
            var comment = "`\(path)`"
            if let example = shape.example ?? shape.element?.example,
                let bytes = try? JSONFormat().write(example)
            {
                comment += ", e.g. " + String(decoding: bytes, as: UTF8.self)
            }
            if let unknown {
                comment += ". " + unknown
                notes.append("\(path): \(unknown.prefix(1).lowercased() + unknown.dropFirst())")
            }
            let optional = shape.count(of: .null) > 0 || unknown?.hasPrefix("Only null") == true
            return PropertyPlan(
                name: name, key: key, type: type, isOptional: optional, transformer: transformer,
                nested: nested, comment: comment)
        }

        /// The type of the values in `shape`, the transformer that reads them,
        /// the nested struct, and a note when the samples did not tell the type.
        mutating func resolve(
            _ shape: Shape, key: String, parent: TypePlan, path: String, singular: Bool
        ) -> (PropertyType, String?, TypePlan?, String?) {
            let kinds = shape.nonNullKinds
            if kinds.isEmpty {
                return (.string, nil, nil, "Only null values were seen, so no sample told the type; String is a guess.")
            }
            if kinds.contains(.array) {
                guard let element = shape.element, !element.nonNullKinds.isEmpty else {
                    let what =
                        shape.element == nil ? "Only empty arrays were seen" : "Only nulls were seen in the arrays"
                    return (
                        .array(.string, optionalElements: shape.element != nil), nil, nil,
                        "\(what), so no sample told the element type; String is a guess."
                    )
                }
                let (elementType, transformer, nested, unknown) = resolve(
                    element, key: key, parent: parent, path: path + "[*]", singular: true)
                let optionalElements = element.count(of: .null) > 0
                return (.array(elementType, optionalElements: optionalElements), transformer, nested, unknown)
            }
            if kinds.contains(.dictionary), shape.fields.isEmpty, let values = shape.element,
                !values.nonNullKinds.isEmpty
            {
                // A dictionary keyed by ids: a map to one type of value.
                var (valueType, transformer, nested, unknown) = resolve(
                    values, key: key, parent: parent, path: path + "[*]", singular: true)
                if let transformer {
                    // A recipe's transformer reads a whole value, not a map's
                    // values one by one: the map keeps their text.
                    valueType = .string
                    unknown =
                        (unknown.map { $0 + " " } ?? "")
                        + "The map's values need the \(transformer) transformer, which a recipe cannot apply to each; String keeps their text."
                }
                if nested?.needsRecipe == true {
                    unknown =
                        (unknown.map { $0 + " " } ?? "")
                        + "A map's values bake with its nested recipe through the library; `easybake bake`, which has no model, reads that recipe as the map's own."
                }
                return (.map(valueType, optionalValues: values.count(of: .null) > 0), nil, nested, unknown)
            }
            if kinds.contains(.dictionary) {
                let typeName = uniqueTypeName(for: key, parent: parent.name, singular: singular)
                let nested = plan(shape, name: typeName, key: key, path: path)
                return (.model(typeName), nil, nested, nil)
            }
            let (type, transformer) = scalarType(shape, key: key)
            return (type, transformer, nil, nil)
        }

        /// The Swift type for scalars, and the transformer its values need.
        func scalarType(_ shape: Shape, key: String) -> (PropertyType, String?) {
            let kinds = shape.scalarKinds
            let integers: Set<PathSurvey.ValueKind> = [.integer, .integerString]
            let numbers = integers.union([.float, .floatString])
            let strings = kinds.filter(\.isString)
            if stringsAreTyped, !strings.isEmpty, strings == kinds, kinds.isSubset(of: numbers) {
                // Only strings of digits (`id_str`, a zip code): their text is the value.
                return (.string, nil)
            }
            if kinds.isSubset(of: integers) {
                return (.int, kinds.contains(.integerString) ? "number" : nil)
            }
            if kinds.isSubset(of: numbers) {
                let isAmount = shape.fractionDigits > 0 && shape.fractionDigits <= 2 && SwiftNames.isAmountName(key)
                return (isAmount ? .decimal : .double, strings.isEmpty ? nil : "number")
            }
            let bools: Set<PathSurvey.ValueKind> = [.bool, .boolString]
            if !kinds.isDisjoint(with: bools), kinds.isSubset(of: bools.union(integers)), shape.integersAreZeroOrOne {
                return (.bool, kinds == [.bool] ? nil : "bool")
            }
            if kinds == [.dateString], !shape.mixedDateStyles, shape.dateStyles.count == 1,
                let style = shape.dateStyles.first
            {
                return (.date(style), style.rawValue)
            }
            if kinds == [.urlString] {
                return (.url, "url")
            }
            return (.string, nil)
        }

        /// `devices` → `Device`; `Date`, `URL`, standard types and names
        /// already used get the enclosing type's name in front.
        mutating func uniqueTypeName(for key: String, parent: String, singular: Bool) -> String {
            let base = SwiftNames.typeName(SwiftNames.localName(key), singular: singular)
            var candidate = base
            if SwiftNames.reservedTypeNames.contains(candidate) || usedTypeNames.contains(candidate) {
                candidate = parent + base
            }
            var number = 2
            let stem = candidate
            while SwiftNames.reservedTypeNames.contains(candidate) || usedTypeNames.contains(candidate) {
                candidate = stem + String(number)
                number += 1
            }
            usedTypeNames.insert(candidate)
            return candidate
        }
    }
}

extension String {
    /// `name` → `.name`; `["a.b"]` stays as it is.
    var withLeadingDot: String { hasPrefix("[") ? self : "." + self }
}
