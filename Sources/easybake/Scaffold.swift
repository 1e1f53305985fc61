import ArgumentParser
import EasyBake
import Foundation

/// `easybake scaffold INPUT --name User [--each PATH] [--out DIR]`
struct Scaffold: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scaffold",
        abstract: "Write a Codable Swift model and its recipe file from a sample payload.",
        discussion: """
            The payload is surveyed as `easybake paths` does (streamed; with --each, each record), and \
            every key becomes a property of a struct that is Codable, Hashable and Sendable. The recipe \
            file maps every property explicitly, with a nested recipe for each nested struct, so that it \
            reads as documentation of the payload and loads with `bake --recipe`.

            Types from the non-null values at a path [and the recipe's transformer]:
              integers, in XML integer-like strings ("42")    Int     [number for strings]
              numbers with fractions (and integers)           Double  [number for strings]
              the same under a money key (price, total, fee…)
                with at most two decimals                     Decimal [number for strings]
              in JSON and YAML, strings of digits only        String
              true/false, "true", with 0/1 beside them        Bool    [bool]
              date-like strings, all ISO 8601 or all RFC 822  Date    [iso8601, rfc822]
              URL-like strings (scheme://…)                   URL     [url]
              any other mixture                               String
              dictionaries                                    a nested struct
              dictionaries keyed by ids (digits, UUIDs)       [String: Element]
              arrays (a lone XML element counts as one)       [Element]
              only nulls / only empty arrays                  String? / [String], commented

            A property is optional when its key was missing from some records or null was seen. An XML \
            element written both as bare text and as text with attributes becomes a struct with `text` \
            and the attributes, and an init(from:) that accepts both.

            Names follow the Swift API Design Guidelines: user_id → userID, unread-messages → \
            unreadMessages, @isPermaLink → isPermaLink, #text → text, dc:creator → creator (dcCreator when \
            another key would also be creator); keywords in backticks; a leading digit gets _; keys that \
            come out the same get 2, 3, …. Nested structs take the key in the singular for array elements \
            (devices → Device), and the enclosing type's name in front when the name is taken or is a \
            standard type (Date, URL, Data, String, …).

            Output: without --out, both files go to standard output, each after a line naming it:
              // ==== User.swift ====
              // ==== User.recipe.json ====
            With --out DIR, DIR/User.swift and DIR/User.recipe.json are written (DIR is created; existing \
            files are kept unless --force) and their paths are said on standard error. What the samples \
            did not tell (a type guessed from nulls only) is said on standard error too, and in comments.

            Example:
              easybake scaffold --name User --each 'users[*]' Fixtures/json/users.json
            """
    )

    @Option(name: .long, help: "The model's type name, e.g. User.")
    var name: String

    @Option(name: .long, help: "A path to the records to model, e.g. 'users[*]'. Default: the whole payload.")
    var each: String?

    @Option(name: .long, help: "A directory to write NAME.swift and NAME.recipe.json into. Default: standard output.")
    var out: String?

    @Flag(name: .long, help: "Replace files that already exist in --out.")
    var force = false

    @Option(name: .long, help: "The most distinct paths to survey.")
    var maximumPaths = 10_000

    @OptionGroup var input: InputOptions

    func run() throws {
        try reportingErrors { () throws(EasyBakeError) in
            let payload = input.payload
            let survey = try PathsSurveying.survey(payload, each: each, maximumPaths: maximumPaths)
            let formatName = try Self.formatName(of: payload)
            let scaffold = try ModelScaffold.make(
                from: survey,
                request: .init(
                    name: name, each: each, inputName: input.input, formatName: formatName,
                    yamlArguments: formatName == "yaml" ? input.documents.selection.swiftValue : nil,
                    xmlArguments: formatName == "xml" ? input.documents.selection.xmlSwiftValue : nil,
                    readingFlags: input.documents.selection.commandFlags))
            if each == nil, let hint = ModelScaffold.recordPathHint(survey) {
                Self.note("the payload holds records at \(hint); to model one record, add --each '\(hint)'")
            }
            if survey.unrecordedValues > 0 {
                Self.note(
                    "more than \(survey.maximumPaths) distinct paths; the model leaves out \(survey.unrecordedValues) values (raise --maximum-paths)"
                )
            }
            for note in scaffold.notes { Self.note(note) }
            guard let out else {
                Output.standard.write(
                    Array(
                        "// ==== \(name).swift ====\n\(scaffold.swiftSource)// ==== \(name).recipe.json ====\n\(scaffold.recipeJSON)"
                            .utf8))
                return
            }
            try Self.write(scaffold, name: name, to: out, force: force)
        }
    }

    private static func formatName(of payload: Payload) throws(EasyBakeError) -> String {
        if let named = try Formats.named(payload.format) { return named.name }
        return Formats.all.format(forExtension: (payload.path as NSString).pathExtension)?.name ?? "json"
    }

    private static func write(_ scaffold: ModelScaffold.Result, name: String, to directory: String, force: Bool)
        throws(EasyBakeError)
    {
        let files = FileManager.default
        let swiftPath = (directory as NSString).appendingPathComponent("\(name).swift")
        let recipePath = (directory as NSString).appendingPathComponent("\(name).recipe.json")
        if !force {
            for path in [swiftPath, recipePath] where files.fileExists(atPath: path) {
                throw EasyBakeError(.io, "\(path) exists; pass --force to replace it")
            }
        }
        do {
            try files.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Data(scaffold.swiftSource.utf8).write(to: URL(fileURLWithPath: swiftPath))
            try Data(scaffold.recipeJSON.utf8).write(to: URL(fileURLWithPath: recipePath))
        } catch {
            throw EasyBakeError(.io, "cannot write into \(directory): \(error.localizedDescription)")
        }
        note("wrote \(swiftPath) and \(recipePath)", prefix: "")
    }

    private static func note(_ text: String, prefix: String = "note: ") {
        FileHandle.standardError.write(Data((prefix + text + "\n").utf8))
    }
}
