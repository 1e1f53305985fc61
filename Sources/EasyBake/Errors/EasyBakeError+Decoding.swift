extension EasyBakeError.Code {
    /// The code for an error a model's own `init(from:)` (or a `Decodable`
    /// type it decodes) threw, and the context the error carries: a missing
    /// key is a missing value to EasyBake, corrupt data an invalid value.
    /// The one place `DecodingError` cases become codes, so that the decoder
    /// and the bake's error conversion cannot disagree.
    static func decoding(_ error: DecodingError) -> (code: EasyBakeError.Code, context: DecodingError.Context?) {
        switch error {
        case .typeMismatch(_, let context): (.typeMismatch, context)
        case .valueNotFound(_, let context): (.valueNotFound, context)
        case .keyNotFound(_, let context): (.valueNotFound, context)
        case .dataCorrupted(let context): (.invalidValue, context)
        @unknown default: (.invalidValue, nil)
        }
    }
}
