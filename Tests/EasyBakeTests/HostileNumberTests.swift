import EasyBake
import EasyBakeTestSupport
import Foundation
import Testing

/// Numbers no payload should hold, fed to every transformer, coercion,
/// decompose and update: each gives a value or an `EasyBakeError`, never a
/// trap (a trap would end the test process, so finishing is the proof).
@Suite("Hostile numbers")
struct HostileNumberTests {
    static let hostile: [Ingredients] = [
        1e20, -1e20, 1e308, -1e308, .float(.greatestFiniteMagnitude), .float(-.greatestFiniteMagnitude),
        .float(.leastNonzeroMagnitude), .float(-0.0), 0, -1, 1_372_701_600_000, 1_372_701_600_000_000,
        .integer(.max), .integer(.min), .integer(.max - 1), .integer(.min + 1),
        .float(9_223_372_036_854_775_808), .float(-9_223_372_036_854_775_808), .float(1.5e19),
        .exactNumber("1e400"), .exactNumber("-1e400"), .exactNumber("123456789012345678901234567890"),
        .exactNumber("1e-400"), "1e20", "-1e20", "9223372036854775808", "-9223372036854775809", "NaN", "nan",
        "inf", "-Infinity", "", " ", "12abc", .string(String(repeating: "9", count: 400)), "0x10", true, .null,
        [1e20], ["a": 1e20],
    ]

    struct Stamp: Dough {
        let id: Int
        let at: Date
        let count: Int?
        static let bakingRecipe: Recipe? = try? Recipe(
            name: "Stamp", mapping: ["id": "id", "at": "at", "count": "count"])
    }

    @Test("a Unix time of 1e20 seconds is out of range, with the path, not a trap")
    func unixSecondsOutOfRange() throws {
        let recipe = try Recipe(mapping: ["a": "a"], transformers: ["a": "unixSeconds"])
        let error = #expect(throws: EasyBakeError.self) { _ = try recipe.process(["a": 1e20]) }
        #expect(error?.code == .numberOutOfRange)
        #expect(error?.path?.description == "a")
        let coerced = #expect(throws: EasyBakeError.self) {
            _ = try Baker().bake(
                Stamp.self, from: ["id": 1, "at": 1e20], recipe: Recipe(mapping: ["id": "id", "at": "at"]))
        }
        #expect(coerced?.code == .numberOutOfRange)
        #expect(coerced?.path?.description == "at")
    }

    @Test("epoch milliseconds read as seconds are refused, suggesting unixMilliseconds")
    func millisecondsAsSeconds() throws {
        let seconds = try Recipe(mapping: ["a": "start"], transformers: ["a": "unixSeconds"])
        let error = #expect(throws: EasyBakeError.self) { _ = try seconds.process(["start": 1_372_701_600_000]) }
        #expect(error?.code == .numberOutOfRange)
        #expect(error?.message.contains("unixMilliseconds") == true)
        let milliseconds = try Recipe(mapping: ["a": "start"], transformers: ["a": "unixMilliseconds"])
        #expect(try milliseconds.process(["start": 1_372_701_600_000])["a"] == "2013-07-01T18:00:00Z")
        let absurd = #expect(throws: EasyBakeError.self) { _ = try milliseconds.process(["start": 1e30]) }
        #expect(absurd?.code == .numberOutOfRange)
    }

    @Test("a model holding a date beyond the year 9999 decomposes to an error, and compares without a trap")
    func farDates() throws {
        let far = Stamp(id: 1, at: Date(timeIntervalSince1970: 1e20), count: nil)
        let near = Stamp(id: 1, at: Date(timeIntervalSince1970: 0), count: nil)
        let error = #expect(throws: EasyBakeError.self) { _ = try Baker().decompose(far) }
        #expect(error?.code == .numberOutOfRange)
        #expect(!far.hasSameContents(as: near))
        #expect(throws: EasyBakeError.self) { _ = try far.difference(to: near) }
        #expect(throws: EasyBakeError.self) { _ = try far.updated(with: ["count": 2]) }
        #expect(DateFormats.formatISO8601(Date(timeIntervalSince1970: 1e20)) == "1e+20")
        #expect(DateFormats.formatISO8601(Date(timeIntervalSince1970: .nan)) == "nan")
        #expect(!DateFormats.formatRFC1123(Date(timeIntervalSince1970: -.infinity)).isEmpty)
    }

    @Test("every registered transformer, both ways, on every hostile value")
    func transformers() throws {
        let names = TransformerRegistry.builtIn.names
        #expect(names.contains("unixSeconds") && names.contains("number"))
        for name in names {
            let transformer = try TransformerRegistry.builtIn.resolve(.string(name))
            for value in Self.hostile {
                do {
                    let forward = try transformer.transform(value)
                    if transformer.allowsReverseTransformation { _ = try transformer.reverseTransform(forward) }
                } catch is EasyBakeError {
                } catch {
                    Issue.record("\(name) on \(value): not an EasyBakeError: \(error)")
                }
                if transformer.allowsReverseTransformation {
                    do { _ = try transformer.reverseTransform(value) } catch is EasyBakeError {} catch {
                        Issue.record("\(name) reversing \(value): not an EasyBakeError: \(error)")
                    }
                }
            }
        }
    }

    struct Box<Value: Codable & Hashable & Sendable>: Dough {
        let id: Int
        let value: Value
    }

    static func bakeAndRound<Value: Codable & Hashable & Sendable>(_ type: Value.Type) {
        for value in Self.hostile {
            do {
                let box = try Baker().bake(Box<Value>.self, from: ["id": 1, "value": value])
                // What baked decomposes, updates and bakes again without a trap.
                do {
                    _ = try box.updated(with: [:])
                    _ = try Baker().bake(Box<Value>.self, from: try Baker().decompose(box))
                } catch {}
            } catch {
                #expect(!error.message.isEmpty, "\(Value.self) from \(value)")
            }
        }
    }

    @Test("every coercion target on every hostile value, then decompose and update")
    func coercions() {
        Self.bakeAndRound(Int.self)
        Self.bakeAndRound(Int8.self)
        Self.bakeAndRound(Int16.self)
        Self.bakeAndRound(Int32.self)
        Self.bakeAndRound(Int64.self)
        Self.bakeAndRound(UInt.self)
        Self.bakeAndRound(UInt8.self)
        Self.bakeAndRound(UInt16.self)
        Self.bakeAndRound(UInt32.self)
        Self.bakeAndRound(UInt64.self)
        Self.bakeAndRound(Double.self)
        Self.bakeAndRound(Float.self)
        Self.bakeAndRound(Bool.self)
        Self.bakeAndRound(String.self)
        Self.bakeAndRound(Date.self)
        Self.bakeAndRound(URL.self)
        Self.bakeAndRound(Decimal.self)
        Self.bakeAndRound(Data.self)
        Self.bakeAndRound(UUID.self)
        Self.bakeAndRound(Int?.self)
        Self.bakeAndRound(Date?.self)
        Self.bakeAndRound([Int].self)
        Self.bakeAndRound([Double].self)
        Self.bakeAndRound([String: Int].self)
    }
}
