import EasyBake
import EasyBakeJSON

// MARK: - Recipe text

extension ModelScaffold {
    /// The recipe file: every property mapped explicitly, with the
    /// transformers its type needs, and a nested recipe for each nested struct.
    static func recipeJSON(for plan: TypePlan) -> String {
        var text = ""
        appendRecipe(plan, name: plan.name, indent: "", to: &text)
        return text + "\n"
    }

    static func appendRecipe(_ plan: TypePlan, name: String?, indent: String, to text: inout String) {
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
        // A map's values are baked with its nested recipe by the library
        // (the property's type says it is a map), but `easybake bake`, which
        // has no model, would read the recipe as the map's own: so a map
        // gets a nested recipe only when its values cannot bake without one.
        let nested = plan.properties.filter { property in
            guard let inner = property.nested else { return false }
            if case .map = property.type { return inner.needsRecipe }
            return true
        }
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

    static func jsonString(_ text: String) -> String {
        guard let bytes = try? JSONFormat().write(.string(text)) else { return "\"\"" }
        return String(decoding: bytes, as: UTF8.self)
    }
}
