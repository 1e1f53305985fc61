import EasyBakeMacros
import Foundation

// The models of the `@Bakeable` contenders: the same properties as
// ``User``, ``Address`` and ``Order``, each struct given `@Bakeable`, so
// that EasyBake bakes them through the generated initializer, reading the
// index with no `Decoder` in between. The recipe stays the benchmark's (see
// ``BenchRecipes``), passed at the bake as for the other EasyBake rows.

@Bakeable
struct BakedUser: Codable, Sendable {
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
    var address: BakedAddress
    var tags: [String]
    var orders: [BakedOrder]

    var user: User {
        User(
            id: id, active: active, username: username, firstName: firstName, lastName: lastName, email: email,
            phone: phone,
            age: age, score: score, balance: balance, rating: rating, verified: verified, admin: admin,
            createdAt: createdAt,
            updatedAt: updatedAt, lastLogin: lastLogin, homepage: homepage, avatar: avatar, bio: bio, company: company,
            jobTitle: jobTitle, loginCount: loginCount, friendsCount: friendsCount, locale: locale, timezone: timezone,
            referrerId: referrerId,
            address: Address(
                street: address.street, city: address.city, state: address.state, zip: address.zip,
                country: address.country, latitude: address.latitude, longitude: address.longitude),
            tags: tags,
            orders: orders.map {
                Order(
                    id: $0.id, sku: $0.sku, quantity: $0.quantity, price: $0.price, placedAt: $0.placedAt,
                    shipped: $0.shipped)
            })
    }
}

@Bakeable
struct BakedAddress: Codable, Sendable {
    var street: String
    var city: String
    var state: String
    var zip: String
    var country: String
    var latitude: Double
    var longitude: Double
}

@Bakeable
struct BakedOrder: Codable, Sendable {
    var id: Int
    var sku: String
    var quantity: Int
    var price: Double
    var placedAt: Date
    var shipped: Bool
}

@Bakeable
struct BakedUsersDocument: Codable, Sendable {
    var users: [BakedUser]
}

extension BakedUser: UserValues {}
extension BakedAddress: AddressFields {}
extension BakedOrder: OrderFields {}
