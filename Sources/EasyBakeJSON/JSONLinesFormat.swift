import EasyBake

/// The JSON Lines format (NDJSON; files `.jsonl` and `.ndjson`): one JSON
/// value per line, read as one top-level array of records with
/// ``JSONLinesIngredientSource`` and written one compact value per line.
///
/// ```swift
/// let records = try JSONLinesFormat().read(.text("{\"id\": 1}\n\n{\"id\": 2}\r\n"))   // [["id": 1], ["id": 2]]
/// let lines = try JSONLinesFormat().write(records)                                   // {"id":1}\n{"id":2}\n
/// ```
public struct JSONLinesFormat: IngredientFormat {
    /// How its sources read: the duplicate-key policy (default first wins)
    /// and the limits every source of this format enforces; the node limit
    /// holds for each record when records are streamed.
    public var options: JSONReadingOptions
    /// When set, its sources read only the lines that begin in this byte
    /// range of the input, as an array (``JSONLinesIngredientSource/init(_:byteRange:options:)``):
    /// one worker's share of a file that several read. Default `nil`, the whole input.
    public var byteRange: Range<Int>?

    /// The JSON Lines format whose sources read with `options`.
    ///
    /// ```swift
    /// let strict = JSONLinesFormat(options: .init(duplicateKeys: .reject))
    /// ```
    public init(options: JSONReadingOptions = .init()) {
        self.options = options
    }

    /// This format's source for `input`, over its byte range if it has one.
    func makeConcreteSource(for input: IngredientInput) throws(EasyBakeError) -> JSONLinesIngredientSource {
        guard let byteRange else {
            return try JSONLinesIngredientSource(input, options: options)
        }
        return try JSONLinesIngredientSource(input, byteRange: byteRange, options: options)
    }

    /// `jsonl`.
    public var name: String { "jsonl" }
    /// `jsonl` and `ndjson`.
    public var fileExtensions: [String] { ["jsonl", "ndjson"] }

    /// A ``JSONLinesIngredientSource`` for `input`, with this format's options.
    public func makeSource(for input: IngredientInput) throws(EasyBakeError) -> any IngredientSource {
        try makeConcreteSource(for: input)
    }

    /// Reads `input` into a tree: an array of the lines' values.
    public func read(_ input: IngredientInput) throws(EasyBakeError) -> Ingredients {
        var source = try makeConcreteSource(for: input)
        return try Ingredients(reading: &source)
    }

    /// Writes the elements of the array that `source` holds, each as compact
    /// JSON on a line of its own, every line ended by `\n`.
    ///
    /// `WritingOptions.prettyPrinted` is ignored (a record must stay on one
    /// line); `WritingOptions.sortedKeys` is honoured.
    ///
    /// - Throws: `EasyBakeError.Code.unsupported` when the value is not an
    ///   array (JSON Lines holds a sequence of records); the source's errors.
    public func write(_ source: inout some IngredientSource, options: WritingOptions) throws(EasyBakeError) -> [UInt8] {
        guard let first = try source.next() else {
            throw EasyBakeError.syntax("expected a value to write, found the end of the input", at: source.location)
        }
        guard case .beginArray = first else {
            let found =
                switch first {
                case .beginDictionary: "a dictionary"
                default: "a single value"
                }
            throw EasyBakeError(
                .unsupported,
                "JSON Lines holds a sequence of records, one per line: the value to write must be an array, found \(found)",
                location: source.location)
        }
        var lineOptions = options
        lineOptions.prettyPrinted = false
        let writer = JSONWriter(options: lineOptions)
        var output: [UInt8] = []
        while true {
            guard let event = try source.next() else {
                throw EasyBakeError.syntax("the events ended inside the array of records", at: source.location)
            }
            if case .endArray = event { break }
            var record = PushedBackSource(base: source, pending: event)
            if options.sortedKeys {
                // Sorting builds the record first: only the record, not
                // the rest of the source, which the writer would check.
                guard let tree = try Ingredients.read(from: &record) else { break }
                output += try writer.write(tree)
            } else {
                output += try writer.write(&record)
            }
            source = record.base
            output.append(UInt8(ascii: "\n"))
        }
        try requireNoMoreValues(in: &source)
        return output
    }
}

/// A source that gives one event already read before those of its base: a
/// record's first event, read to tell it from the array's end.
private struct PushedBackSource<Base: IngredientSource>: IngredientSource {
    var base: Base
    var pending: IngredientEvent?

    mutating func next() throws(EasyBakeError) -> IngredientEvent? {
        if let event = pending {
            pending = nil
            return event
        }
        return try base.next()
    }

    mutating func skipValue() throws(EasyBakeError) {
        guard let event = pending else { return try base.skipValue() }
        pending = nil
        switch event {
        case .beginArray, .beginDictionary: try base.skipRestOfContainer()
        case .key, .scalar, .endArray, .endDictionary: break
        }
    }

    var location: SourceLocation { base.location }
    var duplicateKeyPolicy: DuplicateKeyPolicy { base.duplicateKeyPolicy }
    var limits: IngredientLimits { base.limits }
}

extension IngredientFormat where Self == JSONLinesFormat {
    /// The JSON Lines format with the default options,
    /// `JSONLinesFormat()`: for a parameter that takes a format.
    public static var jsonLines: JSONLinesFormat { JSONLinesFormat() }
}
