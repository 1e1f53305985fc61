import EasyBakePathGrammar
import SwiftDiagnostics

/// The diagnostics of EasyBake's macros, each with a stable identifier so
/// that tests and tools can tell them apart.
enum EasyBakeDiagnostic: DiagnosticMessage {
    case notAStruct(kind: String)
    case pathNotALiteral
    case malformedPath(path: String, problem: PathGrammar.Problem)
    case onComputedProperty(attribute: String)
    case onTypeProperty(attribute: String)
    case defaultTypeMismatch(literal: String, type: String)
    case lossyNotAnArray(type: String)
    case codingKeysNotReadable(type: String)
    case unknownTransformer(name: String, nearest: String?)

    var message: String {
        switch self {
        case .notAStruct(let kind):
            "@Bakeable applies to structs only, not to \(kind == "enum" ? "an" : "a") \(kind): a struct's stored properties are what a recipe maps (classes, actors and enums are not supported)"
        case .pathNotALiteral:
            "@Ingredient's path must be a string literal without interpolation, so that it can be checked when the code compiles"
        case .malformedPath(let path, let problem):
            "malformed ingredient path \(path.debugDescription): at column \(problem.column), \(problem.description)"
        case .onComputedProperty(let attribute):
            "@\(attribute) applies to stored properties only: a computed property is not baked"
        case .onTypeProperty(let attribute):
            "@\(attribute) applies to instance properties only: a static property is not baked"
        case .defaultTypeMismatch(let literal, let type):
            "@Default's \(literal) literal cannot bake into a property of type '\(type)'"
        case .codingKeysNotReadable(let type):
            "@Bakeable bakes \(type) through its init(from:), not at full speed: its CodingKeys are not an enum of plain cases whose raw values are string literals"
        case .unknownTransformer(let name, let nearest):
            "\(name.debugDescription) is no built-in transformer"
                + (nearest.map { " (did you mean \($0.debugDescription)?)" } ?? "")
                + "; baking fails unless the recipe's TransformerRegistry registers it. Built-in: "
                + BuiltInTransformerNames.transformers.joined(separator: ", ")
        case .lossyNotAnArray(let type):
            "@Lossy drops the elements of an array that do not bake; '\(type)' is not written as an array, so it has no effect unless that is one"
        }
    }

    var severity: DiagnosticSeverity {
        switch self {
        case .lossyNotAnArray, .codingKeysNotReadable, .unknownTransformer: return .warning
        default: break
        }
        return .error
    }

    var diagnosticID: MessageID {
        let id: String =
            switch self {
            case .notAStruct: "notAStruct"
            case .pathNotALiteral: "pathNotALiteral"
            case .malformedPath: "malformedPath"
            case .onComputedProperty: "onComputedProperty"
            case .onTypeProperty: "onTypeProperty"
            case .defaultTypeMismatch: "defaultTypeMismatch"
            case .lossyNotAnArray: "lossyNotAnArray"
            case .codingKeysNotReadable: "codingKeysNotReadable"
            case .unknownTransformer: "unknownTransformer"
            }
        return MessageID(domain: "EasyBakeMacros", id: id)
    }
}

/// A fix-it's message.
struct EasyBakeFixIt: FixItMessage {
    let message: String
    var fixItID: MessageID { MessageID(domain: "EasyBakeMacros", id: message) }
}
