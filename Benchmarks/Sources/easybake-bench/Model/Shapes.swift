import Foundation

// The models of scenario 5's real-world shapes (see `ShapeGenerator`).
//
// Properties are Swift-cased and `CodingKeys` name the payload's snake_case
// keys, as hand-written models of such APIs do: `JSONDecoder` and EasyBake's
// baker (implicit matching, no recipe) then ask for the same keys, and no key
// strategy is part of what is measured. Dates stay strings: the API's
// `Wed Aug 27 13:08:45 +0000 2008` is no format either decoder reads without
// a custom formatter, which would measure the formatter.

// MARK: api

/// A social API's search response.
struct SearchResponse: Codable, Sendable {
    var statuses: [Status]
    var searchMetadata: SearchMetadata

    enum CodingKeys: String, CodingKey {
        case statuses
        case searchMetadata = "search_metadata"
    }
}

struct Status: Codable, Sendable {
    var createdAt: String
    var id: Int
    var idStr: String
    var text: String
    var truncated: Bool
    var entities: Entities
    var metadata: StatusMetadata
    var source: String
    var inReplyToStatusId: Int?
    var inReplyToStatusIdStr: String?
    var inReplyToUserId: Int?
    var inReplyToUserIdStr: String?
    var inReplyToScreenName: String?
    var user: Account
    var coordinates: Point?
    var isQuoteStatus: Bool
    var retweetCount: Int
    var favoriteCount: Int
    var favorited: Bool
    var retweeted: Bool
    var lang: String

    enum CodingKeys: String, CodingKey {
        case createdAt = "created_at", id, idStr = "id_str", text, truncated, entities, metadata, source
        case inReplyToStatusId = "in_reply_to_status_id", inReplyToStatusIdStr = "in_reply_to_status_id_str"
        case inReplyToUserId = "in_reply_to_user_id", inReplyToUserIdStr = "in_reply_to_user_id_str"
        case inReplyToScreenName = "in_reply_to_screen_name"
        case user, coordinates, isQuoteStatus = "is_quote_status", retweetCount = "retweet_count"
        case favoriteCount = "favorite_count", favorited, retweeted, lang
    }
}

struct Entities: Codable, Sendable {
    var hashtags: [Hashtag]
    var urls: [LinkEntity]
    var userMentions: [Mention]

    enum CodingKeys: String, CodingKey {
        case hashtags, urls, userMentions = "user_mentions"
    }
}

struct Hashtag: Codable, Sendable {
    var text: String
    var indices: [Int]
}

struct LinkEntity: Codable, Sendable {
    var url: String
    var expandedUrl: String
    var displayUrl: String
    var indices: [Int]

    enum CodingKeys: String, CodingKey {
        case url, expandedUrl = "expanded_url", displayUrl = "display_url", indices
    }
}

struct Mention: Codable, Sendable {
    var screenName: String
    var name: String
    var id: Int
    var idStr: String
    var indices: [Int]

    enum CodingKeys: String, CodingKey {
        case screenName = "screen_name", name, id, idStr = "id_str", indices
    }
}

struct StatusMetadata: Codable, Sendable {
    var resultType: String
    var isoLanguageCode: String

    enum CodingKeys: String, CodingKey {
        case resultType = "result_type", isoLanguageCode = "iso_language_code"
    }
}

/// The author of a status.
struct Account: Codable, Sendable {
    var id: Int
    var idStr: String
    var name: String
    var screenName: String
    var location: String
    var description: String
    var url: String?
    var protected: Bool
    var followersCount: Int
    var friendsCount: Int
    var listedCount: Int
    var createdAt: String
    var favouritesCount: Int
    var utcOffset: Int?
    var timeZone: String?
    var geoEnabled: Bool
    var verified: Bool
    var statusesCount: Int
    var lang: String
    var profileBackgroundColor: String
    var profileImageUrl: String
    var profileImageUrlHttps: String
    var profileLinkColor: String
    var defaultProfile: Bool
    var defaultProfileImage: Bool
    var following: Bool
    var notifications: Bool

    enum CodingKeys: String, CodingKey {
        case id, idStr = "id_str", name, screenName = "screen_name", location, description, url, protected
        case followersCount = "followers_count", friendsCount = "friends_count", listedCount = "listed_count"
        case createdAt = "created_at", favouritesCount = "favourites_count", utcOffset = "utc_offset"
        case timeZone = "time_zone", geoEnabled = "geo_enabled", verified, statusesCount = "statuses_count", lang
        case profileBackgroundColor = "profile_background_color", profileImageUrl = "profile_image_url"
        case profileImageUrlHttps = "profile_image_url_https", profileLinkColor = "profile_link_color"
        case defaultProfile = "default_profile", defaultProfileImage = "default_profile_image", following, notifications
    }
}

struct Point: Codable, Sendable {
    var type: String
    var coordinates: [Double]
}

struct SearchMetadata: Codable, Sendable {
    var completedIn: Double
    var maxId: Int
    var maxIdStr: String
    var nextResults: String
    var query: String
    var refreshUrl: String
    var count: Int
    var sinceId: Int
    var sinceIdStr: String

    enum CodingKeys: String, CodingKey {
        case completedIn = "completed_in", maxId = "max_id", maxIdStr = "max_id_str", nextResults = "next_results"
        case query, refreshUrl = "refresh_url", count, sinceId = "since_id", sinceIdStr = "since_id_str"
    }
}

// MARK: keyed

/// A catalogue keyed by product id.
struct Catalogue: Codable, Sendable {
    var products: [String: Product]
}

struct Product: Codable, Sendable {
    struct Dimensions: Codable, Sendable {
        var w: Double
        var h: Double
        var d: Double
    }

    var name: String
    var price: Double
    var currency: String
    var stock: Int
    var discount: Double?
    var tags: [String]
    var dimensions: Dimensions
}

// MARK: numbers

/// A GeoJSON-like feature collection of polygons.
struct FeatureCollection: Codable, Sendable {
    struct Feature: Codable, Sendable {
        var type: String
        var properties: Properties
        var geometry: Geometry
    }

    struct Properties: Codable, Sendable {
        var name: String
        var id: Int
    }

    /// A polygon: rings of `[longitude, latitude]` points.
    struct Geometry: Codable, Sendable {
        var type: String
        var coordinates: [[[Double]]]
    }

    var type: String
    var features: [Feature]
}

// MARK: - Fingerprints

// Two digests per shape: every decoded value (what the decoders are checked
// on), and one check value per element (what the contenders that build no
// model — the index, JSONSerialization's tree — can read: the statuses' ids,
// each product's key and stock, each feature's rings, points and first
// longitude). Dictionary entries are folded in any order: a `[String: _]` has none.

extension SearchResponse {
    var fingerprint: UInt64 {
        var f = Fingerprint()
        for s in statuses {
            f.add(s.createdAt); f.add(s.id); f.add(s.idStr); f.add(s.text); f.add(s.truncated)
            f.add(s.entities.hashtags.count)
            for tag in s.entities.hashtags { f.add(tag.text); f.add(tag.indices) }
            f.add(s.entities.urls.count)
            for url in s.entities.urls {
                f.add(url.url); f.add(url.expandedUrl); f.add(url.displayUrl); f.add(url.indices)
            }
            f.add(s.entities.userMentions.count)
            for m in s.entities.userMentions {
                f.add(m.screenName); f.add(m.name); f.add(m.id); f.add(m.idStr); f.add(m.indices)
            }
            f.add(s.metadata.resultType); f.add(s.metadata.isoLanguageCode); f.add(s.source)
            f.add(s.inReplyToStatusId) { $0.add($1) }
            f.add(s.inReplyToStatusIdStr) { $0.add($1) }
            f.add(s.inReplyToUserId) { $0.add($1) }
            f.add(s.inReplyToUserIdStr) { $0.add($1) }
            f.add(s.inReplyToScreenName) { $0.add($1) }
            let u = s.user
            f.add(u.id); f.add(u.idStr); f.add(u.name); f.add(u.screenName); f.add(u.location); f.add(u.description)
            f.add(u.url) { $0.add($1) }
            f.add(u.protected); f.add(u.followersCount); f.add(u.friendsCount); f.add(u.listedCount); f.add(u.createdAt)
            f.add(u.favouritesCount)
            f.add(u.utcOffset) { $0.add($1) }
            f.add(u.timeZone) { $0.add($1) }
            f.add(u.geoEnabled); f.add(u.verified); f.add(u.statusesCount); f.add(u.lang);
            f.add(u.profileBackgroundColor)
            f.add(u.profileImageUrl); f.add(u.profileImageUrlHttps); f.add(u.profileLinkColor); f.add(u.defaultProfile)
            f.add(u.defaultProfileImage); f.add(u.following); f.add(u.notifications)
            f.add(s.coordinates) { f, point in
                f.add(point.type); for value in point.coordinates { f.add(value) }
            }
            f.add(s.isQuoteStatus); f.add(s.retweetCount); f.add(s.favoriteCount); f.add(s.favorited);
            f.add(s.retweeted)
            f.add(s.lang)
        }
        let m = searchMetadata
        f.add(m.completedIn); f.add(m.maxId); f.add(m.maxIdStr); f.add(m.nextResults); f.add(m.query);
        f.add(m.refreshUrl)
        f.add(m.count); f.add(m.sinceId); f.add(m.sinceIdStr)
        return f.value
    }

    var checkValues: UInt64 { idFingerprint(statuses.map(\.id)) }
}

extension Catalogue {
    var fingerprint: UInt64 {
        products.reduce(0) { sum, entry in
            var f = Fingerprint()
            let p = entry.value
            f.add(entry.key); f.add(p.name); f.add(p.price); f.add(p.currency); f.add(p.stock)
            f.add(p.discount) { $0.add($1) }
            f.add(p.tags.count)
            for tag in p.tags { f.add(tag) }
            f.add(p.dimensions.w); f.add(p.dimensions.h); f.add(p.dimensions.d)
            return sum &+ f.value
        }
    }

    var checkValues: UInt64 { products.reduce(0) { $0 &+ productCheckValue(key: $1.key, stock: $1.value.stock) } }
}

/// One product's check value: its key and stock.
func productCheckValue(key: String, stock: Int) -> UInt64 {
    var f = Fingerprint()
    f.add(key)
    f.add(stock)
    return f.value
}

extension FeatureCollection {
    var fingerprint: UInt64 {
        var f = Fingerprint()
        f.add(type)
        for feature in features {
            f.add(feature.type); f.add(feature.properties.name); f.add(feature.properties.id);
            f.add(feature.geometry.type)
            f.add(feature.geometry.coordinates.count)
            for ring in feature.geometry.coordinates {
                f.add(ring.count)
                for point in ring {
                    f.add(point.count)
                    for value in point { f.add(value) }
                }
            }
        }
        return f.value
    }

    var checkValues: UInt64 {
        var f = Fingerprint()
        for feature in features {
            let rings = feature.geometry.coordinates
            featureCheckValue(
                rings: rings.count, points: rings.first?.count ?? 0, firstLongitude: rings.first?.first?.first ?? .nan,
                into: &f)
        }
        return f.value
    }
}

/// One feature's check value: how many rings, how many points the outer one
/// has, and its first longitude (a 16-digit double every parser must read
/// to the same bits).
func featureCheckValue(rings: Int, points: Int, firstLongitude: Double, into f: inout Fingerprint) {
    f.add(rings)
    f.add(points)
    f.add(firstLongitude)
}

private extension Fingerprint {
    mutating func add(_ ints: [Int]) {
        add(ints.count)
        for int in ints { add(int) }
    }
}

/// What scenario 5 needs of a shape's model: its element count and its two
/// digests.
protocol ShapeModel: Encodable, Sendable {
    var elementCount: Int { get }
    var fingerprint: UInt64 { get }
    var checkValues: UInt64 { get }
}

extension SearchResponse: ShapeModel { var elementCount: Int { statuses.count } }
extension Catalogue: ShapeModel { var elementCount: Int { products.count } }
extension FeatureCollection: ShapeModel { var elementCount: Int { features.count } }
