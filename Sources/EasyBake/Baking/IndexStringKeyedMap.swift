/// A `[String: Value]` dictionary baked with a nested recipe: the recipe is
/// its values', not its own.
///
/// A payload that keys its records by id (`{"events": {"138586341": {…},
/// "138586345": {…}}}`) is a map, and a model reads it as `[String: Event]`.
/// The nested recipe a recipe gives that property describes an `Event`: so
/// each value of the map is baked with it, as each element of an array is,
/// and the keys stay the payload's own. Without a recipe a dictionary
/// decodes through its own `init(from:)`, as before.
protocol IndexStringKeyedMap {
    /// Bakes every member of the dictionary at `decoder` with `decoder`'s recipe.
    static func bakeMap(from decoder: IndexDecoder) throws -> Self
}

extension Dictionary: IndexStringKeyedMap where Key == String, Value: Decodable {
    static func bakeMap(from decoder: IndexDecoder) throws -> Self {
        let bake = decoder.bake
        guard !decoder.isMissing, bake.reader.kind(at: decoder.position) == .dictionary else {
            throw decoder.error(decoder.isNull ? .valueNotFound : .typeMismatch, expected: "a dictionary")
        }
        let recipe = decoder.recipe
        var map: [String: Value] = [:]
        map.reserveCapacity(bake.reader.elementCount(at: decoder.position))
        let end = bake.reader.end(of: decoder.position)
        var member = decoder.position + 1
        while member < end {
            let name = bake.reader.string(at: member) ?? ""
            let value = bake.enter(
                depth: decoder.depth + 1, key: .name(name), reach: .member(member), position: member + 1, recipe: recipe
            )
            // The index holds each key once (its duplicate-key policy was
            // applied when it was built): the first value of a name stays.
            if map[name] == nil { map[name] = try value.decodeValue(Value.self) }
            member = bake.reader.end(of: member + 1)
        }
        return map
    }
}
