import EasyBake
import EasyBakeJSON
import Foundation
@testable import EasyBakeMacrosImplementation
import SwiftSyntax
import Testing

// Issue 31: `@Default` accepts a literal exactly when baking converts it.
// Every literal is judged by the macro's compile-time check and baked at
// run time into a property of every scalar type, as the default of a
// missing value; the two must agree on each pair.

private struct Holder<Value: Decodable>: Decodable {
    var value: Value
}

@Suite("@Default literals: the macro accepts what baking converts")
struct DefaultConversionTests {
    /// Each literal as the macro sees it (source text) and as the recipe
    /// holds it (the `Ingredients` the same literal makes).
    static let literals: [(source: String, value: Ingredients)] = [
        (#""42""#, "42"), (#""-7""#, "-7"), (#""1.0""#, "1.0"), (#""1e2""#, "1e2"), (#""2.5""#, "2.5"),
        (#"" 12 ""#, " 12 "), (#""forty""#, "forty"), (#""""#, ""), (#""yes""#, "yes"), (#""Off""#, "Off"),
        (#""0""#, "0"), (#""1""#, "1"), (#""true""#, "true"), (#""300""#, "300"), (#""1e999""#, "1e999"),
        ("0", 0), ("1", 1), ("2", 2), ("-1", -1), ("300", 300), ("70_000", 70_000), ("0x1F", 0x1F),
        ("1.0", 1.0), ("1.5", 1.5), ("-2.0", -2.0), ("1e39", 1e39), ("0.0", 0.0),
        ("true", true), ("false", false),
    ]

    static let types: [(name: String, bakes: @Sendable (Ingredients) -> Bool)] = [
        ("String", { bakes(String.self, $0) }), ("Int", { bakes(Int.self, $0) }), ("Int8", { bakes(Int8.self, $0) }),
        ("UInt8", { bakes(UInt8.self, $0) }), ("Int16", { bakes(Int16.self, $0) }), ("UInt", { bakes(UInt.self, $0) }),
        ("Double", { bakes(Double.self, $0) }), ("Float", { bakes(Float.self, $0) }),
        ("Decimal", { bakes(Decimal.self, $0) }), ("Bool", { bakes(Bool.self, $0) }),
    ]

    @Test("every literal on every scalar type", arguments: 0..<types.count)
    func literalsOnType(typeIndex: Int) throws {
        let (typeName, bakes) = Self.types[typeIndex]
        var accepted = 0
        for (source, value) in Self.literals {
            let macroAccepts =
                DefaultLiteral.mismatch(ExprSyntax("\(raw: source)"), TypeSyntax("\(raw: typeName)")) == nil
            let bakingConverts = bakes(value)
            #expect(
                macroAccepts == bakingConverts,
                "@Default(\(source)) var value: \(typeName): the macro \(macroAccepts ? "accepts" : "refuses") it, baking \(bakingConverts ? "converts" : "does not convert") it"
            )
            if macroAccepts { accepted += 1 }
        }
        // Every scalar converts into a String; on every other type both
        // answers are exercised.
        if typeName == "String" {
            #expect(accepted == Self.literals.count)
        } else {
            #expect(accepted > 0 && accepted < Self.literals.count, "\(typeName): \(accepted) accepted")
        }
    }

    /// Whether `value`, the default of a missing property of type `T`, bakes.
    static func bakes<T: Decodable>(_ type: T.Type, _ value: Ingredients) -> Bool {
        do {
            let recipe = try Recipe(name: "Holder", mapping: ["value": "missing"], defaults: ["value": value])
            _ = try Baker().bake(Holder<T>.self, from: .bytes(Array("{}".utf8)), format: JSONFormat(), recipe: recipe)
            return true
        } catch {
            return false
        }
    }
}
