import Foundation
import Testing
import EasyBake
import EasyBakeJSON

/// Dictionaries keyed by the payload's own keys (`[String: Product]` over a
/// catalogue keyed by ids): every key is found, the first of a repeated key
/// wins, and the order the model asks in does not matter.
@Suite("Dictionaries keyed by the payload")
struct PayloadKeyedDictionaryTests {
    struct Product: Decodable, Equatable {
        let name: String
        let stock: Int
    }

    struct Catalogue: Decodable {
        let products: [String: Product]
    }

    @Test("a catalogue of many ids bakes every product, from bytes and from a tree")
    func manyIDs() throws {
        let count = 20_000
        var json = #"{"products": {"#
        for id in 0..<count {
            if id > 0 { json += "," }
            json += #""p\#(id)": {"name": "product \#(id)", "stock": \#(id % 97)}"#
        }
        json += "}}"
        let fromBytes = try Baker().bake(Catalogue.self, from: .text(json), format: JSONFormat())
        #expect(fromBytes.products.count == count)
        for id in [0, 1, 4_321, count - 1] {
            #expect(fromBytes.products["p\(id)"] == Product(name: "product \(id)", stock: id % 97))
        }
        let fromTree = try Baker().bake(Catalogue.self, from: try JSONFormat().read(.text(json)))
        #expect(fromTree.products == fromBytes.products)
    }

    @Test("a nested recipe on a [String: Model] property bakes each value of the map, the keys kept")
    func nestedRecipeOnMap() throws {
        struct Event: Decodable, Equatable { let title: String; let seats: Int }
        struct Catalogue: Decodable { let events: [String: Event]; let count: Int }
        let json = #"""
            {"events": {"138586341": {"name": "Concert", "capacity": "120"},
                        "138586345": {"name": "Play", "capacity": 80}}, "count": 2}
            """#
        let recipe = try Recipe(
            mapping: ["events": "events", "count": "count"],
            nested: ["events": try Recipe(mapping: ["title": "name", "seats": "capacity"])])
        let expected = ["138586341": Event(title: "Concert", seats: 120), "138586345": Event(title: "Play", seats: 80)]
        let fromBytes = try Baker().bake(Catalogue.self, from: .text(json), format: JSONFormat(), recipe: recipe)
        #expect(fromBytes.events == expected)
        let fromTree = try Baker().bake(Catalogue.self, from: try JSONFormat().read(.text(json)), recipe: recipe)
        #expect(fromTree.events == expected)
        let streamed = try Baker().bakeEach(
            Catalogue.self, from: try JSONIngredientSource(.text("[\(json), \(json)]")), each: "[*]", recipe: recipe
        )
        .map { try $0.get().events }
        #expect(streamed == [expected, expected])
        // An error inside a value names the value's key in its path.
        let broken = json.replacingOccurrences(of: "80", with: "\"many\"")
        #expect {
            _ = try Baker().bake(Catalogue.self, from: .text(broken), format: JSONFormat(), recipe: recipe)
        } throws: { error in
            (error as? EasyBakeError)?.path?.description == "events.138586345.capacity"
        }
        // A map that is not a dictionary is a type mismatch, not an empty map.
        #expect(throws: EasyBakeError.self) {
            _ = try Baker().bake(
                Catalogue.self, from: .text(#"{"events": [1], "count": 0}"#), format: JSONFormat(), recipe: recipe)
        }
    }

    @Test("the first of a repeated key wins, as it does for a model's property")
    func repeatedKey() throws {
        let json = #"{"a": 1, "b": 2, "a": 3, "c": 4}"#
        let baked = try Baker().bake([String: Int].self, from: .text(json), format: JSONFormat())
        #expect(baked == ["a": 1, "b": 2, "c": 4])
    }

    /// Decodes every key `allKeys` names, last to first, then one more key by
    /// implicit matching: what a hand-written `init(from:)` may do.
    struct Backwards: Decodable {
        struct AnyKey: CodingKey {
            let stringValue: String
            init(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }
        let values: [String: Int]
        let userID: Int

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            var values: [String: Int] = [:]
            for key in container.allKeys.reversed() where key.stringValue != "user_id" {
                values[key.stringValue] = try container.decode(Int.self, forKey: key)
            }
            self.values = values
            userID = try container.decode(Int.self, forKey: AnyKey(stringValue: "userID"))
        }
    }

    @Test("keys asked out of order, and a key matched implicitly after allKeys, are found")
    func outOfOrder() throws {
        let json = #"{"x": 1, "y": 2, "z": 3, "user_id": 7, "x": 9}"#
        let baked = try Baker().bake(Backwards.self, from: .text(json), format: JSONFormat())
        #expect(baked.values == ["x": 1, "y": 2, "z": 3])
        #expect(baked.userID == 7)
    }

    @Test("a missing value in a payload-keyed dictionary is reported at its path")
    func errorPath() throws {
        let json = #"{"products": {"p1": {"name": "one", "stock": 1}, "p2": {"name": "two"}}}"#
        #expect {
            try Baker().bake(Catalogue.self, from: .text(json), format: JSONFormat())
        } throws: { error in
            guard let error = error as? EasyBakeError else { return false }
            return error.path?.description == "products.p2.stock" && error.location?.line == 1
        }
    }
}
