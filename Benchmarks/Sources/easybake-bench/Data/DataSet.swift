import Foundation

/// The three text formats a data set is written in.
enum PayloadFormat: String, CaseIterable, Codable, Sendable {
    case json, xml, yaml

    var writer: any PayloadWriter {
        switch self {
        case .json: JSONPayloadWriter()
        case .xml: XMLPayloadWriter()
        case .yaml: YAMLPayloadWriter()
        }
    }
}

/// Generated payload files of one size and seed under `Benchmarks/Data/`,
/// with a manifest so that a later run with the same size and seed reuses them.
///
/// A data set holds either the users records in JSON, XML and YAML, or, when
/// `shape` is set, one JSON document of that real-world shape.
struct DataSet: Codable, Sendable {
    /// Bump when the generator's output changes, so old files are rewritten.
    static let generatorVersion = 2

    var version: Int
    var label: String
    var targetBytes: Int
    var seed: UInt64
    /// The format whose file is `targetBytes` long; the others hold the same records.
    var sizedBy: PayloadFormat
    var records: Int
    var bytes: [String: Int]
    var directory: String
    /// The shape of a scenario-5 data set (its one file is JSON); nil for users.
    var shape: Shape?

    func path(_ format: PayloadFormat) -> String { "\(directory)/\(stem).\(format.rawValue)" }
    func size(_ format: PayloadFormat) -> Int { bytes[format.rawValue] ?? 0 }
    private var stem: String {
        if let shape { return "\(shape.rawValue)-\(label)-seed\(seed)" }
        return "users-\(label)\(sizedBy == .json ? "" : "-\(sizedBy.rawValue)")-seed\(seed)"
    }
    /// The formats it has files in.
    var formats: [PayloadFormat] { shape == nil ? PayloadFormat.allCases : [.json] }
    /// `200MB`, or `api 50MB` for a shape: how reports name it.
    var name: String { shape.map { "\($0.rawValue) \(label)" } ?? label }

    /// The data set whose `sizedBy` file is about `targetBytes` long (the
    /// other formats hold the same records), generated unless it exists.
    static func ensure(
        directory: String, label: String, targetBytes: Int, seed: UInt64, sizedBy: PayloadFormat = .json,
        log: (String) -> Void
    ) throws -> DataSet {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var set = DataSet(
            version: generatorVersion, label: label, targetBytes: targetBytes, seed: seed,
            sizedBy: sizedBy, records: 0, bytes: [:], directory: directory)
        if let reused = set.reuse(log: log) { return reused }
        let manifest = "\(directory)/\(set.stem).manifest.json"
        let generator = RecordGenerator(seed: seed)
        let started = Date()
        for format in [sizedBy] + PayloadFormat.allCases.filter({ $0 != sizedBy }) {
            let (records, size) = try write(
                format, to: set.path(format), generator: generator,
                records: format == sizedBy ? nil : set.records, targetBytes: targetBytes)
            if format == sizedBy { set.records = records }
            set.bytes[format.rawValue] = size
        }
        log(
            "generated \(label) data set: \(set.records) records, JSON \(megabytes(set.size(.json))), "
                + "XML \(megabytes(set.size(.xml))), YAML \(megabytes(set.size(.yaml))) in "
                + String(format: "%.1f s", Date().timeIntervalSince(started)))
        try JSONEncoder().encode(set).write(to: URL(fileURLWithPath: manifest))
        return set
    }

    /// The data set of one real-world shape whose JSON file is about
    /// `targetBytes` long, generated unless it exists.
    static func ensure(
        directory: String, shape: Shape, label: String, targetBytes: Int, seed: UInt64,
        log: (String) -> Void
    ) throws -> DataSet {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var set = DataSet(
            version: ShapeGenerator.version, label: label, targetBytes: targetBytes, seed: seed,
            sizedBy: .json, records: 0, bytes: [:], directory: directory, shape: shape)
        if let reused = set.reuse(log: log) { return reused }
        let started = Date()
        let generator = ShapeGenerator(shape: shape, seed: seed)
        (set.records, set.bytes[PayloadFormat.json.rawValue]) = try write(
            to: set.path(.json), records: nil, targetBytes: targetBytes, header: { generator.header(into: &$0) },
            record: { index, buffer in generator.element(at: index, first: index == 0, into: &buffer) },
            footer: { count, buffer in generator.footer(elements: count, into: &buffer) })
        log(
            "generated \(shape.rawValue) \(label) data set: \(set.records) \(shape.elements), JSON \(megabytes(set.size(.json))) in "
                + String(format: "%.1f s", Date().timeIntervalSince(started)))
        try JSONEncoder().encode(set).write(to: URL(fileURLWithPath: "\(directory)/\(set.stem).manifest.json"))
        return set
    }

    /// The data set its manifest describes, when the manifest was written by
    /// this version of the generator for the same size and its files are
    /// whole; nil otherwise.
    private func reuse(log: (String) -> Void) -> DataSet? {
        guard let data = FileManager.default.contents(atPath: "\(directory)/\(stem).manifest.json"),
            let existing = try? JSONDecoder().decode(DataSet.self, from: data),
            existing.version == version, existing.shape == shape, existing.targetBytes == targetBytes,
            existing.sizedBy == sizedBy,
            formats.allSatisfy({ format in
                let attributes = try? FileManager.default.attributesOfItem(atPath: existing.path(format))
                return (attributes?[.size] as? NSNumber)?.intValue == existing.size(format)
            })
        else { return nil }
        var reused = existing
        reused.directory = directory
        log("reusing \(name) data set (\(existing.records) \(shape?.elements ?? "records")) in \(directory)")
        return reused
    }

    /// Writes `records` records, or, when `records` is nil, as many as it
    /// takes to reach `targetBytes`.
    private static func write(
        _ format: PayloadFormat, to path: String, generator: RecordGenerator,
        records: Int?, targetBytes: Int
    ) throws -> (records: Int, bytes: Int) {
        let writer = format.writer
        return try write(
            to: path, records: records, targetBytes: targetBytes, header: { writer.header(into: &$0) },
            record: { index, buffer in writer.record(generator.user(at: index), first: index == 0, into: &buffer) },
            footer: { _, buffer in writer.footer(into: &buffer) })
    }

    /// Writes a header, `records` records or as many as reach `targetBytes`,
    /// and a footer (given the count), in 4 MiB writes.
    private static func write(
        to path: String, records: Int?, targetBytes: Int, header: (inout [UInt8]) -> Void,
        record: (Int, inout [UInt8]) -> Void,
        footer: (Int, inout [UInt8]) -> Void
    ) throws -> (records: Int, bytes: Int) {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw BenchError("cannot create \(path)")
        }
        defer { try? handle.close() }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 22)
        var written = 0
        header(&buffer)
        var index = 0
        while records.map({ index < $0 }) ?? (written + buffer.count < targetBytes) {
            record(index, &buffer)
            index += 1
            if buffer.count >= 1 << 22 {
                try handle.write(contentsOf: buffer)
                written += buffer.count
                buffer.removeAll(keepingCapacity: true)
            }
        }
        footer(index, &buffer)
        try handle.write(contentsOf: buffer)
        written += buffer.count
        return (index, written)
    }
}

/// `200MB`, `1GB`, `9MB`, `512KB` (decimal units) as bytes.
func parseSize(_ text: String) -> Int? {
    let upper = text.uppercased()
    let units: [(String, Double)] = [("GB", 1e9), ("MB", 1e6), ("KB", 1e3), ("B", 1)]
    for (suffix, factor) in units where upper.hasSuffix(suffix) {
        guard let value = Double(upper.dropLast(suffix.count)), value > 0 else { return nil }
        return Int(value * factor)
    }
    return Int(upper)
}

func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }

/// A failure of the benchmark itself (not of a contender).
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
