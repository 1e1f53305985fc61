import SwiftDiagnostics
import SwiftSyntax

/// Whether a `@Default` literal obviously cannot bake into the property's
/// declared type. Only literals against the standard scalar, array and
/// dictionary types are judged: any other type may decode from anything.
enum DefaultLiteral {
    enum Kind: String {
        case string, integer, float, boolean, array, dictionary
    }

    enum Category {
        case string, integer, float, boolean, array, dictionary
    }

    struct Mismatch {
        let literal: String
        let fixIt: FixIt?
    }

    static func mismatch(_ value: ExprSyntax, _ declared: TypeSyntax) -> Mismatch? {
        guard let kind = kind(of: value) else { return nil }
        guard let category = category(of: unwrappingOptional(declared)) else { return nil }
        let fits: Bool = switch (kind, category) {
        case (.string, .string), (.integer, .integer), (.integer, .float), (.float, .float), (.boolean, .boolean),
            (.array, .array), (.dictionary, .dictionary):
            true
        default:
            false
        }
        guard !fits else { return nil }
        return Mismatch(literal: kind.rawValue, fixIt: fixIt(value, kind, category))
    }

    /// The literal the value obviously meant: `"42"` on an `Int` → `42`,
    /// `42` on a `String` → `"42"`.
    static func fixIt(_ value: ExprSyntax, _ kind: Kind, _ category: Category) -> FixIt? {
        var replacement: ExprSyntax?
        switch (kind, category) {
        case (.string, .integer):
            if let text = value.as(StringLiteralExprSyntax.self)?.representedLiteralValue, Int(text) != nil {
                replacement = ExprSyntax(IntegerLiteralExprSyntax(literal: .integerLiteral(text)))
            }
        case (.string, .float):
            if let text = value.as(StringLiteralExprSyntax.self)?.representedLiteralValue, Double(text) != nil,
                text.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" || $0 == "e" || $0 == "E" })
            {
                replacement = ExprSyntax(FloatLiteralExprSyntax(literal: .floatLiteral(text)))
            }
        case (.string, .boolean):
            if let text = value.as(StringLiteralExprSyntax.self)?.representedLiteralValue, text == "true" || text == "false" {
                replacement = ExprSyntax(BooleanLiteralExprSyntax(literal: text == "true" ? .keyword(.true) : .keyword(.false)))
            }
        case (.integer, .string), (.float, .string), (.boolean, .string):
            replacement = ExprSyntax(StringLiteralExprSyntax(content: value.trimmedDescription))
        default:
            break
        }
        guard let replacement else { return nil }
        return FixIt(
            message: EasyBakeFixIt(message: "Use \(replacement.trimmedDescription)"),
            changes: [.replace(oldNode: Syntax(value), newNode: Syntax(replacement.with(\.trailingTrivia, value.trailingTrivia)))])
    }

    static func kind(of value: ExprSyntax) -> Kind? {
        if value.is(StringLiteralExprSyntax.self) { return .string }
        if value.is(IntegerLiteralExprSyntax.self) { return .integer }
        if value.is(FloatLiteralExprSyntax.self) { return .float }
        if value.is(BooleanLiteralExprSyntax.self) { return .boolean }
        if value.is(ArrayExprSyntax.self) { return .array }
        if value.is(DictionaryExprSyntax.self) { return .dictionary }
        if let prefix = value.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            return kind(of: prefix.expression).flatMap { $0 == .integer || $0 == .float ? $0 : nil }
        }
        return nil
    }

    /// The wrapped type of an optional: a default stands in for a missing
    /// value, which is never `nil` (`Ingredients` has no nil literal).
    static func unwrappingOptional(_ type: TypeSyntax) -> TypeSyntax {
        if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType }
        if let implicit = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return implicit.wrappedType }
        if let named = type.as(IdentifierTypeSyntax.self), named.name.text == "Optional",
            let argument = named.genericArgumentClause?.arguments.first?.argument.as(TypeSyntax.self)
        {
            return argument
        }
        return type
    }

    static func category(of type: TypeSyntax) -> Category? {
        if type.is(ArrayTypeSyntax.self) { return .array }
        if type.is(DictionaryTypeSyntax.self) { return .dictionary }
        var name = type.trimmedDescription
        if name.hasPrefix("Swift.") { name.removeFirst("Swift.".count) }
        if name.hasPrefix("Foundation.") { name.removeFirst("Foundation.".count) }
        if name.hasPrefix("Array<") || name.hasPrefix("Set<") { return .array }
        if name.hasPrefix("Dictionary<") { return .dictionary }
        switch name {
        case "String", "Substring", "Character": return .string
        case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64": return .integer
        case "Double", "Float", "Float16", "Float80", "CGFloat", "Decimal": return .float
        case "Bool": return .boolean
        default: return nil
        }
    }
}
