import EasyBake
import EasyBakeJSON

/// Turns a ``PathSurvey`` of sample records into a Swift model and the recipe
/// file that bakes it: the engine of `easybake scaffold`.
///
/// Three steps, each a pure function of the one before:
/// 1. ``Shape``: the survey's paths as a tree, with XML's two ways of writing
///    one thing folded together (a lone element and repeated ones; text alone
///    and text with attributes).
/// 2. ``TypePlan``: Swift types, property names, optionality and transformers.
/// 3. Text: ``swiftSource(for:request:)`` and ``recipeJSON(for:)``.
///
/// ```swift
/// let scaffold = try ModelScaffold.make(from: survey, request: .init(name: "User", each: "users[*]"))
/// print(scaffold.swiftSource, scaffold.recipeJSON)
/// ```
enum ModelScaffold {
    /// What to generate, and what the header comment says about it.
    struct Request {
        /// The model's type name.
        var name: String
        /// The record path the survey was taken at, if any.
        var each: String?
        /// The payload as named on the command line.
        var inputName = "payload.json"
        /// The payload's format name (`json`, `xml`, `yaml`), for the usage lines.
        var formatName = "json"
        /// For YAML read with other than the default options: the Swift
        /// of the `YAMLReadingOptions` arguments chosen (`documents: .all`,
        /// `documents: .document(2), unknownTags: .wrap`).
        var yamlArguments: String?
        /// For XML read with other than the default options: the Swift of
        /// the `XMLSourceOptions` arguments chosen
        /// (`acceptsNamespaceErrors: true, markupElements: ["summary"]`).
        var xmlArguments: String?
        /// The command's reading options chosen (` --documents all`), which
        /// the usage line's command repeats.
        var readingFlags = ""

        /// The YAML options argument the usage lines pass, if any.
        var yamlOptions: String {
            yamlArguments.map { ", options: YAMLReadingOptions(\($0))" } ?? ""
        }

        /// The XML options argument the usage lines pass, if any.
        var xmlOptions: String {
            xmlArguments.map { ", options: XMLSourceOptions(\($0))" } ?? ""
        }
    }

    /// The generated files and what the user should know about them.
    struct Result {
        let plan: TypePlan
        let swiftSource: String
        let recipeJSON: String
        /// Things the samples left undecided, also written as comments.
        let notes: [String]
    }

    /// Plans the model for the records `survey` saw and writes both files.
    ///
    /// - Throws: ``EasyBakeError/Code/unsupported`` when the records are not
    ///   dictionaries (the message suggests `--each`), or
    ///   ``EasyBakeError/Code/invalidValue`` for a name that is not a Swift type name.
    static func make(from survey: PathSurvey, request: Request) throws(EasyBakeError) -> Result {
        guard SwiftNames.isValidTypeName(request.name) else {
            let suggestion = SwiftNames.typeName(request.name)
            throw EasyBakeError(
                .invalidValue,
                "the model name \(request.name.debugDescription) is not a Swift type name; try --name \(suggestion)")
        }
        let root = Shape.tree(survey.entries)
        try checkRoot(root, survey: survey, each: request.each)
        var planner = Planner()
        let plan = planner.plan(root, name: request.name, key: nil)
        return Result(
            plan: plan,
            swiftSource: swiftSource(for: plan, request: request, records: survey.documents),
            recipeJSON: recipeJSON(for: plan),
            notes: planner.notes)
    }

    /// The survey's root must hold dictionaries: a struct is made of keys.
    private static func checkRoot(_ root: Shape, survey: PathSurvey, each: String?) throws(EasyBakeError) {
        let kinds = root.nonNullKinds
        if kinds == [.dictionary] && root.count(of: .null) == 0 { return }
        let what = each == nil ? "the payload's root must be a dictionary" : "the records at \(each!) must be dictionaries"
        var found = root.kindCounts.keys.sorted { $0.rawValue < $1.rawValue }.map(\.description).joined(separator: ", ")
        if found.isEmpty { found = "nothing" }
        var message = "\(what) to make a struct of, found \(found)"
        if kinds.contains(.array) {
            let suggestion = (each ?? "") + "[*]"
            message += "; to scaffold each element, add --each '\(suggestion)'"
        }
        throw EasyBakeError(.unsupported, message)
    }

    /// A hint for a payload surveyed whole whose records are plainly at one
    /// array of dictionaries (`users[*]` in `{"meta": …, "users": [ … ]}`).
    static func recordPathHint(_ survey: PathSurvey) -> String? {
        let entries = survey.entries
        let candidates = entries.filter { entry in
            guard !entry.path.isRoot, entry.count(of: .array) > 0,
                  entry.path.steps.allSatisfy({ if case .key = $0 { true } else { false } })
            else { return false }
            let element = entry.path.appending(.everyElement)
            return entries.contains { $0.path == element && $0.count(of: .dictionary) > 0 }
        }
        guard candidates.count == 1, let only = candidates.first else { return nil }
        return only.path.appending(.everyElement).description
    }
}

// MARK: - Shapes

extension ModelScaffold {
    /// What the samples held at one path, with the paths below it.
    final class Shape {
        var kindCounts: [PathSurvey.ValueKind: Int] = [:]
        /// Values seen; for a dictionary key, in how many dictionaries it was present.
        var count = 0
        var dateStyles: Set<PathSurvey.DateStyle> = []
        /// Date-like strings in more than one style were seen.
        var mixedDateStyles = false
        var integersAreZeroOrOne = true
        var example: Ingredients?
        private(set) var fields: [(key: String, shape: Shape)] = []
        private var fieldIndex: [String: Int] = [:]
        var element: Shape?
        /// The dictionary holds XML text (`#text`) and attributes, and was
        /// sometimes written as the text alone.
        var isTextWithAttributes = false
        /// Non-dictionary values that were folded into a dictionary shape
        /// with no place for them (a warning).
        var unplacedKinds: [PathSurvey.ValueKind] = []

        func count(of kind: PathSurvey.ValueKind) -> Int { kindCounts[kind] ?? 0 }

        var nonNullKinds: Set<PathSurvey.ValueKind> {
            Set(kindCounts.filter { $0.key != .null && $0.value > 0 }.keys)
        }

        var scalarKinds: Set<PathSurvey.ValueKind> { nonNullKinds.subtracting([.array, .dictionary]) }

        func field(_ key: String) -> Shape? { fieldIndex[key].map { fields[$0].shape } }

        func fieldCreating(_ key: String) -> Shape {
            if let existing = field(key) { return existing }
            let shape = Shape()
            fieldIndex[key] = fields.count
            fields.append((key, shape))
            return shape
        }

        /// In how many of this shape's dictionaries `key` was absent.
        func missing(_ key: String) -> Int {
            max(0, count(of: .dictionary) - (field(key)?.count ?? 0))
        }

        /// The survey's entries as a tree of shapes, XML's variants folded.
        static func tree(_ entries: [PathSurvey.Entry]) -> Shape {
            let root = Shape()
            for entry in entries {
                var shape = root
                for step in entry.path.steps {
                    switch step {
                    case .key(let key): shape = shape.fieldCreating(key)
                    case .everyElement, .index:
                        if shape.element == nil { shape.element = Shape() }
                        shape = shape.element!
                    }
                }
                shape.record(entry)
            }
            root.fold()
            return root
        }

        private func record(_ entry: PathSurvey.Entry) {
            for (kind, count) in entry.kinds { kindCounts[kind, default: 0] += count }
            count += entry.count
            if let style = entry.dateStyle { dateStyles.insert(style) }
            if entry.count(of: .dateString) > 0 && entry.dateStyle == nil { mixedDateStyles = true }
            integersAreZeroOrOne = integersAreZeroOrOne && entry.integersAreZeroOrOne
            if example == nil { example = entry.example }
        }

        /// Adds what `other` saw to this shape, recursively.
        func merge(_ other: Shape) {
            for (kind, count) in other.kindCounts { kindCounts[kind, default: 0] += count }
            count += other.count
            dateStyles.formUnion(other.dateStyles)
            mixedDateStyles = mixedDateStyles || other.mixedDateStyles
            integersAreZeroOrOne = integersAreZeroOrOne && other.integersAreZeroOrOne
            if example == nil { example = other.example }
            for (key, shape) in other.fields { fieldCreating(key).merge(shape) }
            if let otherElement = other.element {
                if let element { element.merge(otherElement) } else { element = otherElement }
            }
        }

        /// Folds XML's variants, depth first:
        /// - a path seen both as a single value and as an array (a lone and a
        ///   repeated element) is an array whose elements include the lone values;
        /// - a dictionary of `#text` and `@attributes` sometimes written as
        ///   bare text holds that text under `#text`.
        private func fold() {
            let singles = nonNullKinds.subtracting([.array])
            if count(of: .array) > 0, !singles.isEmpty {
                let lone = Shape()
                for kind in singles {
                    lone.kindCounts[kind] = kindCounts[kind]
                    kindCounts[kind] = nil
                }
                lone.count = singles.reduce(0) { $0 + lone.count(of: $1) }
                lone.dateStyles = dateStyles
                lone.mixedDateStyles = mixedDateStyles
                lone.integersAreZeroOrOne = integersAreZeroOrOne
                lone.example = example
                for (key, shape) in fields { lone.fieldCreating(key).merge(shape) }
                fields = []
                fieldIndex = [:]
                kindCounts[.array, default: 0] += lone.count
                if let element { element.merge(lone) } else { element = lone }
            }
            let scalars = scalarKinds
            if count(of: .dictionary) > 0, !scalars.isEmpty {
                let scalarCount = scalars.reduce(0) { $0 + count(of: $1) }
                let isXMLText = !fields.isEmpty && fields.allSatisfy { $0.key == "#text" || $0.key.hasPrefix("@") }
                    || fields.isEmpty
                if isXMLText {
                    let text = fieldCreating("#text")
                    for kind in scalars { text.kindCounts[kind, default: 0] += count(of: kind) }
                    text.count += scalarCount
                    text.dateStyles.formUnion(dateStyles)
                    text.mixedDateStyles = text.mixedDateStyles || mixedDateStyles
                    text.integersAreZeroOrOne = text.integersAreZeroOrOne && integersAreZeroOrOne
                    if text.example == nil { text.example = example }
                    isTextWithAttributes = true
                } else {
                    unplacedKinds = scalars.sorted { $0.rawValue < $1.rawValue }
                }
                for kind in scalars { kindCounts[kind] = nil }
                kindCounts[.dictionary, default: 0] += scalarCount
            }
            for (_, shape) in fields { shape.fold() }
            element?.fold()
        }
    }
}

// MARK: - Type plans

extension ModelScaffold {
    /// A property's Swift type, without the optional.
    indirect enum PropertyType: Hashable, CustomStringConvertible {
        case string, int, double, bool, url
        case date(PathSurvey.DateStyle)
        /// A nested struct, by name.
        case model(String)
        case array(PropertyType, optionalElements: Bool)

        var description: String {
            switch self {
            case .string: "String"
            case .int: "Int"
            case .double: "Double"
            case .bool: "Bool"
            case .url: "URL"
            case .date: "Date"
            case .model(let name): name
            case .array(let element, let optional): "[\(element)\(optional ? "?" : "")]"
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

        /// The nested structs, in property order.
        var nestedTypes: [TypePlan] { properties.compactMap(\.nested) }
    }

    /// Names and types, with the names already taken.
    struct Planner {
        var usedTypeNames: Set<String> = []
        var notes: [String] = []

        mutating func plan(_ shape: Shape, name: String, key: String?, path: String = "") -> TypePlan {
            usedTypeNames.insert(name)
            let plan = TypePlan(name: name)
            if !shape.unplacedKinds.isEmpty {
                notes.append("\(path.isEmpty ? "the records" : path) also held \(shape.unplacedKinds.map(\.description).joined(separator: ", ")) values beside dictionaries; those fail to bake as \(name)")
            }
            let names = SwiftNames.propertyNames(for: shape.fields.map(\.key))
            for (index, (fieldKey, field)) in shape.fields.enumerated() {
                let fieldPath = path.isEmpty ? IngredientPath([.key(fieldKey)]).description
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
                   plan.properties[index].type == .date(.rfc822) {
                    plan.properties[index].type = .string
                    plan.properties[index].transformer = nil
                }
            }
            return plan
        }

        private mutating func property(
            _ shape: Shape, key: String, name: String, parent: TypePlan, path: String
        ) -> PropertyPlan {
            let (type, transformer, nested, unknown) = resolve(shape, key: key, parent: parent, path: path, singular: false)
            var comment = "`\(path)`"
            if let example = shape.example ?? shape.element?.example,
               let bytes = try? JSONFormat().write(example) {
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
        private mutating func resolve(
            _ shape: Shape, key: String, parent: TypePlan, path: String, singular: Bool
        ) -> (PropertyType, String?, TypePlan?, String?) {
            let kinds = shape.nonNullKinds
            if kinds.isEmpty {
                return (.string, nil, nil, "Only null values were seen, so no sample told the type; String is a guess.")
            }
            if kinds.contains(.array) {
                guard let element = shape.element, !element.nonNullKinds.isEmpty else {
                    let what = shape.element == nil ? "Only empty arrays were seen" : "Only nulls were seen in the arrays"
                    return (.array(.string, optionalElements: shape.element != nil), nil, nil,
                            "\(what), so no sample told the element type; String is a guess.")
                }
                let (elementType, transformer, nested, unknown) = resolve(
                    element, key: key, parent: parent, path: path + "[*]", singular: true)
                let optionalElements = element.count(of: .null) > 0
                return (.array(elementType, optionalElements: optionalElements), transformer, nested, unknown)
            }
            if kinds.contains(.dictionary) {
                let typeName = uniqueTypeName(for: key, parent: parent.name, singular: singular)
                let nested = plan(shape, name: typeName, key: key, path: path)
                return (.model(typeName), nil, nested, nil)
            }
            let (type, transformer) = scalarType(shape)
            return (type, transformer, nil, nil)
        }

        /// The Swift type for scalars, and the transformer its values need.
        func scalarType(_ shape: Shape) -> (PropertyType, String?) {
            let kinds = shape.scalarKinds
            let integers: Set<PathSurvey.ValueKind> = [.integer, .integerString]
            let numbers = integers.union([.float, .floatString])
            let strings = kinds.filter(\.isString)
            if kinds.isSubset(of: integers) {
                return (.int, kinds.contains(.integerString) ? "number" : nil)
            }
            if kinds.isSubset(of: numbers) {
                return (.double, strings.isEmpty ? nil : "number")
            }
            let bools: Set<PathSurvey.ValueKind> = [.bool, .boolString]
            if !kinds.isDisjoint(with: bools), kinds.isSubset(of: bools.union(integers)), shape.integersAreZeroOrOne {
                return (.bool, kinds == [.bool] ? nil : "bool")
            }
            if kinds == [.dateString], !shape.mixedDateStyles, shape.dateStyles.count == 1, let style = shape.dateStyles.first {
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

private extension String {
    /// `name` → `.name`; `["a.b"]` stays as it is.
    var withLeadingDot: String { hasPrefix("[") ? self : "." + self }
}

// MARK: - Swift text

extension ModelScaffold {
    /// The Swift file: a header saying how it was made and how to bake with
    /// it, then the struct with its nested structs.
    static func swiftSource(for plan: TypePlan, request: Request, records: Int) -> String {
        let recipeFile = "\(plan.name).recipe.json"
        let input = request.inputName.hasPrefix("-") ? "payload.\(request.formatName)" : request.inputName
        let fileName = input.split(separator: "/").last.map(String.init) ?? input
        var command = "easybake scaffold --name \(plan.name)"
        if let each = request.each { command += " --each \(shellQuoted(each))" }
        command += " \(shellQuoted(input))"
        let source: String
        switch request.formatName {
        case "xml": source = "XMLIngredientSource(.file(\(swiftLiteral(fileName)))\(request.xmlOptions))"
        case "yaml": source = "YAMLIngredientSource(.file(\(swiftLiteral(fileName)))\(request.yamlOptions))"
        case "jsonl": source = "JSONLinesIngredientSource(input: .file(\(swiftLiteral(fileName))))"
        default: source = "JSONIngredientSource(input: .file(\(swiftLiteral(fileName))))"
        }
        let module = switch request.formatName {
        case "xml": "EasyBakeXML"
        case "yaml": "EasyBakeYAML"
        default: "EasyBakeJSON"
        }
        let formatType = switch request.formatName {
        case "xml": "XMLFormat"
        case "yaml": "YAMLFormat"
        case "jsonl": "JSONLinesFormat"
        default: "JSONFormat"
        }
        var lines = [
            "// Generated by `\(command)` from \(records) sample record\(records == 1 ? "" : "s").",
            "// Bake with EasyBake, \(module == "EasyBakeJSON" ? "" : module + ", ")EasyBakeJSON (for the recipe) and the recipe file beside this one:",
            "//     let recipe = try RecipeFile.load(.file(\(swiftLiteral(recipeFile))), format: JSONFormat())[0]",
        ]
        // The command reads the payload as the Swift above does.
        let documentsOption = request.readingFlags
        if let each = request.each {
            lines.append("//     for result in try Baker().bakeEach(\(plan.name).self, from: try \(source), each: \(swiftLiteral(each)), recipe: recipe) { print(try result.get()) }")
            lines.append("// or: easybake bake --recipe \(recipeFile) --each \(shellQuoted(each))\(documentsOption) \(shellQuoted(fileName))")
        } else {
            let format = formatType == "YAMLFormat" && request.yamlArguments != nil
                ? "YAMLFormat(options: YAMLReadingOptions(\(request.yamlArguments!)))"
                : formatType == "XMLFormat" && request.xmlArguments != nil
                ? "XMLFormat(options: XMLSourceOptions(\(request.xmlArguments!)))" : "\(formatType)()"
            lines.append("//     let model = try Baker().bake(\(plan.name).self, from: try \(format).read(.file(\(swiftLiteral(fileName)))), recipe: recipe)")
            lines.append("// or: easybake bake --recipe \(recipeFile)\(documentsOption) \(shellQuoted(fileName))")
        }
        lines += ["", "import Foundation", ""]
        var text = lines.joined(separator: "\n") + "\n"
        appendStruct(plan, indent: "", to: &text)
        for textPlan in allPlans(plan) where textPlan.textProperty != nil {
            text += "\n"
            appendTextInitializer(textPlan, qualifiedName: qualifiedName(of: textPlan, in: plan) ?? textPlan.name, to: &text)
        }
        return text
    }

    private static func appendStruct(_ plan: TypePlan, indent: String, to text: inout String) {
        text += "\(indent)struct \(plan.name): Codable, Hashable, Sendable {\n"
        for property in plan.properties {
            text += "\(indent)    /// \(property.comment)\n"
            text += "\(indent)    let \(SwiftNames.escaped(property.name)): \(property.swiftType)\n"
        }
        for nested in plan.nestedTypes {
            text += "\n"
            appendStruct(nested, indent: indent + "    ", to: &text)
        }
        text += "\(indent)}\n"
    }

    /// `init(from:)` for an element written as bare text or as text with
    /// attributes (`<guid>…</guid>`, `<guid isPermaLink="false">…</guid>`).
    private static func appendTextInitializer(_ plan: TypePlan, qualifiedName: String, to text: inout String) {
        guard let textName = plan.textProperty,
              let textProperty = plan.properties.first(where: { $0.name == textName }) else { return }
        text += "extension \(qualifiedName) {\n"
        text += "    /// Accepts the element as bare text too, with no attributes.\n"
        text += "    init(from decoder: any Decoder) throws {\n"
        text += "        if let text = try? decoder.singleValueContainer().decode(\(textProperty.type).self) {\n"
        for property in plan.properties {
            let value = property.name == textName ? "text" : "nil"
            text += "            self.\(SwiftNames.escaped(property.name)) = \(value)\n"
        }
        text += "            return\n"
        text += "        }\n"
        text += "        let container = try decoder.container(keyedBy: CodingKeys.self)\n"
        for property in plan.properties {
            let method = property.isOptional ? "decodeIfPresent" : "decode"
            text += "        \(SwiftNames.escaped(property.name)) = try container.\(method)(\(property.type).self, forKey: .\(SwiftNames.escaped(property.name)))\n"
        }
        text += "    }\n"
        text += "}\n"
    }

    private static func allPlans(_ plan: TypePlan) -> [TypePlan] {
        [plan] + plan.nestedTypes.flatMap(allPlans)
    }

    /// `User.Guid` for a struct nested in `User`.
    private static func qualifiedName(of target: TypePlan, in plan: TypePlan) -> String? {
        if target === plan { return plan.name }
        for nested in plan.nestedTypes {
            if let inner = qualifiedName(of: target, in: nested) { return plan.name + "." + inner }
        }
        return nil
    }

    static func swiftLiteral(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    static func shellQuoted(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || "0123456789-_./=:@%+,".unicodeScalars.contains($0) }
        if plain && !text.isEmpty { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

// MARK: - Recipe text

extension ModelScaffold {
    /// The recipe file: every property mapped explicitly, with the
    /// transformers its type needs, and a nested recipe for each nested struct.
    static func recipeJSON(for plan: TypePlan) -> String {
        var text = ""
        appendRecipe(plan, name: plan.name, indent: "", to: &text)
        return text + "\n"
    }

    private static func appendRecipe(_ plan: TypePlan, name: String?, indent: String, to text: inout String) {
        let inner = indent + "  "
        var fields: [String] = []
        if let name { fields.append("\(inner)\"name\": \(jsonString(name))") }
        let mapping = plan.properties.map { property -> String in
            let path = jsonString(IngredientPath([.key(property.key)]).description)
            // An array's transformer reads its elements, one by one.
            let spec = property.transformer.map { name in
                if case .array = property.type { return "{\"each\": \(jsonString(name))}" }
                return jsonString(name)
            }
            let value = spec.map { "{\"path\": \(path), \"transformer\": \($0)}" } ?? path
            return "\(inner)  \(jsonString(property.name)): \(value)"
        }
        fields.append("\(inner)\"mapping\": {\n" + mapping.joined(separator: ",\n") + "\n\(inner)}")
        let nested = plan.properties.filter { $0.nested != nil }
        if !nested.isEmpty {
            var entries: [String] = []
            for property in nested {
                var recipe = ""
                appendRecipe(property.nested!, name: nil, indent: inner + "  ", to: &recipe)
                entries.append("\(inner)  \(jsonString(property.name)): " + recipe)
            }
            fields.append("\(inner)\"nested\": {\n" + entries.joined(separator: ",\n") + "\n\(inner)}")
        }
        text += "{\n" + fields.joined(separator: ",\n") + "\n\(indent)}"
    }

    private static func jsonString(_ text: String) -> String {
        guard let bytes = try? JSONFormat().write(.string(text)) else { return "\"\"" }
        return String(decoding: bytes, as: UTF8.self)
    }
}
