import EasyBake
import EasyBakeTestSupport
import EasyBakeXML
import Foundation
import Testing
@testable import easybake

/// `convert --to xml` keeps neither types nor arrays of one element; it says
/// so on standard error, with the count and the first path (issue 27, item 8).
@Suite("convert --to xml warns of what XML does not keep")
struct ConvertXMLLossTests {
    /// A search result shaped as a tweet API's: statuses, entities whose
    /// arrays often hold one element, numbers and booleans.
    static let tweets = """
        {"statuses": [
          {"id": 850006245121695744, "text": "Bread rises", "retweet_count": 3, "favorited": false,
           "entities": {"hashtags": [], "urls": [{"url": "https://t.co/a", "indices": [0, 23]}],
                        "user_mentions": [{"screen_name": "ada", "id": 11}, {"screen_name": "grace", "id": 12}]},
           "user": {"id": 1, "screen_name": "baker", "verified": true}},
          {"id": 850006245121695745, "text": "Crumb shot", "retweet_count": 0, "favorited": true,
           "entities": {"hashtags": [{"text": "sourdough"}], "urls": [], "user_mentions": []},
           "user": {"id": 2, "screen_name": "miller", "verified": false}}
        ],
        "search_metadata": {"count": 2, "query": "bread"}}
        """

    @Test(
        "a tweet-shaped payload: the counts and first paths of numbers made text and one-element arrays, on standard error"
    )
    func tweetShaped() throws {
        let result = try Command.run(["convert", "--to", "xml", "--format", "json", "-"], input: Self.tweets)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("<?xml"))
        let warnings = result.standardError.split(separator: "\n").map(String.init)
        // Numbers and booleans: 2 × (id, retweet_count, favorited, user.id, user.verified),
        // indices 0 and 23, two mention ids, count.
        #expect(
            warnings.contains(
                "warning: convert --to xml: 15 numbers and booleans become text, which XML has no type for (first at statuses[0].id)"
            ),
            "\(warnings)")
        #expect(
            warnings.contains(
                "warning: convert --to xml: 2 arrays of one element become a single element, which reads back as the element alone (first at statuses[0].entities.urls)"
            ),
            "\(warnings)")
        #expect(warnings.count == 2, "\(warnings)")
    }

    @Test("a payload XML keeps whole converts without a word")
    func noLoss() throws {
        let result = try Command.run(
            ["convert", "--to", "xml", "--format", "json", "-"],
            input: #"{"feed": {"title": "Bread", "tags": ["a", "b"], "note": "", "extra": {}, "none": []}}"#)
        #expect(result.status == 0)
        #expect(result.standardError == "")
    }

    @Test("an array inside an array is another change, reported with its path")
    func nestedArray() throws {
        let result = try Command.run(
            ["convert", "--to", "xml", "--format", "json", "-"], input: #"{"a": "x", "grid": [["p", "q"], ["r", "s"]]}"#
        )
        #expect(result.status == 0)
        #expect(
            result.standardError.contains("warning: convert --to xml: ")
                && result.standardError.contains("(first at grid[0])"), "\(result.standardError)")
    }

    /// Random trees of what XML keeps, with arrays of one element and
    /// numbers and booleans among them: the losses found must be exactly
    /// those, counted; with none of them, the tree reads back whole.
    @Test("on random trees the losses counted are the one-element arrays and the typed scalars", arguments: 0..<60)
    func randomTrees(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed))
        var expected = (retyped: 0, oneElement: 0)
        let allowLoss = seed % 3 != 0
        func scalar() -> Ingredients {
            switch Int.random(in: 0..<(allowLoss ? 6 : 3), using: &random) {
            case 0:
                return .string(
                    String(
                        (0..<Int.random(in: 1...6, using: &random)).map { _ in "abcxyz".randomElement(using: &random)! }
                    ))
            case 1: return .null
            case 2: return .string("")
            case 3: expected.retyped += 1; return .integer(Int64.random(in: -1000...1000, using: &random))
            case 4: expected.retyped += 1; return .bool(Bool.random(using: &random))
            default: expected.retyped += 1; return .float(Double(Int.random(in: 1...999, using: &random)) / 8)
            }
        }
        func value(depth: Int) -> Ingredients {
            guard depth < 4 else { return scalar() }
            switch Int.random(in: 0..<4, using: &random) {
            case 0: return dictionary(depth: depth + 1)
            case 1:
                // An array's elements are never arrays: those are another
                // loss, tested apart.
                let counts = allowLoss ? [0, 1, 2, 3] : [0, 2, 3]
                let count = counts.randomElement(using: &random)!
                if count == 1 { expected.oneElement += 1 }
                return .array(
                    IngredientArray(
                        (0..<count).map { _ in
                            Bool.random(using: &random) ? scalar() : dictionary(depth: depth + 1)
                        }))
            default: return scalar()
            }
        }
        func dictionary(depth: Int) -> Ingredients {
            var members: [(key: String, value: Ingredients)] = []
            for index in 0..<Int.random(in: 0...3, using: &random) {
                members.append((key: "k\(index)", value: value(depth: depth)))
            }
            return .dictionary(IngredientDictionary(members))
        }
        var top: [(key: String, value: Ingredients)] = [
            (key: "first", value: value(depth: 1)), (key: "second", value: value(depth: 1)),
        ]
        if Bool.random(using: &random) { top.append((key: "third", value: dictionary(depth: 1))) }
        let tree = Ingredients.dictionary(IngredientDictionary(top))

        let bytes = try XMLFormat().write(tree)
        let readBack = try XMLFormat().read(.bytes(bytes))
        let losses = XMLLosses(original: tree, readBack: readBack, rootName: "root")
        #expect(losses.retyped.count == expected.retyped, "\(tree)\n\(String(decoding: bytes, as: UTF8.self))")
        #expect(losses.oneElementArrays.count == expected.oneElement, "\(tree)")
        #expect(losses.otherChanges.count == 0, "\(tree) → \(readBack)")
        if expected == (0, 0) {
            #expect(losses.isEmpty && losses.warnings.isEmpty)
            #expect(readBack == ["root": tree], "with nothing to lose, the round trip is exact")
        } else {
            #expect(!losses.warnings.isEmpty)
        }
    }
}
