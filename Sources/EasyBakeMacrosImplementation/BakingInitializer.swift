import SwiftSyntax

/// One property the generated baking initializer reads, in the order the
/// synthesized `init(from:)` reads it.
struct BakedField {
    /// The property's name, as `self.` spells it (backticks kept).
    let identifier: String
    /// The coding key's string value: the name, or the raw value of its
    /// `CodingKeys` case.
    let key: String
    /// Whether the property is optional: read with `decodeIfPresent`, as
    /// the synthesized `init(from:)` reads it.
    let isOptional: Bool
}

/// Why a `@Bakeable` struct gets no baking initializer, and keeps baking
/// through its `init(from:)`.
enum BakingInitializerObstacle: Error {
    /// It writes its own `init(from:)`, whose rules only it knows.
    case ownDecoder
    /// Its `CodingKeys` are not an enum of plain cases whose raw values,
    /// when given, are string literals.
    case unreadableCodingKeys
}

enum BakingInitializer {
    /// The fields the synthesized `init(from:)` of `structDecl` reads, in
    /// its order, or why the initializer cannot be generated.
    static func fields(of structDecl: StructDeclSyntax) -> Result<[BakedField], BakingInitializerObstacle> {
        var codingKeys: [String: String]?
        for member in structDecl.memberBlock.members {
            if let initializer = member.decl.as(InitializerDeclSyntax.self), isInitFromDecoder(initializer) {
                return .failure(.ownDecoder)
            }
            if let keys = codingKeysDeclaration(member.decl) {
                guard let read = readCodingKeys(keys) else { return .failure(.unreadableCodingKeys) }
                codingKeys = read
            }
        }
        var fields: [BakedField] = []
        for member in structDecl.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self), !isTypeMember(variable) else { continue }
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            let bindings = Array(variable.bindings)
            for (index, binding) in bindings.enumerated() {
                guard !isComputed(binding), let name = propertyName(binding.pattern),
                    let identifier = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
                else { continue }
                // A `let` with a value is not decoded (the compiler warns);
                // `init(from:)` decodes a `var` with one.
                if isLet, binding.initializer != nil { continue }
                let key: String
                if let codingKeys {
                    // A property the keys leave out keeps its initial value.
                    guard let listed = codingKeys[name] else { continue }
                    key = listed
                } else {
                    key = name
                }
                // `var a, b: Int` gives the type once, to the last binding.
                let annotation =
                    binding.typeAnnotation?.type
                    ?? (binding.initializer == nil
                        ? bindings[(index + 1)...].first(where: { $0.typeAnnotation != nil })?.typeAnnotation?.type
                        : nil)
                // The type itself is not written: the value's type is
                // inferred from the property it is assigned to, since an
                // extension of a nested type does not see the types nested
                // beside it, which its properties may name.
                let isOptional = annotation.map(isOptional) ?? false
                fields.append(BakedField(identifier: identifier, key: key, isOptional: isOptional))
            }
        }
        return .success(fields)
    }

    /// The members that make the struct `IndexBakeable`.
    static func members(for fields: [BakedField], access: String) -> String {
        let keys = fields.map { BakeableMacro.literal(for: $0.key) }.joined(separator: ", ")
        var lines = [
            "\(access)static var bakingKeys: [String] {",
            "    [\(keys)]",
            "}",
            "\(access)init(baking fields: EasyBake.BakingFields) throws {",
        ]
        for (index, field) in fields.enumerated() {
            let method = field.isOptional ? "decodeIfPresent" : "decode"
            lines.append("    self.\(field.identifier) = try fields.\(method)(key: \(index))")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// Whether `type` is written as an optional: `T?`, `T!` or `Optional<T>`.
    static func isOptional(_ type: TypeSyntax) -> Bool {
        if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return true }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
            identifier.genericArgumentClause?.arguments.count == 1
        {
            return true
        }
        return false
    }

    static func isInitFromDecoder(_ initializer: InitializerDeclSyntax) -> Bool {
        let parameters = initializer.signature.parameterClause.parameters
        guard parameters.count == 1, let parameter = parameters.first else { return false }
        return parameter.firstName.text == "from"
    }

    /// The `CodingKeys` declaration among the members, if `decl` is one.
    static func codingKeysDeclaration(_ decl: DeclSyntax) -> DeclSyntax? {
        if let enumDecl = decl.as(EnumDeclSyntax.self), enumDecl.name.text == "CodingKeys" { return decl }
        if let structDecl = decl.as(StructDeclSyntax.self), structDecl.name.text == "CodingKeys" { return decl }
        if let alias = decl.as(TypeAliasDeclSyntax.self), alias.name.text == "CodingKeys" { return decl }
        return nil
    }

    /// Each case's name and string value, or `nil` when the keys are not an
    /// enum of plain cases with string-literal raw values.
    static func readCodingKeys(_ decl: DeclSyntax) -> [String: String]? {
        guard let enumDecl = decl.as(EnumDeclSyntax.self) else { return nil }
        var keys: [String: String] = [:]
        for member in enumDecl.memberBlock.members {
            guard let cases = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
            for element in cases.elements {
                guard element.parameterClause == nil else { return nil }
                var name = element.name.text
                if name.hasPrefix("`"), name.hasSuffix("`"), name.count >= 2 {
                    name = String(name.dropFirst().dropLast())
                }
                if let rawValue = element.rawValue {
                    guard let text = plainText(of: rawValue.value) else { return nil }
                    keys[name] = text
                } else {
                    keys[name] = name
                }
            }
        }
        return keys
    }
}
