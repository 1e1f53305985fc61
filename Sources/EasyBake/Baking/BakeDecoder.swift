import Foundation

/// EasyBake's `Decoder` over an ingredient tree.
///
/// A decoder knows its parent, so the coding path and the ingredient path are
/// built only when an error needs them, not for every value.
final class BakeDecoder: Decoder {
    /// The value to decode; `nil` when missing.
    let value: Ingredients?
    let context: BakeContext
    /// A recipe to apply when this value is decoded as a keyed container.
    let recipe: Recipe?
    private let parent: BakeDecoder?
    private let key: (any CodingKey)?
    /// How this value was reached from the parent's value: one step, or a
    /// recipe path (nil at the root).
    private let pathFromParent: IngredientPath?
    /// How many values deep this decoder is from the root of the bake.
    let depth: Int
    /// The type being decoded from this decoder, to name the model whose
    /// recipe names an unknown key.
    private(set) var decodingType: Any.Type?

    /// The deepest nesting baking follows. Decoding a model recurses (that
    /// is how `Decodable` works), so a deeper value, which only a source
    /// with raised limits can produce, is an error instead of a stack overflow.
    static let maximumDepth = IngredientLimits.default.maximumDepth

    init(value: Ingredients?, context: BakeContext, recipe: Recipe?) {
        self.value = value
        self.context = context
        self.recipe = recipe
        parent = nil
        key = nil
        pathFromParent = nil
        depth = 0
    }

    init(value: Ingredients?, parent: BakeDecoder, key: any CodingKey, path: IngredientPath?, recipe: Recipe?) {
        self.value = value
        context = parent.context
        self.recipe = recipe
        self.parent = parent
        self.key = key
        pathFromParent = path
        depth = parent.depth + 1
    }

    var codingPath: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node: BakeDecoder? = self
        while let current = node, let key = current.key {
            keys.append(key)
            node = current.parent
        }
        return keys.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The ingredient path of this value from the root of the bake.
    ///
    /// A recipe path with `[*]` reaches an array of matches; the index into
    /// that array that follows is not the payload's index, so the two are
    /// replaced by the concrete path of the match (`items[*].id` then `[1]`
    /// becomes `items[2].id` when `items[1]` has no `id`).
    var ingredientPath: IngredientPath {
        var pieces: [(path: IngredientPath, decoder: BakeDecoder)] = []
        var node: BakeDecoder? = self
        while let current = node {
            if let path = current.pathFromParent { pieces.append((path, current)) }
            node = current.parent
        }
        pieces.reverse()
        var steps: [IngredientPath.Step] = []
        var index = 0
        while index < pieces.count {
            let (path, decoder) = pieces[index]
            index += 1
            let wildcards = path.steps.count(where: { $0 == .everyElement })
            // The selectors are the next pieces, each one index step.
            if wildcards > 0, index + wildcards <= pieces.count,
               let base = decoder.parent?.value,
               // Only when no transformer reshaped what the path reached.
               base.resolve(path) == decoder.value {
                let selectors = pieces[index..<(index + wildcards)].compactMap { $0.path.steps.count == 1 ? $0.path.steps[0] : nil }
                if selectors.count == wildcards,
                   let concrete = base.concreteSteps(path.steps[...], selectors: selectors[...]) {
                    steps.append(contentsOf: concrete)
                    index += wildcards
                    continue
                }
            }
            steps.append(contentsOf: path.steps)
        }
        return IngredientPath(steps)
    }

    // MARK: Errors

    func error(_ code: EasyBakeError.Code, expected: String, found: Ingredients?, detail: String? = nil) -> EasyBakeError {
        let property = CodingPathText.render(codingPath)
        let foundText = found?.briefDescription ?? "nothing"
        var message = "\(context.modelTypeName)\(property.isEmpty ? "" : ".\(property)"): expected \(expected), found \(foundText)"
        if let detail { message += " (\(detail))" }
        return EasyBakeError(
            code, message, path: ingredientPath,
            baking: .init(modelType: context.modelTypeName, property: property, expected: expected, found: foundText))
    }

    func missing(_ type: Any.Type) -> EasyBakeError {
        error(.valueNotFound, expected: String(describing: type), found: value)
    }

    // MARK: Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if let recipe {
            guard let value, !value.isNull else { throw missing(Key.self == NameKey.self ? [String: Any].self : Any.self) }
            if recipe.rootIsArray, !value.isContainer || value.arrayValue == nil {
                throw error(.typeMismatch, expected: "an array (the recipe's paths start with an index)", found: value)
            }
            return KeyedDecodingContainer(BakeKeyedContainer<Key>(decoder: self, dictionary: value.dictionaryValue, recipe: recipe))
        }
        guard case .dictionary(let dictionary)? = value else {
            throw error(value == nil || value!.isNull ? .valueNotFound : .typeMismatch, expected: "a dictionary", found: value)
        }
        return KeyedDecodingContainer(BakeKeyedContainer<Key>(decoder: self, dictionary: dictionary, recipe: nil))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        noteWholeValueUse()
        guard let value, !value.isNull else { throw error(.valueNotFound, expected: "an array", found: value) }
        // A single value where an array is wanted reads as one element: XML
        // has no way to say "a list of one".
        let elements: IngredientArray = value.arrayValue ?? [value]
        return BakeUnkeyedContainer(decoder: self, elements: elements, isWrappedSingle: value.arrayValue == nil)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        noteWholeValueUse()
        return self
    }

    /// Tells streaming that the model reads the record's root as a whole,
    /// not property by property through the recipe.
    private func noteWholeValueUse() {
        if depth == 0, context.unmappedRootRequests != nil { context.unmappedRootRequests!.insert("*") }
    }

    // MARK: Decoding values

    /// Decodes `T` from this decoder's value, with EasyBake's handling of
    /// special types, type recipes and lossy arrays.
    func decodeValue<T: Decodable>(_ type: T.Type, applyingTypeRecipe: Bool = true) throws -> T {
        if depth > Self.maximumDepth {
            throw error(.limitExceeded, expected: "at most \(Self.maximumDepth) levels of nesting", found: value)
        }
        if let special = try decodeSpecial(type) { return special }
        if applyingTypeRecipe, recipe == nil, let bakeable = T.self as? any Bakeable.Type,
           let typeRecipe = try bakeable.bakingRecipe {
            return try BakeDecoder(value: value, parent: self, typeRecipe: typeRecipe).decodeValue(type, applyingTypeRecipe: false)
        }
        if context.options.lossyArrays, let lossy = T.self as? any LossyDecodableArray.Type {
            return try lossy.decodeLossy(from: self) as! T
        }
        decodingType = T.self
        do {
            return try T(from: self)
        } catch let decodingError as DecodingError {
            // Errors of the model's own `init(from:)` (an unknown raw value of
            // an enum, a custom check) know neither the ingredient path nor
            // the value; this decoder does.
            throw describing(decodingError, decoding: T.self)
        }
    }

    /// A `DecodingError` thrown while decoding `T` from this decoder's value,
    /// as an error naming the property, the ingredient path and the value found.
    private func describing<T>(_ decodingError: DecodingError, decoding type: T.Type) -> EasyBakeError {
        let (code, context): (EasyBakeError.Code, DecodingError.Context?) = switch decodingError {
        case .typeMismatch(_, let c): (.typeMismatch, c)
        case .valueNotFound(_, let c): (.valueNotFound, c)
        case .keyNotFound(_, let c): (.valueNotFound, c)
        case .dataCorrupted(let c): (.invalidValue, c)
        @unknown default: (.invalidValue, nil)
        }
        var described = error(code, expected: String(describing: T.self), found: value, detail: context?.debugDescription)
        described.cause = decodingError
        return described
    }

    /// A decoder for the same value with a type's recipe applied.
    private convenience init(value: Ingredients?, parent: BakeDecoder, typeRecipe: Recipe) {
        self.init(value: value, context: parent.context, recipe: typeRecipe, parent: parent)
    }

    private init(value: Ingredients?, context: BakeContext, recipe: Recipe?, parent: BakeDecoder) {
        self.value = value
        self.context = context
        self.recipe = recipe
        // Stand in for the parent at the same place: same key, no extra path.
        self.parent = parent.parent
        key = parent.key
        pathFromParent = parent.pathFromParent
        depth = parent.depth
    }

    /// Types that Foundation encodes in ways a tree should not see (`URL` and
    /// `Decimal` as keyed containers, `Date` as a bare number), and primitives.
    ///
    /// Compared by metatype identity, not with `is`: these are structs, so
    /// identity is the same test, and a failed dynamic cast per type per
    /// value was most of the cost of baking a plain property.
    private func decodeSpecial<T>(_ type: T.Type) throws -> T? {
        // Each branch has just checked that T is the type it returns, so the
        // value is handed over as it is, without a dynamic cast.
        let type: Any.Type = T.self
        if type == String.self { return unsafeBitCast(try decode(String.self), to: T.self) }
        if type == Int.self { return unsafeBitCast(try decode(Int.self), to: T.self) }
        if type == Double.self { return unsafeBitCast(try decode(Double.self), to: T.self) }
        if type == Bool.self { return unsafeBitCast(try decode(Bool.self), to: T.self) }
        if type == Date.self { return unsafeBitCast(try decode(Date.self), to: T.self) }
        if type == URL.self { return unsafeBitCast(try decode(URL.self), to: T.self) }
        if type == Decimal.self { return unsafeBitCast(try decode(Decimal.self), to: T.self) }
        if type == Data.self { return unsafeBitCast(try decode(Data.self), to: T.self) }
        if type == UUID.self { return unsafeBitCast(try decode(UUID.self), to: T.self) }
        if type == Ingredients.self { return unsafeBitCast(try present(T.self), to: T.self) }
        return nil
    }

    /// The value, or a missing-value error.
    func present(_ type: Any.Type) throws -> Ingredients {
        guard let value else { throw missing(type) }
        return value
    }

    /// A non-null scalar value for a primitive, or an error.
    func scalar(_ type: Any.Type) throws -> Ingredients {
        let value = try present(type)
        if value.isNull { throw missing(type) }
        return value
    }
}

/// Arrays that can drop their failing elements (``Baker/Options/lossyArrays``).
protocol LossyDecodableArray {
    static func decodeLossy(from decoder: BakeDecoder) throws -> Any
}

extension Array: LossyDecodableArray where Element: Decodable {
    static func decodeLossy(from decoder: BakeDecoder) throws -> Any {
        var container = try decoder.unkeyedContainer() as! BakeUnkeyedContainer
        var result: [Element] = []
        result.reserveCapacity(container.count ?? 0)
        while !container.isAtEnd {
            let elementDecoder = container.nextDecoder()
            do {
                result.append(try elementDecoder.decodeValue(Element.self))
            } catch {
                var warning = decoder.context.converting(error, at: elementDecoder)
                warning.message = "dropped array element: " + warning.message
                decoder.context.warnings.append(warning)
            }
        }
        return result
    }
}
