import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import EasyBakeXML
import Foundation
import Testing

/// One entry of a feed, whether it came from RSS 2.0 or Atom.
struct FeedItem: Decodable, Equatable {
    let title: String
    let link: URL
    let published: Date
    let author: String?
    let categories: [String]
    let summary: String?
    let enclosureURL: URL?
    let enclosureLength: Int?
    let enclosureType: String?
}

/// The shipped feed fixtures baked with the shipped recipe files, through the
/// Swift API.
@Suite("Baking feeds")
struct XMLFeedTests {
    static func items(feed: String, records: String, recipe: String) throws -> [FeedItem] {
        let document = try Document(reading: .file(TestPaths.fixture(feed).path), format: XMLFormat())
        let recipes = try RecipeFile.load(.file(TestPaths.fixture(recipe).path), format: JSONFormat())
        let recipe = try #require(recipes.first)
        #expect(recipe.name == "FeedItem")
        let entries = try #require(document.tree.resolve(try IngredientPath(parsing: records))?.arrayValue)
        return try entries.map { entry throws(EasyBakeError) in
            try Baker().bake(FeedItem.self, from: entry, recipe: recipe)
        }
    }

    static func date(_ text: String) throws -> Date {
        try #require(DateFormats.parseISO8601(text))
    }

    /// What both fixtures say, in the same order.
    static func expected() throws -> [FeedItem] {
        [
            FeedItem(
                title: "Sourdough in 24 hours", link: URL(string: "https://kitchen.example.org/posts/sourdough")!,
                published: try date("2025-03-03T08:15:00Z"), author: "Ada Baker", categories: ["bread"],
                summary: "<p>Flour, water, salt &amp; <em>time</em>.</p>",
                enclosureURL: URL(string: "https://cdn.example.org/audio/sourdough.mp3"),
                enclosureLength: 12_345_678, enclosureType: "audio/mpeg"),
            FeedItem(
                title: "Knives & boards: a buyer\u{2019}s guide",
                link: URL(string: "https://kitchen.example.org/posts/knives")!,
                published: try date("2002-09-07T00:00:01Z"), author: "Grace Whisk",
                categories: ["tools", "reviews", "safety"],
                summary: "Which knife for which job, and how to keep it sharp.",
                enclosureURL: nil, enclosureLength: nil, enclosureType: nil),
            FeedItem(
                title: "Kitchen notes", link: URL(string: "https://kitchen.example.org/posts/notes")!,
                published: try date("2025-04-01T23:30:00Z"), author: nil, categories: [], summary: nil,
                enclosureURL: URL(string: "https://cdn.example.org/video/notes.mp4"),
                enclosureLength: 987_654, enclosureType: "video/mp4"),
        ]
    }

    @Test("RSS 2.0 items bake into FeedItem: RFC 822 dates, CDATA, categories, enclosure attributes")
    func rss() throws {
        let items = try Self.items(feed: "xml/feed.rss", records: "rss.channel.item", recipe: "recipes/rss-item.json")
        #expect(items == (try Self.expected()))
    }

    @Test("Atom entries bake into the same FeedItems: ISO 8601 dates, category terms, enclosure links")
    func atom() throws {
        let items = try Self.items(feed: "xml/atom.xml", records: "feed.entry", recipe: "recipes/atom-entry.json")
        #expect(items == (try Self.expected()))
    }

    @Test("an array property receives a one-element array from a lone element, without [*] in the path")
    func loneElementAsArray() throws {
        struct Tagged: Decodable, Equatable { let categories: [String] }
        let recipe = try Recipe(name: "Tagged", mapping: ["categories": "category"])
        let tree = try XMLFormat().read(.file(TestPaths.fixture("xml/feed.rss").path))
        let items = try #require(tree.resolve(try IngredientPath(parsing: "rss.channel.item"))?.arrayValue)
        #expect(try Baker().bake(Tagged.self, from: items[0], recipe: recipe) == Tagged(categories: ["bread"]))
        #expect(try Baker().bake(Tagged.self, from: items[1], recipe: recipe).categories.count == 3)
    }

    @Test("namespaced elements keep their prefix, and the channel's atom:link is an attribute dictionary")
    func namespaces() throws {
        let tree = try XMLFormat().read(.file(TestPaths.fixture("xml/feed.rss").path))
        #expect(tree.resolve(try IngredientPath(parsing: "rss.channel.atom:link.@rel")) == "self")
        #expect(tree.resolve(try IngredientPath(parsing: "rss.@xmlns:dc")) == "http://purl.org/dc/elements/1.1/")
        #expect(tree.resolve(try IngredientPath(parsing: "rss.channel.item[0].guid.@isPermaLink")) == "false")
        #expect(tree.resolve(try IngredientPath(parsing: "rss.channel.item[0].guid[\"#text\"]")) == "kitchen-2025-0012")
        var strip = XMLReadingOptions()
        strip.namespaces = .strip
        let stripped = try XMLFormat(options: strip).read(.file(TestPaths.fixture("xml/atom.xml").path))
        #expect(stripped.resolve(try IngredientPath(parsing: "feed.entry[1].creator")) == "Grace Whisk")
    }
}
