import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Foundation
import Testing

/// What a custom `init(from:)` gets is what `JSONDecoder` would give it:
/// probing a single-value container reads a value only as its own kind, and
/// an unkeyed container is an array's (issue 27, items 1, 2, 3 and 6).
@Suite("Codable-faithful decoding: probes, unkeyed containers and number text")
struct CodableFaithfulTests {
    /// Another order users write: strings first, containers before numbers,
    /// and `Int` and `Double` through the keyless containers directly.
    enum LooseValue: Decodable, Equatable {
        case string(String), list([LooseValue]), map([String: LooseValue]), int(Int), double(Double), flag(Bool), none

        init(from decoder: any Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) { self = .string(text); return }
            if var list = try? decoder.unkeyedContainer() {
                var values: [LooseValue] = []
                while !list.isAtEnd { values.append(try list.decode(LooseValue.self)) }
                self = .list(values)
                return
            }
            if let map = try? decoder.singleValueContainer().decode([String: LooseValue].self) {
                self = .map(map); return
            }
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .none
            } else if let value = try? single.decode(Int.self) {
                self = .int(value)
            } else if let value = try? single.decode(Double.self) {
                self = .double(value)
            } else {
                self = .flag(try single.decode(Bool.self))
            }
        }
    }

    static func jsonDecoder<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    static func easyBake<T: Decodable>(_ type: T.Type, _ json: String, options: Baker.Options = .init()) throws -> T {
        try Baker(options: options).bake(type, from: .text(json), format: JSONFormat())
    }

    @Test("a probing enum bakes what JSONDecoder decodes: 0, 1, \"0\", \"12\" and dictionaries keep their kinds")
    func probes() throws {
        let json =
            #"{"zero": 0, "one": 1, "text0": "0", "text12": "12", "yes": "yes", "flag": true, "pi": 3.5, "big": 1e2, "list": [0, "1", {"a": 1}], "none": null}"#
        let baked = try Self.easyBake(AnyJSON.self, json)
        #expect(baked == (try Self.jsonDecoder(AnyJSON.self, json)))
        guard case .object(let object) = baked else { Issue.record("not an object: \(baked)"); return }
        #expect(object["zero"] == .int(0))
        #expect(object["one"] == .int(1))
        #expect(object["text0"] == .string("0"))
        #expect(object["text12"] == .string("12"))
        #expect(object["list"] == .array([.int(0), .string("1"), .object(["a": .int(1)])]))
        #expect(try Self.easyBake(LooseValue.self, json) == (try Self.jsonDecoder(LooseValue.self, json)))
    }

    @Test("a dictionary is not an array of one: the probe goes on to the dictionary at once, however deep")
    func noLoneValueForProbes() throws {
        // Before, `[AnyJSON]` accepted the dictionary as a one-element array,
        // which probed it again, to the depth limit.
        var json = "1"
        for depth in 0..<200 { json = #"{"k\#(depth)": \#(json)}"# }
        #expect(try Self.easyBake(AnyJSON.self, json) == (try Self.jsonDecoder(AnyJSON.self, json)))
    }

    @Test("a custom init(from:) asking for an unkeyed container of a dictionary or a scalar gets a type mismatch")
    func customUnkeyed() throws {
        struct Pair: Decodable {
            let first: Int, second: Int
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                first = try container.decode(Int.self)
                second = try container.decode(Int.self)
            }
        }
        struct Holder: Decodable { let pair: Pair }
        #expect(try Self.easyBake(Holder.self, #"{"pair": [1, 2]}"#).pair.second == 2)
        for payload in [#"{"pair": {"a": 1}}"#, #"{"pair": 7}"#] {
            let error = try #require(throws: EasyBakeError.self) { try Self.easyBake(Holder.self, payload) }
            #expect(error.code == .typeMismatch, "\(payload)")
            #expect(error.path?.description == "pair", "\(payload)")
            #expect(throws: DecodingError.self) { try Self.jsonDecoder(Holder.self, payload) }
        }
        // A declared array property keeps the documented lone-value rule.
        struct Tags: Decodable { let tags: [String] }
        #expect(try Self.easyBake(Tags.self, #"{"tags": "solo"}"#).tags == ["solo"])
    }

    @Test("coercions follow Baker.Options.coercions: declared types by default, everywhere, or nowhere")
    func policies() throws {
        struct Model: Decodable { let count: Int; let flag: Bool; let label: String; let ratio: Double }
        let json = #"{"count": "42", "flag": 1, "label": 7, "ratio": "2.5"}"#
        let lenient = try Self.easyBake(Model.self, json)
        #expect(lenient.count == 42 && lenient.flag && lenient.label == "7" && lenient.ratio == 2.5)
        // Everywhere: the probes convert too, as before the option.
        let everywhere = Baker.Options(coercions: .everywhere)
        #expect(
            try Self.easyBake(AnyJSON.self, #"[0, "1"]"#, options: everywhere) == .array([.bool(false), .bool(true)]))
        #expect(try Self.easyBake(AnyJSON.self, #"[0, "1"]"#) == .array([.int(0), .string("1")]))
        // Nowhere: each value must be of its property's kind.
        let none = Baker.Options(coercions: .none)
        let exactValues = ["count": "42", "flag": "true", "label": #""x""#, "ratio": "2.5"]
        for (key, wrong) in [("count", #""42""#), ("flag", "1"), ("label", "7"), ("ratio", #""2.5""#)] {
            var values = exactValues
            values[key] = wrong
            let payload = "{" + values.map { #""\#($0.key)": \#($0.value)"# }.joined(separator: ", ") + "}"
            #expect(try Self.easyBake(Model.self, payload).count == 42)
            let error = try #require(throws: EasyBakeError.self) {
                try Self.easyBake(Model.self, payload, options: none)
            }
            #expect(error.code == .typeMismatch, "\(key)")
            #expect(error.path?.description == key)
        }
        struct Exact: Decodable {
            let count: Int; let flag: Bool; let label: String; let ratio: Double; let list: [Int]
        }
        let exact = try Self.easyBake(
            Exact.self, #"{"count": 42, "flag": true, "label": "x", "ratio": 2, "list": [1, 2.0]}"#, options: none)
        #expect(exact.ratio == 2 && exact.list == [1, 2])
        #expect(throws: EasyBakeError.self) { try Self.easyBake([Int].self, #"[1, "2"]"#, options: none) }
        #expect(throws: EasyBakeError.self) { try Self.easyBake([String].self, #"["a", 2]"#, options: none) }
    }

    @Test(
        "a String asked of a number gets its literal as written",
        arguments: ["1e2", "1.10", "-0.0", "12345678901234567890123", "0.000"])
    func numberText(literal: String) throws {
        struct Model: Decodable { let text: String; let optional: String?; let list: [String] }
        let model = try Self.easyBake(
            Model.self, #"{"text": \#(literal), "optional": \#(literal), "list": [\#(literal)]}"#)
        #expect(model.text == literal)
        #expect(model.optional == literal)
        #expect(model.list == [literal])
    }

    @Test("probes agree with JSONDecoder on random payloads")
    func randomPayloads() throws {
        var random = SeededGenerator(seed: 27)
        for round in 0..<400 {
            let json = Self.randomValue(depth: 0, using: &random)
            let expected = try Self.jsonDecoder(AnyJSON.self, json)
            #expect(try Self.easyBake(AnyJSON.self, json) == expected, "round \(round): \(json)")
            #expect(
                try Self.easyBake(LooseValue.self, json) == (try Self.jsonDecoder(LooseValue.self, json)), "\(json)")
            // The same value as a property, through a recipe's nested dictionary.
            struct Holder: Decodable { let value: AnyJSON }
            #expect(try Self.easyBake(Holder.self, #"{"value": \#(json)}"#).value == expected)
        }
    }

    @Test("probes agree with JSONDecoder on the shipped JSON fixtures")
    func fixtures() throws {
        for name in ["json/users.json", "json/benchmark-users.json"] {
            let text = try String(contentsOf: TestPaths.fixture(name), encoding: .utf8)
            #expect(try Self.easyBake(AnyJSON.self, text) == (try Self.jsonDecoder(AnyJSON.self, text)), "\(name)")
            #expect(
                try Self.easyBake(LooseValue.self, text) == (try Self.jsonDecoder(LooseValue.self, text)), "\(name)")
        }
    }

    /// A random JSON value: numbers a `Double` holds exactly (so that the
    /// two decoders' one known difference, rounding past 17 digits, does not
    /// come up), numeric strings, bools, nulls, arrays, objects.
    static func randomValue(depth: Int, using random: inout SeededGenerator) -> String {
        let choice = Int.random(in: 0..<(depth > 3 ? 7 : 9), using: &random)
        switch choice {
        case 0: return ["0", "1", "-1", "42", "9007199254740991"].randomElement(using: &random)!
        case 1: return ["0.5", "-2.25", "1e2", "1.0", "3.14"].randomElement(using: &random)!
        case 2:
            return [#""0""#, #""1""#, #""12""#, #""true""#, #""no""#, #""2.5""#, #""""#].randomElement(using: &random)!
        case 3: return Bool.random(using: &random) ? "true" : "false"
        case 4: return "null"
        case 5: return #""word \#(Int.random(in: 0..<100, using: &random))""#
        case 6: return #""\#(Int.random(in: 0..<10_000, using: &random))""#
        case 7:
            let count = Int.random(in: 0..<4, using: &random)
            return "[" + (0..<count).map { _ in randomValue(depth: depth + 1, using: &random) }.joined(separator: ",")
                + "]"
        default:
            let count = Int.random(in: 0..<4, using: &random)
            return "{"
                + (0..<count).map { i in #""k\#(i)": "# + randomValue(depth: depth + 1, using: &random) }
                .joined(separator: ",") + "}"
        }
    }
}
