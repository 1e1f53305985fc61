import Foundation

/// A record as an XML peer without a decoder sees it: element texts by name.
///
/// The `XMLParser` delegate and the SWXMLHash mapping both fill one and turn
/// it into a ``User`` with ``User/init(fields:)`` — the mapping code a user of
/// those libraries writes by hand. Empty text stands for null, as in
/// EasyBake's XML conventions (`<phone/>`).
struct FieldRecord {
    var fields: [String: String] = [:]
    var address: [String: String] = [:]
    var tags: [String] = []
    var orders: [[String: String]] = []

    mutating func reset() {
        fields.removeAll(keepingCapacity: true)
        address.removeAll(keepingCapacity: true)
        tags.removeAll(keepingCapacity: true)
        orders.removeAll(keepingCapacity: true)
    }
}

/// A field that hand-written mapping code could not read.
struct MappingError: Error, CustomStringConvertible {
    var field: String
    var found: String?
    var description: String { "cannot map \(field) from \(found.map { "\"\($0)\"" } ?? "nothing")" }
}

/// Foundation's ISO 8601 parser, the one hand-written mapping code reaches for.
nonisolated(unsafe) let foundationISO8601 = ISO8601DateFormatter()

private func text(_ map: [String: String], _ key: String) throws -> String {
    guard let value = map[key], !value.isEmpty else { throw MappingError(field: key, found: map[key]) }
    return value
}

private func optionalText(_ map: [String: String], _ key: String) -> String? {
    guard let value = map[key], !value.isEmpty else { return nil }
    return value
}

private func int(_ map: [String: String], _ key: String) throws -> Int {
    let value = try text(map, key)
    guard let int = Int(value) else { throw MappingError(field: key, found: value) }
    return int
}

private func double(_ map: [String: String], _ key: String) throws -> Double {
    let value = try text(map, key)
    guard let double = Double(value) else { throw MappingError(field: key, found: value) }
    return double
}

private func bool(_ map: [String: String], _ key: String) throws -> Bool {
    switch try text(map, key) {
    case "true": return true
    case "false": return false
    case let other: throw MappingError(field: key, found: other)
    }
}

private func date(_ map: [String: String], _ key: String) throws -> Date {
    let value = try text(map, key)
    guard let date = foundationISO8601.date(from: value) else { throw MappingError(field: key, found: value) }
    return date
}

private func url(_ map: [String: String], _ key: String) throws -> URL {
    let value = try text(map, key)
    guard let url = URL(string: value) else { throw MappingError(field: key, found: value) }
    return url
}

extension User {
    /// Maps element texts to a user, the way a user of `XMLParser` or
    /// SWXMLHash would write it.
    init(fields record: FieldRecord) throws {
        let f = record.fields
        let a = record.address
        self.init(
            id: try int(f, "id"), active: try bool(f, "active"), username: try text(f, "username"),
            firstName: try text(f, "firstName"), lastName: try text(f, "lastName"), email: try text(f, "email"),
            phone: optionalText(f, "phone"), age: try int(f, "age"), score: try double(f, "score"),
            balance: try double(f, "balance"),
            rating: try optionalText(f, "rating").map { _ in try double(f, "rating") },
            verified: try bool(f, "verified"), admin: try bool(f, "admin"),
            createdAt: try date(f, "createdAt"), updatedAt: try date(f, "updatedAt"),
            lastLogin: try optionalText(f, "lastLogin").map { _ in try date(f, "lastLogin") },
            homepage: try url(f, "homepage"), avatar: try url(f, "avatar"), bio: try text(f, "bio"),
            company: optionalText(f, "company"), jobTitle: try text(f, "jobTitle"),
            loginCount: try int(f, "loginCount"), friendsCount: try int(f, "friendsCount"),
            locale: try text(f, "locale"), timezone: try text(f, "timezone"),
            referrerId: try optionalText(f, "referrerId").map { _ in try int(f, "referrerId") },
            address: Address(
                street: try text(a, "street"), city: try text(a, "city"), state: try text(a, "state"),
                zip: try text(a, "zip"), country: try text(a, "country"),
                latitude: try double(a, "latitude"), longitude: try double(a, "longitude")),
            tags: record.tags,
            orders: try record.orders.map { o in
                Order(
                    id: try int(o, "id"), sku: try text(o, "sku"), quantity: try int(o, "quantity"),
                    price: try double(o, "price"), placedAt: try date(o, "placedAt"), shipped: try bool(o, "shipped"))
            })
    }
}

extension Pick {
    /// The three fields out of a mapped record.
    init(fields record: FieldRecord) throws {
        self.init(
            id: try int(record.fields, "id"), email: try text(record.fields, "email"),
            city: try text(record.address, "city"))
    }
}
