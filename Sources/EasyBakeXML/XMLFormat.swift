import EasyBake

/// The XML format: reads with ``XMLIngredientSource`` and writes ingredients
/// back as XML under the same conventions (see ``XMLReadingOptions``).
///
/// ```swift
/// let tree = try XMLFormat().read(.file("feed.rss"))
/// let xml = try XMLFormat().write(["note": ["@id": "1", "body": "Hi"]])
/// // <?xml version="1.0" encoding="UTF-8"?>
/// // <note id="1"><body>Hi</body></note>
/// ```
///
/// The writer maps keys with the attribute prefix to attributes, the text
/// key to text, arrays to repeated elements, null to an empty element, and
/// escapes text and attribute values. A top value that is a dictionary with
/// a single element key becomes the root element; any other top value is
/// written inside a root element named by `WritingOptions.rootName`
/// (default `root`). Reading what the writer wrote gives the same tree for
/// every tree that follows the reading conventions (strings, nulls,
/// dictionaries, arrays of repeated elements).
public struct XMLFormat: IngredientFormat {
    /// The conventions and limits for reading, and the attribute prefix and
    /// text key for writing.
    public var options: XMLReadingOptions

    /// The XML format with `options`.
    public init(options: XMLReadingOptions = .init()) {
        self.options = options
    }

    /// `xml`.
    public var name: String { "xml" }

    /// `xml`, `rss` and `atom`.
    public var fileExtensions: [String] { ["xml", "rss", "atom"] }

    /// An ``XMLIngredientSource`` for `input`.
    ///
    /// - Throws: the errors of ``XMLIngredientSource/init(_:options:)``.
    public func makeSource(for input: IngredientInput) throws(EasyBakeError) -> any IngredientSource {
        try XMLIngredientSource(input, options: options)
    }

    /// Reads the single value of `input` into `index`, replacing what it
    /// held, straight from libxml2's callbacks (no events): the index that
    /// reading the source's events would give, with the same errors.
    ///
    /// - Throws: the errors of ``XMLIngredientSource/init(_:options:)`` and
    ///   of reading it.
    public func readIndex(_ input: IngredientInput, into index: inout IngredientIndex) throws(EasyBakeError) {
        _ = try readIndexReporting(input, into: &index)
    }

    /// ``readIndex(_:into:)``, returning the repairs of a lenient reading
    /// (``XMLReadingOptions/lenientReferences``), in input order.
    ///
    /// - Throws: the errors of ``readIndex(_:into:)``.
    public func readIndexReporting(
        _ input: IngredientInput, into index: inout IngredientIndex
    ) throws(EasyBakeError) -> [EasyBakeError] {
        var source = try XMLIngredientSource(input, options: options)
        try source.readIndex(into: &index, filePath: input.filePath)
        index.setLineTextInput(input)
        return source.warnings
    }

    /// Writes the value that `source` reads as an XML document in UTF-8.
    ///
    /// Scalars are written as text: numbers in their shortest form, booleans
    /// as `true`/`false`. An array nested directly in an array is written as
    /// an element holding repeated `item` elements. Attribute values that are
    /// null are left out. With `WritingOptions.prettyPrinted`, elements
    /// start on lines of their own, except inside an element's text or kept
    /// markup (`XMLReadingOptions.innerXMLKey`), which would change. A second
    /// value after the first is an error, since a document holds one.
    ///
    /// - Throws: `EasyBakeError.Code.invalidValue` for a key that is not
    ///   an XML name, an attribute whose value is a container, text with
    ///   characters XML 1.0 cannot hold (control characters other than tab,
    ///   CR and LF; U+FFFE, U+FFFF), or text beside child elements whose
    ///   order the tree does not keep (mixed content without kept markup);
    ///   `EasyBakeError.Code.unsupported` for a second value; the source's
    ///   errors.
    public func write(_ source: inout some IngredientSource, options writing: WritingOptions) throws(EasyBakeError)
        -> [UInt8]
    {
        guard let tree = try Ingredients.read(from: &source) else {
            throw EasyBakeError.syntax("expected a value to write, found the end of the input", at: source.location)
        }
        try requireNoMoreValues(in: &source)
        var writer = XMLWriter(attributePrefix: options.attributePrefix, textKey: options.textKey, options: writing)
        return try writer.document(tree)
    }
}

extension IngredientFormat where Self == XMLFormat {
    /// The XML format with the default options, `XMLFormat()`: for a parameter
    /// that takes a format (`Document(reading: input, format: .xml)`).
    public static var xml: XMLFormat { XMLFormat() }
}
