import Foundation

/// SplitMix64: a tiny, fast, well-mixed generator whose sequence depends on
/// nothing but its seed, so the same seed gives the same files everywhere.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

/// Makes the logical records that every format writes.
///
/// Record `i` depends only on the seed and `i` (each record has its own
/// generator), so the JSON, XML and YAML files of one data set hold the same
/// records, and a smaller data set with the same seed is a prefix of a larger one.
struct RecordGenerator: Sendable {
    let seed: UInt64

    func user(at index: Int) -> User {
        var rng = SplitMix64(seed: seed ^ (UInt64(index) &* 0xd1b5_4a32_d192_ed03))
        func pick<T>(_ list: [T]) -> T { list[Int(rng.next() % UInt64(list.count))] }
        func number(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        func chance(_ percent: Int) -> Bool { number(0...99) < percent }
        // Dates between 2001 and 2025, whole seconds, as APIs send them.
        func date() -> Date { Date(timeIntervalSince1970: TimeInterval(number(978_307_200...1_767_225_599))) }

        let id = index + 1
        let first = pick(Words.firstNames)
        let last = pick(Words.lastNames)
        let username = "\(first.lowercased()).\(last.lowercased())\(id)"
        let created = date()
        let bioWords = (0..<number(6...14)).map { _ in pick(Words.bio) }
        let tags = (0..<number(1...5)).map { _ in pick(Words.tags) }
        let orders = (0..<number(1...4)).map { _ in
            Order(
                id: number(100_000...9_999_999), sku: "SKU-\(number(1000...9999))-\(pick(Words.skuSuffixes))",
                quantity: number(1...12), price: Double(number(99...99_999)) / 100, placedAt: date(),
                shipped: chance(70))
        }
        return User(
            id: id, active: chance(85), username: username, firstName: first, lastName: last,
            email: "\(username)@\(pick(Words.domains))",
            phone: chance(80) ? "+1-555-\(number(1000...9999))" : nil,
            age: number(18...90), score: Double(number(0...100_000)) / 1000,
            balance: Double(number(-50_000...5_000_000)) / 100,
            rating: chance(75) ? Double(number(10...50)) / 10 : nil,
            verified: chance(60), admin: chance(5), createdAt: created,
            updatedAt: created.addingTimeInterval(TimeInterval(number(0...50_000_000))),
            lastLogin: chance(70) ? date() : nil,
            homepage: URL(string: "https://www.example.org/people/\(id)?ref=\(number(1...999))&lang=en")!,
            avatar: URL(string: "https://cdn.example.net/avatars/\(id).png")!,
            bio: bioWords.joined(separator: " "),
            company: chance(75) ? pick(Words.companies) : nil,
            jobTitle: pick(Words.jobs), loginCount: number(0...100_000), friendsCount: number(0...5000),
            locale: pick(Words.locales), timezone: pick(Words.timezones),
            referrerId: chance(30) ? number(1...1_000_000) : nil,
            address: Address(
                street: "\(number(1...9999)) \(pick(Words.streets))", city: pick(Words.cities),
                state: pick(Words.states), zip: String(String(number(100_000...199_999)).dropFirst()),
                country: pick(Words.countries),
                latitude: Double(number(-900_000...900_000)) / 10_000,
                longitude: Double(number(-1_800_000...1_800_000)) / 10_000),
            tags: tags, orders: orders)
    }
}

/// Word lists for the generator. Some entries carry characters that every
/// format must escape or transcode (`&`, `<`, quotes, non-ASCII).
enum Words {
    static let firstNames = [
        "Ada", "Alan", "Grace", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Frances",
        "Edsger", "Zoë", "José", "Søren", "Yukihiro", "Björn", "Chloé", "Mateo", "Amara",
    ]
    static let lastNames = [
        "Lovelace", "Turing", "Hopper", "Torvalds", "Hamilton", "Ritchie", "Liskov", "Thompson",
        "Allen", "Dijkstra", "Müller", "García", "Kierkegaard", "Matsumoto", "Okafor", "Nguyen",
    ]
    static let bio = [
        "loves", "coffee", "&", "tea", "builds", "compilers", "<fast>", "parsers", "in", "Zürich",
        "and", "東京", "\"quoted\"", "it's", "naïve", "café", "hiking", "chess", "Swift", "C",
        "open-source", "maintainer", "since", "2009", "a/b", "50%", "#1", "fan", "of", "jazz",
    ]
    static let tags = [
        "admin", "beta", "early-adopter", "vip", "newsletter", "mobile", "desktop", "trial",
        "enterprise", "edu", "partner", "support",
    ]
    static let skuSuffixes = ["RED", "BLU", "GRN", "XL", "S", "M", "L", "PRO"]
    static let domains = ["example.com", "mail.example.org", "example.net", "corp.example"]
    static let companies = [
        "Acme Corp", "Globex", "Initech", "Umbrella & Sons", "Stark Industries", "Wayne Enterprises",
        "Hooli", "Pied Piper", "Vandelay Industries",
    ]
    static let jobs = [
        "Engineer", "Senior Engineer", "Designer", "Product Manager", "Data Scientist", "CTO",
        "Support Lead", "Researcher",
    ]
    static let locales = ["en_US", "en_GB", "de_DE", "fr_FR", "ja_JP", "es_ES", "pt_BR"]
    static let timezones = [
        "America/New_York", "Europe/Berlin", "Europe/London", "Asia/Tokyo", "America/Sao_Paulo",
        "Australia/Sydney", "UTC",
    ]
    static let streets = [
        "Main St", "Elm Street", "Baker Street", "Rue de Rivoli", "Königsallee", "Broadway",
        "Abbey Road", "Via Roma",
    ]
    static let cities = [
        "Springfield", "London", "Berlin", "Paris", "Tokyo", "São Paulo", "Zürich", "Lagos",
        "Montréal", "Sydney",
    ]
    static let states = ["CA", "NY", "TX", "BE", "IDF", "13", "SP", "ZH", "ON", "NSW"]
    static let countries = ["US", "GB", "DE", "FR", "JP", "BR", "CH", "NG", "CA", "AU"]
}
