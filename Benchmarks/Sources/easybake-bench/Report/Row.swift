import Foundation

/// One cell of the results: a contender in a scenario and format, on one
/// data set.
struct Row: Codable, Sendable {
    var scenario: String
    var format: String
    var contender: String
    var easyBake: Bool
    /// The data set label (`200MB`, or `9MB` for a peer that cannot read more).
    var dataSet: String
    var inputBytes: Int
    var count: Int?
    var checksum: UInt64?
    /// The fingerprint of one check value per record (scenario 5), for rows
    /// checked on those rather than on every value.
    var checkValues: UInt64?
    var bestSeconds: Double?
    var runs: Int?
    var megabytesPerSecond: Double?
    var recordsPerSecond: Double?
    var peakRSS: Int?
    var baselineRSS: Int?
    /// How many times faster EasyBake is than this contender on the same
    /// data (EasyBake's best time divided into this one's); 1 for EasyBake.
    var easyBakeSpeedup: Double?
    /// `equal`, `count only`, `reference`, or what did not match.
    var check: String
    var note: String?
    /// Why the cell has no figures, when it has none.
    var failure: String?

    var key: String { "\(scenario)/\(format)/\(dataSet)" }

    /// The peak resident memory the contender's work added, per byte of
    /// input: (peak − baseline) / input size.
    var memoryGrowthRatio: Double? {
        guard let peakRSS, inputBytes > 0 else { return nil }
        return Double(peakRSS - (baselineRSS ?? 0)) / Double(inputBytes)
    }
    var failed: Bool { failure != nil || check.hasPrefix("MISMATCH") }
}

extension Row {
    init(_ contender: Contender, dataSet: String, inputBytes: Int, note: String?) {
        self.init(
            scenario: contender.scenario.rawValue, format: contender.format, contender: contender.name,
            easyBake: contender.isEasyBake, dataSet: dataSet, inputBytes: inputBytes, check: "",
            note: note)
    }

    mutating func record(_ measurement: Measurement, readsPayload: Bool) {
        count = measurement.count
        checksum = measurement.checksum
        checkValues = measurement.checkValues
        bestSeconds = measurement.best
        runs = measurement.seconds.count
        peakRSS = measurement.peakRSS
        baselineRSS = measurement.baselineRSS
        if readsPayload { megabytesPerSecond = Double(inputBytes) / 1e6 / measurement.best }
        recordsPerSecond = Double(measurement.count) / measurement.best
    }
}

/// Checks every row against the EasyBake row of the same scenario, format
/// and data set, and fills in the speed ratios. Returns the problems found.
func crossCheck(_ rows: inout [Row]) -> [String] {
    var problems: [String] = []
    let references = Dictionary(rows.filter(\.easyBake).map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    for i in rows.indices {
        if let failure = rows[i].failure {
            rows[i].check = "failed"
            problems.append("\(rows[i].key) \(rows[i].contender): \(failure)")
            continue
        }
        if rows[i].easyBake {
            rows[i].check = rows[i].checksum == nil ? "MISMATCH: EasyBake gave no checksum" : "reference"
            rows[i].easyBakeSpeedup = 1
            if rows[i].checksum == nil { problems.append("\(rows[i].key) EasyBake: no checksum") }
            // Another EasyBake road in the cell (`@Bakeable` models, the
            // tree) must give what the first one gives.
            if let reference = references[rows[i].key], reference.contender != rows[i].contender,
                reference.failure == nil, rows[i].checksum != nil
            {
                if rows[i].count != reference.count || rows[i].checksum != reference.checksum {
                    rows[i].check = "MISMATCH: values differ from \(reference.contender)'s"
                    problems.append("\(rows[i].key) \(rows[i].contender): \(rows[i].check)")
                } else {
                    rows[i].check = "equal, reference"
                }
            }
            continue
        }
        guard let reference = references[rows[i].key], reference.failure == nil else {
            rows[i].check = "no EasyBake reference"
            continue
        }
        if let best = rows[i].bestSeconds, let easyBakeBest = reference.bestSeconds {
            rows[i].easyBakeSpeedup = best / easyBakeBest
        }
        if rows[i].count != reference.count {
            rows[i].check = "MISMATCH: \(rows[i].count ?? 0) records, EasyBake \(reference.count ?? 0)"
        } else if let checksum = rows[i].checksum {
            rows[i].check = checksum == reference.checksum ? "equal" : "MISMATCH: values differ from EasyBake's"
        } else if let checkValues = rows[i].checkValues, reference.checkValues != nil {
            rows[i].check =
                checkValues == reference.checkValues
                ? "equal check values" : "MISMATCH: check values differ from EasyBake's"
        } else {
            rows[i].check = "count only"
        }
        if rows[i].check.hasPrefix("MISMATCH") {
            problems.append("\(rows[i].key) \(rows[i].contender): \(rows[i].check)")
        }
    }
    // The JSON, XML and YAML files of a data set hold the same records, so
    // EasyBake must find the same ones in each.
    for scenario in ["tree", "bake", "select"] {
        let byDataSet = Dictionary(
            grouping: rows.filter { $0.easyBake && $0.scenario == scenario && $0.failure == nil }, by: \.dataSet)
        for (dataSet, group) in byDataSet where Set(group.map { "\($0.count ?? -1)/\($0.checksum ?? 0)" }).count > 1 {
            problems.append(
                "\(scenario) on \(dataSet): EasyBake's results differ between "
                    + group.map(\.format).joined(separator: ", ") + " though the files hold the same records")
            for i in rows.indices where rows[i].easyBake && rows[i].scenario == scenario && rows[i].dataSet == dataSet {
                rows[i].check = "MISMATCH: differs from the other formats"
            }
        }
    }
    return problems
}
