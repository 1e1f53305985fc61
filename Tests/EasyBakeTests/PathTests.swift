import Testing
import EasyBake
import EasyBakeTestSupport

@Suite("Ingredient paths: syntax")
struct PathParsingTests {
    @Test(
        "dots, indexes, wildcards and negative indexes",
        arguments: [
            ("users[3].address.city", [IngredientPath.Step.key("users"), .index(3), .key("address"), .key("city")]),
            ("users[*].name", [.key("users"), .everyElement, .key("name")]),
            ("items[-1]", [.key("items"), .index(-1)]),
            ("[0][1]", [.index(0), .index(1)]),
            ("[*]", [.everyElement]),
            ("a", [.key("a")]),
            ("@id", [.key("@id")]),
            ("rss.channel.item[0].#text", [.key("rss"), .key("channel"), .key("item"), .index(0), .key("#text")]),
            ("atom:link.unread-count", [.key("atom:link"), .key("unread-count")]),
            ("straße.日本", [.key("straße"), .key("日本")]),
        ])
    func parses(text: String, steps: [IngredientPath.Step]) throws {
        let path = try IngredientPath(parsing: text)
        #expect(path.steps == steps)
        #expect(path.description == text, "the canonical text is the text itself here")
    }

    @Test("quoted keys hold dots, brackets, spaces, quotes or nothing")
    func quotedKeys() throws {
        #expect(try IngredientPath(parsing: #"meta["content.type"]"#).steps == [.key("meta"), .key("content.type")])
        #expect(try IngredientPath(parsing: "meta['content.type']").steps == [.key("meta"), .key("content.type")])
        #expect(try IngredientPath(parsing: #"["a b"]["[x]"]"#).steps == [.key("a b"), .key("[x]")])
        #expect(try IngredientPath(parsing: #"a["say \"hi\""]"#).steps == [.key("a"), .key(#"say "hi""#)])
        #expect(try IngredientPath(parsing: #"a['it\'s']"#).steps == [.key("a"), .key("it's")])
        #expect(try IngredientPath(parsing: #"a["back\\slash"]"#).steps == [.key("a"), .key(#"back\slash"#)])
        #expect(try IngredientPath(parsing: #"a[""]"#).steps == [.key("a"), .key("")])
        #expect(try IngredientPath(parsing: #"a["x"].b"#).steps == [.key("a"), .key("x"), .key("b")])
    }

    @Test("the empty path is the root")
    func root() throws {
        let path = try IngredientPath(parsing: "")
        #expect(path.isRoot)
        #expect(path == .root)
        #expect(path.description == "")
    }

    @Test("descriptions quote only keys that need it, and parse back")
    func descriptionQuotes() throws {
        let path: IngredientPath = [
            .key("meta"), .key("content.type"), .index(2), .key(#"q"uote"#), .key(""), .everyElement, .key("plain"),
        ]
        #expect(path.description == #"meta["content.type"][2]["q\"uote"][""][*].plain"#)
        #expect(try IngredientPath(parsing: path.description) == path)
    }

    @Test("random paths survive description and parsing")
    func randomRoundTrip() throws {
        var generator = SeededGenerator(seed: 42)
        let alphabet: [Character] = ["a", "Z", "0", ".", "[", "]", "\"", "'", "\\", " ", "-", "_", "é", "@", "*", "\t"]
        for _ in 0..<500 {
            var steps: [IngredientPath.Step] = []
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: steps.append(.index(Int.random(in: -5...1_000, using: &generator)))
                case 1: steps.append(.everyElement)
                default:
                    let length = Int.random(in: 0...6, using: &generator)
                    steps.append(.key(String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })))
                }
            }
            let path = IngredientPath(steps)
            #expect(try IngredientPath(parsing: path.description) == path, "\(path.description)")
        }
    }

    @Test(
        "errors name the column and what was expected",
        arguments: [
            (".a", 1, "a key or '['"),
            ("a..b", 3, "a key after '.'"),
            ("a.", 3, "a key after '.'"),
            ("a[", 3, "an index, '*' or a quoted key"),
            ("a[1", 4, "']'"),
            ("a[x]", 3, "an index, '*' or a quoted key"),
            ("a[-]", 4, "a digit"),
            (#"a["open"#, 8, "a closing"),
            ("a b", 2, "'.' or '['"),
            ("a[0]b", 5, "'.' or '['"),
            ("a]", 2, "'.' or '['"),
            ("a[99999999999999999999999]", 21, "an index that fits in Int"),
            (#"a["\x"]"#, 5, #"\", \' or \\ after a backslash"#),
            ("a[*", 4, "']'"),
        ])
    func errors(text: String, column: Int, expected: String) throws {
        let error = try #require(captureError { try IngredientPath(parsing: text) })
        #expect(error.code == .invalidPath)
        #expect(error.location?.column == column, "\(error.message)")
        #expect(error.message.contains("expected \(expected)"), "\(error.message)")
        #expect(error.message.contains("column \(column)"))
        #expect(error.location?.lineText == text)
    }

    @Test("an error renders with a caret under the column")
    func errorRendering() throws {
        let error = try #require(captureError { try IngredientPath(parsing: "users[x]") })
        let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false)
        let caretLine = try #require(lines.last { $0.contains("^") })
        let textLine = try #require(lines.first { $0.contains("| users[x]") })
        let caretOffset = try #require(caretLine.firstIndex(of: "^")).utf16Offset(in: caretLine)
        let textStart = try #require(textLine.range(of: "users")).lowerBound.utf16Offset(in: textLine)
        #expect(caretOffset - textStart == 6, "the caret points at 'x'")
    }

    @Test("appending builds paths step by step")
    func appending() {
        let path = IngredientPath.root.appending(key: "a").appending(index: 2).appending(.everyElement)
            .appending([.key("b")])
        #expect(path.description == "a[2][*].b")
        #expect(path.hasWildcard)
        #expect(!IngredientPath([.key("a")]).hasWildcard)
        #expect(IngredientPath.Step.index(0).isArrayStep && IngredientPath.Step.everyElement.isArrayStep)
        #expect(!IngredientPath.Step.key("a").isArrayStep)
    }
}

@Suite("Ingredient paths: resolving")
struct PathResolvingTests {
    static let tree: Ingredients = [
        "users": [
            ["name": "ann", "address": ["city": "Oslo"], "nickname": .null],
            ["name": "bob", "address": ["city": "Rome"]],
            ["name": "cy"],
        ],
        "meta": ["content.type": "json", "a b": 1],
        "item": ["title": "only one"],
        "nothing": .null,
        "word": "hello",
    ]

    func resolve(_ text: String) throws -> Ingredients? { try Self.tree.resolve(text) }

    @Test("keys and indexes lead to values")
    func plain() throws {
        #expect(try resolve("users[1].address.city") == "Rome")
        #expect(try resolve("users[-1].name") == "cy")
        #expect(try resolve("users[-3].name") == "ann")
        #expect(try resolve(#"meta["content.type"]"#) == "json")
        #expect(try resolve(#"meta['a b']"#) == 1)
        #expect(try resolve("") == Self.tree)
    }

    @Test("missing is nil, present null is .null")
    func missingVersusNull() throws {
        #expect(try resolve("nothing") == .null)
        #expect(try resolve("users[0].nickname") == .null)
        #expect(try resolve("users[1].nickname") == nil)
        #expect(try resolve("absent") == nil)
        #expect(try resolve("nothing.deeper") == nil)
        #expect(try resolve("nothing[0]") == nil)
        #expect(try resolve("users[3]") == nil)
        #expect(try resolve("users[-4]") == nil)
        #expect(try resolve("users.name") == nil, "a key on an array leads nowhere")
        #expect(try resolve("word.length") == nil)
    }

    @Test("[*] collects from every element, leaving out elements where it is missing")
    func wildcard() throws {
        #expect(try resolve("users[*].name") == ["ann", "bob", "cy"])
        #expect(try resolve("users[*].address.city") == ["Oslo", "Rome"])
        #expect(try resolve("users[*].nickname") == [.null])
        #expect(try resolve("nothing[*]") == [])
        #expect(try resolve("absent[*]") == nil)
        #expect(try resolve("users[*]") == Self.tree["users"])
    }

    @Test("a single value reads as a one-element array")
    func singleValueAsArray() throws {
        #expect(try resolve("item[0].title") == "only one")
        #expect(try resolve("item[-1].title") == "only one")
        #expect(try resolve("item[1]") == nil)
        #expect(try resolve("word[0]") == "hello")
        #expect(try resolve("word[*]") == ["hello"])
        // A dictionary read from an XML element is one element to `[*]` too.
        var element: IngredientDictionary = ["title": "only one"]
        element.isElement = true
        let feed: Ingredients = ["item": .dictionary(element)]
        #expect(try feed.resolve("item[*].title") == ["only one"])
        #expect(try feed.resolve("item[*]") == [.dictionary(element)])
    }

    @Test("[*] on a dictionary that is no XML element gives its values in order")
    func everyValueOfADictionary() throws {
        let events: Ingredients = [
            "events": ["138586341": ["name": "Opera"], "138586345": ["name": "Ballet"], "9": ["id": 9]]
        ]
        #expect(try events.resolve("events[*].name") == ["Opera", "Ballet"])
        #expect(try events.resolve("events[*]")?.arrayValue?.count == 3)
        #expect(try resolve("item[*]") == ["only one"])
        #expect(try resolve("item[*].title") == [])
        // [0] and [-1] still take a dictionary as a lone value.
        #expect(try resolve("item[0].title") == "only one")
        // Equal contents are equal, marked or not.
        var marked: IngredientDictionary = ["title": "only one"]
        marked.isElement = true
        #expect(Ingredients.dictionary(marked) == Self.tree["item"])
    }

    @Test("an unparsable path throws invalidPath")
    func badPath() {
        #expect(throws: EasyBakeError.self) { try Self.tree.resolve("users[") }
    }

    @Test("jq's leading '.' and JSONPath's '$' root get a hint with the path as EasyBake writes it")
    func foreignPathHabits() throws {
        #expect {
            _ = try IngredientPath(parsing: ".statuses[0].text")
        } throws: { error in
            let error = error as? EasyBakeError
            return error?.code == .invalidPath
                && error?.message.hasSuffix("found '.'; paths have no leading '.' as jq's do: try statuses[0].text")
                    == true
        }
        #expect {
            _ = try IngredientPath(parsing: ".")
        } throws: { ($0 as? EasyBakeError)?.message.contains("jq") == false }
        #expect(
            try IngredientPath(parsing: "$.statuses[0]").jsonPathHint
                == "ingredient paths have no JSONPath '$' root: try statuses[0]")
        #expect(
            try IngredientPath(parsing: "$[2].id").jsonPathHint
                == "ingredient paths have no JSONPath '$' root: try [2].id")
        #expect(try IngredientPath(parsing: "$").jsonPathHint?.contains("the whole input needs no path") == true)
        #expect(try IngredientPath(parsing: "statuses.$").jsonPathHint == nil)
        // `$` is a key like any other: a payload that has one is read.
        #expect(try (["$": ["oid": 7]] as Ingredients).resolve("$.oid") == 7)
    }

    @Test("resolving an array-rooted tree")
    func arrayRoot() throws {
        let list: Ingredients = [["id": 1], ["id": 2]]
        #expect(try list.resolve("[1].id") == 2)
        #expect(try list.resolve("[*].id") == [1, 2])
    }
}
