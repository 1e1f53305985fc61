import EasyBake
import Testing

@Suite("Error codes: a closed set that keeps its words")
struct ErrorCodeTests {
    /// Every code with the words the rendered errors have always shown.
    static let codes: [(EasyBakeError.Code, String)] = [
        (.syntax, "syntax"), (.multipleDocuments, "multiple documents"),
        (.unsupportedEncoding, "unsupported encoding"), (.limitExceeded, "limit exceeded"),
        (.duplicateKey, "duplicate key"), (.forbidden, "forbidden"), (.invalidPath, "invalid path"),
        (.invalidRecipe, "invalid recipe"), (.unknownRecipeKey, "unknown recipe key"),
        (.duplicateRecipe, "duplicate recipe"), (.recipeNotFound, "recipe not found"),
        (.unknownTransformer, "unknown transformer"), (.transformFailed, "transform failed"),
        (.typeMismatch, "type mismatch"), (.valueNotFound, "value not found"),
        (.numberOutOfRange, "number out of range"), (.invalidValue, "invalid value"),
        (.identifierMismatch, "identifier mismatch"), (.unknownFormat, "unknown format"), (.io, "i/o"),
        (.unsupported, "unsupported"),
    ]

    @Test("each code renders its words, and equals only itself")
    func identity() {
        #expect(Set(Self.codes.map(\.0)).count == Self.codes.count)
        for (code, words) in Self.codes {
            #expect(code.description == words)
            #expect(EasyBakeError(code, "m").description == "error: \(words): m")
        }
        #expect(EasyBakeError.Code.typeMismatch == .typeMismatch)
        #expect(EasyBakeError.Code.typeMismatch != .valueNotFound)
    }
}
