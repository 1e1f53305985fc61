import Foundation

/// The "any JSON value" enum as most Codable users write it: probing
/// Bool, then integers, then Double, String, arrays and dictionaries: what
/// the tests that compare EasyBake with `JSONDecoder`, and one road of
/// baking with another, decode any payload into.
public enum AnyJSON: Decodable, Equatable, Sendable {
    case bool(Bool), int(Int64), double(Double), string(String), array([AnyJSON]), object([String: AnyJSON]), null

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([AnyJSON].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: AnyJSON].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }
}
