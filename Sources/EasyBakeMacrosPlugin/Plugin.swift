import EasyBakeMacrosImplementation
import SwiftCompilerPlugin
import SwiftSyntax
import SwiftSyntaxMacros

/// The compiler plugin that carries EasyBake's macros; `EasyBakeMacros`
/// declares them, `EasyBakeMacrosImplementation` implements them.
///
/// The compiler finds a macro by this module's name and the type's, so each
/// macro has a type here that hands the work to its implementation.
@main
struct EasyBakeMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [
        BakeableMacro.self, IngredientMacro.self, DefaultMacro.self, LossyMacro.self,
    ]
}

struct BakeableMacro: ExtensionMacro {
    static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        try EasyBakeMacrosImplementation.BakeableMacro.expansion(
            of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols, in: context)
    }
}

struct IngredientMacro: PeerMacro {
    static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try EasyBakeMacrosImplementation.IngredientMacro.expansion(of: node, providingPeersOf: declaration, in: context)
    }
}

struct DefaultMacro: PeerMacro {
    static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try EasyBakeMacrosImplementation.DefaultMacro.expansion(of: node, providingPeersOf: declaration, in: context)
    }
}

struct LossyMacro: PeerMacro {
    static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try EasyBakeMacrosImplementation.LossyMacro.expansion(of: node, providingPeersOf: declaration, in: context)
    }
}
