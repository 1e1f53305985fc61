import Foundation
import Testing
@testable import EasyBake
import EasyBakeTestSupport

/// Text coerced to a number or a boolean is trimmed of spaces exactly as
/// Foundation's `CharacterSet.whitespaces` trims, without Foundation.
@Suite("Coercion trims spaces as Foundation does")
struct CoercionSpacesTests {
    @Test("the trimmed text equals Foundation's, for spaces of every kind")
    func sameAsFoundation() {
        let pieces = [
            " ", "\t", "\n", "\r", "\u{00A0}", "\u{2003}", "\u{3000}", "\u{200B}", "\u{FEFF}", "a", "4", "é", "👍🏽", "-",
            "",
        ]
        var random = SeededGenerator(seed: 7)
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined()
            #expect(
                String(Coercion.trimmingSpaces(text)) == text.trimmingCharacters(in: .whitespaces),
                "\(text.debugDescription)")
        }
    }

    struct Values: Decodable, Equatable {
        let i: Int
        let d: Double
        let b: Bool
    }

    @Test("numbers and booleans in text with spaces around them bake; a newline is no space")
    func baking() throws {
        let baked = try Baker().bake(Values.self, from: ["i": " 42\t", "d": "\u{00A0}2.5\u{3000}", "b": " yes "])
        #expect(baked == Values(i: 42, d: 2.5, b: true))
        #expect(throws: EasyBakeError.self) {
            try Baker().bake(Values.self, from: ["i": "\n42", "d": "1", "b": "true"])
        }
    }
}
