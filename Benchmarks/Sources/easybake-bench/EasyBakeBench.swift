import ArgumentParser
import Foundation

/// `easybake-bench`: measures EasyBake against the libraries a user would
/// pick instead, on generated JSON, XML and YAML payloads, and checks that
/// every contender produced the same records as EasyBake.
@main
struct EasyBakeBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "easybake-bench",
        abstract: "Compare EasyBake with Foundation, XMLCoder, SWXMLHash, Yams and the bare C parsers.",
        discussion: """
            Generates seeded data sets (the users records and the real-world shapes; reused when present) under \
            Benchmarks/Data, runs every scenario per format against every contender in its own child process, \
            checks each contender's \
            results against EasyBake's, prints a table and writes it as JSON, Markdown and an SVG bar chart. \
            Exits non-zero when a contender's results differ from EasyBake's or a contender fails.
            """)

    @Option(help: "Size of the generated JSON file (the XML and YAML files hold the same records): 1MB, 200MB, 1GB.")
    var size = "200MB"

    @Option(help: "Size of each real-world shape's JSON file (scenario 5: api, keyed, numbers).")
    var shapeSize = "50MB"

    @Flag(help: "CI smoke mode: 1MB (shapes too), one run per contender, 200k operations for the core scenarios.")
    var quick = false

    @Option(help: "Seed of the generator.")
    var seed: UInt64 = 42

    @Option(help: "Timed runs per contender (the best is reported); fewer once --budget seconds are spent.")
    var iterations = 3

    @Option(help: "Seconds after which a contender stops repeating runs.")
    var budget = 10.0

    @Option(help: "Operations per run of the core scenarios (path lookups, transformations).")
    var operations = 1_000_000

    @Option(help: "Size of the XML file for peers that cannot read the main one (XMLParser(data:) stops at 10 MB).")
    var limitedSize = "9MB"

    @Option(
        help: ArgumentHelp(
            "Run contenders whose id (scenario/format/name, see --list) contains NAME on a smaller data set of SIZE, beside EasyBake on the same file (for a contender too slow for the main size); repeatable.",
            valueName: "NAME=SIZE"))
    var reduce: [String] = []

    @Option(help: "Why --reduce was used, for the report's notes.")
    var reduceReason: String?

    @Option(help: "Seconds after which a contender's child process is stopped and its cell marked as not finished.")
    var timeout = 1800.0

    @Option(help: "Only these scenarios (tree, bake, select, paths, transform, shapes); repeatable.")
    var scenario: [String] = []

    @Option(help: "Only these formats (json, xml, yaml, date, number, url, api, keyed, numbers); repeatable.")
    var format: [String] = []

    @Option(help: "Only contenders whose name contains this text; repeatable.")
    var contender: [String] = []

    @Option(
        help:
            "The job counts of the parallel rows (\(Contenders.jobCounts.map(String.init).joined(separator: ", ")) are built in); repeatable. Default: the number of cores."
    )
    var jobs: [Int] = []

    @Option(help: "Where the JSON and Markdown results go (default: Benchmarks/Results).")
    var outputDir: String?

    @Option(help: "Where generated data sets live (default: Benchmarks/Data).")
    var dataDir: String?

    @Option(
        help:
            "Render the Markdown report (with this build's targets and notes) and the SVG chart from the JSON of an earlier run, and exit."
    )
    var render: String?

    @Flag(help: "List the contenders and exit.")
    var list = false

    @Flag(
        help:
            "Generate the --size data set (JSON, XML and YAML with the same records) and the --shape-size shapes, print the files' paths, and exit."
    )
    var generateOnly = false

    @Option(help: .hidden) var child: String?
    @Option(help: .hidden) var childInput: String?
    @Option(help: .hidden) var childInputBytes: Int = 0
    @Option(
        help: ArgumentHelp(
            "With --child: write the values the contender produced as JSON to this file.", visibility: .hidden))
    var dump: String?

    /// `Benchmarks/`, found from this file's path so that the defaults work
    /// from any working directory.
    static let packageDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    mutating func run() throws {
        if let child {
            try runChild(child)
            return
        }
        if let render {
            try rerender(render)
            return
        }
        if list {
            for contender in Contenders.all {
                print("\(contender.id)\(contender.inputLimit.map { " (input ≤ \(megabytes($0)))" } ?? "")")
            }
            return
        }
        if quick {
            size = "1MB"
            shapeSize = "1MB"
            iterations = 1
            operations = min(operations, 200_000)
        }
        guard let targetBytes = parseSize(size), let limitedBytes = parseSize(limitedSize),
            let shapeBytes = parseSize(shapeSize)
        else {
            throw ValidationError("sizes look like 1MB, 200MB, 1GB")
        }
        let dataDirectory = dataDir ?? "\(Self.packageDirectory)/Data"
        let outputDirectory = outputDir ?? "\(Self.packageDirectory)/Results"
        let mainSet = try DataSet.ensure(
            directory: dataDirectory, label: size, targetBytes: targetBytes, seed: seed, log: log)
        // Scenario 5's documents, one data set per shape, made only when a
        // selected contender reads it.
        func shapeSet(_ shape: Shape) throws -> DataSet {
            try DataSet.ensure(
                directory: dataDirectory, shape: shape, label: shapeSize, targetBytes: shapeBytes, seed: seed, log: log)
        }
        if generateOnly {
            for format in [PayloadFormat.json, .xml, .yaml] { print(mainSet.path(format)) }
            for shape in Shape.allCases { print(try shapeSet(shape).path(.json)) }
            return
        }
        var dataSets = [mainSet]

        let jobCounts = jobs.isEmpty ? [Contenders.cores] : jobs
        if let unknown = jobCounts.first(where: { !Contenders.jobCounts.contains($0) }) {
            throw ValidationError(
                "--jobs \(unknown): the parallel rows are built for \(Contenders.jobCounts.map(String.init).joined(separator: ", ")) jobs"
            )
        }
        let selected = Contenders.all.filter { c in
            (scenario.isEmpty || scenario.contains(c.scenario.rawValue))
                && (format.isEmpty || format.contains(c.format))
                && (c.jobs == nil || jobCounts.contains(c.jobs!))
                && (contender.isEmpty || c.isEasyBake || contender.contains { c.name.contains($0) })
        }
        guard !selected.isEmpty else { throw ValidationError("no contender matches the filters (see --list)") }
        var shapeSets: [String: DataSet] = [:]  // shape → data set
        for shape in Shape.allCases
        where selected.contains(where: { $0.scenario == .shapes && $0.format == shape.rawValue }) {
            let set = try shapeSet(shape)
            shapeSets[shape.rawValue] = set
            dataSets.append(set)
        }

        // Which contenders cannot read the main files, and the small data set they read instead.
        func inputBytes(_ c: Contender, _ set: DataSet) -> Int {
            if c.scenario == .shapes { return set.size(.json) }
            if let format = PayloadFormat(rawValue: c.format), c.scenario.readsPayload { return set.size(format) }
            return c.scenario == .paths ? set.size(.json) : 0
        }
        func inputPath(_ c: Contender, _ set: DataSet) -> String {
            set.path(PayloadFormat(rawValue: c.format) ?? .json)
        }
        // Which contenders run on a smaller data set than the main one: peers
        // that cannot read the main files (their input limit), and those
        // named by --reduce. Each runs beside EasyBake on the same file.
        var reducedSets: [String: DataSet] = [:]  // contender id → data set
        var reasons: [String: String] = [:]  // contender id → why
        var limitedSet: DataSet?
        var reducedByLabel: [String: DataSet] = [:]
        for c in selected {
            if let limit = c.inputLimit, inputBytes(c, mainSet) > limit {
                let small =
                    try limitedSet
                    ?? DataSet.ensure(
                        directory: dataDirectory, label: limitedSize,
                        targetBytes: limitedBytes, seed: seed, sizedBy: .xml, log: log)
                limitedSet = small
                reducedSets[c.id] = small
                reasons[c.id] = c.limitReason ?? "input limit"
            }
            for rule in reduce {
                let parts = rule.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, let bytes = parseSize(parts[1]) else {
                    throw ValidationError("--reduce takes NAME=SIZE, like 'EasyBake streaming=2MB'")
                }
                // A shape's file has no smaller users data set to stand in for it.
                if c.id.contains(parts[0]), !c.isEasyBake, c.scenario != .shapes, reducedSets[c.id] == nil,
                    bytes < mainSet.targetBytes
                {
                    let set =
                        try reducedByLabel[parts[1]]
                        ?? DataSet.ensure(
                            directory: dataDirectory, label: parts[1],
                            targetBytes: bytes, seed: seed, log: log)
                    reducedByLabel[parts[1]] = set
                    reducedSets[c.id] = set
                    reasons[c.id] = reduceReason ?? "run on a smaller data set by --reduce"
                }
            }
        }
        for set in reducedSets.values where !dataSets.contains(where: { $0.path(.json) == set.path(.json) }) {
            dataSets.append(set)
        }

        // Jobs in table order: per scenario and format, the main data set
        // (EasyBake first), then each smaller one with EasyBake beside its contenders.
        var jobs: [(Contender, DataSet)] = []
        for scenario in Scenario.allCases {
            for format in Contenders.formats {
                let cell = selected.filter { $0.scenario == scenario && $0.format == format }
                jobs += cell.filter { reducedSets[$0.id] == nil }.map { ($0, shapeSets[format] ?? mainSet) }
                var smaller: [DataSet] = []
                for c in cell {
                    if let set = reducedSets[c.id], !smaller.contains(where: { $0.path(.json) == set.path(.json) }) {
                        smaller.append(set)
                    }
                }
                for set in smaller.sorted(by: { $0.size(.json) > $1.size(.json) }) {
                    jobs += cell.filter(\.isEasyBake).map { ($0, set) }
                    jobs += cell.filter { reducedSets[$0.id]?.path(.json) == set.path(.json) }.map { ($0, set) }
                }
            }
        }

        let runIterations = iterations
        let runBudget = budget
        var rows: [Row] = []
        for (number, (c, set)) in jobs.enumerated() {
            let bytes = inputBytes(c, set)
            let workload = Workload(path: inputPath(c, set), bytes: bytes, operations: operations)
            var row = Row(c, dataSet: set.label, inputBytes: bytes, note: c.note)
            log("[\(number + 1)/\(jobs.count)] \(c.id) on \(set.label)…")
            switch runInChild(c, workload: workload, iterations: runIterations, budget: runBudget, timeout: timeout) {
            case .success(let measurement):
                row.record(measurement, readsPayload: c.scenario.readsPayload)
                log(
                    "    " + String(format: "%.3f s best of %d", measurement.best, measurement.seconds.count)
                        + (row.megabytesPerSecond.map { String(format: ", %.1f MB/s", $0) } ?? "")
                        + ", peak RSS \(megabytes(measurement.peakRSS))")
            case .failure(let error):
                row.failure = error.description
                log("    failed: \(error.description)")
            }
            rows.append(row)
        }

        let problems = crossCheck(&rows)
        var notes: [String] = []
        for (c, set) in jobs where reducedSets[c.id] != nil {
            let format = PayloadFormat(rawValue: c.format) ?? .json
            notes.append(
                "\(c.scenario.title), \(c.format), \(c.name): not measured on \(mainSet.label) — \(reasons[c.id] ?? ""); "
                    + "measured on the \(set.label) data set (\(set.records) records, \(c.format.uppercased()) \(megabytes(set.size(format)))), "
                    + "compared with EasyBake on the same file.")
        }
        for row in rows where row.failure != nil {
            notes.append(
                "\(Scenario(rawValue: row.scenario)?.title ?? row.scenario), \(row.format), \(row.contender) on \(row.dataSet): failed — \(row.failure!)"
            )
        }
        notes += Contenders.missingNotes

        let targets = Targets.check(rows, mainSet: mainSet.label)
        let command =
            "swift run -c release --package-path Benchmarks easybake-bench "
            + (quick
                ? "--quick"
                : CommandLine.arguments.dropFirst().map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " "))
        let info = RunInfo.collect(
            root: "\(Self.packageDirectory)/..", command: command, iterations: runIterations,
            operations: operations, dataSets: dataSets)

        print(textTable(rows))
        print("")
        for check in targets {
            print("target: \(check.target): \(check.measured)\(check.met.map { $0 ? " — met" : " — MISSED" } ?? "")")
        }
        for note in notes { print("note: \(note)") }

        try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        let stem = "\(outputDirectory)/results-\(size)"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(JSONReport(info: info, rows: rows, targets: targets, notes: notes))
            .write(to: URL(fileURLWithPath: "\(stem).json"))
        try markdownReport(rows, info: info, targets: targets, notes: notes)
            .write(toFile: "\(stem).md", atomically: true, encoding: .utf8)
        try svgChart(rows, info: info).write(toFile: "\(stem).svg", atomically: true, encoding: .utf8)
        log("wrote \(stem).json, \(stem).md and \(stem).svg")

        if !problems.isEmpty {
            for problem in problems { log("error: \(problem)") }
            throw ExitCode(1)
        }
        log("all \(rows.count) results agree with EasyBake's")
    }

    /// Writes the Markdown for the JSON results at `path` beside it, with the
    /// targets and static notes of this build; the measured rows are kept.
    private func rerender(_ path: String) throws {
        var report = try JSONDecoder().decode(JSONReport.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        let mainLabel = report.info.dataSets.first?.label ?? ""
        report.targets = Targets.check(report.rows, mainSet: mainLabel)
        // Keep the run's own notes (limited and failed cells, and rows taken
        // from another run: "… rows measured in …"); replace the static ones.
        report.notes =
            report.notes.filter {
                $0.contains("not measured on ") || $0.contains(": failed — ") || $0.contains(" rows measured in ")
            }
            + Contenders.missingNotes
        let stem = path.hasSuffix(".json") ? String(path.dropLast(5)) : path
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(report).write(to: URL(fileURLWithPath: "\(stem).json"))
        try markdownReport(report.rows, info: report.info, targets: report.targets, notes: report.notes)
            .write(toFile: "\(stem).md", atomically: true, encoding: .utf8)
        try svgChart(report.rows, info: report.info).write(toFile: "\(stem).svg", atomically: true, encoding: .utf8)
        print(textTable(report.rows))
        log("wrote \(stem).json, \(stem).md and \(stem).svg")
    }

    private func runChild(_ id: String) throws {
        guard let contender = Contenders.named(id), let childInput else {
            throw ValidationError("unknown contender \(id)")
        }
        do {
            let workload = Workload(path: childInput, bytes: childInputBytes, operations: operations)
            let measurement = try measure(
                contender, workload: workload, iterations: iterations, budget: budget, dump: dump)
            print(String(decoding: try JSONEncoder().encode(measurement), as: UTF8.self))
        } catch {
            log("\(id): \(error)")
            throw ExitCode(2)
        }
    }
}

func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
