import ArgumentParser
import EasyBake
import EasyBakeJSON

/// `easybake get PATH INPUT`
struct Get: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print the value at an ingredient path as JSON, reading only what the path needs.",
        discussion: "Example: easybake get 'users[0].address.city' Fixtures/json/users.json"
    )

    @Argument(help: "The ingredient path, e.g. users[3].address.city or users[*].name.")
    var path: String

    @OptionGroup var input: InputOptions
    @OptionGroup var output: OutputOptions

    @Flag(name: .long, help: "Print a string value without quotes.")
    var raw = false

    func run() throws {
        try reportingErrors { () throws(EasyBakeError) in
            let path = try IngredientPath(parsing: self.path)
            var (source, locator) = try input.stream()
            // Streams: reads only what the path needs, and returns as soon as
            // the path is settled (a path at the head of a large file).
            let resolution = try PathMatcher([path]).resolve(from: &source)
            if !resolution.stoppedEarly, try source.next() != nil {
                throw EasyBakeError.syntax("expected the end of the input after the value", at: source.location)
            }
            guard let value = resolution.values[0] else {
                try explainingMissing(path, in: locator) { () throws(EasyBakeError) in
                    throw EasyBakeError(.valueNotFound, "no value at \(path)", path: path)
                }
                return
            }
            if raw, case .string(let text) = value {
                Output.standard.writeLine(Array(text.utf8))
            } else {
                Output.standard.writeLine(try JSONFormat().write(value, options: output.writingOptions))
            }
        }
    }
}
