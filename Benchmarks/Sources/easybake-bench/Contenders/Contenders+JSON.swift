import EasyBake
import EasyBakeJSON
import Foundation

extension Contenders {
    static let json: [Contender] = [
        easyBakeTree("json", JSONFormat()), easyBakeIndex("json", JSONFormat()), jsonSerializationTree(),
        easyBakeBake("json", JSONFormat()), easyBakeIndexBake("json", JSONFormat()),
        easyBakeBakeable("json", JSONFormat()), jsonDecoderBake(),
        easyBakeSelect("json", JSONFormat()), easyBakeIndexSelect("json", JSONFormat()), jsonDecoderSelect(),
        jsonSerializationSelect(), simdjsonDOMTree(), simdjsonOnDemandSelect(),
    ]

    // MARK: EasyBake, any format

    static func easyBakeTree(_ format: String, _ reader: some IngredientFormat) -> Contender {
        Contender(.tree, format, "EasyBake", easyBake: true) { workload in
            let tree = try reader.read(.file(workload.path))
            let count = try tree.records(format).count
            return Outcome(count: count) { (try? tree.recordIDs(format)).map(idFingerprint) }
        }
    }

    static func easyBakeBake(_ format: String, _ reader: some IngredientFormat) -> Contender {
        Contender(.bake, format, "EasyBake via tree", note: "tree, then Baker with a Recipe") { workload in
            let recipe = BenchRecipes.document(format)
            return {
                let tree = try reader.read(.file(workload.path))
                return .users(try Baker().bake(UsersDocument.self, from: tree, recipe: recipe).users)
            }
        }
    }

    static func easyBakeIndexBake(_ format: String, _ reader: some IngredientFormat) -> Contender {
        Contender(
            .bake, format, "EasyBake", easyBake: true,
            note: "Baker from the bytes through the index, with a Recipe: no tree"
        ) { workload in
            let recipe = BenchRecipes.document(format)
            return {
                .users(
                    try Baker().bake(UsersDocument.self, from: .file(workload.path), format: reader, recipe: recipe)
                        .users)
            }
        }
    }

    static func easyBakeBakeable(_ format: String, _ reader: some IngredientFormat) -> Contender {
        Contender(
            .bake, format, "EasyBake @Bakeable", easyBake: true,
            note:
                "Baker from the bytes through the index, with a Recipe, into @Bakeable models: their generated initializers, no Decoder"
        ) { workload in
            let recipe = BenchRecipes.document(format)
            return {
                let users = try Baker().bake(
                    BakedUsersDocument.self, from: .file(workload.path), format: reader, recipe: recipe
                ).users
                var outcome = Outcome(count: users.count) { users.fingerprint }
                outcome.dump = { Outcome.json(users.map(\.user)) }
                return outcome
            }
        }
    }

    static func easyBakeIndexSelect(_ format: String, _ reader: some IngredientFormat) -> Contender {
        Contender(
            .select, format, "EasyBake", easyBake: true,
            note: "Baker from the bytes through the index, a 3-path Recipe per record: no tree"
        ) { workload in
            let recipe = BenchRecipes.pickDocument(format)
            return {
                .picks(
                    try Baker().bake(PickList.self, from: .file(workload.path), format: reader, recipe: recipe).users)
            }
        }
    }

    static func easyBakeSelect(_ format: String, _ reader: some IngredientFormat) -> Contender {
        Contender(.select, format, "EasyBake via tree", note: "tree, then a 3-path Recipe per record") { workload in
            let recipe = BenchRecipes.pick(format)
            return {
                let tree = try reader.read(.file(workload.path))
                let baker = Baker()
                var picks: [Pick] = []
                for record in try tree.records(format) {
                    picks.append(try baker.bake(Pick.self, from: record, recipe: recipe))
                }
                return .picks(picks)
            }
        }
    }

    /// The fast core's first stage alone: the flat index, no tree — what a
    /// tree read by a format holds until its nodes are asked for. Records
    /// and their ids are read from the index itself.
    static func easyBakeIndex(_ format: String, _ reader: some IngredientFormat) -> Contender {
        Contender(.tree, format, "EasyBake index", note: "IngredientIndex only, no tree; ids read from it") {
            workload in
            var index = IngredientIndex()
            try reader.readIndex(.file(workload.path), into: &index)
            var records = 0
            for key in BenchRecipes.recordsPath(format).split(separator: ".") {
                records = try member(String(key), of: records, in: index)
            }
            let idKey = format == "xml" ? "@id" : "id"
            func id(of record: Int) throws -> Int {
                switch index.scalar(at: try member(idKey, of: record, in: index)) {
                case .integer(let id)?: return Int(id)
                case .string(let text)?: if let id = Int(text) { return id }
                default: break
                }
                throw BenchError("a record without an integer id")
            }
            // One pass, each record's id read as it is reached, as simdjson's
            // DOM row reads its ids: a second pass over a large index would
            // wait on memory again for every record. A lone XML record is
            // not an array.
            var ids: [Int] = []
            if index.kind(at: records) == .array {
                var element = records + 1
                while element < index.end(of: records) {
                    ids.append(try id(of: element))
                    element = index.end(of: element)
                }
            } else {
                ids.append(try id(of: records))
            }
            return Outcome(count: ids.count) { idFingerprint(ids) }
        }
    }

    /// The position of `key`'s value in the dictionary at `dictionary`.
    static func member(_ key: String, of dictionary: Int, in index: IngredientIndex) throws -> Int {
        guard index.kind(at: dictionary) == .dictionary else { throw BenchError("not a dictionary") }
        var utf8 = key
        return try utf8.withUTF8 { wanted in
            var position = dictionary + 1
            while position < index.end(of: dictionary) {
                if index.string(at: position, equals: UnsafeRawBufferPointer(wanted)) { return position + 1 }
                position = index.end(of: position + 1)
            }
            throw BenchError("no \(key)")
        }
    }

    // MARK: simdjson

    static func simdjsonDOMTree() -> Contender {
        Contender(
            .tree, "json", "simdjson DOM (bare)",
            note: "C++, \(BareC.simdjsonImplementation) kernel; the tape of the whole document, ids read from it"
        ) { workload in
            try BareC.simdjsonDOM(path: workload.path)
        }
    }

    static func simdjsonOnDemandSelect() -> Contender {
        Contender(
            .select, "json", "simdjson On-Demand (bare)",
            note: "C++, \(BareC.simdjsonImplementation) kernel; structural index, the three fields read in place"
        ) { workload in
            .picks(try BareC.simdjsonOnDemandPicks(path: workload.path))
        }
    }

    // MARK: Foundation

    static func jsonSerializationTree() -> Contender {
        Contender(.tree, "json", "JSONSerialization") { workload in
            let object = try JSONSerialization.jsonObject(with: try readData(workload.path))
            let users = (object as? [String: Any])?["users"] as? [Any] ?? []
            return Outcome(count: users.count) {
                idFingerprint(users.map { ($0 as? [String: Any])?["id"] as? Int ?? -1 })
            }
        }
    }

    static func jsonDecoderBake() -> Contender {
        Contender(.bake, "json", "JSONDecoder") { workload in
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return .users(try decoder.decode(UsersDocument.self, from: try readData(workload.path)).users)
        }
    }

    static func jsonDecoderSelect() -> Contender {
        Contender(.select, "json", "JSONDecoder") { workload in
            let document = try JSONDecoder().decode(PickDocument.self, from: try readData(workload.path))
            return .picks(document.users.map(\.pick))
        }
    }

    static func jsonSerializationSelect() -> Contender {
        Contender(.select, "json", "JSONSerialization", note: "tree, then casts") { workload in
            let object = try JSONSerialization.jsonObject(with: try readData(workload.path))
            guard let users = (object as? [String: Any])?["users"] as? [Any] else { throw BenchError("no users") }
            let picks = try users.map { element -> Pick in
                guard let user = element as? [String: Any], let id = user["id"] as? Int,
                    let email = user["email"] as? String,
                    let city = (user["address"] as? [String: Any])?["city"] as? String
                else {
                    throw BenchError("a user without id, email or address.city")
                }
                return Pick(id: id, email: email, city: city)
            }
            return .picks(picks)
        }
    }
}
