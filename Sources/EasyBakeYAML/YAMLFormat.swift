import EasyBake

/// YAML as an `IngredientFormat`: read with ``YAMLIngredientSource`` (on
/// the system libyaml), written in block style with libyaml's emitter.
///
/// ```swift
/// let tree = try YAMLFormat().read(.file("config.yml"))
/// let text = try YAMLFormat().write(tree)
/// ```
public struct YAMLFormat: IngredientFormat {
    /// How sources made by this format read.
    public var options: YAMLReadingOptions
    /// When set, sources read only the documents that begin in this byte
    /// range of the input, as an array (``YAMLIngredientSource/init(_:byteRange:options:)``):
    /// one worker's share of a large stream.
    public var byteRange: Range<Int>?

    /// The format, reading with `options`.
    public init(options: YAMLReadingOptions = .init()) { self.options = options }

    /// `yaml`.
    public var name: String { "yaml" }
    /// `yaml` and `yml`.
    public var fileExtensions: [String] { ["yaml", "yml"] }

    /// A ``YAMLIngredientSource`` for `input` (for ``byteRange``'s
    /// documents, when it is set).
    ///
    /// - Throws: `EasyBakeError.Code.io` when the input cannot be opened.
    public func makeSource(for input: IngredientInput) throws(EasyBakeError) -> any IngredientSource {
        guard let byteRange else { return try YAMLIngredientSource(input, options: options) }
        return try YAMLIngredientSource(input, byteRange: byteRange, options: options)
    }

    /// Writes the events of `source` as YAML: block style, keys in the
    /// order read (or sorted, with `WritingOptions.sortedKeys`), strings
    /// quoted wherever a plain scalar would read back as another type
    /// (`"true"`, `"123"`, `"null"`, `""`, `"yes"`), multi-line strings as
    /// literal blocks. Several top-level values become several documents.
    ///
    /// - Throws: the source's errors; `EasyBakeError.Code.syntax` when its
    ///   events are out of order.
    public func write(_ source: inout some IngredientSource, options: WritingOptions) throws(EasyBakeError) -> [UInt8] {
        try YAMLWriter(options: options).write(&source)
    }

    /// Reads every document of a stream, one tree per document.
    ///
    /// ```swift
    /// let documents = try YAMLFormat().readDocuments(.text("a: 1\n---\na: 2\n"))
    /// // [["a": 1], ["a": 2]]
    /// ```
    ///
    /// - Throws: `EasyBakeError` for malformed YAML or a passed limit.
    public func readDocuments(_ input: IngredientInput) throws(EasyBakeError) -> [Ingredients] {
        var each = options
        each.documents = .each
        var source = try YAMLIngredientSource(input, options: each)
        var documents: [Ingredients] = []
        while let document = try Ingredients.read(from: &source) { documents.append(document) }
        return documents
    }
}

extension IngredientFormat where Self == YAMLFormat {
    /// The YAML format with the default options, `YAMLFormat()`: for a
    /// parameter that takes a format (`Document(reading: input, format: .yaml)`).
    public static var yaml: YAMLFormat { YAMLFormat() }
}
