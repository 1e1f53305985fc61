import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Bakeable`: makes a struct `Bakeable` with the recipe its property
/// attributes describe, and `IndexBakeable` with a baking initializer that
/// reads each property as its synthesized `init(from:)` would, straight
/// from the index.
public struct BakeableMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let structDecl = declaration.as(StructDeclSyntax.self) else {
            diagnoseNotAStruct(node: node, declaration: declaration, in: context)
            return []
        }
        let properties = annotatedProperties(of: structDecl)
        let access = accessModifier(of: structDecl)

        // The recipe is made once (a stored static), as `Bakeable` asks, and
        // kept with its error: a transformer name that the registry does
        // not know is only found when the recipe is made, and the baker
        // reports a recipe's error where the model is baked.
        // A generic struct cannot store a static, so its recipe is made on
        // every read.
        let isGeneric = structDecl.genericParameterClause != nil
        let recipe: String
        if properties.isEmpty {
            recipe = "nil"
        } else if isGeneric {
            recipe =
                "try " + recipeConstruction(named: structDecl.name.text, properties: properties, indent: "        ")
        } else {
            recipe = "try _bakeableRecipe.get()"
        }
        // The baking initializer reads what the synthesized `init(from:)`
        // reads; a struct that decodes its own way keeps that way.
        let fields: [BakedField]?
        switch BakingInitializer.fields(of: structDecl) {
        case .success(let found):
            fields = found
        case .failure(let obstacle):
            fields = nil
            if obstacle == .unreadableCodingKeys {
                context.diagnose(
                    Diagnostic(
                        node: node, message: EasyBakeDiagnostic.codingKeysNotReadable(type: structDecl.name.text)))
            }
        }
        // Each protocol the compiler asks for that the struct does not
        // conform to yet, but `IndexBakeable` only with its initializer.
        let names = protocols.map { $0.trimmedDescription.split(separator: ".").last.map(String.init) ?? "" }
        var conforming: [String] = []
        if names.contains("Bakeable") { conforming.append("EasyBake.Bakeable") }
        if fields != nil, names.contains("IndexBakeable") { conforming.append("EasyBake.IndexBakeable") }
        let conformance = conforming.isEmpty ? "" : ": " + conforming.joined(separator: ", ")
        var members = """
            \(access)static var bakingRecipe: EasyBake.Recipe? {
                get throws {
                    \(recipe)
                }
            }
            """
        if !properties.isEmpty, !isGeneric {
            members += "\n" + storedRecipe(named: structDecl.name.text, properties: properties)
        }
        if let fields, conforming.contains("EasyBake.IndexBakeable") {
            members += "\n" + BakingInitializer.members(for: fields, access: access)
        }
        let extensionDecl = try ExtensionDeclSyntax(
            "extension \(type.trimmed)\(raw: conformance) {\n\(raw: members)\n}")
        return [extensionDecl]
    }

    /// The properties the recipe has something to say about, in declaration
    /// order: a path, a transformer, a default or a lossy array. Unannotated properties are
    /// left out, so the baker fills them by implicit key matching.
    static func annotatedProperties(of structDecl: StructDeclSyntax) -> [AnnotatedProperty] {
        var properties: [AnnotatedProperty] = []
        for member in structDecl.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self), !isTypeMember(variable),
                variable.bindings.count == 1, let binding = variable.bindings.first, !isComputed(binding),
                let name = propertyName(binding.pattern)
            else { continue }
            var property = AnnotatedProperty(name: name)
            // A malformed attribute was reported by its own macro; the
            // recipe leaves it out rather than repeat the error.
            if let ingredient = attribute(named: "Ingredient", in: variable.attributes) {
                if let pathExpression = argument(nil, of: ingredient) {
                    if let path = plainText(of: pathExpression), PathGrammar.problem(in: path) == nil {
                        property.path = path
                    }
                }
                property.transformer = argument("transformer", of: ingredient)?.trimmed
            }
            if let defaultAttribute = attribute(named: "Default", in: variable.attributes) {
                property.defaultValue = argument(nil, of: defaultAttribute)?.trimmed
            }
            property.lossy = attribute(named: "Lossy", in: variable.attributes) != nil
            if property.mappedPath != nil || property.defaultValue != nil || property.lossy {
                properties.append(property)
            }
        }
        return properties
    }

    /// `private static let _bakeableRecipe`: the recipe, or why it could
    /// not be made.
    static func storedRecipe(named name: String, properties: [AnnotatedProperty]) -> String {
        """
        private static let _bakeableRecipe = Result<EasyBake.Recipe, EasyBake.EasyBakeError> { () throws(EasyBake.EasyBakeError) in
            try \(recipeConstruction(named: name, properties: properties, indent: "    "))
        }
        """
    }

    /// `EasyBake.Recipe(name:mapping:…)` for the properties, its lines after
    /// the first indented by `indent`.
    static func recipeConstruction(named name: String, properties: [AnnotatedProperty], indent: String) -> String {
        var arguments = ["name: \(name.debugDescription)"]
        let mapped = properties.compactMap { property in property.mappedPath.map { (property.name, $0) } }
        arguments.append("mapping: " + dictionaryLiteral(mapped.map { ($0.0.debugDescription, literal(for: $0.1)) }))
        let transformed = properties.compactMap { property in property.transformer.map { (property.name, $0) } }
        if !transformed.isEmpty {
            arguments.append(
                "transformers: " + dictionaryLiteral(transformed.map { ($0.0.debugDescription, $0.1.description) }))
        }
        let defaulted = properties.compactMap { property in property.defaultValue.map { (property.name, $0) } }
        if !defaulted.isEmpty {
            arguments.append(
                "defaults: " + dictionaryLiteral(defaulted.map { ($0.0.debugDescription, $0.1.description) }))
        }
        let lossy = properties.filter(\.lossy).map(\.name.debugDescription)
        if !lossy.isEmpty {
            arguments.append("lossy: [" + lossy.joined(separator: ", ") + "]")
        }
        return "EasyBake.Recipe(\n\(indent)    " + arguments.joined(separator: ",\n\(indent)    ") + "\n\(indent))"
    }

    static func dictionaryLiteral(_ pairs: [(String, String)]) -> String {
        if pairs.isEmpty { return "[:]" }
        return "[" + pairs.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + "]"
    }

    /// A Swift string literal holding `text`.
    static func literal(for text: String) -> String {
        StringLiteralExprSyntax(content: text).description
    }

    /// `public ` or `package ` when the struct is, so that the conformance's
    /// requirement is as visible as the conformance.
    static func accessModifier(of structDecl: StructDeclSyntax) -> String {
        for modifier in structDecl.modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }

    static func diagnoseNotAStruct(
        node: AttributeSyntax, declaration: some DeclGroupSyntax, in context: some MacroExpansionContext
    ) {
        let keyword: TokenSyntax
        let kind: String
        if let classDecl = declaration.as(ClassDeclSyntax.self) {
            (keyword, kind) = (classDecl.classKeyword, "class")
        } else if let actorDecl = declaration.as(ActorDeclSyntax.self) {
            (keyword, kind) = (actorDecl.actorKeyword, "actor")
        } else if let enumDecl = declaration.as(EnumDeclSyntax.self) {
            (keyword, kind) = (enumDecl.enumKeyword, "enum")
        } else if let protocolDecl = declaration.as(ProtocolDeclSyntax.self) {
            (keyword, kind) = (protocolDecl.protocolKeyword, "protocol")
        } else {
            context.diagnose(Diagnostic(node: node, message: EasyBakeDiagnostic.notAStruct(kind: "declaration")))
            return
        }
        // A class or an actor whose stored properties are what it bakes
        // becomes a struct by its keyword alone; an enum's cases do not.
        var fixIts: [FixIt] = []
        if kind == "class" || kind == "actor" {
            fixIts.append(
                FixIt(
                    message: EasyBakeFixIt(message: "Make it a struct"),
                    changes: [
                        .replace(
                            oldNode: Syntax(keyword), newNode: Syntax(keyword.with(\.tokenKind, .keyword(.struct))))
                    ]))
        }
        context.diagnose(Diagnostic(node: node, message: EasyBakeDiagnostic.notAStruct(kind: kind), fixIts: fixIts))
    }
}
