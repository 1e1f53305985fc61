import ArgumentParser
import EasyBake
import EasyBakeJSON
import EasyBakeXML
import EasyBakeYAML
import Foundation
#if canImport(Darwin)
    import Darwin
    private let systemWrite = Darwin.write
#elseif canImport(Glibc)
    import Glibc
    private let systemWrite = Glibc.write
#endif

/// `easybake`: bake feeds with recipe files, read paths, convert formats.
@main
struct EasyBakeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "easybake",
        abstract: "Bake JSON, XML and YAML payloads with EasyBake recipes.",
        discussion: """
            Formats come from file extensions (json, jsonl, ndjson, xml, rss, atom, yaml, yml); --format overrides.
            Use - to read standard input. Errors go to standard error with their position.
            """,
        // Each subcommand gives its name: else ArgumentParser derives every
        // one from its type's name at each start, by runtime reflection
        // (15% of the instructions of a command that reads a small file).
        subcommands: [Bake.self, Get.self, Convert.self, Paths.self, Scaffold.self, Schema.self]
    )
}

/// Options every subcommand that reads a payload shares.
struct InputOptions: ParsableArguments {
    @Argument(help: "The payload file, or - for standard input.")
    var input: String

    @Option(
        name: [.customLong("format"), .customLong("input-format")],
        help: "The payload's format (json, jsonl, xml, yaml), when the extension does not say.")
    var format: String?

    @OptionGroup var documents: DocumentOptions

    var payload: Payload { Payload(path: input, format: format, documents: documents.selection) }
    func document() throws(EasyBakeError) -> Document { try payload.document() }
    func stream() throws(EasyBakeError) -> (source: AnyIngredientSource, locator: Document) {
        let (source, locator) = try payload.stream()
        return (source, locator!)
    }
}

/// Which documents of a YAML stream a command reads, and the reading
/// choices of YAML and XML that change what is accepted.
struct DocumentOptions: ParsableArguments {
    @Option(
        name: .customLong("documents"),
        help:
            "For YAML: 'single' (the default; a stream of several documents is an error) or 'all' (every document, as one array whose [*] gives the documents as records)."
    )
    var choice: Choice?

    @Option(name: .customLong("document"), help: "For YAML: read only document N of a stream, counting from 0.")
    var index: Int?

    @Option(
        name: .customLong("yaml-tags"),
        help:
            "For YAML: what a node with an unknown tag (!Ref x) reads as: 'value' (the default; its value, a scalar as its text), 'wrap' (a single-key dictionary, {\"!Ref\": \"x\"}) or 'reject' (an error)."
    )
    var yamlTags: YAMLReadingOptions.UnknownTags?

    @Flag(
        name: .customLong("xml-accept-namespace-errors"),
        help:
            "For XML: read documents that are well-formed XML 1.0 but not namespace-well-formed (undeclared prefixes, ...), names as written; by default they are an error."
    )
    var acceptsNamespaceErrors = false

    @Option(
        name: .customLong("xml-markup"),
        help:
            "For XML: keep the inner markup (#innerXML) and text content (#textContent) of the elements of this name (repeat it, or separate names with commas), in document order."
    )
    var markupElements: [String] = []

    @Flag(
        name: .customLong("xml-lenient"),
        help:
            "For XML feeds that are not well-formed: read a bare & as text and HTML entities (&nbsp;, &eacute;) as their characters, an unknown &name; as its text; each repair is a warning on standard error with its line and column."
    )
    var lenientReferences = false

    @Option(
        name: .customLong("byte-range"),
        help:
            "For JSON Lines, a top-level JSON array or a YAML stream: read only the records (documents) that begin in bytes START to END (END excluded), as an array; the ranges of a partition read every record once."
    )
    var byteRange: ByteRangeArgument?

    @Option(
        name: .customLong("split"),
        help:
            "For JSON Lines, a top-level JSON array or a YAML stream in a file: read share I (from 0) of N equal byte ranges, as --byte-range does."
    )
    var split: ShareArgument?

    enum Choice: String, ExpressibleByArgument, CaseIterable {
        case single, all
    }

    /// The options' values, apart from the argument parser.
    var selection: DocumentSelection {
        DocumentSelection(
            choice: choice, index: index, yamlTags: yamlTags, acceptsNamespaceErrors: acceptsNamespaceErrors,
            lenientReferences: lenientReferences,
            markupElements: Set(markupElements.flatMap { $0.split(separator: ",").map(String.init) }),
            split: split.map { .share($0.index, of: $0.count) } ?? byteRange.map { .byteRange($0.range) },
            bothSplits: split != nil && byteRange != nil)
    }
}

extension YAMLReadingOptions.UnknownTags: ExpressibleByArgument {}

/// The documents of a YAML stream chosen with `--documents` or `--document`.
struct DocumentSelection {
    var choice: DocumentOptions.Choice?
    var index: Int?
    /// `--yaml-tags`, when given.
    var yamlTags: YAMLReadingOptions.UnknownTags?
    /// `--xml-accept-namespace-errors`.
    var acceptsNamespaceErrors = false
    /// `--xml-lenient`.
    var lenientReferences = false
    /// `--xml-markup`.
    var markupElements: Set<String> = []
    /// `--byte-range` or `--split`.
    var split: InputSplit?
    /// Both were given, which is an error.
    var bothSplits = false

    /// The YAML option chosen, if any.
    func chosen() throws(EasyBakeError) -> YAMLReadingOptions.Documents? {
        switch (choice, index) {
        case (nil, nil): return nil
        case (.some(let choice), nil): return choice == .all ? .all : .single
        case (nil, .some(let index)):
            guard index >= 0 else {
                throw EasyBakeError(.invalidValue, "--document counts from 0; \(index) is no document")
            }
            return .document(index)
        case (.some, .some): throw EasyBakeError(.invalidValue, "choose either --documents or --document, not both")
        }
    }

    /// The arguments scaffold's usage lines pass to `YAMLReadingOptions`
    /// (`documents: .all, unknownTags: .wrap`), `nil` for the defaults.
    var swiftValue: String? {
        var arguments: [String] = []
        if let index {
            arguments.append("documents: .document(\(index))")
        } else if choice == .all {
            arguments.append("documents: .all")
        }
        if let yamlTags, yamlTags != .value { arguments.append("unknownTags: .\(yamlTags.rawValue)") }
        return arguments.isEmpty ? nil : arguments.joined(separator: ", ")
    }

    /// The arguments scaffold's usage lines pass to `XMLReadingOptions`,
    /// `nil` for the defaults.
    var xmlSwiftValue: String? {
        var arguments: [String] = []
        if acceptsNamespaceErrors { arguments.append("acceptsNamespaceErrors: true") }
        if !markupElements.isEmpty {
            arguments.append(
                "markupElements: [" + markupElements.sorted().map(\.debugDescription).joined(separator: ", ") + "]")
        }
        if lenientReferences { arguments.append("lenientReferences: true") }
        return arguments.isEmpty ? nil : arguments.joined(separator: ", ")
    }

    /// The reading options as the command takes them (` --documents all
    /// --xml-markup summary`), for a usage line to repeat; empty for none.
    var commandFlags: String {
        var flags = ""
        if let index { flags += " --document \(index)" } else if choice == .all { flags += " --documents all" }
        if let yamlTags, yamlTags != .value { flags += " --yaml-tags \(yamlTags.rawValue)" }
        if acceptsNamespaceErrors { flags += " --xml-accept-namespace-errors" }
        for name in markupElements.sorted() { flags += " --xml-markup \(name)" }
        if lenientReferences { flags += " --xml-lenient" }
        return flags
    }
}

/// A payload a command reads: a file (or - for standard input), the name of
/// its format when the extension does not tell, and for YAML the documents
/// to read.
struct Payload {
    var path: String
    var format: String?
    var documents = DocumentSelection()

    func document() throws(EasyBakeError) -> Document {
        let input = IngredientInput.file(path)
        let format = try resolvedFormat(for: input)
        if let yaml = format as? YAMLFormat {
            // As the library bakes a whole YAML document: through the index
            // the native scanner builds, where it reads the input (libyaml's
            // events otherwise, with the same tree and errors).
            let rereadable = try input.rereadable()
            var index = IngredientIndex()
            try yaml.readIndex(rereadable, into: &index)
            return Document(tree: try Ingredients(index: index), input: rereadable, format: format)
        }
        guard documents.lenientReferences else { return try Document(reading: input, format: format) }
        // Read through a source of its own, whose repairs are reported:
        // what `Document(reading:format:)` does for XML.
        let rereadable = try input.rereadable()
        var source = AnyIngredientSource(try format.makeSource(for: rereadable))
        ReadingWarnings.opened(source)
        return Document(tree: try Ingredients(reading: &source), input: rereadable, format: format)
    }

    /// The format named, or the one of the file's extension, with the YAML
    /// documents chosen.
    func resolvedFormat(for input: IngredientInput) throws(EasyBakeError) -> any IngredientFormat {
        var resolved: any IngredientFormat
        if let named = try Formats.named(format) {
            resolved = named
        } else {
            resolved = try Formats.forPath(input.filePath ?? input.name)
        }
        if let tags = documents.yamlTags {
            guard var yaml = resolved as? YAMLFormat else {
                throw EasyBakeError(
                    .unsupported, "--yaml-tags chooses how YAML reads unknown tags; the input is \(resolved.name)")
            }
            yaml.options.unknownTags = tags
            resolved = yaml
        }
        if documents.acceptsNamespaceErrors {
            guard var xml = resolved as? XMLFormat else {
                throw EasyBakeError(
                    .unsupported, "--xml-accept-namespace-errors relaxes how XML is read; the input is \(resolved.name)"
                )
            }
            xml.options.acceptsNamespaceErrors = true
            resolved = xml
        }
        if !documents.markupElements.isEmpty {
            guard var xml = resolved as? XMLFormat else {
                throw EasyBakeError(
                    .unsupported, "--xml-markup keeps the markup of XML elements; the input is \(resolved.name)")
            }
            xml.options.markupElements = documents.markupElements
            resolved = xml
        }
        if documents.lenientReferences {
            guard var xml = resolved as? XMLFormat else {
                throw EasyBakeError(
                    .unsupported,
                    "--xml-lenient reads XML feeds that are not well-formed; the input is \(resolved.name)")
            }
            xml.options.lenientReferences = true
            resolved = xml
        }
        if let split = documents.split {
            guard !documents.bothSplits else {
                throw EasyBakeError(.invalidValue, "choose either --byte-range or --split, not both")
            }
            resolved = try split.applied(to: resolved, input: input)
        }
        guard let chosen = try documents.chosen() else { return resolved }
        guard var yaml = resolved as? YAMLFormat else {
            throw EasyBakeError(
                .unsupported,
                "--documents and --document choose documents of a YAML stream; the input is \(resolved.name)")
        }
        if yaml.byteRange != nil, chosen != .all {
            throw EasyBakeError(
                .invalidValue,
                "a share of a YAML stream (--byte-range, --split) reads its documents as --documents all does; drop --document N or --documents single"
            )
        }
        yaml.options.documents = chosen
        return yaml
    }

    /// A streaming source over the input, and a document without a tree that
    /// locates errors by reading the input again. Standard input is read
    /// into memory first, so that it can be read again, unless
    /// `rereadable` is false: then errors that need a second reading to be
    /// located (a path found nowhere) go without a line and column.
    func stream(rereadable: Bool = true) throws(EasyBakeError) -> (source: AnyIngredientSource, locator: Document?) {
        let original = IngredientInput.file(path)
        let ingredientInput = rereadable ? try original.rereadable() : original
        let resolved = try resolvedFormat(for: ingredientInput)
        let source = AnyIngredientSource(try resolved.makeSource(for: ingredientInput))
        ReadingWarnings.opened(source)
        let canReread = rereadable || original.filePath != nil
        return (source, canReread ? Document(tree: .null, input: ingredientInput, format: resolved) : nil)
    }
}

/// A progress line on standard error while a long input is read — only when
/// standard error is a terminal, so that logs and pipes stay clean.
struct ProgressLine {
    private let enabled = isatty(2) != 0
    private let start = Date()
    private var lastUpdate = Date()

    /// `bytesRead` is asked for only when a line is written: asking a type-
    /// erased source costs a dynamic cast, too much for every record.
    mutating func update(bytesRead: @autoclosure () -> Int?, records: Int) {
        guard enabled else { return }
        let now = Date()
        guard now.timeIntervalSince(lastUpdate) >= 0.5 else { return }
        lastUpdate = now
        let elapsed = max(now.timeIntervalSince(start), 0.001)
        var line = "\r\(records) records, \(Int(Double(records) / elapsed)) records/s"
        if let bytesRead = bytesRead() { line += ", \(bytesRead >> 20) MB read" }
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        guard enabled, Date().timeIntervalSince(start) >= 0.5 else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}

/// Options of JSON output.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Indent the output.")
    var pretty = false

    @Flag(name: .long, help: "Write dictionary keys sorted.")
    var sortedKeys = false

    var writingOptions: WritingOptions { WritingOptions(prettyPrinted: pretty, sortedKeys: sortedKeys) }
}

/// The formats the command reads and writes, by name and file extension.
enum Formats {
    /// Every format the command knows: an immutable value, made once.
    static let all = FormatRegistry([.json, .jsonLines, .yaml, .xml])

    /// The format named by `--format`, or `nil` when none was named.
    static func named(_ name: String?) throws(EasyBakeError) -> (any IngredientFormat)? {
        guard let name else { return nil }
        guard let format = all.format(named: name) else {
            throw EasyBakeError(
                .unknownFormat,
                "unknown format \(name.debugDescription); known: \(all.names.joined(separator: ", "))")
        }
        return format
    }

    /// The format of a file's extension; the error tells the user how to
    /// name one instead.
    static func forPath(_ path: String) throws(EasyBakeError) -> any IngredientFormat {
        do {
            return try all.format(forPath: path)
        } catch {
            var withHint = error
            withHint.message += "; name one with --format"
            throw withHint
        }
    }
}

/// Runs a command body, turning EasyBake errors into a message on standard
/// error and exit code 1.
/// Runs `body`, which looks for `path` in the payload `locator` reads
/// again; an error that nothing is at `path` (or at a prefix of it) gets the
/// place where the path breaks off, the JSONPath hint, and the path with
/// the nearest key the payload has there: "did you mean users[*]?".
func explainingMissing(
    _ path: IngredientPath, in locator: Document?, _ body: () throws(EasyBakeError) -> Void
) throws(EasyBakeError) {
    do {
        try body()
    } catch {
        guard error.code == .valueNotFound, let missing = error.path,
            missing.steps.count <= path.steps.count, Array(path.steps.prefix(missing.steps.count)) == missing.steps
        else { throw error }
        var explained = locator?.locating(error) ?? error
        if let hint = path.jsonPathHint {
            explained.message += "; " + hint
        } else if let suggestion = locator?.suggestion(for: path) {
            explained.message += "; did you mean \(suggestion)?"
        }
        throw explained
    }
}

func reportingErrors(_ body: () throws(EasyBakeError) -> Void) throws {
    do {
        try body()
        Output.standard.flush()
        ReadingWarnings.report()
    } catch {
        Output.standard.flush()
        ReadingWarnings.report()
        Diagnostics.write(error)
        throw ExitCode.failure
    }
}

/// Errors printed on standard error, as the command's diagnostics.
enum Diagnostics {
    /// Prints `error` (its compiler-style rendering) on standard error,
    /// after what standard output holds so far, so that the two read in order.
    static func write(_ error: EasyBakeError) {
        Output.standard.flush()
        FileHandle.standardError.write(Data((error.description + "\n").utf8))
    }

    /// Prints `warning` as a diagnostic (`warning: …`, with its position
    /// and line) on standard error, after what standard output holds so far.
    static func warnOf(_ warning: EasyBakeError) {
        warn("warning: " + warning.description.dropFirst("error: ".count))
    }

    /// Prints a warning line (`warning: …`) on standard error, after what
    /// standard output holds so far.
    static func warn(_ line: String) {
        Output.standard.flush()
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// The repairs of the sources a command opened (a lenient reading's, with
/// `--xml-lenient`), printed on standard error when the command ends —
/// also when it fails, before the error — so that no value is changed
/// without a word.
enum ReadingWarnings {
    /// The sources opened, read or not. An XML source's copies share its
    /// parser, so the copy kept here sees every repair that the copies
    /// handed to readers make.
    nonisolated(unsafe) private static var sources: [AnyIngredientSource] = []

    static func opened(_ source: AnyIngredientSource) {
        sources.append(source)
    }

    /// Prints each warning as a diagnostic (`warning: syntax: …`, with its
    /// position and line), and forgets the sources.
    static func report() {
        for source in sources {
            for warning in source.warnings { Diagnostics.warnOf(warning) }
        }
        sources.removeAll()
    }
}

/// Buffered standard output.
final class Output {
    nonisolated(unsafe) static let standard = Output()
    private var buffer: [UInt8] = []

    func write(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count > 1 << 16 { flush() }
    }

    func writeLine(_ bytes: [UInt8]) {
        write(bytes)
        buffer.append(UInt8(ascii: "\n"))
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = systemWrite(1, raw.baseAddress! + offset, raw.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
