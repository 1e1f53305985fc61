import Foundation

/// What is measured; each scenario runs per format against every contender
/// that can do it.
enum Scenario: String, CaseIterable, Codable, Sendable {
    /// Parse the whole payload into a tree.
    case tree
    /// Bake every record into the `Decodable` ``User``.
    case bake
    /// Take three fields (`id`, `email`, `address.city`) out of every record.
    case select
    /// The core alone: path lookups on a built tree.
    case paths
    /// The core alone: value transformations (dates, numbers, URLs).
    case transform
    /// Decode real-world JSON shapes (see ``Shape``): the format column
    /// names the shape.
    case shapes

    var title: String {
        switch self {
        case .tree: "1. parse to a tree"
        case .bake: "2. bake every record"
        case .select: "3. three fields per record"
        case .paths: "4a. path resolution"
        case .transform: "4b. transformation"
        case .shapes: "5. real-world shapes"
        }
    }

    /// Whether throughput is per byte of input (MB/s) or per operation only.
    var readsPayload: Bool { self == .tree || self == .bake || self == .select || self == .shapes }
}

/// What a contender is given: the input file (for the core scenarios, the
/// JSON file the tree is built from) and the number of operations the core
/// scenarios perform.
struct Workload: Sendable {
    var path: String
    var bytes: Int
    var operations: Int
}

/// What one run produced: how many records (or operations), and a checksum of
/// the values, computed after the clock stops. Contenders that only count
/// (the bare C parsers) give no checksum.
struct Outcome {
    var count: Int
    var checksum: () -> UInt64?
    /// The values as JSON, for `--dump` when a checksum does not match.
    var dump: () -> Data? = { nil }
    /// A fingerprint of one check value per record, for contenders that
    /// build no model to fingerprint whole (an index, an `Any` tree): they
    /// are checked on these against EasyBake's (scenario 5).
    var checkValues: (() -> UInt64)?
    /// Whether the check is no consumer's pass but the benchmark's own
    /// conversion (a `@Bakeable` shape checked as its plain model through
    /// JSON): the clock stops while it runs, and goes on for the release.
    var checkedAfterClock = false

    init(count: Int, checksum: @escaping () -> UInt64?) {
        self.count = count
        self.checksum = checksum
    }

    static func json<T: Encodable>(_ value: T) -> Data? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return try? encoder.encode(value)
    }

    /// Every record baked: the count and the fingerprint of all fields.
    static func users(_ users: [User]) -> Outcome {
        var outcome = Outcome(count: users.count) { users.fingerprint }
        outcome.dump = { json(users) }
        return outcome
    }
    /// Three fields per record.
    static func picks(_ picks: [Pick]) -> Outcome {
        var outcome = Outcome(count: picks.count) { picks.fingerprint }
        outcome.dump = { json(picks) }
        return outcome
    }
    /// A count alone, for contenders that build nothing to compare.
    static func counted(_ count: Int) -> Outcome { Outcome(count: count) { nil } }
}

/// One timed run, prepared by a contender outside the clock.
typealias Run = () throws -> Outcome

/// One library (or one way of using a library) in one scenario and format.
///
/// Adding a contender is one small function returning one of these; see
/// `Contenders+JSON.swift` and its siblings.
struct Contender: Sendable {
    var scenario: Scenario
    /// `json`, `xml`, `yaml`; for ``Scenario/transform``, the kind of value.
    var format: String
    var name: String
    var isEasyBake: Bool
    /// The largest input the contender can read, when it has a limit.
    var inputLimit: Int?
    /// Why it has that limit (printed with its rows).
    var limitReason: String?
    /// Anything a reader should know about how it is measured.
    var note: String?
    /// For a parallel row, its number of jobs (chosen with `--jobs`).
    var jobs: Int?
    /// Does untimed setup (building a tree for the path scenario, say) and
    /// returns the timed run.
    var prepare: @Sendable (Workload) throws -> Run

    init(
        _ scenario: Scenario, _ format: String, _ name: String, easyBake: Bool = false,
        inputLimit: Int? = nil, limitReason: String? = nil, note: String? = nil,
        prepare: @escaping @Sendable (Workload) throws -> Run
    ) {
        self.scenario = scenario
        self.format = format
        self.name = name
        self.isEasyBake = easyBake
        self.inputLimit = inputLimit
        self.limitReason = limitReason
        self.note = note
        self.prepare = prepare
    }

    /// A contender whose run needs no setup.
    init(
        _ scenario: Scenario, _ format: String, _ name: String, easyBake: Bool = false,
        inputLimit: Int? = nil, limitReason: String? = nil, note: String? = nil,
        run: @escaping @Sendable (Workload) throws -> Outcome
    ) {
        self.init(
            scenario, format, name, easyBake: easyBake, inputLimit: inputLimit, limitReason: limitReason,
            note: note, prepare: { workload in { try run(workload) } })
    }

    var id: String { "\(scenario.rawValue)/\(format)/\(name)" }
}

enum Contenders {
    /// Every contender, in table order: per scenario, per format, EasyBake first.
    static let all: [Contender] = {
        let list = json + xml + yaml + streaming + core + shapes
        var ordered: [Contender] = []
        for scenario in Scenario.allCases {
            for format in formats {
                let cell = list.filter { $0.scenario == scenario && $0.format == format }
                ordered += cell.filter(\.isEasyBake) + cell.filter { !$0.isEasyBake }
            }
        }
        return ordered
    }()

    static func named(_ id: String) -> Contender? { all.first { $0.id == id } }

    /// The format column's values in table order: payload formats, the kinds
    /// of value of scenario 4b, the shapes of scenario 5.
    static let formats = ["json", "xml", "yaml", "date", "number", "url"] + Shape.allCases.map(\.rawValue)
}

/// Reads a whole file the way a user of a `Data`-based API does.
func readData(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
}

/// libxml2 refuses to look ahead more than 10 MB in one input buffer unless
/// `XML_PARSE_HUGE` is set; Foundation's `XMLParser(data:)` hands it the whole
/// document and never sets it, so every `XMLParser(data:)`-based peer fails
/// ("Huge input lookup") on bigger documents.
let xmlParserDataLimit = 10_000_000
let xmlParserDataReason = "XMLParser(data:) fails above 10 MB (libxml2: \"Huge input lookup\")"

extension Contenders {
    /// The cells of the scenario × format × peer matrix that have no row, and
    /// why; printed with every report.
    static let missingNotes: [String] = [
        "1. parse to a tree — JSONDecoder, XMLCoder, Yams YAMLDecoder: decoders into types; they build no tree a caller can use "
            + "(they are in scenarios 2 and 3).",
        "1. parse to a tree — XMLParser delegate: an event parser builds no tree unless its delegate does (SWXMLHash is that "
            + "delegate; the record-building delegate is in scenarios 2 and 3).",
        "2. bake every record — JSONSerialization, Yams compose/load, SWXMLHash tree, libxml2 DOM: no Decodable support; "
            + "JSONSerialization and SWXMLHash appear with hand-written mapping where users write it (SWXMLHash in 2, "
            + "JSONSerialization with casts in 3).",
        "2. bake every record — libxml2 SAX, libyaml events, simdjson: bare C and C++ parsers build no model; their "
            + "ceiling rows are in scenarios 1 and 3.",
        "5. real-world shapes — simdjson: not measured; its rows on the records (scenarios 1 and 3) place the "
            + "structural scanner.",
        "3. three fields per record — libxml2 DOM, Yams compose/load: not measured; each is dominated by its full tree "
            + "(scenario 1), and the same library's decoder or SWXMLHash covers selective mapping.",
        "3. three fields per record: EasyBake streaming reads records one at a time and builds only the three paths; "
            + "EasyBake indexes the whole document first, EasyBake via tree and every peer build the whole tree or decode the whole document first; the bare C "
            + "parsers only count records (the ceiling a streaming mapper built on them can reach); simdjson On-Demand "
            + "builds its structural index of the whole document and reads the three fields in place.",
        "4a/4b. the core alone: path resolution and transformation do not depend on the payload format (every "
            + "format becomes the same Ingredients tree), so they are measured once, on the tree built from the JSON "
            + "file and on generated values.",
        "5. real-world shapes — EasyBake index and JSONSerialization build no model: they are checked on one value per "
            + "element (the statuses' ids, each product's key and stock, each feature's ring and point counts and first "
            + "longitude); EasyBake's bake and JSONDecoder on every decoded value and on those.",
    ]
}
