import EasyBake
import EasyBakeTestSupport
import Foundation
import Testing
@testable import easybake

/// Scaffolds a model from a payload written to a temporary file, through
/// the same survey as `easybake scaffold`; `inputName` is the name the
/// generated files say they were made from (the temporary file's when `nil`).
private func scaffold(
    _ text: String, format: String = "json", each: String? = nil, name: String = "User", inputName: String? = nil
) throws -> ModelScaffold.Result {
    let file = TestFiles.directory
        .appendingPathComponent("scaffold-\(UUID().uuidString).\(format)")
    try Data(text.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let survey = try PathsSurveying.survey(Payload(path: file.path, format: format), each: each, maximumPaths: 1000)
    return try ModelScaffold.make(
        from: survey,
        request: .init(name: name, each: each, inputName: inputName ?? file.lastPathComponent, formatName: format))
}

private extension ModelScaffold.TypePlan {
    subscript(_ name: String) -> ModelScaffold.PropertyPlan? { properties.first { $0.name == name } }
}

/// The recipe file as `RecipeFile` reads it.
private func loadRecipe(_ text: String) throws -> Recipe {
    let tree = try #require(Formats.all.format(named: "json")).read(.text(text))
    let recipes = try RecipeFile.recipes(in: tree)
    return try #require(recipes.first)
}

@Suite("Scaffold: Swift names")
struct ScaffoldNameTests {
    @Test(
        "property names are lower camel case with uniformly cased initialisms",
        arguments: [
            ("user_id", "userID"), ("unread-messages", "unreadMessages"), ("unreadMessages", "unreadMessages"),
            ("UnreadMessages", "unreadMessages"), ("id", "id"), ("ID", "id"), ("image_url", "imageURL"),
            ("image_urls", "imageURLs"), ("URLString", "urlString"), ("HOME_ADDRESS", "homeAddress"),
            ("full name", "fullName"), ("2fa", "_2fa"), ("address2", "address2"), ("self", "selfValue"),
            ("hashValue", "hashValueValue"), ("-", "value"), ("über_größe", "überGröße"),
        ])
    func propertyNames(key: String, expected: String) {
        #expect(SwiftNames.propertyName(key) == expected)
    }

    @Test("XML markers and namespace prefixes go, unless the prefix tells two keys apart")
    func xmlNames() {
        #expect(
            SwiftNames.propertyNames(for: ["@isPermaLink", "#text", "dc:creator"]) == [
                "isPermaLink", "text", "creator",
            ])
        #expect(
            SwiftNames.propertyNames(for: ["creator", "dc:creator", "atom:link", "link"]) == [
                "creator", "dcCreator", "atomLink", "link",
            ])
        #expect(SwiftNames.propertyNames(for: ["@xml:lang"]) == ["lang"])
    }

    @Test("keys that come out the same get numbers in order of appearance")
    func clashes() {
        #expect(
            SwiftNames.propertyNames(for: ["user_id", "userId", "UserID", "user-id2"]) == [
                "userID", "userID2", "userID3", "userId2",
            ])
    }

    @Test("keywords are written in backticks")
    func keywords() {
        #expect(SwiftNames.escaped("default") == "`default`")
        #expect(SwiftNames.escaped("class") == "`class`")
        #expect(SwiftNames.escaped("name") == "name")
    }

    @Test(
        "array elements are named in the singular",
        arguments: [
            ("devices", "Device"), ("categories", "Category"), ("addresses", "Address"), ("boxes", "Box"),
            ("status", "Status"), ("people", "Person"), ("category", "Category"), ("user_devices", "UserDevice"),
            ("image_urls", "ImageURL"), ("news", "News"), ("bus", "Bus"),
        ])
    func singular(key: String, expected: String) {
        #expect(SwiftNames.typeName(key, singular: true) == expected)
    }

    @Test("a model name must be a Swift type name that the generated code does not use")
    func modelName() throws {
        #expect(SwiftNames.isValidTypeName("User"))
        #expect(!SwiftNames.isValidTypeName("Date"))
        #expect(!SwiftNames.isValidTypeName("my-user"))
        #expect(!SwiftNames.isValidTypeName("1User"))
        let error = try #require(throws: EasyBakeError.self) { try scaffold(#"{"a": 1}"#, name: "my-user") }
        #expect(error.description.contains("--name MyUser"))
    }
}

@Suite("Scaffold: types")
struct ScaffoldTypeTests {
    @Test("each kind of sample value gets its Swift type and the transformer that reads it")
    func scalarTypes() throws {
        let result = try scaffold(
            """
            [
              {"count": 1, "text_count": "2", "price": 1, "amount": "2.5", "flag": true, "admin": 1, "on": "false",
               "bits": 2, "day": "2024-03-01", "stamp": "Sat, 07 Sep 2002 00:00:01 GMT", "mixed_date": "2024-03-01",
               "site": "https://a.example/", "misc": "x", "note": null, "tags": [], "words": ["a"]},
              {"count": 3, "text_count": 4, "price": 2.5, "amount": 3, "flag": false, "admin": "true", "on": "true",
               "bits": true, "day": "2024-03-02T10:00:00Z", "stamp": "07 Sep 2002 00:00 GMT",
               "mixed_date": "Sat, 07 Sep 2002 00:00:01 GMT", "site": "https://b.example/x", "misc": 5, "note": null,
               "tags": [], "words": "lone"}
            ]
            """, each: "[*]")
        let plan = result.plan
        func check(
            _ name: String, _ type: String, _ transformer: String?,
            sourceLocation: Testing.SourceLocation = #_sourceLocation
        ) {
            #expect(plan[name]?.swiftType == type, "\(name)", sourceLocation: sourceLocation)
            #expect(plan[name]?.transformer == transformer, "\(name)", sourceLocation: sourceLocation)
        }
        check("count", "Int", nil)
        check("textCount", "Int", "number")
        check("price", "Decimal", nil)  // money: an amount with at most two decimals
        check("amount", "Decimal", "number")
        check("flag", "Bool", nil)
        check("admin", "Bool", "bool")
        check("on", "Bool", "bool")
        check("bits", "String", nil)  // 2 is no Bool
        check("day", "Date", "iso8601")
        check("stamp", "Date", "rfc822")
        check("mixedDate", "String", nil)  // two date styles
        check("site", "URL", "url")
        check("misc", "String", nil)
        check("note", "String?", nil)
        check("tags", "[String]", nil)
        check("words", "[String]", nil)  // a single value beside arrays
        #expect(plan["note"]?.comment.contains("Only null values were seen") == true)
        #expect(plan["tags"]?.comment.contains("Only empty arrays were seen") == true)
        #expect(
            result.notes.contains("note: only null values were seen, so no sample told the type; String is a guess."))
        #expect(
            result.notes.contains(
                "tags: only empty arrays were seen, so no sample told the element type; String is a guess."))
        #expect(result.swiftSource.contains("    let `on`: Bool\n") == false)  // `on` is no keyword
        #expect(result.swiftSource.contains("    let on: Bool\n"))
    }

    @Test(
        "strings of digits stay String in JSON and YAML (ids, zip codes), and read as numbers in XML, where all is text"
    )
    func digitStrings() throws {
        let json = try scaffold(
            #"[{"id_str": "1050118621198921728", "zip": "01234", "n": "2", "rate": "4.5"}]"#, each: "[*]"
        ).plan
        for name in ["idStr", "zip", "n", "rate"] {
            #expect(json[name]?.swiftType == "String", "\(name)")
            #expect(json[name]?.transformer == nil, "\(name)")
        }
        let yaml = try scaffold("- id_str: '1050118621198921728'\n  count: 3\n", format: "yaml", each: "[*]").plan
        #expect(yaml["idStr"]?.swiftType == "String")
        #expect(yaml["count"]?.swiftType == "Int")
        let xml = try scaffold(
            "<items><item><n>2</n><rate>4.5</rate></item></items>", format: "xml", each: "items.item[*]"
        ).plan
        #expect(xml["n"]?.swiftType == "Int")
        #expect(xml["n"]?.transformer == "number")
        #expect(xml["rate"]?.swiftType == "Double")
    }

    @Test("an amount of money (a money word in the key, at most two decimals) is Decimal; other fractions stay Double")
    func money() throws {
        let plan = try scaffold(
            """
            [{"unit_price": 19.99, "total": 5, "shipping_cost": 4.5, "latitude": 45.25, "price_ratio": 0.125,
              "discount": 1.5e2, "score": 4.99}]
            """, each: "[*]"
        ).plan
        #expect(plan["unitPrice"]?.swiftType == "Decimal")
        #expect(plan["total"]?.swiftType == "Int")  // whole numbers only
        #expect(plan["shippingCost"]?.swiftType == "Decimal")
        #expect(plan["latitude"]?.swiftType == "Double")  // no money word
        #expect(plan["score"]?.swiftType == "Double")
        #expect(plan["priceRatio"]?.swiftType == "Double")  // three decimals
        #expect(plan["discount"]?.swiftType == "Decimal")  // 150.0
    }

    @Test("a dictionary keyed by ids is a map: [String: Model], with no nested recipe when its values bake without one")
    func idKeyedMaps() throws {
        let result = try scaffold(
            """
            {"events": {"138586341": {"name": "Concert", "start_at": "2024-01-01T10:00:00Z"},
                        "138586345": {"name": "Play", "start_at": "2024-02-01T10:00:00Z"}},
             "owners": {"0d6f2a9c-8d4e-4c47-9d0a-3c1e7b2f9a11": "ann", "7a1b2c3d-0000-4000-8000-00000000beef": "bo"},
             "stamps": {"17": "Sat, 07 Sep 2002 00:00:01 GMT"},
             "count": 2}
            """)
        let plan = result.plan
        #expect(plan["events"]?.swiftType == "[String: Event]")
        #expect(plan["events"]?.nested?.properties.map(\.name) == ["name", "startAt"])
        #expect(plan["owners"]?.swiftType == "[String: String]")
        // A map's values cannot each go through a recipe's transformer: their text is kept, and said so.
        #expect(plan["stamps"]?.swiftType == "[String: String]")
        #expect(result.notes.contains { $0.hasPrefix("stamps:") && $0.contains("rfc822") })
        let recipe = try loadRecipe(result.recipeJSON)
        #expect(recipe.nested["events"] == nil)
        #expect(result.swiftSource.contains("struct Event: Codable, Hashable, Sendable"))
        #expect(!result.swiftSource.contains("138586341"))
    }

    @Test("only 0s and 1s are no Bool without true or false beside them")
    func zeroOneIntegers() throws {
        let plan = try scaffold(#"[{"n": 0}, {"n": 1}]"#, each: "[*]").plan
        #expect(plan["n"]?.swiftType == "Int")
    }

    @Test("a value missing from some records or null is optional; nested dictionaries are structs")
    func optionalsAndNesting() throws {
        let result = try scaffold(
            """
            {"users": [
              {"id": 1, "name": "Ada", "address": {"town": "London", "zip": "N1"}, "devices": [{"kind": "phone"}]},
              {"id": 2, "name": null, "address": {"town": "Paris"}, "devices": [{"kind": "tablet", "os": "ios"}, {"kind": null}]}
            ]}
            """, each: "users[*]", inputName: "users.json")
        let plan = result.plan
        #expect(plan["id"]?.swiftType == "Int")
        #expect(plan["name"]?.swiftType == "String?")
        #expect(plan["address"]?.swiftType == "Address")
        #expect(plan["address"]?.nested?["town"]?.swiftType == "String")
        #expect(plan["address"]?.nested?["zip"]?.swiftType == "String?")
        #expect(plan["devices"]?.swiftType == "[Device]")
        #expect(plan["devices"]?.nested?["kind"]?.swiftType == "String?")
        #expect(plan["devices"]?.nested?["os"]?.swiftType == "String?")
        Snapshot.expect(result.swiftSource, matches: "scaffold-optionals-and-nesting.swift")
        #expect(result.swiftSource.contains("    struct Device: Codable, Hashable, Sendable {\n"))
        #expect(result.swiftSource.contains("/// `devices[*].os`, e.g. \"ios\"\n"))
    }

    @Test("nested type names avoid standard types, the outer type and each other")
    func typeNameClashes() throws {
        let result = try scaffold(
            """
            {"date": {"day": 1}, "url": {"href": "x"}, "user": {"name": "a"},
             "home": {"address": {"town": "a"}}, "work": {"address": {"town": "b"}}, "string": {"s": "t"}}
            """)
        let plan = result.plan
        #expect(plan["date"]?.swiftType == "UserDate")
        #expect(plan["url"]?.swiftType == "UserURL")
        #expect(plan["user"]?.swiftType == "UserUser")
        #expect(plan["string"]?.swiftType == "UserString")
        #expect(plan["home"]?.nested?["address"]?.swiftType == "Address")
        #expect(plan["work"]?.nested?["address"]?.swiftType == "WorkAddress")
    }

    @Test("keywords are escaped in the struct, reserved names renamed; the recipe maps the plain property name")
    func keywordProperties() throws {
        let result = try scaffold(#"{"default": 1, "class": "a", "self": true}"#)
        #expect(result.swiftSource.contains("    let `default`: Int\n"))
        #expect(result.swiftSource.contains("    let `class`: String\n"))
        #expect(result.swiftSource.contains("    let selfValue: Bool\n"))
        let recipe = try loadRecipe(result.recipeJSON)
        #expect(recipe.entry(for: "default")?.path.description == "default")
        #expect(recipe.entry(for: "selfValue")?.path.description == "self")
    }

    @Test(
        "XML: a lone and a repeated element make an array; text alone or with attributes makes a struct that takes both"
    )
    func xmlVariants() throws {
        let result = try scaffold(
            """
            <feed>
              <entry><tag>a</tag><guid>https://a.example/1</guid><link href="https://a.example/1"/></entry>
              <entry><tag>b</tag><tag>c</tag><guid isPermaLink="false">x-2</guid>
                <link href="https://a.example/2" rel="alternate"/><link href="https://a.example/2.mp3" rel="enclosure" length="12"/></entry>
            </feed>
            """, format: "xml", each: "feed.entry[*]", name: "Entry", inputName: "feed.xml")
        let plan = result.plan
        #expect(plan["tag"]?.swiftType == "[String]")
        #expect(plan["link"]?.swiftType == "[Link]")
        #expect(plan["link"]?.nested?["href"]?.swiftType == "URL")
        #expect(plan["link"]?.nested?["rel"]?.swiftType == "String?")
        #expect(plan["link"]?.nested?["length"]?.swiftType == "Int?")
        let guid = try #require(plan["guid"]?.nested)
        #expect(plan["guid"]?.swiftType == "GUID")
        #expect(guid.textProperty == "text")
        #expect(guid["text"]?.swiftType == "String")
        #expect(guid["isPermaLink"]?.swiftType == "Bool?")
        Snapshot.expect(result.swiftSource, matches: "scaffold-xml-variants.swift")
        let recipe = try loadRecipe(result.recipeJSON)
        #expect(recipe.nested["guid"]?.entry(for: "text")?.path.description == "#text")
        #expect(recipe.nested["guid"]?.entry(for: "isPermaLink")?.transformerName == "bool")
        #expect(recipe.nested["link"]?.entry(for: "href")?.path.description == "@href")
    }
}

@Suite("Scaffold: the recipe file")
struct ScaffoldRecipeTests {
    @Test("every property is mapped explicitly, with its transformer, and nested structs get nested recipes")
    func recipeLoads() throws {
        let result = try scaffold(
            """
            {"meta": {"n": 1}, "users": [
              {"user_id": 1, "unread-messages": "3", "joined": "2024-03-01", "content.type": "a",
               "address": {"town": "x"}, "devices": [{"kind": "phone"}]}
            ]}
            """, each: "users[*]", inputName: "users.json")
        let recipe = try loadRecipe(result.recipeJSON)
        #expect(recipe.name == "User")
        #expect(recipe.properties == ["userID", "unreadMessages", "joined", "contentType", "address", "devices"])
        #expect(recipe.entry(for: "userID")?.path.description == "user_id")
        #expect(recipe.entry(for: "userID")?.transformer == nil)
        // A JSON string of digits is the producer's choice: its text is kept.
        #expect(recipe.entry(for: "unreadMessages")?.transformer == nil)
        #expect(recipe.entry(for: "joined")?.transformerName == "iso8601")
        #expect(recipe.entry(for: "contentType")?.path == IngredientPath([.key("content.type")]))
        #expect(recipe.nested["address"]?.entry(for: "town")?.path.description == "town")
        #expect(recipe.nested["devices"]?.entry(for: "kind")?.path.description == "kind")
        Snapshot.expect(result.recipeJSON, matches: "scaffold-recipe.recipe.json")
    }

    @Test("the Swift header says how the file was made and how to bake with it")
    func header() throws {
        let result = try scaffold(#"{"items": [{"a": 1}]}"#, each: "items[*]", name: "Item")
        let lines = result.swiftSource.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0].hasPrefix("// Generated by `easybake scaffold --name Item --each 'items[*]' scaffold-"))
        #expect(lines[0].hasSuffix("` from 1 sample record."))
        #expect(lines.contains { $0.contains("RecipeFile.load(.file(\"Item.recipe.json\"), format: JSONFormat())[0]") })
        #expect(
            lines.contains {
                $0.contains("Baker().bakeEach(Item.self, from: try JSONIngredientSource(")
                    && $0.contains("each: \"items[*]\"")
            })
        #expect(lines.contains { $0.hasPrefix("// or: easybake bake --recipe Item.recipe.json --each 'items[*]' ") })
    }
}

@Suite("Scaffold: records that are not dictionaries")
struct ScaffoldRootTests {
    @Test("an array root suggests --each '[*]'")
    func arrayRoot() throws {
        let error = try #require(throws: EasyBakeError.self) { try scaffold(#"[{"a": 1}]"#) }
        #expect(error.code == .unsupported)
        #expect(error.description.contains("the payload's root must be a dictionary to make a struct of, found array"))
        #expect(error.description.contains("add --each '[*]'"))
    }

    @Test("records that are arrays suggest adding [*] to --each")
    func arrayRecords() throws {
        let error = try #require(throws: EasyBakeError.self) {
            try scaffold(#"{"users": [[{"a": 1}]]}"#, each: "users[*]")
        }
        #expect(error.description.contains("the records at users[*] must be dictionaries"))
        #expect(error.description.contains("add --each 'users[*][*]'"))
    }

    @Test("scalar records are refused")
    func scalarRecords() throws {
        let error = try #require(throws: EasyBakeError.self) { try scaffold(#"{"ids": [1, 2]}"#, each: "ids[*]") }
        #expect(error.description.contains("must be dictionaries to make a struct of, found integer"))
    }

    @Test("a payload surveyed whole with one array of dictionaries names it as the records' path")
    func hint() throws {
        let file = TestPaths.fixture("json/users.json")
        let survey = try PathsSurveying.survey(Payload(path: file.path, format: nil), each: nil, maximumPaths: 1000)
        #expect(ModelScaffold.recordPathHint(survey) == "users[*]")
        let feed = try PathsSurveying.survey(
            Payload(path: TestPaths.fixture("xml/feed.rss").path, format: nil), each: nil, maximumPaths: 1000)
        #expect(ModelScaffold.recordPathHint(feed) == "rss.channel.item[*]")
    }
}

@Suite("The easybake scaffold command")
struct ScaffoldCommandTests {
    @Test("without --out both files go to standard output, each after a line naming it")
    func standardOutput() throws {
        let result = try Command.run(["scaffold", "--name", "User", "--each", "users[*]", "Fixtures/json/users.json"])
        #expect(result.status == 0, "\(result.standardError)")
        let parts = result.standardOutput.components(separatedBy: "// ==== User.recipe.json ====\n")
        try #require(parts.count == 2)
        Snapshot.expect(result.standardOutput, matches: "scaffold-command-users.txt")
        _ = try loadRecipe(parts[1])
    }

    @Test("--out writes NAME.swift and NAME.recipe.json, says so, and keeps existing files without --force")
    func outDirectory() throws {
        let directory = TestFiles.directory.appendingPathComponent(
            "scaffold-out-\(UUID().uuidString)/Models")
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let arguments = [
            "scaffold", "--name", "FeedItem", "--each", "rss.channel.item[*]", "--out", directory.path,
            "Fixtures/xml/feed.rss",
        ]
        let first = try Command.run(arguments)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.isEmpty)
        #expect(
            first.standardError.contains(
                "wrote \(directory.path)/FeedItem.swift and \(directory.path)/FeedItem.recipe.json"))
        let swift = try String(contentsOf: directory.appendingPathComponent("FeedItem.swift"), encoding: .utf8)
        #expect(swift.contains("struct FeedItem: Codable, Hashable, Sendable {"))
        let recipe = try loadRecipe(
            try String(contentsOf: directory.appendingPathComponent("FeedItem.recipe.json"), encoding: .utf8))
        #expect(recipe.entry(for: "pubDate")?.transformerName == "rfc822")

        let again = try Command.run(arguments)
        #expect(again.status != 0)
        #expect(again.standardError.contains("FeedItem.swift exists; pass --force to replace it"))
        let forced = try Command.run(arguments + ["--force"])
        #expect(forced.status == 0, "\(forced.standardError)")
    }

    @Test("without --each, a payload with one array of records gets a hint")
    func hintOnStandardError() throws {
        let result = try Command.run(["scaffold", "--name", "Payload", "Fixtures/json/users.json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardError.contains(
                "note: the payload holds records at users[*]; to model one record, add --each 'users[*]'"))
    }

    @Test("an array root fails with a hint")
    func arrayRoot() throws {
        let result = try Command.run(["scaffold", "--name", "X", "--input-format", "json", "-"], input: #"[{"a": 1}]"#)
        #expect(result.status != 0)
        #expect(result.standardError.contains("add --each '[*]'"))
    }
}
