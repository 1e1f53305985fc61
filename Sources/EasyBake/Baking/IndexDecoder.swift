import Foundation

/// EasyBake's `Decoder` over an ``IngredientIndex``.
///
/// Three words — the bake, the value's position, its depth — so that the
/// `Decoder` existential a model's `init(from:)` receives holds it without
/// a heap allocation; what else describes the value lives in the bake's
/// frame for its depth. Values are read from the index as they are asked
/// for: a number is classified, a string made, only for the property that
/// wants it, and each then goes through the same ``Coercion`` rules as
/// every other way of baking.
struct IndexDecoder: Decoder {
    let bake: BakeSession
    /// The value's position in the index; -1 when missing.
    let position: Int
    let depth: Int

    /// The deepest nesting baking follows. Decoding a model recurses (that
    /// is how `Decodable` works), so a deeper value, which only a source
    /// with raised limits can produce, is an error instead of a stack overflow.
    static let maximumDepth = IngredientLimits.default.maximumDepth

    var codingPath: [any CodingKey] { bake.codingPath(depth: depth) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var recipe: Recipe? { bake.recipe(at: depth) }
    var isMissing: Bool { position < 0 }
    var isNull: Bool { bake.isNull(position) }

    // MARK: Errors

    func error(_ code: EasyBakeError.Code, expected: String, detail: String? = nil) -> EasyBakeError {
        bake.error(code, depth: depth, position: position, expected: expected, detail: detail)
    }

    func missing(_ type: Any.Type) -> EasyBakeError {
        error(.valueNotFound, expected: String(describing: type))
    }

    // MARK: Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let value = try keyedValue(Key.self == NameKey.self ? [String: Any].self : Any.self)
        return KeyedDecodingContainer(IndexKeyedContainer<Key>(decoder: value, recipe: recipe))
    }

    /// The decoder a keyed read of this value starts from: this one, after
    /// checking that the value can be read by key (`missingType` names what
    /// was wanted where it is null), or one over a bare text wrapped as
    /// `{"#text": …}` for a recipe that reads it so.
    func keyedValue(_ missingType: Any.Type) throws -> IndexDecoder {
        if let recipe {
            guard !isNull else { throw missing(missingType) }
            let kind = bake.reader.kind(at: position)
            if recipe.rootIsArray {
                guard kind == .array else {
                    throw error(.typeMismatch, expected: "an array (the recipe's paths start with an index)")
                }
            } else if kind != .dictionary {
                // A plain value where the recipe reads keys would bake a model
                // of nothing but nils. The exception is XML's: an element
                // without attributes is its text alone, the same element with
                // them `{"@…": …, "#text": …}`, so a recipe that maps
                // `#text` reads a bare value as that text.
                guard kind != .array, recipe.readsText else { throw error(.typeMismatch, expected: "a dictionary") }
                let text = bake.ingredients(at: position) ?? .null
                let wrapped = IndexDecoder(bake: bake, position: bake.append(["#text": text]), depth: depth)
                bake.setPosition(wrapped.position, at: depth)
                return wrapped
            }
            return self
        }
        guard !isMissing, bake.reader.kind(at: position) == .dictionary else {
            throw error(isNull ? .valueNotFound : .typeMismatch, expected: "a dictionary")
        }
        return self
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try indexUnkeyedContainer()
    }

    func indexUnkeyedContainer() throws -> IndexUnkeyedContainer {
        noteWholeValueUse()
        guard !isNull else { throw error(.valueNotFound, expected: "an array") }
        if !isMissing, bake.reader.kind(at: position) != .array, !bake.takesLoneValue(at: depth) {
            throw error(.typeMismatch, expected: "an array")
        }
        return IndexUnkeyedContainer(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        noteWholeValueUse()
        return self
    }

    /// Tells streaming that the model reads the record's root as a whole,
    /// not property by property through the recipe.
    private func noteWholeValueUse() {
        if depth == 0, let observer = bake.observer { observer.noteRootRequest("*") }
    }

    // MARK: Decoding values

    /// Decodes `T` from this decoder's value, with EasyBake's handling of
    /// special types, type recipes and lossy arrays: every array under
    /// ``Baker/Options/lossyArrays``, this one when `lossyArray` (a recipe's
    /// ``Recipe/lossy`` property).
    func decodeValue<T: Decodable>(_ type: T.Type, applyingTypeRecipe: Bool = true, lossyArray: Bool = false) throws
        -> T
    {
        try checkDepth()
        // The special types, by metatype identity: no `T?` is made, since
        // a generic optional's metadata is looked up at run time.
        let identity: Any.Type = T.self
        if identity == String.self { return unsafeBitCast(try decode(String.self), to: T.self) }
        if identity == Int.self { return unsafeBitCast(try decode(Int.self), to: T.self) }
        if identity == Double.self { return unsafeBitCast(try decode(Double.self), to: T.self) }
        if identity == Bool.self { return unsafeBitCast(try decode(Bool.self), to: T.self) }
        if identity == Date.self { return unsafeBitCast(try coerce(Date.self, Coercion.date), to: T.self) }
        if identity == URL.self { return unsafeBitCast(try coerce(URL.self, Coercion.url), to: T.self) }
        if identity == Decimal.self { return unsafeBitCast(try coerce(Decimal.self, Coercion.decimal), to: T.self) }
        if identity == Data.self { return unsafeBitCast(try coerce(Data.self, Coercion.data), to: T.self) }
        if identity == UUID.self { return unsafeBitCast(try coerce(UUID.self, Coercion.uuid), to: T.self) }
        if identity == Ingredients.self {
            guard let value = bake.ingredients(at: position) else { throw missing(T.self) }
            return unsafeBitCast(value, to: T.self)
        }
        if position >= 0, bake.reader.kind(at: position) == .array, let array = primitiveArray(identity) {
            return unsafeBitCast(array, to: T.self)
        }
        if let indexBakeable = bake.indexBakeable(T.self) {
            return try decodeIndexBakeable(indexBakeable, as: T.self, applyingTypeRecipe: applyingTypeRecipe)
        }
        if applyingTypeRecipe, recipe == nil, let bakeable = T.self as? any Bakeable.Type,
            let typeRecipe = try bakingRecipe(of: bakeable)
        {
            bake.setRecipe(typeRecipe, at: depth)
            return try decodeValue(type, applyingTypeRecipe: false, lossyArray: lossyArray)
        }
        if bake.options.lossyArrays || lossyArray, let lossy = T.self as? any LossyIndexArray.Type {
            return try lossy.decodeLossy(from: self) as! T
        }
        if depth > 0, recipe != nil, let map = bake.stringKeyedMap(T.self) {
            bake.setDecodingType(T.self, at: depth)
            return try baking(T.self) { () throws -> T in try map.bakeMap(from: self) as! T }
        }
        bake.setDecodingType(T.self, at: depth)
        return try baking(T.self) { () throws -> T in try T(from: self) }
    }

    /// Makes the model of this decoder's value, `T`, with `make`; errors the
    /// model's own code throws are given the value's place.
    @inline(__always)
    private func baking<T>(_ type: T.Type, _ make: () throws -> T) throws -> T {
        do {
            let value = try make()
            bake.noteBaked(at: depth)
            return value
        } catch let decodingError as DecodingError {
            // Errors of the model's own `init(from:)` know neither the
            // ingredient path nor the value; this decoder does.
            let (code, context) = EasyBakeError.Code.decoding(decodingError)
            var described = error(code, expected: String(describing: T.self), detail: context?.debugDescription)
            described.cause = decodingError
            throw described
        }
    }

    // MARK: Models that bake from the index

    /// `T`, known at run time to be an ``IndexBakeable`` type `Model`.
    private func decodeIndexBakeable<Model: IndexBakeable, T>(
        _ model: Model.Type, as type: T.Type, applyingTypeRecipe: Bool
    ) throws -> T {
        unsafeBitCast(try decodeIndexBakeable(model, applyingTypeRecipe: applyingTypeRecipe), to: T.self)
    }

    /// Bakes an ``IndexBakeable`` model from this decoder's value: the rules
    /// of ``decodeValue(_:applyingTypeRecipe:)`` for a model type, with the
    /// model's keyed container handed to it unboxed.
    func decodeIndexBakeable<T: IndexBakeable>(_ type: T.Type, applyingTypeRecipe: Bool = true) throws -> T {
        try checkDepth()
        if applyingTypeRecipe, recipe == nil, let typeRecipe = try bakingRecipe(of: T.self) {
            bake.setRecipe(typeRecipe, at: depth)
        }
        bake.setDecodingType(T.self, at: depth)
        return try baking(T.self) { () throws -> T in
            let value = try keyedValue(Any.self)
            let plan = bake.plan(forModel: T.self, recipe: recipe)
            return try T(baking: BakingFields(KeyedValueReader(decoder: value, recipe: recipe, plan: plan)))
        }
    }

    /// Bakes an array of ``IndexBakeable`` models from this decoder's value,
    /// as `Array`'s `init(from:)` decodes one, each element through its
    /// model's initializer.
    func decodeIndexBakeableArray<T: IndexBakeable>(_ type: T.Type, lossy: Bool = false) throws -> [T] {
        try checkDepth()
        if bake.options.lossyArrays || lossy { return try [T].decodeLossy(from: self) as! [T] }
        bake.setDecodingType([T].self, at: depth)
        return try baking([T].self) { () throws -> [T] in
            var container = try indexUnkeyedContainer()
            var elements: [T] = []
            elements.reserveCapacity(container.elementCount)
            while !container.isAtEnd {
                elements.append(try container.nextDecoder().decodeIndexBakeable(T.self))
            }
            return elements
        }
    }

    /// Throws for a value nested deeper than ``maximumDepth``.
    @inline(__always)
    private func checkDepth() throws(EasyBakeError) {
        if depth > Self.maximumDepth {
            throw error(.limitExceeded, expected: "at most \(Self.maximumDepth) levels of nesting")
        }
    }

    // MARK: Arrays of primitives

    /// An array of strings, numbers or booleans (or of arrays of numbers),
    /// read straight from the index: `Array`'s own `init(from:)` costs a
    /// generic call, a frame and a metadata lookup per element, and such
    /// arrays (tags, ids, coordinates) are often the bulk of a payload.
    /// `nil` when `type` is not one of those arrays, or when an element is
    /// not a plain value the element type takes: the generic road then
    /// decodes the array, and reports or fills what it must the one way it
    /// always does.
    private func primitiveArray(_ type: Any.Type) -> Any? {
        let array: Any?
        let reader = bake.reader
        // An array's elements are declared types: they convert unless no
        // value may (``Baker/CoercionPolicy/none``), when an element of
        // another kind leaves the array to the generic road, which reports it.
        let converting = bake.options.coercions != .none
        if type == [String].self {
            // A number is its literal as written (`1e2`), as for a property.
            array = primitiveArray(
                at: position, depth: depth,
                direct: { reader.string(at: $0) ?? (converting ? bake.index.numberText(at: $0) : nil) }
            ) { v throws(CoercionFailure) in try Coercion.string(v, converting: converting) }
        } else if type == [Int].self {
            array = primitiveArray(
                at: position, depth: depth, direct: { reader.integer(at: $0).flatMap(Int.init(exactly:)) }
            ) {
                v throws(CoercionFailure) in try Coercion.integer(v, as: Int.self, converting: converting)
            }
        } else if type == [Double].self {
            array = primitiveArray(at: position, depth: depth, direct: reader.double(at:)) {
                v throws(CoercionFailure) in try Coercion.double(v, converting: converting)
            }
        } else if type == [Bool].self {
            array = primitiveArray(at: position, depth: depth) {
                v throws(CoercionFailure) in try Coercion.bool(v, converting: converting)
            }
        } else if type == [[Double]].self {
            array = nestedPrimitiveArray(direct: reader.double(at:)) {
                v throws(CoercionFailure) in try Coercion.double(v, converting: converting)
            }
        } else if type == [[Int]].self {
            array = nestedPrimitiveArray { v throws(CoercionFailure) in
                try Coercion.integer(v, as: Int.self, converting: converting)
            }
        } else {
            return nil
        }
        guard let array else { return nil }
        noteWholeValueUse()
        bake.setDecodingType(type, at: depth)
        bake.noteBaked(at: depth)
        return array
    }

    /// The elements of the array at `position` (at `depth`), each coerced;
    /// `nil` at the first that is not a plain value coercing to `Element`.
    /// `direct` reads an element straight from its entry, as `coerce` would
    /// give it, when it can (`nil` when it cannot).
    @inline(__always)
    private func primitiveArray<Element>(
        at position: Int, depth: Int, direct: (Int) -> Element? = { _ in nil },
        _ coerce: (Ingredients) throws(CoercionFailure) -> Element
    ) -> [Element]? {
        guard depth < Self.maximumDepth else { return nil }
        let reader = bake.reader
        let count = reader.elementCount(at: position)
        var elements: [Element] = []
        elements.reserveCapacity(count)
        var element = position + 1
        for _ in 0..<count {
            if let value = direct(element) {
                elements.append(value)
            } else {
                guard reader.kind(at: element) != .null, let scalar = reader.scalar(at: element),
                    let value = try? coerce(scalar)
                else { return nil }
                elements.append(value)
            }
            element += 1
        }
        return elements
    }

    private func nestedPrimitiveArray<Element>(
        direct: (Int) -> Element? = { _ in nil }, _ coerce: (Ingredients) throws(CoercionFailure) -> Element
    ) -> [[Element]]? {
        guard depth + 1 < Self.maximumDepth else { return nil }
        let reader = bake.reader
        let count = reader.elementCount(at: position)
        var arrays: [[Element]] = []
        arrays.reserveCapacity(count)
        var element = position + 1
        for _ in 0..<count {
            guard reader.kind(at: element) == .array,
                let array = primitiveArray(at: element, depth: depth + 1, direct: direct, coerce)
            else { return nil }
            arrays.append(array)
            element = reader.end(of: element)
        }
        return arrays
    }

    /// A type's own recipe; its error names the type and where it was needed.
    private func bakingRecipe(of type: any Bakeable.Type) throws(EasyBakeError) -> Recipe? {
        do {
            return try type.checkedBakingRecipe()
        } catch {
            var located = error
            located.path = bake.ingredientPath(depth: depth)
            located.baking = .init(modelType: bake.modelTypeName, property: CodingPathText.render(codingPath))
            throw located
        }
    }

    /// The value as ingredients for a coercion: a scalar read from its
    /// entry, a container built only for the error it is bound to cause.
    @inline(__always)
    func scalar(_ type: Any.Type) throws -> Ingredients {
        guard !isNull else { throw missing(type) }
        return bake.reader.scalar(at: position) ?? bake.ingredients(at: position) ?? .null
    }

    /// Coerces this decoder's value, turning a failure into a full error.
    @inline(__always)
    func coerce<T>(_ type: T.Type, _ body: (Ingredients) throws(CoercionFailure) -> T) throws -> T {
        let value = try scalar(type)
        do {
            return try body(value)
        } catch {
            throw self.error(error.code, expected: error.expected, detail: error.detail)
        }
    }
}

extension IndexDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { isNull || (bake.options.emptyTextAsNil && bake.isEmptyText(position)) }

    /// Whether a scalar of another kind converts into the type asked here
    /// (``Baker/Options/coercions``).
    private var converting: Bool { bake.convertsScalars(at: depth) }

    func decode(_ type: Bool.Type) throws -> Bool {
        let converting = converting
        return try coerce(type) { v throws(CoercionFailure) in try Coercion.bool(v, converting: converting) }
    }
    func decode(_ type: String.Type) throws -> String {
        if position >= 0, let text = bake.reader.string(at: position) { return text }
        // A number asked as text is its literal, as written (`1e2`, not `100.0`).
        if converting, position >= 0, let literal = bake.index.numberText(at: position) { return literal }
        let converting = converting
        return try coerce(type) { v throws(CoercionFailure) in try Coercion.string(v, converting: converting) }
    }
    func decode(_ type: Double.Type) throws -> Double {
        if position >= 0, let value = bake.reader.double(at: position) { return value }
        let converting = converting
        return try coerce(type) { v throws(CoercionFailure) in try Coercion.double(v, converting: converting) }
    }
    func decode(_ type: Float.Type) throws -> Float {
        let converting = converting
        return try coerce(type) { v throws(CoercionFailure) in try Coercion.float(v, converting: converting) }
    }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    /// A value a custom `init(from:)` asks of its single-value container:
    /// a probe, unless an optional asks for its value.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if !bake.decodingTypeIsOptional(at: depth) { bake.setProbed(at: depth) }
        return try decodeValue(type)
    }

    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let converting = converting
        return try coerce(type) { v throws(CoercionFailure) in try Coercion.integer(v, as: type, converting: converting)
        }
    }
}

/// Arrays that can drop their failing elements (``Baker/Options/lossyArrays``).
protocol LossyIndexArray {
    static func decodeLossy(from decoder: IndexDecoder) throws -> Any
}

extension Array: LossyIndexArray where Element: Decodable {
    static func decodeLossy(from decoder: IndexDecoder) throws -> Any {
        var container = try decoder.indexUnkeyedContainer()
        var result: [Element] = []
        result.reserveCapacity(container.count ?? 0)
        while !container.isAtEnd {
            let elementDecoder = container.nextDecoder()
            do {
                result.append(try elementDecoder.decodeValue(Element.self))
            } catch {
                var warning = decoder.bake.converting(error)
                warning.message = "dropped array element: " + warning.message
                decoder.bake.warnings.append(warning)
            }
        }
        return result
    }
}
