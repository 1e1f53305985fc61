import Foundation

/// The keyed view of one value of the index (a dictionary, or under a
/// recipe any value the recipe's paths start from): how each property is
/// found and read. It holds every rule of a keyed read — the recipe's
/// entries, paths, transformers and defaults, the exact key, implicit
/// matching, null and empty text, the coercions — and serves both roads
/// into a model:
///
/// - ``IndexKeyedContainer``, the `KeyedDecodingContainer` a `Decodable`
///   model's `init(from:)` gets, which finds each key's slot in the plan by
///   the order the model asks in;
/// - ``BakingFields``, which an ``IndexBakeable`` model's initializer gets,
///   and which names each property by its slot in the plan directly.
///
/// Each operation takes the slot of the key asked, and a closure that
/// gives the coding key itself when the caller has one (`nil`: a key named
/// by the slot). The key is made only when a child value or an error needs
/// it; a closure that is not stored costs nothing to pass, where an
/// optional existential would be copied and destroyed on every call.
///
/// A class: `KeyedDecodingContainer`'s box copies its container for every
/// call, and copying a class is one retain.
/// Gives the coding key asked, when the caller has one.
typealias CodingKeyMaker = () -> (any CodingKey)?

class KeyedValueReader {
    let decoder: IndexDecoder
    let recipe: Recipe?
    let plan: KeyPlan
    /// The tally of which recipe keys the model asks for, and its flags.
    let usage: RecipeUsage?
    private let asked: UnsafeMutableBufferPointer<Bool>?
    /// Whether this container notes the names it is asked for: only one
    /// does, the first to apply the recipe or, until a value bakes, the latest.
    private let notesNames: Bool
    let bake: BakeSession
    /// The decoder's value and depth, kept here so that a lookup reads them
    /// without copying the decoder.
    let position: Int
    let depth: Int
    let isDictionary: Bool
    let dictionaryEnd: Int
    /// Streaming's observer, when it wants to know what the model asks of
    /// the record's root and this container is the root's.
    let rootObserver: BakeObserver?
    /// The key of the member after the last one found at it: where the next
    /// key is looked for first, since payloads and models mostly agree on
    /// the order of keys.
    @exclusivity(unchecked) final var cursor: Int
    /// Once `allKeys` is asked, the model is keyed by the payload's own keys
    /// (a `[String: Value]` is decoded so): each key's first member, so that
    /// a key is found in one step however many there are, and the key asked
    /// last. Such keys are not planned: a plan would grow by a slot per id.
    @exclusivity(unchecked) final var payloadKeys: [String: Int]?
    @exclusivity(unchecked) final var payloadKeysRepeat = false
    @exclusivity(unchecked) final var payloadKey = ""
    /// Set when one of the recipe's paths found a value in this container's
    /// value: a model-less bake (``ProcessedIngredients``) reports it, with
    /// or without a recipe tally.
    @exclusivity(unchecked) final var resolvedAny = false

    init(decoder: IndexDecoder, recipe: Recipe?, plan: KeyPlan) {
        self.decoder = decoder
        self.recipe = recipe
        self.plan = plan
        bake = decoder.bake
        position = decoder.position
        depth = decoder.depth
        isDictionary = decoder.position >= 0 && decoder.bake.reader.kind(at: decoder.position) == .dictionary
        dictionaryEnd = isDictionary ? decoder.bake.reader.end(of: decoder.position) : 0
        cursor = isDictionary ? decoder.position + 1 : 0
        if decoder.depth == 0, let observer = decoder.bake.observer, observer.tracksRootRequests {
            rootObserver = observer
        } else {
            rootObserver = nil
        }
        if let recipe,
            let (usage, isFirst) = decoder.bake.usage(
                of: recipe, modelType: decoder.bake.decodingType(at: decoder.depth),
                codingPath: decoder.codingPath)
        {
            self.usage = usage
            asked = usage.asked
            // The names come from one value the recipe bakes in full: until
            // one has, each container notes them afresh.
            notesNames = isFirst || !usage.baked
            if notesNames { usage.properties.removeAll() }
            decoder.bake.setUsage(usage, at: decoder.depth)
        } else {
            usage = nil
            asked = nil
            notesNames = false
        }
    }

    final var codingPath: [any CodingKey] { decoder.codingPath }

    /// The slot of a key asked after `allKeys`: the plan's when the recipe
    /// knows the name, otherwise a slot of this ask alone (ordinal -1), whose
    /// name is ``payloadKey``.
    final func payloadSlot(named name: String) -> KeyPlan.Slot {
        if let recipe, recipe.keyIndex[name] != nil || recipe.defaults[name] != nil {
            return plan.slot(bake.nextAsk(at: depth), named: name)
        }
        payloadKey = name
        return KeyPlan.Slot(
            utf8: UnsafeRawBufferPointer(start: nil, count: 0), keyIndex: -1, entryIndex: -1, hasTransformer: false,
            emptyAsNil: recipe?.emptyAsNil.contains(name) ?? false, entryKey: nil, ordinal: -1,
            hasDefault: recipe?.defaults[name] != nil, defaultsForNull: recipe?.defaultsForNull ?? false,
            lossy: recipe?.lossy.contains(name) ?? false)
    }

    final func name(of slot: KeyPlan.Slot) -> String {
        slot.ordinal >= 0 ? plan.names[slot.ordinal] : payloadKey
    }

    /// The coding key asked: the caller's, or one named by the slot.
    @inline(__always)
    final func codingKey(_ key: CodingKeyMaker, _ slot: KeyPlan.Slot) -> any CodingKey {
        if let key = key() { return key }
        return NameKey(name(of: slot))
    }

    /// The coding key asked, as a frame notes it.
    @inline(__always)
    final func frameKey(_ key: CodingKeyMaker, _ slot: KeyPlan.Slot) -> BakeSession.FrameKey {
        if let key = key() { return .key(key) }
        return .name(name(of: slot))
    }

    /// The payload member named ``payloadKey``: the one at the cursor when no
    /// key repeats (it is then the only one), else the first by name.
    private func payloadMember() -> Int? {
        var found: Int?
        if !payloadKeysRepeat, cursor < dictionaryEnd {
            var name = payloadKey
            let atCursor = name.withUTF8 { bake.reader.string(at: cursor, equals: UnsafeRawBufferPointer($0)) }
            if atCursor { found = cursor + 1 }
        }
        if found == nil { found = payloadKeys?[payloadKey] }
        if let found { cursor = bake.reader.end(of: found) }
        return found
    }

    /// The value for the key in `slot` and how it was reached: a recipe
    /// entry first, then the exact key, then implicit matching, then a
    /// recipe default.
    final func lookup(_ key: CodingKeyMaker, slot: KeyPlan.Slot) throws -> (position: Int, reach: BakeSession.Reach)? {
        if notesNames { usage!.properties.append(name(of: slot)) }
        if slot.keyIndex >= 0 { asked?[slot.keyIndex] = true }
        if slot.entryIndex >= 0 {
            guard position >= 0 else { return nil }
            do {
                guard let found = try processedValue(slot) else { return nil }
                return (found, .recipeEntry(slot.entryIndex))
            } catch {
                var located = error
                located.path = bake.ingredientPath(depth: depth).appending(plan.entryPaths[slot.ordinal])
                located.baking = .init(
                    modelType: bake.modelTypeName,
                    property: CodingPathText.render(codingPath + [codingKey(key, slot)]), found: located.baking?.found)
                throw located
            }
        }
        if let rootObserver { rootObserver.noteRootRequest(name(of: slot)) }
        var found: Int?
        if isDictionary {
            if slot.ordinal >= 0 {
                found = member(slot.utf8, cursorSafe: slot.cursorSafe)
            } else {
                found = payloadMember()
            }
            if found == nil, bake.options.implicitKeyMatching {
                let normalized =
                    slot.ordinal >= 0
                    ? plan.normalized[slot.ordinal] : Array(ImplicitKeyMatching.normalize(payloadKey).utf8)
                found = bake.reader.member(matchingImplicitly: normalized, in: position)
            }
        }
        // A default stands in for a missing value, and for null when the
        // recipe says so.
        if slot.hasDefault, found == nil || (slot.defaultsForNull && bake.isNull(found!)),
            let fallback = recipe?.defaults[name(of: slot)]
        {
            return (bake.append(fallback), .none)
        }
        return found.map { ($0, .member($0 - 1)) }
    }

    /// The value of the first member whose key is `utf8`: the member at the
    /// cursor when it is that (and only this slot looks that key up), any
    /// other found by looking from the start.
    @inline(__always)
    private func member(_ utf8: UnsafeRawBufferPointer, cursorSafe: Bool) -> Int? {
        if cursorSafe, cursor < dictionaryEnd, bake.reader.string(at: cursor, equals: utf8) {
            let value = cursor + 1
            cursor = bake.reader.end(of: value)
            return value
        }
        return bake.reader.member(utf8, in: position)
    }

    /// The position of a recipe entry's value: its path resolved from this
    /// container's value, transformed; a default when the path leads nowhere.
    ///
    /// The common entry, a key of this dictionary with neither a transformer
    /// nor a default, is found inline: `lookup` asks for one per property.
    @inline(__always)
    private func processedValue(_ slot: KeyPlan.Slot) throws(EasyBakeError) -> Int? {
        if let key = slot.entryKey, isDictionary, !slot.hasTransformer, !slot.hasDefault {
            let found = member(key, cursorSafe: slot.cursorSafe)
            if found != nil { noteResolved() }
            return found
        }
        return try resolvedValue(slot)
    }

    /// Notes that a path of the recipe found a value (see
    /// ``RecipeUsage/resolvedAny``): in the tally once, and only when one
    /// is kept.
    @inline(__always)
    private func noteResolved() {
        resolvedAny = true
        if let usage, !usage.resolvedAny { usage.resolvedAny = true }
    }

    /// The value of `#key`: the key this container's value stands under.
    @inline(never)
    private func ownKeyValue() -> Int? {
        bake.ownKey(at: depth).map { bake.append(.string($0)) }
    }

    /// ``processedValue(_:)`` for any entry.
    private func resolvedValue(_ slot: KeyPlan.Slot) throws(EasyBakeError) -> Int? {
        var found: Int?
        if let key = slot.entryKey {
            found = isDictionary ? member(key, cursorSafe: slot.cursorSafe) : nil
        } else {
            found = bake.resolve(plan.entryPaths[slot.ordinal], from: position)
            if found == nil, slot.readsOwnKey { found = ownKeyValue() }
        }
        if found != nil { noteResolved() }
        // A default stands in for a missing value, and for null when the
        // recipe says so.
        guard let found, !(slot.hasDefault && slot.defaultsForNull && bake.isNull(found)) else {
            return slot.hasDefault ? recipe?.defaults[plan.names[slot.ordinal]].map { bake.append($0) } : nil
        }
        guard slot.hasTransformer, let recipe else { return found }
        let value = bake.ingredients(at: found) ?? .null
        return bake.append(try recipe.transform(value, for: recipe.entries[slot.entryIndex]))
    }

    final func childDecoder(for key: CodingKeyMaker, slot: KeyPlan.Slot) throws -> IndexDecoder {
        let found = try lookup(key, slot: slot)
        return bake.enter(
            depth: depth + 1, key: frameKey(key, slot), reach: found?.reach ?? .missingKey,
            position: found?.position ?? -1,
            recipe: slot.ordinal >= 0 ? plan.nested[slot.ordinal] : recipe?.nested[payloadKey])
    }

    final func contains(_ key: CodingKeyMaker, slot: KeyPlan.Slot) -> Bool { (try? lookup(key, slot: slot)) != nil }

    final func decodeNil(_ key: CodingKeyMaker, slot: KeyPlan.Slot) throws -> Bool {
        guard let found = try lookup(key, slot: slot) else { return true }
        return isNoValue(found.position, slot: slot)
    }

    /// Whether an optional property gets `nil` from the value at `position`:
    /// null, or empty text where the baker or the recipe reads that as none.
    @inline(__always)
    private func isNoValue(_ position: Int, slot: KeyPlan.Slot) -> Bool {
        if bake.isNull(position) { return true }
        guard slot.emptyAsNil || bake.options.emptyTextAsNil else { return false }
        return bake.isEmptyText(position)
    }

    // MARK: Values

    /// Decodes `T` for the key: dates and URLs (and the primitives reached
    /// through generic code) coerce in place, by metatype identity: no `T?`
    /// is made, since a generic optional's metadata is looked up at run time.
    final func decode<T: Decodable>(_ type: T.Type, _ key: CodingKeyMaker, slot: KeyPlan.Slot) throws -> T {
        let identity: Any.Type = T.self
        if identity == Date.self { return unsafeBitCast(try date(key, slot: slot), to: T.self) }
        if identity == URL.self { return unsafeBitCast(try primitive(key, slot: slot, Coercion.url), to: T.self) }
        if identity == String.self { return unsafeBitCast(try string(key, slot: slot), to: T.self) }
        if identity == Double.self { return unsafeBitCast(try double(key, slot: slot), to: T.self) }
        if identity == Bool.self { return unsafeBitCast(try primitive(key, slot: slot, Coercion.bool), to: T.self) }
        if identity == Int.self { return unsafeBitCast(try int(key, slot: slot), to: T.self) }
        return try decodeThroughChild(type, key, slot: slot)
    }

    final func decodeThroughChild<T: Decodable>(_ type: T.Type, _ key: CodingKeyMaker, slot: KeyPlan.Slot) throws -> T {
        let child = try childDecoder(for: key, slot: slot)
        if child.isNull, fillsEmptyValues {
            return try emptyValue(type, for: child) { try child.decodeValue(type, lossyArray: slot.lossy) }
        }
        return try child.decodeValue(type, lossyArray: slot.lossy)
    }

    /// A string: made straight from the entry's bytes when the value is
    /// one (what ``Coercion/string(_:)`` returns for it); anything else
    /// takes that coercion.
    @inline(__always)
    final func string(_ key: CodingKeyMaker, slot: KeyPlan.Slot) throws -> String {
        if let found = try lookup(key, slot: slot), found.position >= 0 {
            // A string is not null: it is made at once.
            if let text = bake.reader.string(at: found.position) { return text }
            // Anything else converts on the child's road, which knows the
            // number's literal and the coercion policy.
        }
        return try decodeThroughChild(String.self, key, slot: slot)
    }

    /// An optional string, as ``string(_:slot:)`` reads one.
    @inline(__always)
    final func optionalString(_ key: CodingKeyMaker, slot: KeyPlan.Slot) throws -> String? {
        guard let found = try lookup(key, slot: slot), !isNoValue(found.position, slot: slot) else { return nil }
        if let text = bake.reader.string(at: found.position) { return text }
        return try decodeIfPresentThroughChild(String.self, key, slot: slot)
    }

    /// An integer: read straight from the entry when it is a short integer
    /// literal (what ``Coercion/integer(_:as:)`` returns for it); anything
    /// else takes that coercion.
    @inline(__always)
    final func int(_ key: CodingKeyMaker, slot: KeyPlan.Slot) throws -> Int {
        let found = try lookup(key, slot: slot)
        if let found, found.position >= 0, let value = bake.reader.integer(at: found.position),
            let int = Int(exactly: value)
        {
            return int
        }
        return try primitive(key, slot: slot, found: found) { v throws(CoercionFailure) in
            try Coercion.integer(v, as: Int.self)
        }
    }

    /// A number: read straight from the entry when it is a short integer or
    /// a plain decimal literal (what ``Coercion/double(_:)`` returns for
    /// it); anything else takes that coercion.
    @inline(__always)
    final func double(_ key: CodingKeyMaker, slot: KeyPlan.Slot) throws -> Double {
        let found = try lookup(key, slot: slot)
        if let found, found.position >= 0, let value = bake.reader.double(at: found.position) { return value }
        return try primitive(key, slot: slot, found: found, Coercion.double)
    }

    @inline(__always)
    final func optionalDouble(_ key: CodingKeyMaker, slot: KeyPlan.Slot) throws -> Double? {
        guard let found = try lookup(key, slot: slot), !isNoValue(found.position, slot: slot) else { return nil }
        if let value = bake.reader.double(at: found.position) { return value }
        return try optionalPrimitive(key, slot: slot, found: found, Coercion.double)
    }

    @inline(__always)
    final func int64(_ key: CodingKeyMaker, slot: KeyPlan.Slot) throws -> Int64 {
        try primitive(key, slot: slot) { v throws(CoercionFailure) in try Coercion.integer(v, as: Int64.self) }
    }

    /// A date: an ISO 8601 string is parsed straight from its bytes, by the
    /// parser ``Coercion/date(_:)`` uses; anything else takes that coercion.
    final func date(_ key: CodingKeyMaker, slot: KeyPlan.Slot) throws -> Date {
        if let found = try lookup(key, slot: slot), found.position >= 0,
            bake.reader.kind(at: found.position) == .string,
            let date = bake.reader.withUTF8(at: found.position, { DateFormats.parseISO8601(utf8: $0) })
        {
            return date
        }
        return try primitive(key, slot: slot, Coercion.date)
    }

    final func optionalDate(_ key: CodingKeyMaker, slot: KeyPlan.Slot) throws -> Date? {
        guard let found = try lookup(key, slot: slot), !isNoValue(found.position, slot: slot) else { return nil }
        if bake.reader.kind(at: found.position) == .string,
            let date = bake.reader.withUTF8(at: found.position, { DateFormats.parseISO8601(utf8: $0) })
        {
            return date
        }
        return try optionalPrimitive(key, slot: slot, Coercion.date)
    }

    // Primitives coerce in place, without a child decoder per property; any
    // value that is missing, null or does not coerce takes the generic road,
    // which reports it (or fills an empty value) the one way it always does.
    @inline(__always)
    final func primitive<T: Decodable>(
        _ key: CodingKeyMaker, slot: KeyPlan.Slot, _ coerce: (Ingredients) throws(CoercionFailure) -> T
    ) throws -> T {
        try primitive(key, slot: slot, found: try lookup(key, slot: slot), coerce)
    }

    /// A primitive from the value `lookup` found for the key.
    @inline(__always)
    final func primitive<T: Decodable>(
        _ key: CodingKeyMaker, slot: KeyPlan.Slot, found: (position: Int, reach: BakeSession.Reach)?,
        _ coerce: (Ingredients) throws(CoercionFailure) -> T
    ) throws -> T {
        if let found, bake.options.coercions != .none, !bake.isNull(found.position),
            let scalar = bake.reader.scalar(at: found.position)
        {
            do { return try coerce(scalar) } catch {}
        }
        return try decodeThroughChild(T.self, key, slot: slot)
    }

    @inline(__always)
    final func optionalPrimitive<T: Decodable>(
        _ key: CodingKeyMaker, slot: KeyPlan.Slot, _ coerce: (Ingredients) throws(CoercionFailure) -> T
    ) throws -> T? {
        guard let found = try lookup(key, slot: slot), !isNoValue(found.position, slot: slot) else { return nil }
        return try optionalPrimitive(key, slot: slot, found: found, coerce)
    }

    /// An optional primitive from a value `lookup` found for the key, which
    /// is not null.
    @inline(__always)
    final func optionalPrimitive<T: Decodable>(
        _ key: CodingKeyMaker, slot: KeyPlan.Slot, found: (position: Int, reach: BakeSession.Reach),
        _ coerce: (Ingredients) throws(CoercionFailure) -> T
    ) throws -> T? {
        if bake.options.coercions != .none, let scalar = bake.reader.scalar(at: found.position) {
            do { return try coerce(scalar) } catch {}
        }
        return try decodeIfPresentThroughChild(T.self, key, slot: slot)
    }

    final func decodeIfPresent<T: Decodable>(_ type: T.Type, _ key: CodingKeyMaker, slot: KeyPlan.Slot) throws -> T? {
        let identity: Any.Type = T.self
        if identity == Date.self { return try optionalDate(key, slot: slot).map { unsafeBitCast($0, to: T.self) } }
        if identity == URL.self {
            return try optionalPrimitive(key, slot: slot, Coercion.url).map { unsafeBitCast($0, to: T.self) }
        }
        return try decodeIfPresentThroughChild(type, key, slot: slot)
    }

    final func decodeIfPresentThroughChild<T: Decodable>(_ type: T.Type, _ key: CodingKeyMaker, slot: KeyPlan.Slot)
        throws -> T?
    {
        let child = try childDecoder(for: key, slot: slot)
        guard !isNoValue(child.position, slot: slot) else { return nil }
        return try child.decodeValue(type, lossyArray: slot.lossy)
    }

    /// Whether a missing value may be filled with an empty one: checked
    /// before ``emptyValue(_:for:orElse:)`` is called, whose `T?` a generic caller
    /// would otherwise look up the metadata of for every value.
    @inline(__always)
    private var fillsEmptyValues: Bool { bake.options.missingValues == .emptyValue }

    /// Under ``Baker/MissingValueStrategy/emptyValue``, the empty value of a
    /// type that has one, reported as a warning; for any other type, what
    /// `decode` gives (or throws).
    ///
    /// Never inlined: a generic caller that binds the `T?` itself looks up
    /// its metadata on every call, null or not.
    @inline(never)
    private func emptyValue<T>(_ type: T.Type, for child: IndexDecoder, orElse decode: () throws -> T) throws -> T {
        guard bake.options.missingValues == .emptyValue, let empty = EmptyValues.of(type) else { return try decode() }
        var warning = child.missing(T.self)
        warning.message = "filled with an empty value: " + warning.message
        bake.warnings.append(warning)
        return empty
    }

    // MARK: Models that bake from the index

    final func decodeIndexBakeable<T: IndexBakeable>(_ type: T.Type, _ key: CodingKeyMaker, slot: KeyPlan.Slot) throws
        -> T
    {
        let child = try childDecoder(for: key, slot: slot)
        if child.isNull, fillsEmptyValues {
            return try emptyValue(type, for: child) { try child.decodeIndexBakeable(type) }
        }
        return try child.decodeIndexBakeable(type)
    }

    final func decodeIndexBakeableIfPresent<T: IndexBakeable>(
        _ type: T.Type, _ key: CodingKeyMaker, slot: KeyPlan.Slot
    ) throws -> T? {
        let child = try childDecoder(for: key, slot: slot)
        guard !isNoValue(child.position, slot: slot) else { return nil }
        return try child.decodeIndexBakeable(type)
    }

    final func decodeIndexBakeableArray<T: IndexBakeable>(_ type: T.Type, _ key: CodingKeyMaker, slot: KeyPlan.Slot)
        throws -> [T]
    {
        let child = try childDecoder(for: key, slot: slot)
        if child.isNull, fillsEmptyValues {
            return try emptyValue([T].self, for: child) { try child.decodeIndexBakeableArray(type, lossy: slot.lossy) }
        }
        return try child.decodeIndexBakeableArray(type, lossy: slot.lossy)
    }

    final func decodeIndexBakeableArrayIfPresent<T: IndexBakeable>(
        _ type: T.Type, _ key: CodingKeyMaker, slot: KeyPlan.Slot
    ) throws -> [T]? {
        let child = try childDecoder(for: key, slot: slot)
        guard !isNoValue(child.position, slot: slot) else { return nil }
        return try child.decodeIndexBakeableArray(type, lossy: slot.lossy)
    }
}
