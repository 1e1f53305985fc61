import SwiftSyntax

/// What the attributes on one stored property of a `@Bakeable` struct say.
struct AnnotatedProperty {
    let name: String
    /// The `@Ingredient` path; `nil` for a property left to implicit key
    /// matching (or one with only a transformer, mapped to its own name).
    var path: String?
    /// The `transformer:` argument of `@Ingredient`, as written.
    var transformer: ExprSyntax?
    /// The `@Default` value, as written.
    var defaultValue: ExprSyntax?
    /// Whether `@Lossy` makes the property's array lossy.
    var lossy = false

    /// Whether the recipe maps the property: a recipe's transformer must be
    /// on a mapped property, so a transformer alone maps it to its own name.
    var mappedPath: String? { path ?? (transformer != nil ? name : nil) }
}

/// The attribute `name` (`Ingredient`, `EasyBakeMacros.Ingredient`) on
/// `attributes`, if there.
func attribute(named name: String, in attributes: AttributeListSyntax) -> AttributeSyntax? {
    for element in attributes {
        guard case .attribute(let attribute) = element else { continue }
        if attribute.attributeName.trimmedDescription.split(separator: ".").last.map(String.init) == name {
            return attribute
        }
    }
    return nil
}

/// A property name as the synthesized coding key spells it: without the
/// backticks that a keyword needs.
func propertyName(_ pattern: PatternSyntax) -> String? {
    guard let identifier = pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return nil }
    if identifier.hasPrefix("`"), identifier.hasSuffix("`"), identifier.count >= 2 {
        return String(identifier.dropFirst().dropLast())
    }
    return identifier
}

/// Whether a binding computes its value (a getter) rather than stores it;
/// observers (`willSet`, `didSet`) leave a property stored.
func isComputed(_ binding: PatternBindingSyntax) -> Bool {
    guard let accessorBlock = binding.accessorBlock else { return false }
    switch accessorBlock.accessors {
    case .getter:
        return true
    case .accessors(let accessors):
        return accessors.contains {
            let kind = $0.accessorSpecifier.tokenKind
            return kind != .keyword(.willSet) && kind != .keyword(.didSet)
        }
    }
}

/// Whether a declaration is `static` or `class`: not part of an instance.
func isTypeMember(_ variable: VariableDeclSyntax) -> Bool {
    variable.modifiers.contains {
        $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
    }
}

/// The argument of `attribute` with `label` (`nil` for the unlabeled one).
func argument(_ label: String?, of attribute: AttributeSyntax) -> ExprSyntax? {
    guard let arguments = attribute.arguments?.as(LabeledExprListSyntax.self) else { return nil }
    return arguments.first { $0.label?.text == label }?.expression
}

/// The value of a string literal without interpolation (escapes
/// resolved), or `nil` for any other expression.
func plainText(of expression: ExprSyntax) -> String? {
    expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue
}
