import ArgumentParser
import EasyBake
import EasyBakeJSON

/// `easybake paths INPUT [--each PATH] [--output json]`
struct Paths: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paths",
        abstract: "List every distinct path of a payload, with the kinds of value, counts and an example.",
        discussion: """
            Array indexes are generalised to [*]. The input is streamed: memory follows the number of \
            distinct paths, not the size of the input. With --each, paths are relative to each record, \
            as a recipe for `bake --each` names them.

            Example: easybake paths --each 'users[*]' Fixtures/json/users.json
            """
    )

    @Option(name: .long, help: "A path to the records to survey, e.g. 'users[*]'. Default: the whole payload.")
    var each: String?

    @Option(name: .long, help: "The output: text (aligned columns) or json.")
    var output: OutputFormat = .text

    @Option(name: .long, help: "The most distinct paths to record; values at further paths are counted, not listed.")
    var maximumPaths = 10_000

    @Argument(help: "The payload file, or - for standard input.")
    var input: String

    // `--format` names the payload's format here as in every command;
    // `--output` chooses the listing's.
    @Option(
        name: [.customLong("format"), .customLong("input-format")],
        help: "The payload's format (json, jsonl, xml, yaml), when the extension does not say.")
    var inputFormat: String?

    @OptionGroup var documents: DocumentOptions

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    func run() throws {
        try reportingErrors { () throws(EasyBakeError) in
            let survey = try PathsSurveying.survey(
                Payload(path: input, format: inputFormat, documents: documents.selection), each: each,
                maximumPaths: maximumPaths)
            switch output {
            case .text: Output.standard.write(Array(PathsSurveying.table(survey).utf8))
            case .json:
                Output.standard.writeLine(
                    try JSONFormat().write(PathsSurveying.json(survey), options: .init(prettyPrinted: true)))
            }
        }
    }
}

/// Surveys an input, for `paths` and `scaffold`.
enum PathsSurveying {
    static func survey(_ payload: Payload, each: String?, maximumPaths: Int) throws(EasyBakeError) -> PathSurvey {
        // Standard input is not kept for a second reading: the survey's
        // memory stays bounded there too (but for JSON, which reads its
        // input whole), and only a path found nowhere loses its position.
        let (source, locator) = try payload.stream(rereadable: false)
        let recordPath = try each.map { path throws(EasyBakeError) in try IngredientPath(parsing: path) }
        var survey = PathSurvey(maximumPaths: maximumPaths)
        // Opened once, the source is called directly rather than through the
        // type-erased wrapper for every event.
        var base = source.base
        try explainingMissing(recordPath ?? .root, in: locator) { () throws(EasyBakeError) in
            try survey.add(from: &base, each: recordPath)
            if survey.documents == 0 {
                guard let recordPath else {
                    throw EasyBakeError.syntax("expected a value, found the end of the input", at: base.location)
                }
                throw EasyBakeError(.valueNotFound, "no records at \(recordPath)", path: recordPath)
            }
        }
        return survey
    }

    static func displayPath(_ path: IngredientPath) -> String {
        path.isRoot ? "(root)" : path.description
    }

    static func kindsText(_ entry: PathSurvey.Entry) -> String {
        var parts =
            entry.kinds.count == 1
            ? [entry.kinds[0].kind.description]
            : entry.kinds.map { "\($0.kind) \($0.count)" }
        if entry.missing > 0 { parts.append("missing \(entry.missing)") }
        if entry.idKeys > 0 { parts.append("keyed by \(entry.idKeys) ids, at [*]") }
        return parts.joined(separator: ", ")
    }

    static func exampleText(_ entry: PathSurvey.Entry) -> String {
        guard let example = entry.example, let bytes = try? JSONFormat().write(example) else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func table(_ survey: PathSurvey) -> String {
        let rows = survey.entries.map { entry in
            [displayPath(entry.path), kindsText(entry), String(entry.count), exampleText(entry)]
        }
        let header = ["PATH", "KINDS", "COUNT", "EXAMPLE"]
        let widths = (0..<3).map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            let padded =
                cells[0].padding(toLength: widths[0], withPad: " ", startingAt: 0) + "  "
                + cells[1].padding(toLength: widths[1], withPad: " ", startingAt: 0) + "  "
                + String(repeating: " ", count: widths[2] - cells[2].count) + cells[2]
            return (cells[3].isEmpty ? padded : padded + "  " + cells[3]) + "\n"
        }
        var text = line(header) + rows.map(line).joined()
        if survey.unrecordedValues > 0 {
            text +=
                "note: more than \(survey.maximumPaths) distinct paths; \(survey.unrecordedValues) values at further paths are not listed (raise --maximum-paths)\n"
        }
        return text
    }

    static func json(_ survey: PathSurvey) -> Ingredients {
        var paths: [Ingredients] = []
        for entry in survey.entries {
            var kinds = IngredientDictionary()
            for (kind, count) in entry.kinds { kinds[kind.rawValue] = .integer(Int64(count)) }
            var object: IngredientDictionary = [
                "path": .string(entry.path.description),
                "count": .integer(Int64(entry.count)),
                "kinds": .dictionary(kinds),
                "missing": .integer(Int64(entry.missing)),
            ]
            if let example = entry.example { object["example"] = example }
            if let style = entry.dateStyle { object["dateStyle"] = .string(style.rawValue) }
            if entry.longestArray > 0 { object["longestArray"] = .integer(Int64(entry.longestArray)) }
            if entry.idKeys > 0 { object["idKeys"] = .integer(Int64(entry.idKeys)) }
            paths.append(.dictionary(object))
        }
        let result: IngredientDictionary = [
            "records": .integer(Int64(survey.documents)),
            "unrecordedValues": .integer(Int64(survey.unrecordedValues)),
            "paths": .array(IngredientArray(paths)),
        ]
        return .dictionary(result)
    }
}

extension PathSurvey {
    /// Surveys the whole input, or each record at `recordPath`, with a
    /// progress line on a terminal.
    fileprivate mutating func add<Source: IngredientSource>(
        from source: inout Source, each recordPath: IngredientPath?
    ) throws(EasyBakeError) {
        guard let recordPath else {
            try add(from: &source)
            return
        }
        var reader = try RecordReader(source: source, each: recordPath)
        var progress = ProgressLine()
        // Each record's events go straight into the survey: no tree is built.
        while try reader.nextRecord(reading: { (first, source) throws(EasyBakeError) in
            try add(startingWith: first, from: &source)
        }) != nil {
            progress.update(bytesRead: (reader.source as? any ProgressReporting)?.bytesRead, records: documents)
        }
        progress.finish()
        source = reader.source
    }
}
