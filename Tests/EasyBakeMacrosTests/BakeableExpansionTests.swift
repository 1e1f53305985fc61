import EasyBakeMacrosImplementation
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosTestSupport
import XCTest

/// The macros as the compiler sees them: `@Bakeable` adds the `Bakeable`
/// conformance, which `assertMacroExpansion` has to be told about.
let macroSpecs: [String: MacroSpec] = [
    "Bakeable": MacroSpec(type: BakeableMacro.self, conformances: ["Bakeable"]),
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

            extension User: EasyBake.Bakeable {
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

            extension Place: EasyBake.Bakeable {
                public static var bakingRecipe: EasyBake.Recipe? {
                    get throws {
                        nil
                    }
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

    func testLossyWarns() {
        assertMacroExpansion(
            """
            struct Feed {
                @Lossy var items: [Int]
            }
            """,
            expandedSource: """
            struct Feed {
                var items: [Int]
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Lossy has no effect yet: a recipe cannot make one property's array lossy; bake with Baker.Options(lossyArrays: true) instead",
                    line: 2, column: 5, severity: .warning)
            ],
            macroSpecs: macroSpecs)
    }
}
