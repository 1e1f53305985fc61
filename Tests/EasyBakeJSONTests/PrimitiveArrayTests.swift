import Foundation
import Testing
import EasyBake
import EasyBakeJSON

/// Arrays of strings, numbers and booleans are read straight from the index
/// instead of through `Array`'s `init(from:)`: the values, errors and
/// warnings must be exactly those of the generic road, which
/// `ContiguousArray` still takes.
@Suite("Arrays of primitives")
struct PrimitiveArrayTests {
    struct Fast<Element: Decodable & Equatable>: Decodable, Equatable {
        let values: [Element]
    }

    struct Generic<Element: Decodable & Equatable>: Decodable, Equatable {
        let values: ContiguousArray<Element>
    }

    struct Outcome<Value: Equatable>: Equatable {
        var value: Value?
        var error: String?
        var path: String?
        var warnings: [String] = []
    }

    static func outcome<Model: Decodable & Equatable, Value: Equatable>(
        _ type: Model.Type, _ json: String, options: Baker.Options, _ values: (Model) -> Value
    ) -> Outcome<Value> {
        do {
            let result = try Baker(options: options).bakeReporting(type, from: .text(json), format: JSONFormat())
            return Outcome(
                value: values(result.value),
                warnings: result.warnings.map { "\($0.path?.description ?? "") \(withoutModelName($0.message))" })
        } catch {
            return Outcome(error: withoutModelName(error.message), path: error.path?.description)
        }
    }

    /// A message without the model's name that starts it (`Fast<Int>.values[1]: …`).
    static func withoutModelName(_ message: String) -> String {
        message.replacing(/(Fast|Generic)<.*?>\./, with: "")
    }

    static func expectSame<Element: Decodable & Equatable>(
        _ element: Element.Type, _ json: String, options: Baker.Options = .init(),
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> Outcome<[Element]> {
        let fast = outcome(Fast<Element>.self, json, options: options) { $0.values }
        let generic = outcome(Generic<Element>.self, json, options: options) { Array($0.values) }
        #expect(fast == generic, sourceLocation: sourceLocation)
        return fast
    }

    @Test("values coerce as every other value does")
    func values() {
        #expect(
            Self.expectSame(Double.self, #"{"values": [1, 2.5, "3", -0.0, 1e3]}"#).value == [1, 2.5, 3, -0.0, 1000])
        #expect(Self.expectSame(Int.self, #"{"values": [1, "2", 3.0]}"#).value == [1, 2, 3])
        #expect(Self.expectSame(String.self, #"{"values": ["a", "b\u00e9", ""]}"#).value == ["a", "bé", ""])
        #expect(Self.expectSame(Bool.self, #"{"values": [true, false, "true"]}"#).value == [true, false, true])
        #expect(Self.expectSame(Int.self, #"{"values": []}"#).value == [])
    }

    @Test("a null or an element that does not coerce fails where the generic road fails")
    func failures() {
        let null = Self.expectSame(Double.self, #"{"values": [1, null, 3]}"#)
        #expect(null.path == "values[1]")
        let word = Self.expectSame(Int.self, #"{"values": [1, 2, "three"]}"#)
        #expect(word.path == "values[2]")
        let nested = Self.expectSame(Int.self, #"{"values": [1, [2], 3]}"#)
        #expect(nested.error != nil)
    }

    @Test("lossy arrays drop what does not coerce, with the same warnings")
    func lossy() {
        var options = Baker.Options()
        options.lossyArrays = true
        let outcome = Self.outcome(Fast<Int>.self, #"{"values": [1, "x", 3]}"#, options: options) { $0.values }
        #expect(outcome.value == [1, 3])
        #expect(outcome.warnings == [#"values[1] dropped array element: values[1]: expected Int, found "x" (string)"#])
    }

    struct Polygon: Decodable, Equatable {
        let coordinates: [[[Double]]]
    }

    @Test("arrays of arrays of numbers: values and the path of a bad one")
    func nested() throws {
        let polygon = try Baker().bake(
            Polygon.self, from: .text(#"{"coordinates": [[[1, 2], [3.5, -4]], [[5, 6]]]}"#), format: JSONFormat())
        #expect(polygon.coordinates == [[[1, 2], [3.5, -4]], [[5, 6]]])
        #expect {
            try Baker().bake(
                Polygon.self, from: .text(#"{"coordinates": [[[1, 2], [3.5, "x"]]]}"#), format: JSONFormat())
        } throws: { error in
            (error as? EasyBakeError)?.path?.description == "coordinates[0][1][1]"
        }
        let rows = Self.outcome(Fast<[Int]>.self, #"{"values": [[1, 2], [3, null]]}"#, options: .init()) { $0.values }
        let genericRows = Self.outcome(
            Generic<ContiguousArray<Int>>.self, #"{"values": [[1, 2], [3, null]]}"#, options: .init()
        ) {
            $0.values.map { Array($0) }
        }
        #expect(rows == genericRows)
        #expect(rows.path == "values[1][1]")
    }
}
