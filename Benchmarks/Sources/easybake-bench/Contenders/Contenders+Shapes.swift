import EasyBake
import EasyBakeJSON
import Foundation

/// Scenario 5: the real-world shapes (see ``Shape``), each decoded into its
/// model by EasyBake and `JSONDecoder`, and read by the two contenders that
/// build no model — EasyBake's index and `JSONSerialization`'s tree — down to
/// one check value per element.
extension Contenders {
    static let shapes: [Contender] = [
        easyBakeShape(.api, SearchResponse.self), easyBakeBakeableShape(.api, BakedSearchResponse.self),
        easyBakeShapeIndex(.api), jsonDecoderShape(.api, SearchResponse.self), jsonSerializationShape(.api),
        easyBakeShape(.keyed, Catalogue.self), easyBakeBakeableShape(.keyed, BakedCatalogue.self),
        easyBakeShapeIndex(.keyed), jsonDecoderShape(.keyed, Catalogue.self), jsonSerializationShape(.keyed),
        easyBakeShape(.numbers, FeatureCollection.self), easyBakeBakeableShape(.numbers, BakedFeatureCollection.self),
        easyBakeShapeIndex(.numbers), jsonDecoderShape(.numbers, FeatureCollection.self),
        jsonSerializationShape(.numbers),
    ]

    static func easyBakeShape<Model: ShapeModel & Decodable>(_ shape: Shape, _ model: Model.Type) -> Contender {
        Contender(
            .shapes, shape.rawValue, "EasyBake", easyBake: true,
            note:
                "Baker from the file's bytes through the index, without a recipe (implicit matching of the model's CodingKeys)"
        ) { workload in
            .model(try Baker().bake(Model.self, from: .file(workload.path), format: JSONFormat()))
        }
    }

    /// The same bake into the `@Bakeable` twins of the models: their
    /// generated initializers, no `Decoder`.
    static func easyBakeBakeableShape<Model: BakedShape>(_ shape: Shape, _ model: Model.Type) -> Contender {
        Contender(
            .shapes, shape.rawValue, "EasyBake @Bakeable", easyBake: true,
            note:
                "as EasyBake, into @Bakeable twins of the models: their generated initializers, no Decoder; checked through JSON with the clock stopped and its peak memory taken before (the others' fold into the check is timed)"
        ) { workload in
            .baked(try Baker().bake(Model.self, from: .file(workload.path), format: JSONFormat()))
        }
    }

    static func jsonDecoderShape<Model: ShapeModel & Decodable>(_ shape: Shape, _ model: Model.Type) -> Contender {
        Contender(.shapes, shape.rawValue, "JSONDecoder") { workload in
            .model(try JSONDecoder().decode(Model.self, from: try readData(workload.path)))
        }
    }

    /// The fast core's first stage alone, as in scenario 1: the flat index,
    /// then each element's check value read from it.
    static func easyBakeShapeIndex(_ shape: Shape) -> Contender {
        Contender(
            .shapes, shape.rawValue, "EasyBake index", note: "IngredientIndex only, no model; check values read from it"
        ) { workload in
            var source = try JSONIngredientSource(.file(workload.path))
            var index = IngredientIndex()
            try source.readIndex(into: &index)
            switch shape {
            case .api:
                var ids: [Int] = []
                try forEachElement(of: try member("statuses", of: 0, in: index), in: index) { status in
                    guard case .integer(let id)? = index.scalar(at: try member("id", of: status, in: index)) else {
                        throw BenchError("a status without an integer id")
                    }
                    ids.append(Int(id))
                }
                return .checked(ids.count, idFingerprint(ids))
            case .keyed:
                let products = try member("products", of: 0, in: index)
                var sum: UInt64 = 0
                // A dictionary's entries are key, value, key, value…
                var key = products + 1
                while key < index.end(of: products) {
                    guard let name = index.string(at: key),
                        case .integer(let stock)? = index.scalar(at: try member("stock", of: key + 1, in: index))
                    else {
                        throw BenchError("a product without a key or an integer stock")
                    }
                    sum &+= productCheckValue(key: name, stock: Int(stock))
                    key = index.end(of: key + 1)
                }
                return .checked(index.elementCount(at: products), sum)
            case .numbers:
                var f = Fingerprint()
                var count = 0
                try forEachElement(of: try member("features", of: 0, in: index), in: index) { feature in
                    let rings = try member("coordinates", of: try member("geometry", of: feature, in: index), in: index)
                    // The outer ring, its first point, and that point's longitude.
                    let outer = rings + 1
                    let longitude: Double
                    switch index.scalar(at: outer + 2) {
                    case .float(let value)?: longitude = value
                    case .integer(let value)?: longitude = Double(value)
                    default: throw BenchError("a feature without a numeric first longitude")
                    }
                    featureCheckValue(
                        rings: index.elementCount(at: rings), points: index.elementCount(at: outer),
                        firstLongitude: longitude, into: &f)
                    count += 1
                }
                return .checked(count, f.value)
            }
        }
    }

    /// Calls `body` with the position of each element of the array at `array`.
    private static func forEachElement(of array: Int, in index: IngredientIndex, _ body: (Int) throws -> Void) throws {
        guard index.kind(at: array) == .array else { throw BenchError("not an array") }
        var element = array + 1
        while element < index.end(of: array) {
            try body(element)
            element = index.end(of: element)
        }
    }

    static func jsonSerializationShape(_ shape: Shape) -> Contender {
        Contender(.shapes, shape.rawValue, "JSONSerialization", note: "tree, then casts to each element's check value")
        { workload in
            let root = try JSONSerialization.jsonObject(with: try readData(workload.path)) as? [String: Any]
            switch shape {
            case .api:
                guard let statuses = root?["statuses"] as? [Any] else { throw BenchError("no statuses") }
                let ids = try statuses.map { status in
                    guard let id = (status as? [String: Any])?["id"] as? Int else {
                        throw BenchError("a status without an id")
                    }
                    return id
                }
                return .checked(ids.count, idFingerprint(ids))
            case .keyed:
                guard let products = root?["products"] as? [String: Any] else { throw BenchError("no products") }
                var sum: UInt64 = 0
                for (key, product) in products {
                    guard let stock = (product as? [String: Any])?["stock"] as? Int else {
                        throw BenchError("a product without stock")
                    }
                    sum &+= productCheckValue(key: key, stock: stock)
                }
                return .checked(products.count, sum)
            case .numbers:
                guard let features = root?["features"] as? [Any] else { throw BenchError("no features") }
                var f = Fingerprint()
                for feature in features {
                    guard let geometry = (feature as? [String: Any])?["geometry"] as? [String: Any],
                        let rings = geometry["coordinates"] as? [Any], let outer = rings.first as? [Any],
                        let longitude = (outer.first as? [Any])?.first as? Double
                    else {
                        throw BenchError("a feature without a first longitude")
                    }
                    featureCheckValue(rings: rings.count, points: outer.count, firstLongitude: longitude, into: &f)
                }
                return .checked(features.count, f.value)
            }
        }
    }
}

extension Outcome {
    /// A decoded shape model: checked on every value, and on its check values.
    static func model<Model: ShapeModel>(_ model: Model) -> Outcome {
        var outcome = Outcome(count: model.elementCount) { model.fingerprint }
        outcome.checkValues = { model.checkValues }
        outcome.dump = { json(model) }
        return outcome
    }

    /// A `@Bakeable` twin's result, checked as its plain model with the
    /// clock stopped (the conversion through JSON is the benchmark's, not
    /// a consumer's); its release is timed.
    static func baked<Model: BakedShape>(_ model: Model) -> Outcome {
        var outcome = Outcome(count: model.elementCount) { model.plain?.fingerprint }
        outcome.checkValues = { model.plain?.checkValues ?? 0 }
        outcome.checkedAfterClock = true
        outcome.dump = { json(model) }
        return outcome
    }

    /// Check values alone, from a contender that builds no model.
    static func checked(_ count: Int, _ checkValues: UInt64) -> Outcome {
        var outcome = Outcome(count: count) { nil }
        outcome.checkValues = { checkValues }
        return outcome
    }
}
