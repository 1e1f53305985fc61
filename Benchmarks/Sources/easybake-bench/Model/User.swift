import Foundation

/// The record every contender bakes: about thirty fields of the kinds real
/// APIs send — ints, doubles, bools, nulls, ISO 8601 dates, URLs, a nested
/// address, a tags array and an array of small order objects.
///
/// One type for everyone: EasyBake bakes it with a ``Recipe``, `JSONDecoder`,
/// XMLCoder and Yams decode it through its synthesized `Decodable`, and the
/// `XMLParser` and SWXMLHash contenders fill it with hand-written mapping
/// code (``User/init(fields:)``).
struct User: Codable, Equatable, Sendable {
    var id: Int
    var active: Bool
    var username: String
    var firstName: String
    var lastName: String
    var email: String
    var phone: String?
    var age: Int
    var score: Double
    var balance: Double
    var rating: Double?
    var verified: Bool
    var admin: Bool
    var createdAt: Date
    var updatedAt: Date
    var lastLogin: Date?
    var homepage: URL
    var avatar: URL
    var bio: String
    var company: String?
    var jobTitle: String
    var loginCount: Int
    var friendsCount: Int
    var locale: String
    var timezone: String
    var referrerId: Int?
    var address: Address
    var tags: [String]
    var orders: [Order]
}

/// The nested address of a ``User``.
struct Address: Codable, Equatable, Sendable {
    var street: String
    var city: String
    var state: String
    var zip: String
    var country: String
    var latitude: Double
    var longitude: Double
}

/// One element of a ``User``'s orders.
struct Order: Codable, Equatable, Sendable {
    var id: Int
    var sku: String
    var quantity: Int
    var price: Double
    var placedAt: Date
    var shipped: Bool
}

/// The JSON and YAML document: `{"users": [...]}`.
struct UsersDocument: Codable, Sendable {
    var users: [User]
}

/// The XML document as XMLCoder sees it: the root element `<users>` holds
/// repeated `<user>` elements.
struct XMLUsersDocument: Codable, Sendable {
    var user: [User]
}

/// The three fields that the selective-mapping scenario takes out of each
/// record: `id`, `email` and `address.city`.
struct Pick: Codable, Equatable, Sendable {
    var id: Int
    var email: String
    var city: String
}

/// How `JSONDecoder`, XMLCoder and Yams reach the three fields of a ``Pick``:
/// a `Decodable` shaped like the payload, ignoring every other key.
struct PickPayload: Decodable, Sendable {
    struct Place: Decodable, Sendable { var city: String }
    var id: Int
    var email: String
    var address: Place

    var pick: Pick { Pick(id: id, email: email, city: address.city) }
}

struct PickDocument: Decodable, Sendable { var users: [PickPayload] }
/// The three fields of every record, as EasyBake bakes them from a whole payload.
struct PickList: Decodable, Sendable { var users: [Pick] }
struct XMLPickDocument: Decodable, Sendable { var user: [PickPayload] }

// MARK: - Fingerprints

/// A stable 64-bit digest of decoded values, identical across processes
/// (unlike `Hasher`), so that a child process's results can be compared
/// with EasyBake's.
///
/// It takes text eight bytes at a time (an FNV-style multiply with a
/// shift to spread the high bits down) rather than FNV-1a's byte at a
/// time: the streaming rows fold every record into it inside the clock,
/// while the whole-document rows take theirs after the clock stops, so a
/// byte-by-byte digest (a fifth of a streamed record's time) charged the
/// streaming rows for the check rather than for the baking.
struct Fingerprint: Sendable {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    @inline(__always)
    mutating func add(_ bits: UInt64) {
        value = (value ^ bits) &* 0x0000_0100_0000_01b3
        value ^= value >> 29
    }

    mutating func add(_ int: Int) { add(UInt64(bitPattern: Int64(int))) }
    mutating func add(_ double: Double) { add(double.bitPattern) }
    mutating func add(_ flag: Bool) { add(flag ? 1 as UInt64 : 2) }
    mutating func add(_ date: Date) { add(Int((date.timeIntervalSince1970 * 1000).rounded())) }
    mutating func add(_ url: URL) { add(url.absoluteString) }
    mutating func add(_ text: String) {
        var text = text
        let count = text.withUTF8 { bytes -> Int in
            var offset = 0
            while offset + 8 <= bytes.count {
                add(
                    UInt64(
                        littleEndian: UnsafeRawBufferPointer(bytes).loadUnaligned(
                            fromByteOffset: offset, as: UInt64.self)))
                offset += 8
            }
            if offset < bytes.count {
                var tail: UInt64 = 0
                for (shift, byte) in bytes[offset...].enumerated() { tail |= UInt64(byte) << (8 * UInt64(shift)) }
                add(tail)
            }
            return bytes.count
        }
        add(UInt64(count))
    }
    mutating func addNil() { add(0x6e69_6c6e_696c as UInt64) }
    mutating func add<T>(_ optional: T?, _ adding: (inout Fingerprint, T) -> Void) {
        if let optional { adding(&self, optional) } else { addNil() }
    }
}

/// The values of a user record, whichever model holds them: ``User`` and
/// its `@Bakeable` twin ``BakedUser`` are fingerprinted by the same code,
/// each as it is (a conversion first would be the benchmark's work, timed
/// as the contender's).
protocol UserValues {
    associatedtype AddressValues: AddressFields
    associatedtype OrderValues: OrderFields
    var id: Int { get }
    var active: Bool { get }
    var username: String { get }
    var firstName: String { get }
    var lastName: String { get }
    var email: String { get }
    var phone: String? { get }
    var age: Int { get }
    var score: Double { get }
    var balance: Double { get }
    var rating: Double? { get }
    var verified: Bool { get }
    var admin: Bool { get }
    var createdAt: Date { get }
    var updatedAt: Date { get }
    var lastLogin: Date? { get }
    var homepage: URL { get }
    var avatar: URL { get }
    var bio: String { get }
    var company: String? { get }
    var jobTitle: String { get }
    var loginCount: Int { get }
    var friendsCount: Int { get }
    var locale: String { get }
    var timezone: String { get }
    var referrerId: Int? { get }
    var address: AddressValues { get }
    var tags: [String] { get }
    var orders: [OrderValues] { get }
}

protocol AddressFields {
    var street: String { get }
    var city: String { get }
    var state: String { get }
    var zip: String { get }
    var country: String { get }
    var latitude: Double { get }
    var longitude: Double { get }
}

protocol OrderFields {
    var id: Int { get }
    var sku: String { get }
    var quantity: Int { get }
    var price: Double { get }
    var placedAt: Date { get }
    var shipped: Bool { get }
}

extension User: UserValues {}
extension Address: AddressFields {}
extension Order: OrderFields {}

extension UserValues {
    func fingerprint(into f: inout Fingerprint) {
        f.add(id); f.add(active); f.add(username); f.add(firstName); f.add(lastName); f.add(email)
        f.add(phone) { $0.add($1) }
        f.add(age); f.add(score); f.add(balance)
        f.add(rating) { $0.add($1) }
        f.add(verified); f.add(admin); f.add(createdAt); f.add(updatedAt)
        f.add(lastLogin) { $0.add($1) }
        f.add(homepage); f.add(avatar); f.add(bio)
        f.add(company) { $0.add($1) }
        f.add(jobTitle); f.add(loginCount); f.add(friendsCount); f.add(locale); f.add(timezone)
        f.add(referrerId) { $0.add($1) }
        f.add(address.street); f.add(address.city); f.add(address.state); f.add(address.zip)
        f.add(address.country); f.add(address.latitude); f.add(address.longitude)
        f.add(tags.count)
        for tag in tags { f.add(tag) }
        f.add(orders.count)
        for order in orders {
            f.add(order.id); f.add(order.sku); f.add(order.quantity); f.add(order.price)
            f.add(order.placedAt); f.add(order.shipped)
        }
    }
}

extension Pick {
    func fingerprint(into f: inout Fingerprint) {
        f.add(id); f.add(email); f.add(city)
    }
}

extension Sequence where Element: UserValues {
    var fingerprint: UInt64 {
        var f = Fingerprint()
        for user in self { user.fingerprint(into: &f) }
        return f.value
    }
}

extension Sequence where Element == Pick {
    var fingerprint: UInt64 {
        var f = Fingerprint()
        for pick in self { pick.fingerprint(into: &f) }
        return f.value
    }
}

/// The fingerprint of the record ids a tree holds, in order: what every
/// parse-to-a-tree contender can report from its own tree.
func idFingerprint<S: Sequence>(_ ids: S) -> UInt64 where S.Element == Int {
    var f = Fingerprint()
    for id in ids { f.add(id) }
    return f.value
}
