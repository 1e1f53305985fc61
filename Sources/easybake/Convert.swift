import ArgumentParser
import EasyBake

/// `easybake convert --to json INPUT`
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
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
            var bytes = try target.write(document.tree, options: options)
            if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
            Output.standard.write(bytes)
        }
    }
}
