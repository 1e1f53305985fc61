import Foundation

/// One bake from an index: the state every decoder and container of the
/// bake shares — the frames of the values being decoded, the key plans, the
/// tally of what the model asks of each recipe, the warnings — and the one
/// observer streaming passes in (``BakeObserver``), which a plain bake has
/// none of.
///
/// `Decodable` decodes depth first, one value at a time, so what describes
/// the value being decoded at each depth — its coding key, how it was
/// reached, its recipe, the progress of its keyed container — lives in one
/// stack of frames here rather than in an object per value. A decoder is
/// then three words (this bake, a position, a depth), which a `Decoder`
/// existential holds without allocating.
final class BakeSession {
    // A session is used by one bake at a time, on one thread, and no access
    // to its state overlaps another: its mutable state is
    // `@exclusivity(unchecked)`, which spares each access the runtime's
    // check (about eight a streamed record, 1.3% of a streamed selective
    // read in callgrind).
    /// The document or record; recipe paths with `[*]`, transformers and
    /// defaults append the values they make to it.
    @exclusivity(unchecked) private(set) var index: IngredientIndex
    /// The index's memory as plain pointers, for reads with no retain or
    /// release per value. Refreshed after every change, which may move it.
    @exclusivity(unchecked) private(set) var reader: IngredientIndex.Reader
    let options: Baker.Options
    private let modelType: Any.Type
    /// The model type's name, for error messages: computed only when one is
    /// made, since naming a type costs more than baking a small model. A
    /// model-less bake (``ProcessedIngredients``) names its recipe, the
    /// model it stands for.
    lazy var modelTypeName =
        modelType == ProcessedIngredients.self
        ? frames.first?.recipe?.name ?? "recipe" : String(describing: modelType)
    @exclusivity(unchecked) var warnings: [EasyBakeError] = []
    /// Streaming's watch on the bake; `nil` for a plain bake.
    @exclusivity(unchecked) private(set) var observer: BakeObserver?
    /// The observer of a stream's records, reset for each
    /// (``recordObserver(settledRecipes:tracksRootRequests:)``).
    private var heldRecordObserver: BakeObserver?
    /// What the model asked of each recipe a keyed container applied, in
    /// the order first applied; `nil` when unknown keys are not checked.
    @exclusivity(unchecked) var recipeUsages: [RecipeUsage]?
    @exclusivity(unchecked) var usageIndex: [ObjectIdentifier: Int] = [:]
    /// The tally `usageIndex` found last.
    @exclusivity(unchecked) var lastUsage: RecipeUsage?

    /// How a value was reached from its parent's value. Plain numbers, so
    /// that noting it costs nothing; the path it stands for is spelled out
    /// only for an error.
    enum Reach {
        /// The root of the bake, or a value standing in where its parent was
        /// (a one-element array's single value, a default).
        case none
        /// An array element.
        case element(Int)
        /// A dictionary member, by the position of its key in the index.
        case member(Int)
        /// A key the value was missing at: the frame's coding key names it.
        case missingKey
        /// The recipe entry at this position in the parent's recipe.
        case recipeEntry(Int)
    }

    /// A frame's coding key, as cheap to note as the value it is made of:
    /// the key itself is made only when a coding path is asked for (an
    /// error, a model that reads `codingPath`).
    enum FrameKey {
        case none
        /// An array element's index.
        case index(Int)
        /// A key named by a plan's slot.
        case name(String)
        /// The model's own coding key.
        case key(any CodingKey)

        var codingKey: (any CodingKey)? {
            switch self {
            case .none: nil
            case .index(let offset): IndexKey(offset)
            case .name(let name): NameKey(name)
            case .key(let key): key
            }
        }
    }

    struct Frame {
        var key: FrameKey
        var reach: Reach
        /// The value's position (-1: missing).
        var position: Int
        /// The recipe to apply when this value is decoded as a keyed container.
        var recipe: Recipe?
        /// The type being decoded at this depth, to name the model whose
        /// recipe names an unknown key.
        var decodingType: Any.Type?
        /// The tally of the recipe this depth's keyed container applied.
        var usage: RecipeUsage?
        /// Whether a custom `init(from:)` decodes this value through its
        /// single-value container (a probe: see ``Baker/CoercionPolicy``).
        var probed = false
    }

    @exclusivity(unchecked) private(set) var frames: [Frame] = []
    /// How many keys each depth's keyed container has been asked for, to
    /// find each key's plan slot without hashing; beside `frames`, one per
    /// frame, in a hand-managed buffer: it is written at every key, where
    /// a write to `frames` checks the array's uniqueness first.
    @exclusivity(unchecked) private var askedCounts = GrowableBuffer<Int>(capacity: 16)
    /// Key plans by coding key type and recipe.
    @exclusivity(unchecked) private var plans: [PlanKey: KeyPlan]

    struct PlanKey: Hashable {
        let keyType: ObjectIdentifier
        let recipe: ObjectIdentifier?
    }

    /// A session for bakes of `modelType`, each begun by
    /// ``begin(taking:observer:recordKey:)``; `plans` are those of earlier
    /// bakes of the same stream.
    init(options: Baker.Options, modelType: Any.Type, plans: [PlanKey: KeyPlan] = [:]) {
        index = IngredientIndex()
        reader = index.reader
        self.options = options
        self.modelType = modelType
        self.plans = plans
        frames.reserveCapacity(16)
    }

    deinit { askedCounts.deallocate() }

    /// Begins a bake of `value` (the whole document, or the next record of
    /// a stream) in this session: what a bake learns of the model's types
    /// (key plans, conformances) stays, what it found in the value before
    /// goes. A small record's bake costs about as much as this setup when
    /// the session is made anew for each.
    ///
    /// The session takes `value` over, leaving in its place the empty index
    /// it held, which ``takeIndex(into:)`` swaps back: no record's bake
    /// makes an index of its own to stand in.
    func begin(taking value: inout IngredientIndex, observer: BakeObserver?, recordKey: String?) {
        swap(&index, &value)
        reader = index.reader
        self.observer = observer
        self.recordKey = recordKey
        warnings.removeAll(keepingCapacity: true)
        if options.unknownRecipeKeys != .ignore { recipeUsages = [] }
        failedPosition = nil
    }

    /// The observer for the next record's bake in this session: the one
    /// the session keeps, reset. A session bakes one record at a time, and
    /// nothing keeps a record's observer past its bake.
    func recordObserver(settledRecipes: Set<ObjectIdentifier>, tracksRootRequests: Bool) -> BakeObserver {
        if let heldRecordObserver {
            heldRecordObserver.reset(settledRecipes: settledRecipes, tracksRootRequests: tracksRootRequests)
            return heldRecordObserver
        }
        let made = BakeObserver(settledRecipes: settledRecipes, tracksRootRequests: tracksRootRequests)
        heldRecordObserver = made
        return made
    }

    /// The plans made in this bake, for the next record of a stream.
    var madePlans: [PlanKey: KeyPlan] { plans }

    func plan<Key: CodingKey>(for type: Key.Type, recipe: Recipe?) -> KeyPlan {
        plan(PlanKey(keyType: ObjectIdentifier(type), recipe: recipe?.identity)) { KeyPlan(recipe: recipe) }
    }

    /// The plan of an ``IndexBakeable`` model type under `recipe`, keyed by
    /// the model type (its initializer names its keys by their index in
    /// its baking keys, read only when the plan is made).
    func plan<Model: IndexBakeable>(forModel type: Model.Type, recipe: Recipe?) -> KeyPlan {
        plan(PlanKey(keyType: ObjectIdentifier(type), recipe: recipe?.identity)) {
            KeyPlan(recipe: recipe, fields: Model.bakingKeys)
        }
    }

    /// The plan of a model-less bake under `recipe` (``ProcessedIngredients``):
    /// the recipe's mapped properties, in its order, are its fields.
    func plan(forPropertiesOf recipe: Recipe) -> KeyPlan {
        plan(PlanKey(keyType: ObjectIdentifier(ProcessedIngredients.self), recipe: recipe.identity)) {
            KeyPlan(recipe: recipe, fields: recipe.properties)
        }
    }

    private func plan(_ key: PlanKey, make: () -> KeyPlan) -> KeyPlan {
        // A model has a few key types: a short list, compared by identity,
        // finds a plan without hashing.
        for (known, plan) in recentPlans where known == key { return plan }
        let plan: KeyPlan
        if let made = plans[key] {
            plan = made
        } else {
            plan = make()
            plans[key] = plan
        }
        if recentPlans.count < 8 { recentPlans.append((key, plan)) }
        return plan
    }

    /// Which model types met in this bake bake from the index, each looked
    /// up once: a conformance check costs more than baking a small value.
    @exclusivity(unchecked) private var indexBakeables: [(ObjectIdentifier, (any IndexBakeable.Type)?)] = []

    /// Which model types met under a nested recipe are `[String: Value]`
    /// maps, each looked up once, as ``indexBakeables`` are.
    @exclusivity(unchecked) private var stringKeyedMaps: [(ObjectIdentifier, (any IndexStringKeyedMap.Type)?)] = []

    /// `type` as an ``IndexStringKeyedMap`` type, or `nil` when it is not one.
    func stringKeyedMap(_ type: Any.Type) -> (any IndexStringKeyedMap.Type)? {
        Self.conformance(of: type, in: &stringKeyedMaps) { $0 as? any IndexStringKeyedMap.Type }
    }

    /// `type` as an ``IndexBakeable`` type, or `nil` when it is not one.
    func indexBakeable(_ type: Any.Type) -> (any IndexBakeable.Type)? {
        Self.conformance(of: type, in: &indexBakeables) { $0 as? any IndexBakeable.Type }
    }

    /// `type` cast by `cast`, looked up in `known` first and noted there
    /// (up to 32 types): the one conformance cache of both lookups above.
    @inline(__always)
    private static func conformance<Found>(
        of type: Any.Type, in known: inout [(ObjectIdentifier, Found?)], _ cast: (Any.Type) -> Found?
    ) -> Found? {
        let identity = ObjectIdentifier(type)
        for (seen, found) in known where seen == identity { return found }
        let found = cast(type)
        if known.count < 32 { known.append((identity, found)) }
        return found
    }

    /// The plans found most recently, looked through before `plans`.
    @exclusivity(unchecked) private var recentPlans: [(PlanKey, KeyPlan)] = []

    // MARK: Frames

    /// The decoder of the bake's root value.
    /// The key the baked root stands under in its parent dictionary: a
    /// streamed record's (`events.138586341`), for a recipe's `#key`.
    @exclusivity(unchecked) var recordKey: String?

    /// The key the value at `depth` stands under in its parent dictionary,
    /// for a recipe's ``IngredientPath/ownKey``: the record's for the root,
    /// the member's key for a member, the last key of the recipe path that
    /// reached it; `nil` for an array's element or a default.
    func ownKey(at depth: Int) -> String? {
        if depth == 0 { return recordKey }
        switch frames[depth].reach {
        case .member(let keyPosition):
            return reader.string(at: keyPosition)
        case .recipeEntry(let entry):
            guard let recipe = frames[depth - 1].recipe, entry < recipe.entries.count,
                case .key(let key)? = recipe.entries[entry].path.steps.last
            else { return nil }
            return key
        case .none, .element, .missingKey:
            return nil
        }
    }

    func root(at position: Int, recipe: Recipe?) -> IndexDecoder {
        // The frames deeper than the root, an earlier bake's, are left in
        // place to be replaced in turn, as `enter` leaves a sibling's
        // (emptying the array went through its generic `replaceSubrange`
        // for every record of a stream).
        if frames.isEmpty {
            frames.append(Frame(key: .none, reach: .none, position: position, recipe: recipe))
            askedCounts.append(0)
        } else {
            frames[0] = Frame(key: .none, reach: .none, position: position, recipe: recipe)
            askedCounts[0] = 0
        }
        return IndexDecoder(bake: self, position: position, depth: 0)
    }

    /// The decoder of a child value at `depth`: its frame replaces that of
    /// the sibling decoded before it.
    ///
    /// The frames deeper than it, its sibling's children, are left in place
    /// to be replaced in turn: every read of the frames stops at the depth
    /// of the decoder asking, whose frames are all current.
    func enter(depth: Int, key: FrameKey, reach: Reach, position: Int, recipe: Recipe?) -> IndexDecoder {
        if depth < frames.count {
            askedCounts[depth] = 0
            frames[depth] = Frame(key: key, reach: reach, position: position, recipe: recipe)
        } else {
            askedCounts.append(0)
            frames.append(Frame(key: key, reach: reach, position: position, recipe: recipe))
        }
        assert(askedCounts.count == frames.count, "a frame without its count of keys asked")
        return IndexDecoder(bake: self, position: position, depth: depth)
    }

    func recipe(at depth: Int) -> Recipe? { frames[depth].recipe }

    func setRecipe(_ recipe: Recipe?, at depth: Int) { frames[depth].recipe = recipe }

    func setDecodingType(_ type: Any.Type, at depth: Int) { frames[depth].decodingType = type }

    func decodingTypeIsOptional(at depth: Int) -> Bool {
        guard let type = frames[depth].decodingType else { return false }
        return type is any OptionalValue.Type
    }

    /// Notes that a custom `init(from:)` decodes the value at `depth`
    /// through its single-value container.
    func setProbed(at depth: Int) { frames[depth].probed = true }

    /// Whether a scalar at `depth` read as another kind converts into it,
    /// under ``Baker/Options/coercions``: everywhere but in a custom
    /// `init(from:)`'s single-value container, by default. Its own types'
    /// (an enum's raw value, an optional's value) convert; in a format whose
    /// every value is text (``IngredientTraits/scalarsAreText``: XML), so
    /// do probes.
    func convertsScalars(at depth: Int) -> Bool {
        switch options.coercions {
        case .everywhere: return true
        case .none: return false
        case .declaredTypes:
            guard let type = frames[depth].decodingType else { return true }
            if type is any OptionalValue.Type || type is any RawRepresentable.Type || type is any ScalarValue.Type {
                return true
            }
            return index.traits.contains(.scalarsAreText)
        }
    }

    /// Whether the value at `depth`, not an array, may stand in for a
    /// one-element array: where a model declares an array (a property, a
    /// recipe's entry, the root; `Array`'s own `init(from:)` asking), the
    /// documented lone-value rule for XML's single elements; never for an
    /// array's element (`[[Int]]` from `[1, 2]`), a probe, or a custom
    /// `init(from:)` asking for an unkeyed container, which get the type
    /// mismatch `JSONDecoder` gives.
    func takesLoneValue(at depth: Int) -> Bool {
        let frame = frames[depth]
        if frame.probed { return false }
        if case .element = frame.reach { return false }
        guard let type = frame.decodingType else { return true }
        return type is any DeclaredArray.Type
    }

    /// Notes the tally of the recipe the keyed container at `depth` applies.
    func setUsage(_ usage: RecipeUsage, at depth: Int) { frames[depth].usage = usage }

    /// The value at `depth` baked: its recipe's tally counts.
    func noteBaked(at depth: Int) { frames[depth].usage?.baked = true }

    /// The value at `depth` is read from `position` instead (a bare text a
    /// recipe reads as `#text`).
    func setPosition(_ position: Int, at depth: Int) { frames[depth].position = position }

    func decodingType(at depth: Int) -> Any.Type? { frames[depth].decodingType }

    /// The ordinal of the next key asked of the keyed container at `depth`.
    func nextAsk(at depth: Int) -> Int {
        let ordinal = askedCounts[depth]
        askedCounts[depth] = ordinal &+ 1
        return ordinal
    }

    func codingPath(depth: Int) -> [any CodingKey] {
        guard depth > 0 else { return [] }
        return frames[1...min(depth, frames.count - 1)].compactMap(\.key.codingKey)
    }

    /// The ingredient path of the value at `depth`, from the root of the
    /// bake. A recipe path with `[*]` reaches an array of matches; the index
    /// into it that follows is replaced by the payload's own path of the
    /// match.
    func ingredientPath(depth: Int) -> IngredientPath {
        var steps: [IngredientPath.Step] = []
        var level = 1
        let last = min(depth, frames.count - 1)
        while level <= last {
            switch frames[level].reach {
            case .none:
                level += 1
            case .element(let offset):
                steps.append(.index(offset))
                level += 1
            case .member(let keyPosition):
                steps.append(.key(index.string(at: keyPosition) ?? ""))
                level += 1
            case .missingKey:
                steps.append(.key(frames[level].key.codingKey?.stringValue ?? ""))
                level += 1
            case .recipeEntry(let entry):
                let path = frames[level - 1].recipe?.entries[entry].path ?? IngredientPath()
                let wildcards = path.steps.count(where: { $0 == .everyElement })
                var selectors: [IngredientPath.Step] = []
                var next = level + 1
                while selectors.count < wildcards, next <= last, case .element(let offset) = frames[next].reach {
                    selectors.append(.index(offset))
                    next += 1
                }
                if wildcards > 0, selectors.count == wildcards, frames[level - 1].position >= 0,
                    let base = try? Ingredients(index: index, at: frames[level - 1].position),
                    let concrete = base.concreteSteps(path.steps[...], selectors: selectors[...])
                {
                    steps.append(contentsOf: concrete)
                    level = next
                } else {
                    steps.append(contentsOf: path.steps)
                    level += 1
                }
            }
        }
        return IngredientPath(steps)
    }

    // MARK: Values

    /// The tree of the value at `position`, for a transformer, an
    /// `Ingredients` property or an error.
    func ingredients(at position: Int) -> Ingredients? {
        guard position >= 0 else { return nil }
        return try? Ingredients(index: index, at: position)
    }

    func isNull(_ position: Int) -> Bool { position < 0 || reader.kind(at: position) == .null }

    /// Whether the value at `position` is empty text: `""` or only spaces.
    func isEmptyText(_ position: Int) -> Bool {
        guard position >= 0, reader.kind(at: position) == .string else { return false }
        return reader.withUTF8(at: position) { $0.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D } }
    }

    /// Appends a value a transformer or a default made; returns its position.
    func append(_ value: Ingredients) -> Int {
        let position = index.append(value)
        reader = index.reader
        return position
    }

    /// Resolves a recipe path from `position` (a `[*]` appends its matches).
    func resolve(_ path: IngredientPath, from position: Int) -> Int? {
        let found = index.resolve(path.steps[...], from: position)
        reader = index.reader
        return found
    }

    /// Gives the index back at the end of the bake.
    func takeIndex(into destination: inout IngredientIndex) {
        swap(&index, &destination)
    }

    /// The position of the value the most recent error is about, to locate
    /// the error in the input.
    @exclusivity(unchecked) private(set) var failedPosition: Int?

    /// The error for the value at `depth` (at `position`).
    func error(
        _ code: EasyBakeError.Code, depth: Int, position: Int, expected: String, detail: String? = nil
    ) -> EasyBakeError {
        failedPosition = position >= 0 ? position : frames[max(0, min(depth, frames.count - 1) - 1)].position
        let property = CodingPathText.render(codingPath(depth: depth))
        let foundText = ingredients(at: position)?.briefDescription ?? "nothing"
        var message =
            "\(modelTypeName)\(property.isEmpty ? "" : ".\(property)"): expected \(expected), found \(foundText)"
        if let detail { message += " (\(detail))" }
        return EasyBakeError(
            code, message, path: ingredientPath(depth: depth),
            baking: .init(modelType: modelTypeName, property: property, expected: expected, found: foundText))
    }
}

/// `Optional`, known by conformance: its `init(from:)` decodes its value
/// through a single-value container, which is no probe.
protocol OptionalValue {}
extension Optional: OptionalValue {}

/// The standard library's scalars, whose own `init(from:)` reads the value
/// through a single-value container: a declared type, not a probe.
protocol ScalarValue {}
extension Int: ScalarValue {}
extension Int8: ScalarValue {}
extension Int16: ScalarValue {}
extension Int32: ScalarValue {}
extension Int64: ScalarValue {}
extension UInt: ScalarValue {}
extension UInt8: ScalarValue {}
extension UInt16: ScalarValue {}
extension UInt32: ScalarValue {}
extension UInt64: ScalarValue {}
extension Float: ScalarValue {}
extension Double: ScalarValue {}
extension Bool: ScalarValue {}
extension String: ScalarValue {}

/// The collections whose `init(from:)` reads an unkeyed container: a model
/// that declares one may be given a lone value for it.
protocol DeclaredArray {}
extension Array: DeclaredArray {}
extension ContiguousArray: DeclaredArray {}
extension Set: DeclaredArray {}
