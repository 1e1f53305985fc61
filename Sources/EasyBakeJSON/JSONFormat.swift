import EasyBake

/// The JSON format: ``JSONIngredientSource`` to read, ``JSONWriter`` to write.
///
/// ```swift
/// let tree = try JSONFormat().read(.file("users.json"))
/// let text = try JSONFormat().write(tree, options: .init(prettyPrinted: true, sortedKeys: true))
/// ```
public struct JSONFormat: IngredientFormat {
    /// How its sources read: the duplicate-key policy (default first wins)
    /// and the limits every source of this format enforces.
    public var options: JSONReadingOptions
    /// When set, its sources read only the elements of the top-level array that begin in this byte
    /// range of the input, as an array (``JSONIngredientSource/init(_:byteRange:options:)``):
    /// one worker's share of a file that several read. Default `nil`, the whole input.
    public var byteRange: Range<Int>?

    /// The JSON format whose sources read with `options`, as `XMLFormat` and
    /// `YAMLFormat` take theirs.
    ///
    /// ```swift
    /// var limits = IngredientLimits.default
    /// limits.maximumNodes = 1_000_000
    /// let strict = JSONFormat(options: .init(duplicateKeys: .reject, limits: limits))
    /// ```
    public init(options: JSONReadingOptions = .init()) {
        self.options = options
    }

    /// This format's source for `input`, over its byte range if it has one.
    func makeConcreteSource(for input: IngredientInput) throws(EasyBakeError) -> JSONIngredientSource {
        guard let byteRange else {
            return try JSONIngredientSource(input, options: options)
        }
        return try JSONIngredientSource(input, byteRange: byteRange, options: options)
    }

    /// `json`.
    public var name: String { "json" }
    /// `json`.
    public var fileExtensions: [String] { ["json"] }

    /// A ``JSONIngredientSource`` for `input`, with this format's options.
    public func makeSource(for input: IngredientInput) throws(EasyBakeError) -> any IngredientSource {
        try makeConcreteSource(for: input)
    }

    /// Writes the value of `source` as JSON text with ``JSONWriter``; a
    /// second value after it is an error, since JSON holds one.
    public func write(_ source: inout some IngredientSource, options: WritingOptions) throws(EasyBakeError) -> [UInt8] {
        let bytes = try JSONWriter(options: options).write(&source)
        try requireNoMoreValues(in: &source)
        return bytes
    }

    /// Reads `input` into `index` straight from its bytes
    /// (``JSONIngredientSource/readIndex(into:)``).
    public func readIndex(_ input: IngredientInput, into index: inout IngredientIndex) throws(EasyBakeError) {
        var source = try makeConcreteSource(for: input)
        try source.readIndex(into: &index)
    }
}

extension IngredientFormat where Self == JSONFormat {
    /// The JSON format with the default options, `JSONFormat()`: for
    /// a parameter that takes a format (`Document(reading: input, format: .json)`).
    public static var json: JSONFormat { JSONFormat() }
}
