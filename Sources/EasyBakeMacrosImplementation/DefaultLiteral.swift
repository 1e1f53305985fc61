import EasyBakePathGrammar
import SwiftDiagnostics
import SwiftSyntax

/// Whether a `@Default` literal cannot bake into the property's declared
/// type: exactly when baking would not convert it
/// (``ScalarConversions/converts(_:to:)``, the runtime's rules). Only
/// literals against the standard scalar, array and dictionary types are
/// judged: any other type may decode from anything.
enum DefaultLiteral {
    enum Kind: String {
        case string, integer, float, boolean, array, dictionary
    }

    enum Category {
        case string, integer, float, boolean, array, dictionary
    }

    struct Mismatch {
        let literal: String
    }

    static func mismatch(_ value: ExprSyntax, _ declared: TypeSyntax) -> Mismatch? {
        guard let kind = kind(of: value) else { return nil }
        let type = unwrappingOptional(declared)
        guard let category = category(of: type) else { return nil }
        let fits: Bool
        switch (kind, category) {
        case (.array, .array), (.dictionary, .dictionary):
            fits = true
        case (.array, _), (.dictionary, _), (_, .array), (_, .dictionary):
            fits = false
        default:
            guard let literal = scalar(value, kind), let target = target(of: type, category) else { return nil }
            fits = ScalarConversions.converts(literal, to: target)
        }
        guard !fits else { return nil }
        return Mismatch(literal: kind.rawValue)
    }

    /// The scalar literal `value` is, as baking would meet it; `nil` when
    /// its value cannot be told at compile time.
    static func scalar(_ value: ExprSyntax, _ kind: Kind) -> ScalarConversions.Literal? {
        var negative = false
        var expression = value
        if let prefix = value.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            negative = true
            expression = prefix.expression
        }
        switch kind {
        case .string:
            return value.as(StringLiteralExprSyntax.self)?.representedLiteralValue.map { .string($0) }
        case .boolean:
            return value.as(BooleanLiteralExprSyntax.self).map { .boolean($0.literal.tokenKind == .keyword(.true)) }
        case .integer:
            guard let text = expression.as(IntegerLiteralExprSyntax.self)?.literal.text else { return nil }
            return .integer(integerValue(text, negative: negative))
        case .float:
            guard let text = expression.as(FloatLiteralExprSyntax.self)?.literal.text,
                let magnitude = Double(String(text.filter { $0 != "_" }))
            else { return nil }
            return .float(negative ? -magnitude : magnitude)
        case .array, .dictionary:
            return nil
        }
    }

    /// An integer literal's value (`0x1F`, `1_000`), when it fits in 64 bits.
    static func integerValue(_ text: String, negative: Bool) -> Int64? {
        var digits = String(text.filter { $0 != "_" })
        var radix = 10
        for (prefix, base) in [("0x", 16), ("0o", 8), ("0b", 2)] where digits.hasPrefix(prefix) {
            digits.removeFirst(2)
            radix = base
        }
        return Int64((negative ? "-" : "") + digits, radix: radix)
    }

    /// The conversion target of a scalar type of `category`.
    static func target(of type: TypeSyntax, _ category: Category) -> ScalarConversions.Target? {
        switch category {
        case .string: return .string
        case .boolean: return .boolean
        case .float: return name(of: type) == "Float" ? .float32 : .float
        case .integer:
            switch name(of: type) {
            case "Int8": return .integer(min: Int64(Int8.min), max: UInt64(Int8.max))
            case "Int16": return .integer(min: Int64(Int16.min), max: UInt64(Int16.max))
            case "Int32": return .integer(min: Int64(Int32.min), max: UInt64(Int32.max))
            case "UInt8": return .integer(min: 0, max: UInt64(UInt8.max))
            case "UInt16": return .integer(min: 0, max: UInt64(UInt16.max))
            case "UInt32": return .integer(min: 0, max: UInt64(UInt32.max))
            case "UInt", "UInt64": return .integer(min: 0, max: UInt64.max)
            default: return .integer(min: Int64.min, max: UInt64(Int64.max))
            }
        case .array, .dictionary: return nil
        }
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

    /// A type's name without the `Swift.` or `Foundation.` module.
    static func name(of type: TypeSyntax) -> String {
        var name = type.trimmedDescription
        if name.hasPrefix("Swift.") { name.removeFirst("Swift.".count) }
        if name.hasPrefix("Foundation.") { name.removeFirst("Foundation.".count) }
        return name
    }

    static func category(of type: TypeSyntax) -> Category? {
        if type.is(ArrayTypeSyntax.self) { return .array }
        if type.is(DictionaryTypeSyntax.self) { return .dictionary }
        let name = name(of: type)
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
