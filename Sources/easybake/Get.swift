import ArgumentParser
import EasyBake
import EasyBakeJSON

/// `easybake get PATH INPUT`
struct Get: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the value at an ingredient path as JSON.",
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
            let document = try input.document()
            guard let value = document.tree.resolve(path) else {
                throw document.locating(EasyBakeError(.valueNotFound, "no value at \(path)", path: path))
            }
            if raw, case .string(let text) = value {
                Output.standard.writeLine(Array(text.utf8))
            } else {
                Output.standard.writeLine(try JSONFormat().write(value, options: output.writingOptions))
            }
        }
    }
}
