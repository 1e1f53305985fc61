import EasyBakeMacrosImplementation
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosTestSupport
import XCTest

/// The macros as the compiler sees them: `@Bakeable` adds the `Bakeable`
/// conformance, which `assertMacroExpansion` has to be told about.
let macroSpecs: [String: MacroSpec] = [
    "Bakeable": MacroSpec(type: BakeableMacro.self, conformances: ["Bakeable", "IndexBakeable"]),
    "Ingredient": MacroSpec(type: IngredientMacro.self),
    "Default": MacroSpec(type: DefaultMacro.self),
    "Lossy": MacroSpec(type: LossyMacro.self),
]

final class BakeableExpansionTests: XCTestCase {
    func testEveryAttribute() {
        assertMacroExpansion(
            """
            @Bakeable
            struct User: Decodable {
                @Ingredient("address.town") var town: String
                @Ingredient("created", transformer: "iso8601") var created: Date
                @Default(0) var unread: Int
                @Ingredient(transformer: "lowercase") var role: String
                var name: String
                var initials: String { String(name.prefix(1)) }
                static let shared = 1
            }
            """,
            expandedSource: """
                struct User: Decodable {
                    var town: String
                    var created: Date
                    var unread: Int
                    var role: String
                    var name: String
                    var initials: String { String(name.prefix(1)) }
                    static let shared = 1
                }

                extension User: EasyBake.Bakeable, EasyBake.IndexBakeable {
                    static var bakingRecipe: EasyBake.Recipe? {
                        get throws {
                            try _bakeableRecipe.get()
                        }
                    }
                    private static let _bakeableRecipe = Result<EasyBake.Recipe, EasyBake.EasyBakeError> { () throws(EasyBake.EasyBakeError) in
                        try EasyBake.Recipe(
                            name: "User",
                            mapping: ["town": "address.town", "created": "created", "role": "role"],
                            transformers: ["created": "iso8601", "role": "lowercase"],
                            defaults: ["unread": 0]
                        )
                    }
                    static var bakingKeys: [String] {
                        ["town", "created", "unread", "role", "name"]
                    }
                    init(baking fields: EasyBake.BakingFields) throws {
                        self.town = try fields.decode(key: 0)
                        self.created = try fields.decode(key: 1)
                        self.unread = try fields.decode(key: 2)
                        self.role = try fields.decode(key: 3)
                        self.name = try fields.decode(key: 4)
                    }
                }
                """,
            macroSpecs: macroSpecs)
    }

    func testNoAttributesLeavesImplicitMatching() {
        assertMacroExpansion(
            """
            @Bakeable
            public struct Place: Decodable {
                public var town: String
            }
            """,
            expandedSource: """
                public struct Place: Decodable {
                    public var town: String
                }

                extension Place: EasyBake.Bakeable, EasyBake.IndexBakeable {
                    public static var bakingRecipe: EasyBake.Recipe? {
                        get throws {
                            nil
                        }
                    }
                    public static var bakingKeys: [String] {
                        ["town"]
                    }
                    public init(baking fields: EasyBake.BakingFields) throws {
                        self.town = try fields.decode(key: 0)
                    }
                }
                """,
            macroSpecs: macroSpecs)
    }

    func testAlreadyConformingTypeGetsOnlyTheRecipe() {
        assertMacroExpansion(
            """
            @Bakeable
            struct Place: Bakeable {
                @Ingredient("[\\"town name\\"]") var town: String
            }
            """,
            expandedSource: """
                struct Place: Bakeable {
                    var town: String
                }

                extension Place {
                    static var bakingRecipe: EasyBake.Recipe? {
                        get throws {
                            try _bakeableRecipe.get()
                        }
                    }
                    private static let _bakeableRecipe = Result<EasyBake.Recipe, EasyBake.EasyBakeError> { () throws(EasyBake.EasyBakeError) in
                        try EasyBake.Recipe(
                            name: "Place",
                            mapping: ["town": #"["town name"]"#]
                        )
                    }
                }
                """,
            macroSpecs: [
                "Bakeable": MacroSpec(type: BakeableMacro.self, conformances: []),
                "Ingredient": MacroSpec(type: IngredientMacro.self),
            ])
    }

    func testLossyMakesTheRecipeLossy() {
        assertMacroExpansion(
            """
            @Bakeable
            struct Feed: Decodable {
                @Lossy var items: [Int]
                @Lossy var links: Optional<[URL]>
                var title: String
            }
            """,
            expandedSource: """
                struct Feed: Decodable {
                    var items: [Int]
                    var links: Optional<[URL]>
                    var title: String
                }

                extension Feed {
                    static var bakingRecipe: EasyBake.Recipe? {
                        get throws {
                            try _bakeableRecipe.get()
                        }
                    }
                    private static let _bakeableRecipe = Result<EasyBake.Recipe, EasyBake.EasyBakeError> { () throws(EasyBake.EasyBakeError) in
                        try EasyBake.Recipe(
                            name: "Feed",
                            mapping: [:],
                            lossy: ["items", "links"]
                        )
                    }
                }
                """,
            macroSpecs: [
                "Bakeable": MacroSpec(type: BakeableMacro.self, conformances: []),
                "Lossy": MacroSpec(type: LossyMacro.self),
            ])
    }

    func testLossyOnANonArrayWarns() {
        assertMacroExpansion(
            """
            struct Feed {
                @Lossy var title: String
                @Lossy var items: [Int]?
            }
            """,
            expandedSource: """
                struct Feed {
                    var title: String
                    var items: [Int]?
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Lossy drops the elements of an array that do not bake; 'String' is not written as an array, so it has no effect unless that is one",
                    line: 2, column: 5, severity: .warning, fixIts: [FixItSpec(message: "Remove '@Lossy'")])
            ],
            macroSpecs: macroSpecs)
    }

    func testBakingInitializerReadsWhatInitFromDecoderReads() {
        assertMacroExpansion(
            """
            @Bakeable
            struct Account: Decodable {
                var id: Int
                var nickname: String?
                var manager: Optional<Person>
                var legacy: Int!
                var x, y: Double
                var retries = 3
                let kind: String = "user"
                var orders: [Order]
                var `default`: Bool
            }
            """,
            expandedSource: """
                struct Account: Decodable {
                    var id: Int
                    var nickname: String?
                    var manager: Optional<Person>
                    var legacy: Int!
                    var x, y: Double
                    var retries = 3
                    let kind: String = "user"
                    var orders: [Order]
                    var `default`: Bool
                }

                extension Account: EasyBake.Bakeable, EasyBake.IndexBakeable {
                    static var bakingRecipe: EasyBake.Recipe? {
                        get throws {
                            nil
                        }
                    }
                    static var bakingKeys: [String] {
                        ["id", "nickname", "manager", "legacy", "x", "y", "retries", "orders", "default"]
                    }
                    init(baking fields: EasyBake.BakingFields) throws {
                        self.id = try fields.decode(key: 0)
                        self.nickname = try fields.decodeIfPresent(key: 1)
                        self.manager = try fields.decodeIfPresent(key: 2)
                        self.legacy = try fields.decodeIfPresent(key: 3)
                        self.x = try fields.decode(key: 4)
                        self.y = try fields.decode(key: 5)
                        self.retries = try fields.decode(key: 6)
                        self.orders = try fields.decode(key: 7)
                        self.`default` = try fields.decode(key: 8)
                    }
                }
                """,
            macroSpecs: macroSpecs)
    }

    func testCustomCodingKeysNameTheKeysAndLeaveOutTheRest() {
        assertMacroExpansion(
            """
            @Bakeable
            struct Post: Decodable {
                var title: String
                var authorName: String
                var cached = false
                enum CodingKeys: String, CodingKey {
                    case title, authorName = "author_name"
                }
            }
            """,
            expandedSource: """
                struct Post: Decodable {
                    var title: String
                    var authorName: String
                    var cached = false
                    enum CodingKeys: String, CodingKey {
                        case title, authorName = "author_name"
                    }
                }

                extension Post: EasyBake.Bakeable, EasyBake.IndexBakeable {
                    static var bakingRecipe: EasyBake.Recipe? {
                        get throws {
                            nil
                        }
                    }
                    static var bakingKeys: [String] {
                        ["title", "author_name"]
                    }
                    init(baking fields: EasyBake.BakingFields) throws {
                        self.title = try fields.decode(key: 0)
                        self.authorName = try fields.decode(key: 1)
                    }
                }
                """,
            macroSpecs: macroSpecs)
    }

    func testOwnInitFromDecoderKeepsTheDecodableRoad() {
        assertMacroExpansion(
            """
            @Bakeable
            struct Celsius: Decodable {
                var degrees: Double
                init(from decoder: any Decoder) throws {
                    degrees = try decoder.singleValueContainer().decode(Double.self)
                }
            }
            """,
            expandedSource: """
                struct Celsius: Decodable {
                    var degrees: Double
                    init(from decoder: any Decoder) throws {
                        degrees = try decoder.singleValueContainer().decode(Double.self)
                    }
                }

                extension Celsius: EasyBake.Bakeable {
                    static var bakingRecipe: EasyBake.Recipe? {
                        get throws {
                            nil
                        }
                    }
                }
                """,
            macroSpecs: macroSpecs)
    }

    func testUnreadableCodingKeysWarnAndKeepTheDecodableRoad() {
        assertMacroExpansion(
            """
            @Bakeable
            struct Tagged: Decodable {
                var name: String
                enum CodingKeys: String, CodingKey {
                    case name = "na" + "me"
                }
            }
            """,
            expandedSource: """
                struct Tagged: Decodable {
                    var name: String
                    enum CodingKeys: String, CodingKey {
                        case name = "na" + "me"
                    }
                }

                extension Tagged: EasyBake.Bakeable {
                    static var bakingRecipe: EasyBake.Recipe? {
                        get throws {
                            nil
                        }
                    }
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Bakeable bakes Tagged through its init(from:), not at full speed: its CodingKeys are not an enum of plain cases whose raw values are string literals",
                    line: 1, column: 1, severity: .warning)
            ],
            macroSpecs: macroSpecs)
    }

    func testGenericStructMakesItsRecipeOnEveryRead() {
        assertMacroExpansion(
            """
            @Bakeable
            struct Page<Item: Decodable>: Decodable {
                @Ingredient("data.items") var items: [Item]
                @Default(1) var page: Int
            }
            """,
            expandedSource: """
                struct Page<Item: Decodable>: Decodable {
                    var items: [Item]
                    var page: Int
                }

                extension Page: EasyBake.Bakeable, EasyBake.IndexBakeable {
                    static var bakingRecipe: EasyBake.Recipe? {
                        get throws {
                            try EasyBake.Recipe(
                                name: "Page",
                                mapping: ["items": "data.items"],
                                defaults: ["page": 1]
                            )
                        }
                    }
                    static var bakingKeys: [String] {
                        ["items", "page"]
                    }
                    init(baking fields: EasyBake.BakingFields) throws {
                        self.items = try fields.decode(key: 0)
                        self.page = try fields.decode(key: 1)
                    }
                }
                """,
            macroSpecs: macroSpecs)
    }
}
