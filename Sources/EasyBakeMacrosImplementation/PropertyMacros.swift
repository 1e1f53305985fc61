import EasyBakePathGrammar
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// Checks the property a marker attribute is on. The markers generate
/// nothing: `@Bakeable` reads them. Each checks its own use, so that a
/// mistake is reported once, at the attribute, with or without `@Bakeable`.
enum PropertyChecks {
    /// The one stored instance property `declaration` declares, or `nil`
    /// after diagnosing why there is none.
    static func storedBinding(
        of declaration: some DeclSyntaxProtocol, for attribute: AttributeSyntax, named name: String,
        in context: some MacroExpansionContext
    ) -> PatternBindingSyntax? {
        guard let variable = declaration.as(VariableDeclSyntax.self) else {
            // The macro declarations limit where the compiler accepts the
            // attribute; anything else is not a property at all.
            context.diagnose(
                Diagnostic(node: attribute, message: EasyBakeDiagnostic.onComputedProperty(attribute: name)))
            return nil
        }
        if isTypeMember(variable) {
            context.diagnose(
                Diagnostic(
                    node: attribute, message: EasyBakeDiagnostic.onTypeProperty(attribute: name),
                    fixIt: removal(of: attribute)))
            return nil
        }
        // The compiler itself rejects a peer macro on `var a, b`.
        guard variable.bindings.count == 1, let binding = variable.bindings.first else { return nil }
        if isComputed(binding) {
            context.diagnose(
                Diagnostic(
                    node: attribute, message: EasyBakeDiagnostic.onComputedProperty(attribute: name),
                    fixIt: removal(of: attribute)))
            return nil
        }
        return binding
    }

    static func removal(of attribute: AttributeSyntax) -> FixIt {
        FixIt(
            message: EasyBakeFixIt(message: "Remove '@\(attribute.attributeName.trimmedDescription)'"),
            changes: [
                // The line's indentation (the attribute's leading trivia)
                // stays, for the declaration that now starts the line.
                .replace(
                    oldNode: Syntax(attribute),
                    newNode: Syntax(TokenSyntax.unknown("").with(\.leadingTrivia, attribute.leadingTrivia)))
            ])
    }
}

/// `@Ingredient`: where a property's value lives, and its transformer.
public struct IngredientMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard PropertyChecks.storedBinding(of: declaration, for: node, named: "Ingredient", in: context) != nil else {
            return []
        }
        if let transformer = argument("transformer", of: node) {
            checkTransformerNames(in: transformer, context: context)
        }
        guard let pathExpression = argument(nil, of: node) else { return [] }
        guard let path = plainText(of: pathExpression) else {
            context.diagnose(Diagnostic(node: pathExpression, message: EasyBakeDiagnostic.pathNotALiteral))
            return []
        }
        if let problem = PathGrammar.problem(in: path) {
            var fixIts: [FixIt] = []
            if let suggestion = PathGrammar.suggestion(for: path) {
                let literal = StringLiteralExprSyntax(content: suggestion)
                fixIts.append(
                    FixIt(
                        message: EasyBakeFixIt(message: "Use the path '\(suggestion)'"),
                        changes: [
                            .replace(
                                oldNode: Syntax(pathExpression),
                                newNode: Syntax(literal.with(\.trailingTrivia, pathExpression.trailingTrivia)))
                        ]))
            }
            context.diagnose(
                Diagnostic(
                    node: pathExpression, message: EasyBakeDiagnostic.malformedPath(path: path, problem: problem),
                    fixIts: fixIts))
        }
        return []
    }
}

extension IngredientMacro {
    /// Warns of a transformer named by a string literal — alone, or in a
    /// chain's array literal — that is no built-in transformer, with a fix-it
    /// to the nearest built-in name. A warning, not an error: a recipe may
    /// resolve names in a registry of its own, which the macro cannot see.
    static func checkTransformerNames(in expression: ExprSyntax, context: some MacroExpansionContext) {
        let literals: [ExprSyntax] =
            if let chain = expression.as(ArrayExprSyntax.self) {
                chain.elements.map(\.expression)
            } else {
                [expression]
            }
        for literal in literals {
            guard let name = plainText(of: literal), !BuiltInTransformerNames.transformers.contains(name) else {
                continue
            }
            let nearest = NameDistance.nearest(to: name, among: BuiltInTransformerNames.transformers)
            let fixIts =
                nearest.map { suggestion in
                    [
                        FixIt(
                            message: EasyBakeFixIt(message: "Use the built-in transformer '\(suggestion)'"),
                            changes: [
                                .replace(
                                    oldNode: Syntax(literal),
                                    newNode: Syntax(
                                        StringLiteralExprSyntax(content: suggestion).with(
                                            \.trailingTrivia, literal.trailingTrivia)))
                            ])
                    ]
                } ?? []
            context.diagnose(
                Diagnostic(
                    node: literal, message: EasyBakeDiagnostic.unknownTransformer(name: name, nearest: nearest),
                    fixIts: fixIts))
        }
    }
}

/// `@Default`: the value baked when a property's value is missing.
public struct DefaultMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let binding = PropertyChecks.storedBinding(of: declaration, for: node, named: "Default", in: context),
            let value = argument(nil, of: node), let type = binding.typeAnnotation?.type
        else { return [] }
        // A transformer may turn the default into the property's type (a
        // date from a string), so only an untransformed property is checked.
        if let variable = declaration.as(VariableDeclSyntax.self),
            let ingredient = attribute(named: "Ingredient", in: variable.attributes),
            argument("transformer", of: ingredient) != nil
        {
            return []
        }
        if let mismatch = DefaultLiteral.mismatch(value, type) {
            context.diagnose(
                Diagnostic(
                    node: value,
                    message: EasyBakeDiagnostic.defaultTypeMismatch(
                        literal: mismatch.literal, type: type.trimmedDescription)))
        }
        return []
    }
}

/// `@Lossy`: the property's array drops the elements that do not bake
/// (the recipe's `lossy`). It warns when the declared type is not written
/// as an array, on which it has no effect.
public struct LossyMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let binding = PropertyChecks.storedBinding(of: declaration, for: node, named: "Lossy", in: context),
            let type = binding.typeAnnotation?.type
        else { return [] }
        if !isArray(type) {
            context.diagnose(
                Diagnostic(
                    node: node, message: EasyBakeDiagnostic.lossyNotAnArray(type: type.trimmedDescription),
                    fixIt: PropertyChecks.removal(of: node)))
        }
        return []
    }

    /// Whether `type` is written as an array, optional or not: `[T]`,
    /// `Array<T>`, `[T]?`, `Optional<[T]>`.
    static func isArray(_ type: TypeSyntax) -> Bool {
        if type.is(ArrayTypeSyntax.self) { return true }
        if let optional = type.as(OptionalTypeSyntax.self) { return isArray(optional.wrappedType) }
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return isArray(unwrapped.wrappedType) }
        if let named = type.as(IdentifierTypeSyntax.self), let argument = named.genericArgumentClause?.arguments.first {
            if named.name.text == "Array" || named.name.text == "ContiguousArray" { return true }
            if named.name.text == "Optional", case .type(let wrapped) = argument.argument { return isArray(wrapped) }
        }
        return false
    }
}
