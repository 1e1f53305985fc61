/// The error every EasyBake API throws: a ``Code`` to switch on, a message
/// that says what was expected and what was found, and where it happened —
/// the ingredient path, and for text input the line and column.
///
/// ```swift
/// do {
///     let user = try Baker().bake(User.self, from: document)
/// } catch let error as EasyBakeError where error.code == .typeMismatch {
///     print(error)   // renders like a compiler diagnostic
/// }
/// ```
public struct EasyBakeError: Error, Sendable {
    /// What kind of failure this is: one of a closed set, compared by
    /// identity, not by its words.
    ///
    /// A code is a struct over a private enum rather than a public enum, so
    /// that a later release can add codes without breaking a `switch` that
    /// lists them all (a `switch` over codes needs a `default`).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: Hashable, Sendable {
            case syntax
            case multipleDocuments
            case unsupportedEncoding
            case limitExceeded
            case duplicateKey
            case forbidden
            case invalidPath
            case invalidRecipe
            case unknownRecipeKey
            case duplicateRecipe
            case recipeNotFound
            case unknownTransformer
            case transformFailed
            case typeMismatch
            case valueNotFound
            case numberOutOfRange
            case invalidValue
            case identifierMismatch
            case unknownFormat
            case io
            case unsupported
        }

        private var wrapped: Wrapped

        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// The code's words, as the rendered error shows them (`type mismatch`).
        public var description: String {
            switch wrapped {
            case .syntax: "syntax"
            case .multipleDocuments: "multiple documents"
            case .unsupportedEncoding: "unsupported encoding"
            case .limitExceeded: "limit exceeded"
            case .duplicateKey: "duplicate key"
            case .forbidden: "forbidden"
            case .invalidPath: "invalid path"
            case .invalidRecipe: "invalid recipe"
            case .unknownRecipeKey: "unknown recipe key"
            case .duplicateRecipe: "duplicate recipe"
            case .recipeNotFound: "recipe not found"
            case .unknownTransformer: "unknown transformer"
            case .transformFailed: "transform failed"
            case .typeMismatch: "type mismatch"
            case .valueNotFound: "value not found"
            case .numberOutOfRange: "number out of range"
            case .invalidValue: "invalid value"
            case .identifierMismatch: "identifier mismatch"
            case .unknownFormat: "unknown format"
            case .io: "i/o"
            case .unsupported: "unsupported"
            }
        }

        /// The input is not well formed in its format.
        public static var syntax: Code { Code(.syntax) }
        /// The input holds several documents (a YAML stream) where one is
        /// expected; the message says how many, and how to read them.
        public static var multipleDocuments: Code { Code(.multipleDocuments) }
        /// The input is not in an encoding the source reads.
        public static var unsupportedEncoding: Code { Code(.unsupportedEncoding) }
        /// The input passed one of the ``IngredientLimits``.
        public static var limitExceeded: Code { Code(.limitExceeded) }
        /// A key repeats in one dictionary under ``DuplicateKeyPolicy/reject``.
        public static var duplicateKey: Code { Code(.duplicateKey) }
        /// The input asks for something refused for safety (an external entity).
        public static var forbidden: Code { Code(.forbidden) }
        /// An ingredient path does not parse.
        public static var invalidPath: Code { Code(.invalidPath) }
        /// A recipe is invalid; ``EasyBakeError/problems`` lists every problem.
        public static var invalidRecipe: Code { Code(.invalidRecipe) }
        /// A recipe names a key that is no property of the model it bakes
        /// (see ``Baker/UnknownRecipeKeyPolicy``).
        public static var unknownRecipeKey: Code { Code(.unknownRecipeKey) }
        /// A recipe box already holds a recipe with that name.
        public static var duplicateRecipe: Code { Code(.duplicateRecipe) }
        /// No recipe with that name.
        public static var recipeNotFound: Code { Code(.recipeNotFound) }
        /// No transformer registered with that name.
        public static var unknownTransformer: Code { Code(.unknownTransformer) }
        /// A transformer could not transform the value.
        public static var transformFailed: Code { Code(.transformFailed) }
        /// A value has a type the model cannot take, even with coercion.
        public static var typeMismatch: Code { Code(.typeMismatch) }
        /// The model needs a value that the ingredients do not have (or have as null).
        public static var valueNotFound: Code { Code(.valueNotFound) }
        /// A number does not fit the model's numeric type.
        public static var numberOutOfRange: Code { Code(.numberOutOfRange) }
        /// The value is of the right type but not acceptable (a malformed date or URL).
        public static var invalidValue: Code { Code(.invalidValue) }
        /// An update carries an identifier different from the model's.
        public static var identifierMismatch: Code { Code(.identifierMismatch) }
        /// No format is registered for a name or file extension.
        public static var unknownFormat: Code { Code(.unknownFormat) }
        /// Reading or writing a file failed.
        public static var io: Code { Code(.io) }
        /// The operation is not supported (writing a format that has no writer).
        public static var unsupported: Code { Code(.unsupported) }
    }

    /// What kind of failure this is.
    public var code: Code
    /// What was expected and what was found, in words.
    public var message: String
    /// Where in the text input, when the ingredients came from text.
    public var location: SourceLocation?
    /// The ingredient path of the value concerned.
    public var path: IngredientPath?
    /// For baking errors: the model type, the property, and the types involved.
    public var baking: BakingContext?
    /// Further errors reported together with this one (every problem of a recipe).
    public var problems: [EasyBakeError]
    /// The error that caused this one, if any.
    public var cause: (any Error & Sendable)?

    /// An error with a code and a message, and where known its location,
    /// path, baking context, related problems and cause.
    ///
    /// Custom sources and transformers throw errors like these, so that they
    /// render and locate like EasyBake's own:
    ///
    /// ```swift
    /// throw EasyBakeError(.invalidValue, "expected a currency code, found \(value.briefDescription)")
    /// ```
    ///
    /// - Parameters:
    ///   - code: what kind of failure this is.
    ///   - message: what was expected and what was found, in words.
    ///   - location: where in the text input.
    ///   - path: the ingredient path of the value concerned.
    ///   - baking: the model, property and types, for baking errors.
    ///   - problems: further errors reported together with this one.
    ///   - cause: the error that caused this one.
    public init(
        _ code: Code,
        _ message: String,
        location: SourceLocation? = nil,
        path: IngredientPath? = nil,
        baking: BakingContext? = nil,
        problems: [EasyBakeError] = [],
        cause: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.location = location
        self.path = path
        self.baking = baking
        self.problems = problems
        self.cause = cause
    }

    /// Context of an error raised while baking a model.
    public struct BakingContext: Sendable, Hashable {
        /// The model type being baked (`User`).
        public var modelType: String
        /// The property, as a coding path (`address.zip`, `orders[2].total`).
        public var property: String
        /// The type the model expected (`Int`).
        public var expected: String?
        /// A short rendering of the value found (`"abc" (string)`).
        public var found: String?

        /// The context of a baking error about `property` of `modelType`.
        init(modelType: String, property: String, expected: String? = nil, found: String? = nil) {
            self.modelType = modelType
            self.property = property
            self.expected = expected
            self.found = found
        }
    }
}

extension EasyBakeError: CustomStringConvertible {
    /// A compiler-style rendering:
    ///
    /// ```
    /// error: type mismatch: expected Int, found "abc" (string)
    ///  --> users.json:3:14
    ///   |
    /// 3 |   "age": "abc",
    ///   |          ^
    ///   = model: User, property: age, path: users[0].age
    /// ```
    public var description: String {
        var text = "error: \(code): \(message)"
        if let location {
            text += "\n --> \(location)"
            if let lineText = location.lineText {
                let gutter = String(location.line)
                let pad = String(repeating: " ", count: gutter.count)
                let caretColumn = max(0, location.column - 1)
                let prefix = lineText.unicodeScalars.prefix(caretColumn).map { $0 == "\t" ? "\t" : " " }.joined()
                text += "\n\(pad) |\n\(gutter) | \(lineText)\n\(pad) | \(prefix)^"
            }
        }
        var notes: [String] = []
        if let baking {
            notes.append("model: \(baking.modelType), property: \(baking.property)")
        }
        if let path { notes.append("path: \(path.errorDescription)") }
        if !notes.isEmpty { text += "\n  = " + notes.joined(separator: ", ") }
        for problem in problems {
            text +=
                "\n  - "
                + problem.description.split(separator: "\n", omittingEmptySubsequences: false)
                .joined(separator: "\n    ")
        }
        if let cause { text += "\n  caused by: \(cause)" }
        return text
    }
}

extension EasyBakeError {
    /// A syntax error at `location`.
    public static func syntax(_ message: String, at location: SourceLocation?) -> EasyBakeError {
        EasyBakeError(.syntax, message, location: location)
    }
}
