import Foundation

/// A payload format that EasyBake can read (and possibly write): JSON, XML,
/// YAML, or one of your own.
///
/// A format makes an ``IngredientSource`` for an input, and writes events
/// back as bytes. Pass a format where one is read
/// (``Document/init(reading:format:)``), or put formats in a
/// ``FormatRegistry`` to find them by name or file extension.
///
/// ```swift
/// struct CSVFormat: IngredientFormat {
///     var name: String { "csv" }
///     var fileExtensions: [String] { ["csv"] }
///     func makeSource(for input: IngredientInput) throws(EasyBakeError) -> any IngredientSource {
///         CSVSource(try input.loadBytes())
///     }
/// }
/// let formats = FormatRegistry([CSVFormat()])
/// ```
public protocol IngredientFormat: Sendable {
    /// The format's name, in lower case (`json`).
    var name: String { get }
    /// File extensions without the dot (`["json"]`), in lower case.
    var fileExtensions: [String] { get }

    /// A source that reads `input`.
    ///
    /// - Throws: ``EasyBakeError`` when the input cannot be opened or its
    ///   start is unreadable (an unsupported encoding).
    func makeSource(for input: IngredientInput) throws(EasyBakeError) -> any IngredientSource

    /// Writes the events of `source` in this format: every value the source
    /// holds, to its end. A format that holds one value (JSON, XML, JSON
    /// Lines' array of records) throws for a second one rather than leave
    /// it unwritten; YAML writes each value as a document.
    ///
    /// - Throws: ``EasyBakeError/Code/unsupported`` when the format has no
    ///   writer (the default) or the source holds more values than the
    ///   format can; errors of the source.
    func write(_ source: inout some IngredientSource, options: WritingOptions) throws(EasyBakeError) -> [UInt8]

    /// Reads the single value of `input` into a tree. The default reads it
    /// into an index with ``readIndex(_:into:)`` (which rejects input that
    /// holds more than one value) and returns a view of that index, whose
    /// nodes are made on first access: baking the tree bakes the index, as
    /// baking from the input does, and a number keeps its text for a
    /// `String` property.
    func read(_ input: IngredientInput) throws(EasyBakeError) -> Ingredients

    /// Reads the single value of `input` into `index`, replacing what it
    /// held: the fast core's way in, which builds no tree. The default reads
    /// the source's events into the index, with the tree's rules and errors
    /// (more than one value is an error); a format that can index its bytes
    /// directly (JSON) overrides it.
    func readIndex(_ input: IngredientInput, into index: inout IngredientIndex) throws(EasyBakeError)

    /// ``readIndex(_:into:)``, returning what the reading repaired (the
    /// source's ``IngredientSource/warnings``), for
    /// ``Baker/bakeReporting(_:from:format:recipe:)``. The default reads
    /// with ``readIndex(_:into:)`` and returns none; a format whose reading
    /// can repair its input overrides it.
    func readIndexReporting(_ input: IngredientInput, into index: inout IngredientIndex) throws(EasyBakeError)
        -> [EasyBakeError]
}

extension IngredientFormat {
    /// For a writer of a format that holds one value, after that value:
    /// throws ``EasyBakeError/Code/unsupported`` when `source` holds another.
    package func requireNoMoreValues(in source: inout some IngredientSource) throws(EasyBakeError) {
        guard try source.next() != nil else { return }
        throw EasyBakeError(
            .unsupported,
            "\(name) holds one value, and the source holds more than one (a stream of documents?): write YAML, one document each, or gather the values into one array",
            location: source.location)
    }

    /// Throws ``EasyBakeError/Code/unsupported``: a format without a writer.
    public func write(_ source: inout some IngredientSource, options: WritingOptions) throws(EasyBakeError) -> [UInt8] {
        throw EasyBakeError(.unsupported, "the \(name) format has no writer")
    }

    /// Writes a tree in this format.
    ///
    /// ```swift
    /// let bytes = try JSONFormat().write(["id": 7], options: .init(prettyPrinted: true))
    /// ```
    public func write(_ tree: Ingredients, options: WritingOptions = .init()) throws(EasyBakeError) -> [UInt8] {
        var source = IngredientTreeSource(tree)
        return try write(&source, options: options)
    }

    /// Writes a tree in this format, as text.
    ///
    /// ```swift
    /// let json = try JSONFormat().writeString(["id": 7])   // {"id":7}
    /// ```
    ///
    /// - Throws: the writer's errors, and ``EasyBakeError/Code/unsupported``
    ///   for output that is not UTF-8 (every built-in writer writes UTF-8;
    ///   ``write(_:options:)`` gives another writer's bytes as they are).
    public func writeString(_ tree: Ingredients, options: WritingOptions = .init()) throws(EasyBakeError) -> String {
        let bytes = try write(tree, options: options)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw EasyBakeError(
                .unsupported, "the \(name) writer's output is not UTF-8 text; write(_:options:) gives its bytes")
        }
        return text
    }

    /// Writes a tree in this format, as `Data`: for `URLRequest.httpBody`,
    /// `Data.write(to:)` and the APIs that take it.
    public func writeData(_ tree: Ingredients, options: WritingOptions = .init()) throws(EasyBakeError) -> Data {
        Data(try write(tree, options: options))
    }

    /// Reads the single value of `input` into an index with
    /// ``readIndex(_:into:)`` and returns a view of it (the tree a source's
    /// events would build, with the same errors), its nodes made on first
    /// access.
    public func read(_ input: IngredientInput) throws(EasyBakeError) -> Ingredients {
        try readViewingIndex(input)
    }

    /// Reads the single value of `input` into `index` through
    /// ``makeSource(for:)``, as ``read(_:)`` reads it into a tree.
    public func readIndex(_ input: IngredientInput, into index: inout IngredientIndex) throws(EasyBakeError) {
        var source = try makeSource(for: input)
        try index.read(single: &source)
    }

    /// Reads with ``readIndex(_:into:)``; no repairs.
    public func readIndexReporting(
        _ input: IngredientInput, into index: inout IngredientIndex
    ) throws(EasyBakeError) -> [EasyBakeError] {
        try readIndex(input, into: &index)
        return []
    }
}

/// How a writer lays out its output.
public struct WritingOptions: Sendable, Hashable {
    /// Indent nested values on lines of their own.
    public var prettyPrinted: Bool
    /// Write dictionary keys sorted (by Unicode scalars) instead of in order.
    public var sortedKeys: Bool
    /// The spaces per indentation level when pretty printing.
    public var indentWidth: Int
    /// The name of the root element, for formats that need one (XML).
    public var rootName: String?

    /// Options for a writer; by default compact, keys in order, two-space
    /// indentation when pretty, and the format's own root name.
    public init(prettyPrinted: Bool = false, sortedKeys: Bool = false, indentWidth: Int = 2, rootName: String? = nil) {
        self.prettyPrinted = prettyPrinted
        self.sortedKeys = sortedKeys
        self.indentWidth = indentWidth
        self.rootName = rootName
    }
}
