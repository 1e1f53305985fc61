import Foundation

/// A keyed container over a dictionary of the index (or, under a recipe,
/// over any value the recipe's paths start from).
///
/// Keys are found by their bytes: the plan for the coding key type and
/// recipe holds each property's key as UTF-8, its implicit-matching form and
/// its recipe entry, made on the first record and found again on the next
/// by the order the model asks in, so that no `String` is hashed per
/// property per record.
///
/// A class: `KeyedDecodingContainer`'s box copies its container for every
/// call, and copying a class is one retain.
final class IndexKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: IndexDecoder
    let recipe: Recipe?
    let plan: KeyPlan
    /// The tally of which recipe keys the model asks for, and its flags.
    private let usage: RecipeUsage?
    private let asked: UnsafeMutableBufferPointer<Bool>?
    /// Whether this container notes the names it is asked for: only one
    /// does, the first to apply the recipe or, until a value bakes, the latest.
    private let notesNames: Bool
    private let bake: BakeSession
    /// The decoder's value and depth, kept here so that a lookup reads them
    /// without copying the decoder.
    private let position: Int
    private let depth: Int
    private let isDictionary: Bool
    private let dictionaryEnd: Int
    /// Streaming's observer, when it wants to know what the model asks of
    /// the record's root and this container is the root's.
    private let rootObserver: BakeObserver?
    /// The key of the member after the last one found at it: where the next
    /// key is looked for first, since payloads and models mostly agree on
    /// the order of keys.
    @exclusivity(unchecked) private var cursor: Int
    /// Once `allKeys` is asked, the model is keyed by the payload's own keys
    /// (a `[String: Value]` is decoded so): each key's first member, so that
    /// a key is found in one step however many there are, and the key asked
    /// last. Such keys are not planned: a plan would grow by a slot per id.
    @exclusivity(unchecked) private var payloadKeys: [String: Int]?
    @exclusivity(unchecked) private var payloadKeysRepeat = false
    @exclusivity(unchecked) private var payloadKey = ""

    init(decoder: IndexDecoder, recipe: Recipe?) {
        self.decoder = decoder
        self.recipe = recipe
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
        plan = decoder.bake.plan(for: Key.self, recipe: recipe)
        if let recipe,
           let (usage, isFirst) = decoder.bake.usage(
               of: recipe, modelType: decoder.bake.decodingType(at: decoder.depth),
               codingPath: decoder.codingPath) {
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

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        usage?.askedForEverything = true
        rootObserver?.noteRootRequest("*")
        var names: [String] = []
        var recipeNames = Set<String>()
        for name in recipe?.properties ?? [] where recipeNames.insert(name).inserted { names.append(name) }
        var members: [String: Int] = [:]
        if isDictionary {
            members.reserveCapacity(bake.reader.elementCount(at: position))
            var member = position + 1
            while member < dictionaryEnd {
                let name = bake.reader.string(at: member) ?? ""
                // One hash per key: the first member of a name is noted
                // through the entry's modify accessor.
                let isFirst = Self.noteFirst(member + 1, in: &members[name, default: -1])
                if !isFirst {
                    payloadKeysRepeat = true
                } else if recipeNames.isEmpty || !recipeNames.contains(name) {
                    names.append(name)
                }
                member = bake.reader.end(of: member + 1)
            }
        }
        payloadKeys = members
        return names.compactMap(Key.init(stringValue:))
    }

    /// Sets `value` to `position` unless a member's position is there already.
    private static func noteFirst(_ position: Int, in value: inout Int) -> Bool {
        guard value < 0 else { return false }
        value = position
        return true
    }

    /// What the plan knows of `key`: found by the order the model asks in.
    @inline(__always)
    private func slot(for key: Key) -> KeyPlan.Slot {
        if payloadKeys != nil { return payloadSlot(for: key) }
        return plan.slot(bake.nextAsk(at: depth), named: key.stringValue)
    }

    /// The slot of a key asked after `allKeys`: the plan's when the recipe
    /// knows the name, otherwise a slot of this ask alone (ordinal -1), whose
    /// name is ``payloadKey``.
    private func payloadSlot(for key: Key) -> KeyPlan.Slot {
        let name = key.stringValue
        if let recipe, recipe.keyIndex[name] != nil || recipe.defaults[name] != nil {
            return plan.slot(bake.nextAsk(at: depth), named: name)
        }
        payloadKey = name
        return KeyPlan.Slot(
            utf8: UnsafeRawBufferPointer(start: nil, count: 0), keyIndex: -1, entryIndex: -1, hasTransformer: false,
            emptyAsNil: recipe?.emptyAsNil.contains(name) ?? false, entryKey: nil, ordinal: -1,
            hasDefault: recipe?.defaults[name] != nil, defaultsForNull: recipe?.defaultsForNull ?? false)
    }

    private func name(of slot: KeyPlan.Slot) -> String {
        slot.ordinal >= 0 ? plan.names[slot.ordinal] : payloadKey
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

    private func lookup(_ key: Key) throws -> (position: Int, reach: BakeSession.Reach)? {
        try lookup(key, slot: slot(for: key))
    }

    /// The value for `key` and how it was reached: a recipe entry first, then
    /// the exact key, then implicit matching, then a recipe default.
    private func lookup(_ key: Key, slot: KeyPlan.Slot) throws -> (position: Int, reach: BakeSession.Reach)? {
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
                    property: CodingPathText.render(codingPath + [key]), found: located.baking?.found)
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
                let normalized = slot.ordinal >= 0
                    ? plan.normalized[slot.ordinal] : Array(ImplicitKeyMatching.normalize(payloadKey).utf8)
                found = bake.reader.member(matchingImplicitly: normalized, in: position)
            }
        }
        // A default stands in for a missing value, and for null when the
        // recipe says so.
        if slot.hasDefault, found == nil || (slot.defaultsForNull && bake.isNull(found!)),
           let fallback = recipe?.defaults[name(of: slot)] {
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
    private func processedValue(_ slot: KeyPlan.Slot) throws(EasyBakeError) -> Int? {
        let found: Int?
        if let key = slot.entryKey {
            found = isDictionary ? member(key, cursorSafe: slot.cursorSafe) : nil
        } else {
            found = bake.resolve(plan.entryPaths[slot.ordinal], from: position)
        }
        // A default stands in for a missing value, and for null when the
        // recipe says so.
        guard let found, !(slot.hasDefault && slot.defaultsForNull && bake.isNull(found)) else {
            return slot.hasDefault ? recipe?.defaults[plan.names[slot.ordinal]].map { bake.append($0) } : nil
        }
        guard slot.hasTransformer, let recipe else { return found }
        let value = bake.ingredients(at: found) ?? .null
        return bake.append(try recipe.transform(value, for: recipe.entries[slot.entryIndex]))
    }

    private func childDecoder(for key: Key) throws -> IndexDecoder {
        try childDecoder(for: key, slot: slot(for: key))
    }

    private func childDecoder(for key: Key, slot: KeyPlan.Slot) throws -> IndexDecoder {
        let found = try lookup(key, slot: slot)
        return bake.enter(
            depth: depth + 1, key: key, reach: found?.reach ?? .missingKey,
            position: found?.position ?? -1, recipe: slot.ordinal >= 0 ? plan.nested[slot.ordinal] : recipe?.nested[payloadKey])
    }

    func contains(_ key: Key) -> Bool { (try? lookup(key)) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        let slot = slot(for: key)
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

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        // Dates and URLs (and the primitives reached through generic code)
        // coerce in place, by metatype identity: no `T?` is made, since a
        // generic optional's metadata is looked up at run time.
        let identity: Any.Type = T.self
        if identity == Date.self { return unsafeBitCast(try date(key), to: T.self) }
        if identity == URL.self { return unsafeBitCast(try primitive(key, Coercion.url), to: T.self) }
        if identity == String.self { return unsafeBitCast(try string(key), to: T.self) }
        if identity == Double.self { return unsafeBitCast(try primitive(key, Coercion.double), to: T.self) }
        if identity == Bool.self { return unsafeBitCast(try primitive(key, Coercion.bool), to: T.self) }
        if identity == Int.self {
            return unsafeBitCast(try primitive(key) { v throws(CoercionFailure) in try Coercion.integer(v, as: Int.self) }, to: T.self)
        }
        return try decodeThroughChild(type, forKey: key)
    }

    private func decodeThroughChild<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let child = try childDecoder(for: key)
        if child.isNull, let empty = try emptyValue(type, for: child) { return empty }
        return try child.decodeValue(type)
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String { try string(key) }

    /// A string: made straight from the entry's bytes when the value is
    /// one (what ``Coercion/string(_:)`` returns for it); anything else
    /// takes that coercion.
    @inline(__always)
    private func string(_ key: Key) throws -> String {
        if let found = try lookup(key), !bake.isNull(found.position) {
            if let text = bake.reader.string(at: found.position) { return text }
            if let scalar = bake.reader.scalar(at: found.position) {
                do { return try Coercion.string(scalar) } catch {}
            }
        }
        return try decodeThroughChild(String.self, forKey: key)
    }

    /// A date: an ISO 8601 string is parsed straight from its bytes, by the
    /// parser ``Coercion/date(_:)`` uses; anything else takes that coercion.
    private func date(_ key: Key) throws -> Date {
        let slot = slot(for: key)
        if let found = try lookup(key, slot: slot), found.position >= 0, bake.reader.kind(at: found.position) == .string,
           let date = DateFormats.parseISO8601(utf8: bake.reader.utf8(at: found.position)) {
            return date
        }
        return try primitive(key, Coercion.date)
    }

    private func optionalDate(_ key: Key) throws -> Date? {
        let slot = slot(for: key)
        guard let found = try lookup(key, slot: slot), !isNoValue(found.position, slot: slot) else { return nil }
        if bake.reader.kind(at: found.position) == .string,
           let date = DateFormats.parseISO8601(utf8: bake.reader.utf8(at: found.position)) {
            return date
        }
        return try optionalPrimitive(key, Coercion.date)
    }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try primitive(key, Coercion.bool) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try primitive(key, Coercion.double) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try primitive(key) { v throws(CoercionFailure) in try Coercion.integer(v, as: Int.self) }
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try primitive(key) { v throws(CoercionFailure) in try Coercion.integer(v, as: Int64.self) }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optionalPrimitive(key, Coercion.string) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optionalPrimitive(key, Coercion.bool) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optionalPrimitive(key, Coercion.double) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try optionalPrimitive(key) { v throws(CoercionFailure) in try Coercion.integer(v, as: Int.self) }
    }

    // Primitives coerce in place, without a child decoder per property; any
    // value that is missing, null or does not coerce takes the generic road,
    // which reports it (or fills an empty value) the one way it always does.
    @inline(__always)
    private func primitive<T: Decodable>(_ key: Key, _ coerce: (Ingredients) throws(CoercionFailure) -> T) throws -> T {
        if let found = try lookup(key), !bake.isNull(found.position), let scalar = bake.reader.scalar(at: found.position) {
            do { return try coerce(scalar) } catch {}
        }
        return try decodeThroughChild(T.self, forKey: key)
    }

    @inline(__always)
    private func optionalPrimitive<T: Decodable>(_ key: Key, _ coerce: (Ingredients) throws(CoercionFailure) -> T) throws -> T? {
        let slot = slot(for: key)
        guard let found = try lookup(key, slot: slot), !isNoValue(found.position, slot: slot) else { return nil }
        if let scalar = bake.reader.scalar(at: found.position) {
            do { return try coerce(scalar) } catch {}
        }
        return try decodeIfPresentThroughChild(T.self, forKey: key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let identity: Any.Type = T.self
        if identity == Date.self { return try optionalDate(key).map { unsafeBitCast($0, to: T.self) } }
        if identity == URL.self { return try optionalPrimitive(key, Coercion.url).map { unsafeBitCast($0, to: T.self) } }
        return try decodeIfPresentThroughChild(type, forKey: key)
    }

    private func decodeIfPresentThroughChild<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let slot = slot(for: key)
        let child = try childDecoder(for: key, slot: slot)
        guard !isNoValue(child.position, slot: slot) else { return nil }
        return try child.decodeValue(type)
    }

    /// Under ``Baker/MissingValueStrategy/emptyValue``, the empty value of a
    /// type that has one, reported as a warning.
    private func emptyValue<T>(_ type: T.Type, for child: IndexDecoder) throws -> T? {
        guard bake.options.missingValues == .emptyValue, let empty = EmptyValues.of(type) else { return nil }
        var warning = child.missing(T.self)
        warning.message = "filled with an empty value: " + warning.message
        bake.warnings.append(warning)
        return empty
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try childDecoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try childDecoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { try childDecoder(for: key) }
}
