import EasyBake
import EasyBakeJSON
import Testing

/// An error's location points at the occurrence of a repeated key that the
/// tree holds: the first under `firstWins`, the last under `lastWins`, and
/// the one a path's index names under `collect`.
@Suite("Locations of repeated keys follow the duplicate-key policy")
struct DuplicateKeyLocationTests {
    static let text = "{\n\"a\": {\"b\": 1},\n\"a\": {\"b\": 2, \"c\": 3},\n\"d\": 4\n}\n"

    static func line(_ path: String, _ policy: DuplicateKeyPolicy) throws -> Int? {
        let document = try Document(
            reading: .text(text), format: JSONFormat(options: JSONReadingOptions(duplicateKeys: policy)))
        return document.location(of: try IngredientPath(parsing: path))?.line
    }

    @Test("firstWins: the first occurrence, and nothing from later ones")
    func firstWins() throws {
        #expect(try Self.line("a", .firstWins) == 2)
        #expect(try Self.line("a.b", .firstWins) == 2)
        // `c` is only in the dropped occurrence: the nearest present
        // ancestor is the kept `a`.
        #expect(try Self.line("a.c", .firstWins) == 2)
        #expect(try Self.line("d", .firstWins) == 4)
    }

    @Test("lastWins: the last occurrence")
    func lastWins() throws {
        #expect(try Self.line("a", .lastWins) == 3)
        #expect(try Self.line("a.b", .lastWins) == 3)
        #expect(try Self.line("a.c", .lastWins) == 3)
        #expect(try Self.line("d", .lastWins) == 4)
        // `b` is only in the dropped occurrence: the nearest present
        // ancestor is the kept `a`.
        let document = try Document(
            reading: .text("{\n\"a\": {\"b\": 1},\n\"a\": {\"c\": 3}\n}\n"),
            format: JSONFormat(options: JSONReadingOptions(duplicateKeys: .lastWins)))
        #expect(document.location(of: try IngredientPath(parsing: "a.b"))?.line == 3)
    }

    @Test("collect: the occurrence an index names; the first without one")
    func collect() throws {
        #expect(try Self.line("a[1].b", .collect) == 3)
        #expect(try Self.line("a[0].b", .collect) == 2)
        #expect(try Self.line("a.b", .collect) == 2)
    }
}
