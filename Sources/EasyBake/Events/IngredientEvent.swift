/// One step of the pull-based event stream that every ``IngredientSource``
/// produces: the shape of a payload without its tree.
///
/// A dictionary reads as `beginDictionary`, then for each entry a `key`
/// followed by the events of its value, then `endDictionary`. An array reads
/// as `beginArray`, the events of each element, `endArray`. Every other value
/// is one `scalar`, whose payload is never a container.
///
/// `{"id": 7, "tags": ["a"]}` reads as:
/// ```
/// beginDictionary, key("id"), scalar(7), key("tags"),
/// beginArray, scalar("a"), endArray, endDictionary
/// ```
public enum IngredientEvent: Sendable, Hashable {
    /// A dictionary begins; `key` and value events follow until `endDictionary`.
    case beginDictionary
    /// The key of the next entry of the open dictionary; its value's events follow.
    case key(String)
    /// The open dictionary ends.
    case endDictionary
    /// An array begins; its elements' events follow until `endArray`.
    case beginArray
    /// The open array ends.
    case endArray
    /// A value that is not a container: null, bool, number or string.
    case scalar(Ingredients)
}

extension IngredientEvent: CustomStringConvertible {
    /// The event as its case is written: `key("id")`, `scalar(7)`.
    public var description: String {
        switch self {
        case .beginDictionary: "beginDictionary"
        case .key(let key): "key(\(key.debugDescription))"
        case .endDictionary: "endDictionary"
        case .beginArray: "beginArray"
        case .endArray: "endArray"
        case .scalar(let value): "scalar(\(value))"
        }
    }
}

// MARK: - Nesting

// The one rule every loop that steps over a value by its events counts with
// (the default skip of a source, the XML and YAML engines' queues, the path
// walker): a container's beginning opens a level, its end closes one.
extension IngredientEvent {
    /// How the event changes the depth of nesting: 1 for a container's
    /// beginning, -1 for its end, 0 for a key or a scalar.
    @inlinable
    package var depthChange: Int {
        switch self {
        case .beginArray, .beginDictionary: 1
        case .endArray, .endDictionary: -1
        case .key, .scalar: 0
        }
    }

    /// Reads events from `next` until the value the first of them begins
    /// has ended (or the events end): a value skipped by its events.
    @inlinable
    package static func skipValue(
        reading next: () throws(EasyBakeError) -> IngredientEvent?
    ) throws(EasyBakeError) {
        var depth = 0
        repeat {
            guard let event = try next() else { return }
            depth += event.depthChange
        } while depth > 0
    }
}
