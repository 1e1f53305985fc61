import Foundation

/// Where and on what the benchmark ran.
struct RunInfo: Codable, Sendable {
    var date: String
    var commit: String
    var cores: Int
    var cpu: String
    var memory: String
    var toolchain: String
    var command: String
    var iterations: Int
    var operations: Int
    var dataSets: [DataSet]

    static func collect(root: String, command: String, iterations: Int, operations: Int, dataSets: [DataSet]) -> RunInfo
    {
        let formatter = ISO8601DateFormatter()
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
        var commit = shell(["git", "-C", root, "rev-parse", "--short", "HEAD"]) ?? "unknown"
        if let status = shell(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"]), !status.isEmpty {
            commit += " (with uncommitted changes)"
        }
        let memory = ProcessInfo.processInfo.physicalMemory
        return RunInfo(
            date: formatter.string(from: Date()), commit: commit,
            cores: ProcessInfo.processInfo.activeProcessorCount, cpu: model ?? "unknown",
            memory: String(format: "%.0f GiB", Double(memory) / 1_073_741_824),
            toolchain: shell(["swift", "--version"])?.split(separator: "\n").first.map(String.init) ?? "unknown",
            command: command, iterations: iterations, operations: operations, dataSets: dataSets)
    }
}

/// Runs a command and returns its trimmed standard output, or nil.
func shell(_ arguments: [String]) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// A target from the issues, checked against the rows of one run.
struct TargetCheck: Codable, Sendable {
    var target: String
    var measured: String
    var met: Bool?
}

enum Targets {
    /// The targets of the fast-core issue (and the streaming issue before
    /// it) that this run's rows can answer.
    static func check(_ rows: [Row], mainSet: String) -> [TargetCheck] {
        func row(_ scenario: String, _ format: String, _ contender: String, _ set: String = mainSet) -> Row? {
            rows.first {
                $0.scenario == scenario && $0.format == format && $0.contender == contender && $0.dataSet == set
                    && $0.failure == nil
            }
        }
        func peerRow(_ scenario: String, _ format: String, _ contender: String) -> Row? {
            row(scenario, format, contender)
                ?? rows.first {
                    $0.scenario == scenario && $0.format == format && $0.contender == contender && $0.failure == nil
                }
        }
        var checks: [TargetCheck] = []
        func speedup(_ target: String, _ scenario: String, _ format: String, _ peer: String, atLeast: Double) {
            guard let peerRow = peerRow(scenario, format, peer), let ratio = peerRow.easyBakeSpeedup else {
                checks.append(TargetCheck(target: target, measured: "not measured", met: nil)); return
            }
            let on = peerRow.dataSet == mainSet ? "" : " (on the \(peerRow.dataSet) file)"
            checks.append(
                TargetCheck(target: target, measured: String(format: "%.2f×", ratio) + on, met: ratio >= atLeast))
        }
        speedup("bake ≥ 3× JSONDecoder", "bake", "json", "JSONDecoder", atLeast: 3)
        speedup("bake ≥ 30× XMLCoder", "bake", "xml", "XMLCoder", atLeast: 30)
        speedup("bake ≥ 10× Yams", "bake", "yaml", "Yams YAMLDecoder", atLeast: 10)
        // `@Bakeable` models (issue 18): the generated initializers' row
        // against the peer's time on the same file.
        func bakeableVersus(_ target: String, _ format: String, _ peer: String, atLeast: Double) {
            guard let peerRow = peerRow("bake", format, peer), let peerBest = peerRow.bestSeconds,
                let bakeable = row("bake", format, "EasyBake @Bakeable", peerRow.dataSet),
                let best = bakeable.bestSeconds
            else {
                checks.append(TargetCheck(target: target, measured: "not measured", met: nil)); return
            }
            let on = peerRow.dataSet == mainSet ? "" : " (on the \(peerRow.dataSet) file)"
            checks.append(
                TargetCheck(
                    target: target, measured: String(format: "%.2f×", peerBest / best) + on,
                    met: peerBest / best >= atLeast))
        }
        bakeableVersus("@Bakeable bake ≥ 5× JSONDecoder", "json", "JSONDecoder", atLeast: 5)
        bakeableVersus("@Bakeable bake ≥ 8× JSONDecoder (issue 30)", "json", "JSONDecoder", atLeast: 8)
        bakeableVersus("@Bakeable bake ≥ 50× XMLCoder", "xml", "XMLCoder", atLeast: 50)
        bakeableVersus("@Bakeable bake ≥ 15× Yams", "yaml", "Yams YAMLDecoder", atLeast: 15)
        speedup("tree ≥ 10× JSONSerialization", "tree", "json", "JSONSerialization", atLeast: 10)
        for (format, bare) in [("xml", "libxml2 SAX (bare)"), ("yaml", "libyaml events (bare)")] {
            let target = "\(format.uppercased()) tree within 2× of \(bare)"
            if let ceiling = row("tree", format, bare), let ratio = ceiling.easyBakeSpeedup {
                // EasyBake's time is at most twice the bare parser's: speedup ≥ 0.5.
                checks.append(
                    TargetCheck(
                        target: target, measured: String(format: "EasyBake takes %.2f× its time", 1 / ratio),
                        met: ratio >= 0.5))
            } else {
                checks.append(TargetCheck(target: target, measured: "not measured", met: nil))
            }
        }
        for format in ["json", "xml", "yaml"] {
            let target = "\(format.uppercased()) tree peak memory ≤ 2× input (growth/input)"
            if let easyBake = row("tree", format, "EasyBake"), let peak = easyBake.peakRSS,
                let ratio = easyBake.memoryGrowthRatio
            {
                checks.append(
                    TargetCheck(
                        target: target,
                        measured: String(format: "%.2f×", ratio)
                            + " (peak \(megabytes(peak)), of which \(megabytes(peak - (easyBake.baselineRSS ?? 0))) for the work, on \(megabytes(easyBake.inputBytes)))",
                        met: ratio <= 2))
            } else {
                checks.append(TargetCheck(target: target, measured: "not measured", met: nil))
            }
        }
        // The tree as a view of the index (issue 31, item 7): a tree a format
        // read holds its index until its nodes are asked for, and baking it
        // is baking that index.
        for format in ["json", "xml", "yaml"] {
            let held = "\(format.uppercased()) tree read and held (its index) ≤ 2× input (growth/input)"
            if let index = row("tree", format, "EasyBake index"), let ratio = index.memoryGrowthRatio {
                checks.append(TargetCheck(target: held, measured: String(format: "%.2f×", ratio), met: ratio <= 2))
            } else {
                checks.append(TargetCheck(target: held, measured: "not measured", met: nil))
            }
            let viaTree = "\(format.uppercased()) bake from a tree the library read ≥ 0.8× the road from the bytes"
            if let tree = row("bake", format, "EasyBake via tree")?.bestSeconds,
                let direct = row("bake", format, "EasyBake")?.bestSeconds
            {
                checks.append(
                    TargetCheck(
                        target: viaTree, measured: String(format: "%.2f×", direct / tree), met: direct / tree >= 0.8))
            } else {
                checks.append(TargetCheck(target: viaTree, measured: "not measured", met: nil))
            }
        }
        // Streaming (issue 5): the same comparisons for `EasyBake streaming`,
        // measured against the peer's time on the same file.
        func streamingVersus(_ target: String, _ scenario: String, _ format: String, _ peer: String, atLeast: Double) {
            guard let peerRow = peerRow(scenario, format, peer), let peerBest = peerRow.bestSeconds else {
                checks.append(TargetCheck(target: target, measured: "not measured", met: nil)); return
            }
            if let streaming = row(scenario, format, "EasyBake streaming", peerRow.dataSet),
                let best = streaming.bestSeconds
            {
                let on = peerRow.dataSet == mainSet ? "" : " (on the \(peerRow.dataSet) file)"
                checks.append(
                    TargetCheck(
                        target: target, measured: String(format: "%.2f×", peerBest / best) + on,
                        met: peerBest / best >= atLeast))
            } else if let streaming = row(scenario, format, "EasyBake streaming"),
                let mbps = streaming.megabytesPerSecond,
                let peerMBps = peerRow.megabytesPerSecond
            {
                // The peer could only read a smaller file: compare throughput.
                checks.append(
                    TargetCheck(
                        target: target,
                        measured: String(format: "%.2f×", mbps / peerMBps)
                            + " (MB/s: streaming on \(mainSet), \(peer) on the \(peerRow.dataSet) file)",
                        met: mbps / peerMBps >= atLeast))
            } else {
                checks.append(TargetCheck(target: target, measured: "not measured", met: nil))
            }
        }
        streamingVersus("streaming bake ≥ 3× JSONDecoder", "bake", "json", "JSONDecoder", atLeast: 3)
        streamingVersus("streaming bake ≥ 30× XMLCoder", "bake", "xml", "XMLCoder", atLeast: 30)
        streamingVersus("streaming bake ≥ 10× Yams", "bake", "yaml", "Yams YAMLDecoder", atLeast: 10)
        // A row's throughput against a floor in MB/s (issue 30: the
        // structural JSON scanner).
        func throughput(
            _ target: String, _ scenario: String, _ format: String, _ contender: String, atLeast floor: Double,
            set: String? = nil
        ) {
            guard let found = row(scenario, format, contender, set ?? mainSet), let mbps = found.megabytesPerSecond
            else {
                checks.append(TargetCheck(target: target, measured: "not measured", met: nil)); return
            }
            checks.append(TargetCheck(target: target, measured: String(format: "%.0f MB/s", mbps), met: mbps >= floor))
        }
        throughput("JSON streaming, three fields ≥ 1 GB/s", "select", "json", "EasyBake streaming", atLeast: 1000)
        throughput("JSON index alone ≥ 1.5 GB/s", "tree", "json", "EasyBake index", atLeast: 1500)
        for shape in ["api", "keyed", "numbers"] {
            throughput(
                "JSON index alone on the \(shape) shape ≥ 1 GB/s", "shapes", shape, "EasyBake index", atLeast: 1000,
                set: rows.first { $0.scenario == "shapes" && $0.format == shape }?.dataSet)
        }
        throughput("JSON three fields from the whole document ≥ 1 GB/s", "select", "json", "EasyBake", atLeast: 1000)
        // The class issue 30 names, measured in the same run: how EasyBake's
        // rows compare with simdjson's on the same file. Context for the
        // floors above, which are absolute and so depend on the machine;
        // not targets of their own.
        func versusSimdjson(_ target: String, _ scenario: String, _ contender: String, _ peer: String) {
            guard let ours = row(scenario, "json", contender)?.bestSeconds,
                let theirs = row(scenario, "json", peer)?.bestSeconds
            else {
                checks.append(TargetCheck(target: target, measured: "not measured", met: nil)); return
            }
            checks.append(
                TargetCheck(
                    target: target, measured: String(format: "%.2f× simdjson's speed", theirs / ours), met: nil))
        }
        versusSimdjson(
            "JSON index alone, against simdjson DOM (context)", "tree", "EasyBake index", "simdjson DOM (bare)")
        versusSimdjson(
            "JSON three fields from the whole document, against simdjson On-Demand (context)", "select", "EasyBake",
            "simdjson On-Demand (bare)")
        versusSimdjson(
            "JSON streaming, three fields, against simdjson On-Demand (context)", "select", "EasyBake streaming",
            "simdjson On-Demand (bare)")
        streamingVersus("JSON streaming, three fields ≥ 10× JSONDecoder", "select", "json", "JSONDecoder", atLeast: 10)
        streamingVersus(
            "XML streaming, three fields ≥ 70% of libxml2 bare SAX", "select", "xml", "libxml2 SAX (bare)", atLeast: 0.7
        )
        streamingVersus(
            "YAML streaming, three fields ≥ 70% of libyaml bare events", "select", "yaml", "libyaml events (bare)",
            atLeast: 0.7)
        // Streaming at whole-document speed (issue 29): the fastest one-job
        // streaming row against the fastest whole-document row of the same
        // records, and two jobs against one, each pair from the same run.
        func fastest(_ format: String, _ contenders: [String]) -> Row? {
            contenders.compactMap { row("bake", format, $0) }.filter { $0.bestSeconds != nil }.min {
                $0.bestSeconds! < $1.bestSeconds!
            }
        }
        for format in ["json", "xml", "yaml"] {
            let target = "\(format.uppercased()) one-job streaming ≥ 0.9× the fastest whole-document bake"
            if let streaming = fastest(format, ["EasyBake streaming", "EasyBake streaming @Bakeable"]),
                let whole = fastest(format, ["EasyBake", "EasyBake @Bakeable"]),
                let streamed = streaming.bestSeconds, let wholeBest = whole.bestSeconds
            {
                checks.append(
                    TargetCheck(
                        target: target,
                        measured: String(format: "%.2f×", wholeBest / streamed)
                            + " (\(streaming.contender) against \(whole.contender))",
                        met: wholeBest / streamed >= 0.9))
            } else {
                checks.append(TargetCheck(target: target, measured: "not measured", met: nil))
            }
            for model in ["EasyBake streaming", "EasyBake streaming @Bakeable"] {
                let target = "\(format.uppercased()) \(model), 2 jobs ≥ 1.7× one job"
                if let one = row("bake", format, model)?.bestSeconds,
                    let two = row("bake", format, "\(model), 2 jobs")?.bestSeconds
                {
                    checks.append(
                        TargetCheck(target: target, measured: String(format: "%.2f×", one / two), met: one / two >= 1.7)
                    )
                } else {
                    checks.append(TargetCheck(target: target, measured: "not measured", met: nil))
                }
            }
        }
        for format in ["json", "xml", "yaml"] {
            let target = "\(format.uppercased()) streaming peak memory < 64 MB (asked at 1 GB)"
            if let streaming = row("select", format, "EasyBake streaming"), let peak = streaming.peakRSS {
                checks.append(
                    TargetCheck(
                        target: target, measured: "\(megabytes(peak)) on \(megabytes(streaming.inputBytes))",
                        met: peak < 64_000_000))
            } else {
                checks.append(TargetCheck(target: target, measured: "not measured", met: nil))
            }
        }
        return checks
    }
}

// MARK: - Rendering

private func formatted(_ value: Double?, _ format: String) -> String {
    guard let value, value.isFinite else { return "—" }
    return String(format: format, value)
}

private func rss(_ bytes: Int?) -> String { bytes.map { String(format: "%.0f MB", Double($0) / 1e6) } ?? "—" }

func rate(_ value: Double?) -> String {
    guard let value, value.isFinite else { return "—" }
    switch value {
    case 1e6...: return String(format: "%.2f M", value / 1e6)
    case 1e3...: return String(format: "%.1f k", value / 1e3)
    default: return String(format: "%.0f", value)
    }
}

private func cells(_ row: Row) -> [String] {
    let scenario = Scenario(rawValue: row.scenario)?.title ?? row.scenario
    let contender = row.contender + (row.dataSet.isEmpty ? "" : "")
    if let failure = row.failure {
        let brief = failure.count > 90 ? failure.prefix(87) + "…" : failure
        return [scenario, row.format, contender, row.dataSet, "—", "—", "—", "—", "—", "failed: \(brief)"]
    }
    let memoryRatio = row.memoryGrowthRatio
    return [
        scenario, row.format, contender, row.dataSet,
        formatted(row.megabytesPerSecond, "%.1f"), rate(row.recordsPerSecond), rss(row.peakRSS),
        row.inputBytes > 0 && Scenario(rawValue: row.scenario)?.readsPayload == true
            ? formatted(memoryRatio, "%.1f×") : "—",
        formatted(row.easyBakeSpeedup, "%.2f×"), row.check,
    ]
}

private let headers = [
    "scenario", "format", "contender", "data", "MB/s", "records/s", "peak RSS", "growth/input",
    "EasyBake ×", "check",
]

/// The table for the terminal: fixed-width columns.
func textTable(_ rows: [Row]) -> String {
    let body = rows.map(cells)
    var widths = headers.map(\.count)
    for line in body { for (i, cell) in line.enumerated() { widths[i] = max(widths[i], cell.count) } }
    func render(_ line: [String]) -> String {
        line.enumerated().map { i, cell in
            let pad = String(repeating: " ", count: widths[i] - cell.count)
            return (4...8).contains(i) ? pad + cell : cell + pad
        }.joined(separator: "  ")
    }
    var lines = [render(headers), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")]
    var previous = ""
    for (row, line) in zip(rows, body) {
        if row.scenario != previous, !previous.isEmpty { lines.append("") }
        previous = row.scenario
        lines.append(render(line))
    }
    return lines.joined(separator: "\n")
}

/// The Markdown report: run information, the table, the targets, and every
/// missing or limited cell with its reason.
func markdownReport(_ rows: [Row], info: RunInfo, targets: [TargetCheck], notes: [String]) -> String {
    var out = "# EasyBake benchmark results\n\n"
    out += "- Date: \(info.date)\n- Commit: \(info.commit)\n"
    out += "- Machine: \(info.cores) cores, \(info.cpu), \(info.memory)\n- Toolchain: \(info.toolchain)\n"
    out += "- Command: `\(info.command)`\n"
    out +=
        "- Timing: "
        + (info.iterations == 1
            ? "one run per contender"
            : "best of up to \(info.iterations) runs per contender (fewer once 10 s are spent)")
        + ", each contender in its own process; "
    out += "the core scenarios run \(info.operations) operations\n"
    for set in info.dataSets {
        if let shape = set.shape {
            out +=
                "- Data set \(set.name) (seed \(set.seed), scenario 5): \(set.records) \(shape.elements); JSON \(megabytes(set.size(.json)))\n"
            continue
        }
        out +=
            "- Data set \(set.label) (seed \(set.seed)): \(set.records) records; JSON \(megabytes(set.size(.json))), "
        out += "XML \(megabytes(set.size(.xml))), YAML \(megabytes(set.size(.yaml)))\n"
    }
    out +=
        "\n*EasyBake ×* is how many times faster EasyBake is than the contender on the same file (above 1: EasyBake is faster). "
    out += "*check* compares the contender's record count and a fingerprint of its values with EasyBake's "
    out += "(*equal check values*: of one value per record, for a contender that builds no model). "
    out +=
        "MB/s counts the input file's bytes; a timed run reads the file, does the contender's work, folds the values into the check's fingerprint (a consumer's pass over them, as a streaming row does record by record) and releases all it built; peak RSS is the contender's whole process (VmHWM) up to the end of its first timed run (later runs add only what the allocator kept of earlier ones); "
    out +=
        "*growth/input* is that peak less what the process held before the contender started (the Swift runtime and Foundation, "
    out += "about 23 MB), divided by the input's size — the memory the contender's work took, per byte of input. "
    out += "For the core scenarios *records/s* is operations per second.\n\n"
    out += "| " + headers.joined(separator: " | ") + " | notes |\n"
    out += "|" + String(repeating: "---|", count: headers.count + 1) + "\n"
    for row in rows {
        out += "| " + cells(row).map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ")
        out += " | \((row.note ?? "").replacingOccurrences(of: "|", with: "\\|")) |\n"
    }
    out += "\n## Targets\n\n| target | measured | met |\n|---|---|---|\n"
    for check in targets {
        out += "| \(check.target) | \(check.measured) | \(check.met.map { $0 ? "yes" : "**no**" } ?? "—") |\n"
    }
    if !notes.isEmpty {
        out += "\n## Missing and limited cells\n\n"
        for note in notes { out += "- \(note)\n" }
    }
    return out
}

struct JSONReport: Codable {
    var info: RunInfo
    var rows: [Row]
    var targets: [TargetCheck]
    var notes: [String]
}
