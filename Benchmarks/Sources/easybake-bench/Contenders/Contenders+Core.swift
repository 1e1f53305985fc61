import EasyBake
import EasyBakeJSON
import Foundation

/// The core alone, against the obvious Foundation equivalents: path lookups
/// on a tree built before the clock starts, and value transformations over
/// values made before the clock starts.
extension Contenders {
    static let core: [Contender] = [
        easyBakePaths(), easyBakePathTexts(), foundationPaths(),
        easyBakeDates(), iso8601DateFormatter(), iso8601FormatStyle(),
        easyBakeNumbers(), doubleFromString(),
        easyBakeURLs(), urlFromString(),
    ]

    /// How many distinct lookups or values are cycled through.
    private static let poolSize = 4096

    /// Lookups of string fields of random records, as path text and as steps.
    private static func lookups(records: Int) -> [(text: String, steps: [IngredientPath.Step])] {
        var rng = SplitMix64(seed: 7)
        let fields: [[IngredientPath.Step]] = [
            [.key("email")], [.key("address"), .key("city")], [.key("orders"), .index(0), .key("sku")],
            [.key("tags"), .index(0)], [.key("homepage")],
        ]
        return (0..<poolSize).map { _ in
            let record = Int(rng.next() % UInt64(max(records, 1)))
            let steps: [IngredientPath.Step] = [.key("users"), .index(record)] + fields[Int(rng.next() % 5)]
            return (IngredientPath(steps).description, steps)
        }
    }

    private static func recordCount(_ tree: Ingredients) -> Int { tree["users"]?.arrayValue?.count ?? 0 }

    static func easyBakePaths() -> Contender {
        Contender(
            .paths, "json", "EasyBake resolve(IngredientPath)", easyBake: true,
            note: "compiled paths `users[i].address.city` and the like"
        ) { workload in
            let tree = try JSONFormat().read(.file(workload.path))
            let paths = lookups(records: recordCount(tree)).map { IngredientPath($0.steps) }
            return {
                var sum = 0
                for i in 0..<workload.operations {
                    if case .string(let text)? = tree.resolve(paths[i & (poolSize - 1)]) { sum &+= text.utf8.count }
                }
                return Outcome(count: workload.operations) { UInt64(sum) }
            }
        }
    }

    static func easyBakePathTexts() -> Contender {
        Contender(.paths, "json", "EasyBake resolve(String)", note: "parses the path text on every lookup") {
            workload in
            let tree = try JSONFormat().read(.file(workload.path))
            let texts = lookups(records: recordCount(tree)).map(\.text)
            return {
                var sum = 0
                for i in 0..<workload.operations {
                    if case .string(let text)? = try tree.resolve(texts[i & (poolSize - 1)]) { sum &+= text.utf8.count }
                }
                return Outcome(count: workload.operations) { UInt64(sum) }
            }
        }
    }

    static func foundationPaths() -> Contender {
        Contender(.paths, "json", "JSONSerialization + casts", note: "walks [String: Any] / [Any] with `as?`") {
            workload in
            let root = try JSONSerialization.jsonObject(with: try readData(workload.path))
            let records = ((root as? [String: Any])?["users"] as? [Any])?.count ?? 0
            let paths = lookups(records: records).map(\.steps)
            return {
                var sum = 0
                for i in 0..<workload.operations {
                    var current: Any? = root
                    for step in paths[i & (poolSize - 1)] {
                        switch step {
                        case .key(let key): current = (current as? [String: Any])?[key]
                        case .index(let index):
                            if let array = current as? [Any], array.indices.contains(index) {
                                current = array[index]
                            } else {
                                current = nil
                            }
                        default: current = nil
                        }
                    }
                    if let text = current as? String { sum &+= text.utf8.count }
                }
                return Outcome(count: workload.operations) { UInt64(sum) }
            }
        }
    }

    // MARK: Transformation

    private static func values(_ make: (inout SplitMix64) -> String) -> [String] {
        var rng = SplitMix64(seed: 11)
        return (0..<poolSize).map { _ in make(&rng) }
    }

    private static let dateTexts = values {
        iso8601(Date(timeIntervalSince1970: TimeInterval($0.next() % 1_800_000_000)))
    }
    private static let numberTexts = values { rng in
        let cents = Int(rng.next() % 20_000_000) - 10_000_000
        return (Double(cents) / 100).description
    }
    private static let urlTexts = values {
        "https://www.example.org/people/\($0.next() % 1_000_000)?ref=\($0.next() % 999)&lang=en"
    }

    /// A transformation contender: `transform` maps one value to a number
    /// folded into the checksum (0 for a failure).
    private static func transformer(
        _ kind: String, _ name: String, easyBake: Bool = false, note: String? = nil,
        _ texts: @escaping @Sendable () -> [String],
        _ make: @escaping @Sendable () -> (String) -> UInt64
    ) -> Contender {
        Contender(.transform, kind, name, easyBake: easyBake, note: note) { workload in
            let pool = texts()
            let transform = make()
            return {
                var sum: UInt64 = 0
                for i in 0..<workload.operations { sum &+= transform(pool[i & (poolSize - 1)]) }
                return Outcome(count: workload.operations) { sum }
            }
        }
    }

    static func easyBakeDates() -> Contender {
        transformer(
            "date", "EasyBake iso8601", easyBake: true, note: "DateFormats.parseISO8601, what baking a Date uses",
            { dateTexts }
        ) {
            { UInt64(bitPattern: Int64(DateFormats.parseISO8601($0)?.timeIntervalSince1970 ?? 0)) }
        }
    }

    static func iso8601DateFormatter() -> Contender {
        transformer("date", "ISO8601DateFormatter", { dateTexts }) {
            let formatter = ISO8601DateFormatter()
            return { UInt64(bitPattern: Int64(formatter.date(from: $0)?.timeIntervalSince1970 ?? 0)) }
        }
    }

    static func iso8601FormatStyle() -> Contender {
        transformer("date", "Date.ISO8601FormatStyle", { dateTexts }) {
            let style = Date.ISO8601FormatStyle()
            return { UInt64(bitPattern: Int64((try? style.parse($0))?.timeIntervalSince1970 ?? 0)) }
        }
    }

    static func easyBakeNumbers() -> Contender {
        transformer(
            "number", "EasyBake number", easyBake: true,
            note: "Ingredients.number(literal:), what the number transformer and coercions use", { numberTexts }
        ) {
            { Ingredients.number(literal: $0)?.doubleValue?.bitPattern ?? 0 }
        }
    }

    static func doubleFromString() -> Contender {
        transformer("number", "Double(String)", { numberTexts }) { { Double($0)?.bitPattern ?? 0 } }
    }

    static func easyBakeURLs() -> Contender {
        transformer(
            "url", "EasyBake url", easyBake: true, note: "URLTransformer (trims, checks, gives absoluteString)",
            { urlTexts }
        ) {
            let transformer = URLTransformer()
            return { UInt64((try? transformer.transform(.string($0)))??.stringValue?.utf8.count ?? 0) }
        }
    }

    static func urlFromString() -> Contender {
        transformer("url", "URL(string:)", { urlTexts }) { { UInt64(URL(string: $0)?.absoluteString.utf8.count ?? 0) } }
    }
}
