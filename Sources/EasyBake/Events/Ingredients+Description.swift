extension Ingredients: CustomStringConvertible, CustomDebugStringConvertible {
    /// A compact JSON-like rendering (`{"id": 7, "tags": ["a"]}`), produced
    /// without recursion so that any tree can be printed.
    public var description: String {
        var text = ""
        var source = IngredientTreeSource(self)
        var needsSeparator = [false]
        var afterKey = false
        while let event = try? source.next() {
            switch event {
            case .endArray, .endDictionary:
                needsSeparator.removeLast()
                text += event == .endArray ? "]" : "}"
                continue
            default: break
            }
            if !afterKey {
                if needsSeparator[needsSeparator.count - 1] { text += ", " }
                needsSeparator[needsSeparator.count - 1] = true
            }
            afterKey = false
            switch event {
            case .beginArray:
                text += "["
                needsSeparator.append(false)
            case .beginDictionary:
                text += "{"
                needsSeparator.append(false)
            case .key(let key):
                text += key.debugDescription + ": "
                afterKey = true
            case .scalar(let value):
                text += value.scalarDescription
            case .endArray, .endDictionary:
                break
            }
        }
        return text
    }

    public var debugDescription: String { "Ingredients(\(description))" }

    /// The rendering of a scalar; containers render as their kind and size.
    var scalarDescription: String {
        switch self {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .integer(let i): String(i)
        case .float(let d): d.description
        case .exactNumber(let text): text
        case .string(let s): s.debugDescription
        case .array(let a): "[\(a.count) elements]"
        case .dictionary(let d): "{\(d.count) keys}"
        }
    }

    /// A short rendering for error messages: the value, shortened, and its kind.
    public var briefDescription: String {
        var rendered = isContainer ? scalarDescription : scalarDescription
        if rendered.count > 60 { rendered = String(rendered.prefix(57)) + "…" }
        return "\(rendered) (\(kind))"
    }
}
