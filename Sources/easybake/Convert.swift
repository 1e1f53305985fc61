import ArgumentParser
import EasyBake

import EasyBakeYAML

/// `easybake convert --to json INPUT`
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a payload to another format.",
        discussion: "Example: easybake convert --to json Fixtures/xml/feed.rss"
    )

    @Option(name: .long, help: "The output format (json, or any format with a writer).")
    var to: String = "json"

    @Option(name: .long, help: "The root element name, for formats that need one (XML).")
    var rootName: String?

    @OptionGroup var input: InputOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try reportingErrors { () throws(EasyBakeError) in
            guard let target = try Formats.named(to) else { return }
            let document = try input.document()
            var options = output.writingOptions
            options.rootName = rootName
            var bytes: [UInt8]
            if target.name == "yaml", Self.isRecordStream(document), case .array = document.tree {
                // A stream read as one array (JSON Lines, every document of a
                // YAML stream) is written back as a stream: a document per
                // record, as JSON Lines writes a line per record.
                var records = RecordStream(base: IngredientTreeSource(document.tree))
                bytes = try target.write(&records, options: options)
            } else {
                bytes = try target.write(document.tree, options: options)
            }
            if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
            Output.standard.write(bytes)
            if target.name == "xml" {
                // XML keeps neither types nor arrays of one element: say
                // what reads back otherwise (issue 27), never in silence.
                let readBack = try target.read(.bytes(bytes, name: "the XML written"))
                let losses = XMLLosses(original: document.tree, readBack: readBack, rootName: rootName ?? "root")
                for warning in losses.warnings { Diagnostics.warn(warning) }
            }
        }
    }
}

extension Convert {
    /// Whether the payload was a stream of records read as one array.
    static func isRecordStream(_ document: Document) -> Bool {
        if document.format.name == "jsonl" { return true }
        if let yaml = document.format as? YAMLFormat { return yaml.options.documents == .all }
        return false
    }
}

/// The elements of an array as a stream of values, for a writer that
/// writes each value apart (YAML: a document each).
private struct RecordStream: IngredientSource {
    var base: IngredientTreeSource
    private var depth = 0
    private var started = false

    init(base: IngredientTreeSource) { self.base = base }

    mutating func next() throws(EasyBakeError) -> IngredientEvent? {
        if !started {
            started = true
            _ = try base.next()  // the array's beginning
        }
        guard let event = try base.next() else { return nil }
        switch event {
        case .beginArray, .beginDictionary: depth += 1
        case .endArray where depth == 0: return nil
        case .endArray, .endDictionary: depth -= 1
        default: break
        }
        return event
    }

    var location: SourceLocation { base.location }
    var duplicateKeyPolicy: DuplicateKeyPolicy { base.duplicateKeyPolicy }
}
