import EasyBake

/// The recipes EasyBake bakes ``User`` and ``Pick`` with, per format.
///
/// Every property is mapped explicitly (the documented way to use EasyBake);
/// the only difference between formats is where `id` and `active` live: XML
/// carries them as attributes (`@id`), and its records sit under `users.user`.
enum BenchRecipes {
    static func user(_ format: String) -> Recipe {
        let attribute = format == "xml" ? "@" : ""
        var mapping: [(property: String, path: String)] = [
            ("id", "\(attribute)id"), ("active", "\(attribute)active"),
        ]
        for property in [
            "username", "firstName", "lastName", "email", "phone", "age", "score", "balance",
            "rating", "verified", "admin", "createdAt", "updatedAt", "lastLogin", "homepage",
            "avatar", "bio", "company", "jobTitle", "loginCount", "friendsCount", "locale",
            "timezone", "referrerId", "address", "tags", "orders",
        ] {
            mapping.append((property, property))
        }
        // The recipe is a constant of the benchmark: a failure here is a bug in it.
        return try! Recipe(name: "User", orderedMapping: mapping)
    }

    static func document(_ format: String) -> Recipe {
        try! Recipe(name: "Users", orderedMapping: [("users", recordsPath(format))], nested: ["users": user(format)])
    }

    /// Every record's three fields, as one document: what a user bakes
    /// from the whole payload's index.
    static func pickDocument(_ format: String) -> Recipe {
        try! Recipe(name: "Picks", orderedMapping: [("users", recordsPath(format))], nested: ["users": pick(format)])
    }

    static func pick(_ format: String) -> Recipe {
        let attribute = format == "xml" ? "@" : ""
        return try! Recipe(
            name: "Pick", orderedMapping: [("id", "\(attribute)id"), ("email", "email"), ("city", "address.city")])
    }

    /// Where the records are: `users`, or `users.user` in XML.
    static func recordsPath(_ format: String) -> String { format == "xml" ? "users.user" : "users" }
}

extension Ingredients {
    /// The records of a document tree, as EasyBake reads each format.
    func records(_ format: String) throws -> IngredientArray {
        let path = BenchRecipes.recordsPath(format)
        switch try resolve(path) {
        case .array(let records)?: return records
        case let single? where !single.isNull: return IngredientArray([single])
        default: throw BenchError("no records at \(path)")
        }
    }

    /// The ids of the records, read from the tree (XML ids are attribute text).
    func recordIDs(_ format: String) throws -> [Int] {
        try records(format).map { record in
            switch format == "xml" ? record["@id"] : record["id"] {
            case .integer(let id)?: return Int(id)
            case .string(let text)?: if let id = Int(text) { return id }
            default: break
            }
            throw BenchError("a record without an id")
        }
    }
}
