import EasyBake
import EasyBakeMacros
import Foundation

// The real-world shapes' models again, as `@Bakeable` structs: the same
// properties and `CodingKeys` as in Shapes.swift, so that the `EasyBake
// @Bakeable` rows bake the same files, with no recipe, through the
// generated initializers. Their results are checked as the other rows'
// are: each is encoded and decoded as its plain twin, after the timing.

/// A social API's search response.
@Bakeable
struct BakedSearchResponse: Codable, Sendable {
    var statuses: [BakedStatus]
    var searchMetadata: BakedSearchMetadata

    enum CodingKeys: String, CodingKey {
        case statuses
        case searchMetadata = "search_metadata"
    }
}

@Bakeable
struct BakedStatus: Codable, Sendable {
    var createdAt: String
    var id: Int
    var idStr: String
    var text: String
    var truncated: Bool
    var entities: BakedEntities
    var metadata: BakedStatusMetadata
    var source: String
    var inReplyToStatusId: Int?
    var inReplyToStatusIdStr: String?
    var inReplyToUserId: Int?
    var inReplyToUserIdStr: String?
    var inReplyToScreenName: String?
    var user: BakedAccount
    var coordinates: BakedPoint?
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

@Bakeable
struct BakedEntities: Codable, Sendable {
    var hashtags: [BakedHashtag]
    var urls: [BakedLinkEntity]
    var userMentions: [BakedMention]

    enum CodingKeys: String, CodingKey {
        case hashtags, urls, userMentions = "user_mentions"
    }
}

@Bakeable
struct BakedHashtag: Codable, Sendable {
    var text: String
    var indices: [Int]
}

@Bakeable
struct BakedLinkEntity: Codable, Sendable {
    var url: String
    var expandedUrl: String
    var displayUrl: String
    var indices: [Int]

    enum CodingKeys: String, CodingKey {
        case url, expandedUrl = "expanded_url", displayUrl = "display_url", indices
    }
}

@Bakeable
struct BakedMention: Codable, Sendable {
    var screenName: String
    var name: String
    var id: Int
    var idStr: String
    var indices: [Int]

    enum CodingKeys: String, CodingKey {
        case screenName = "screen_name", name, id, idStr = "id_str", indices
    }
}

@Bakeable
struct BakedStatusMetadata: Codable, Sendable {
    var resultType: String
    var isoLanguageCode: String

    enum CodingKeys: String, CodingKey {
        case resultType = "result_type", isoLanguageCode = "iso_language_code"
    }
}

/// The author of a status.
@Bakeable
struct BakedAccount: Codable, Sendable {
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

@Bakeable
struct BakedPoint: Codable, Sendable {
    var type: String
    var coordinates: [Double]
}

@Bakeable
struct BakedSearchMetadata: Codable, Sendable {
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
@Bakeable
struct BakedCatalogue: Codable, Sendable {
    var products: [String: BakedProduct]
}

@Bakeable
struct BakedProduct: Codable, Sendable {
    @Bakeable
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
@Bakeable
struct BakedFeatureCollection: Codable, Sendable {
    @Bakeable
    struct Feature: Codable, Sendable {
        var type: String
        var properties: Properties
        var geometry: Geometry
    }

    @Bakeable
    struct Properties: Codable, Sendable {
        var name: String
        var id: Int
    }

    /// A polygon: rings of `[longitude, latitude]` points.
    @Bakeable
    struct Geometry: Codable, Sendable {
        var type: String
        var coordinates: [[[Double]]]
    }

    var type: String
    var features: [Feature]
}

/// A `@Bakeable` twin of a shape's model: how its results are checked.
protocol BakedShape: IndexBakeable, Decodable, Encodable, Sendable {
    associatedtype Plain: ShapeModel & Decodable
    var elementCount: Int { get }
}

extension BakedShape {
    /// The plain model with the same values: through JSON, whose numbers
    /// and strings read back exactly.
    var plain: Plain? {
        guard let data = try? JSONEncoder().encode(self) else { return nil }
        return try? JSONDecoder().decode(Plain.self, from: data)
    }
}

extension BakedSearchResponse: BakedShape {
    typealias Plain = SearchResponse
    var elementCount: Int { statuses.count }
}

extension BakedCatalogue: BakedShape {
    typealias Plain = Catalogue
    var elementCount: Int { products.count }
}

extension BakedFeatureCollection: BakedShape {
    typealias Plain = FeatureCollection
    var elementCount: Int { features.count }
}
