import EasyBakeMacrosImplementation
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosTestSupport
import XCTest

final class DiagnosticTests: XCTestCase {
    func testClassIsReportedWithAFixIt() {
        assertMacroExpansion(
            """
            @Bakeable
            class User {
                var name = ""
            }
            """,
            expandedSource: """
                class User {
                    var name = ""
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Bakeable applies to structs only, not to a class: a struct's stored properties are what a recipe maps (classes, actors and enums are not supported)",
                    line: 1, column: 1, fixIts: [FixItSpec(message: "Make it a struct")])
            ],
            macroSpecs: macroSpecs,
            applyFixIts: ["Make it a struct"],
            fixedSource: """
                @Bakeable
                struct User {
                    var name = ""
                }
                """)
    }

    func testActorIsReportedWithAFixIt() {
        assertMacroExpansion(
            "@Bakeable actor Counter {}",
            expandedSource: "actor Counter {}",
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Bakeable applies to structs only, not to a actor: a struct's stored properties are what a recipe maps (classes, actors and enums are not supported)",
                    line: 1, column: 1, fixIts: [FixItSpec(message: "Make it a struct")])
            ],
            macroSpecs: macroSpecs)
    }

    func testEnumIsReportedWithoutAFixIt() {
        assertMacroExpansion(
            """
            @Bakeable
            enum Role {
                case admin
            }
            """,
            expandedSource: """
                enum Role {
                    case admin
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Bakeable applies to structs only, not to an enum: a struct's stored properties are what a recipe maps (classes, actors and enums are not supported)",
                    line: 1, column: 1)
            ],
            macroSpecs: macroSpecs)
    }

    func testMalformedPathIsReportedWithASuggestion() {
        assertMacroExpansion(
            """
            struct User {
                @Ingredient("address..first name") var first: String
            }
            """,
            expandedSource: """
                struct User {
                    var first: String
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        #"malformed ingredient path "address..first name": at column 9, expected a key after '.' (quote keys with special characters: ["a.b"]), found '.'"#,
                    line: 2, column: 17, fixIts: [FixItSpec(message: #"Use the path 'address["first name"]'"#)])
            ],
            macroSpecs: macroSpecs,
            applyFixIts: [#"Use the path 'address["first name"]'"#],
            fixedSource: """
                struct User {
                    @Ingredient(#"address["first name"]"#) var first: String
                }
                """)
    }

    func testMalformedBracketPathIsReportedWithoutASuggestion() {
        assertMacroExpansion(
            """
            struct User {
                @Ingredient("tags[x]") var tag: String
            }
            """,
            expandedSource: """
                struct User {
                    var tag: String
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        #"malformed ingredient path "tags[x]": at column 6, expected an index, '*' or a quoted key after '[', found 'x'"#,
                    line: 2, column: 17)
            ],
            macroSpecs: macroSpecs)
    }

    func testInterpolatedPathIsReported() {
        assertMacroExpansion(
            #"""
            struct User {
                @Ingredient("\(prefix).town") var town: String
            }
            """#,
            expandedSource: """
                struct User {
                    var town: String
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Ingredient's path must be a string literal without interpolation, so that it can be checked when the code compiles",
                    line: 2, column: 17)
            ],
            macroSpecs: macroSpecs)
    }

    func testIngredientOnAComputedPropertyIsReported() {
        assertMacroExpansion(
            """
            struct User {
                @Ingredient("name") var name: String { "" }
            }
            """,
            expandedSource: """
                struct User {
                    var name: String { "" }
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Ingredient applies to stored properties only: a computed property is not baked",
                    line: 2, column: 5, fixIts: [FixItSpec(message: "Remove '@Ingredient'")])
            ],
            macroSpecs: macroSpecs,
            applyFixIts: ["Remove '@Ingredient'"],
            fixedSource: """
                struct User {
                    var name: String { "" }
                }
                """)
    }

    func testDefaultOnAStaticPropertyIsReported() {
        assertMacroExpansion(
            """
            struct User {
                @Default(1) static var count: Int = 0
            }
            """,
            expandedSource: """
                struct User {
                    static var count: Int = 0
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Default applies to instance properties only: a static property is not baked",
                    line: 2, column: 5, fixIts: [FixItSpec(message: "Remove '@Default'")])
            ],
            macroSpecs: macroSpecs)
    }

    // Issue 31: the macro accepts a default exactly when baking converts
    // it (`"42"` bakes into an `Int`); a string that is no number does not.
    func testStringDefaultOnAnIntIsJudgedAsBakingConvertsIt() {
        assertMacroExpansion(
            """
            struct User {
                @Default("42") var unread: Int
                @Default("forty-two") var read: Int
            }
            """,
            expandedSource: """
                struct User {
                    var unread: Int
                    var read: Int
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Default's string literal cannot bake into a property of type 'Int'", line: 3, column: 14)
            ],
            macroSpecs: macroSpecs)
    }

    func testDefaultMismatchesAndMatches() {
        // Matches: no diagnostic (an integer on a Double, a string on an
        // optional string, anything on a type the macro cannot judge, and a
        // string that a transformer may turn into the property's type).
        assertMacroExpansion(
            """
            struct Reading {
                @Default(1) var value: Double
                @Default("none") var note: String?
                @Default("2024-01-01") var day: Day
                @Ingredient("n", transformer: "number") @Default("3") var n: Int
            }
            """,
            expandedSource: """
                struct Reading {
                    var value: Double
                    var note: String?
                    var day: Day
                    var n: Int
                }
                """,
            macroSpecs: macroSpecs)
        assertMacroExpansion(
            """
            struct Reading {
                @Default(true) var name: String
                @Default(1.5) var count: Int?
                @Default([1]) var flag: Bool
                @Default(300) var small: UInt8
            }
            """,
            expandedSource: """
                struct Reading {
                    var name: String
                    var count: Int?
                    var flag: Bool
                    var small: UInt8
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Default's float literal cannot bake into a property of type 'Int?'", line: 3, column: 14),
                DiagnosticSpec(
                    message: "@Default's array literal cannot bake into a property of type 'Bool'", line: 4, column: 14),
                DiagnosticSpec(
                    message: "@Default's integer literal cannot bake into a property of type 'UInt8'", line: 5,
                    column: 14),
            ],
            macroSpecs: macroSpecs)
    }

    // Issue 27: a misspelt built-in transformer is found when the code
    // compiles, with a fix-it; a warning, since a custom registry may
    // register the name.
    func testMisspeltBuiltInTransformerWarnsWithAFixIt() {
        assertMacroExpansion(
            """
            struct Post {
                @Ingredient("created_at", transformer: "iso8061") var created: Date
            }
            """,
            expandedSource: """
                struct Post {
                    var created: Date
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        #""iso8061" is no built-in transformer (did you mean "iso8601"?); baking fails unless the recipe's TransformerRegistry registers it. Built-in: base64, bool, duration, geoPoint, iso8601, lowercase, number, pairs, rfc1123, rfc2822, rfc822, split, string, trim, unixMilliseconds, unixSeconds, uppercase, url, uuid"#,
                    line: 2, column: 44, severity: .warning,
                    fixIts: [FixItSpec(message: "Use the built-in transformer 'iso8601'")])
            ],
            macroSpecs: macroSpecs,
            applyFixIts: ["Use the built-in transformer 'iso8601'"],
            fixedSource: """
                struct Post {
                    @Ingredient("created_at", transformer: "iso8601") var created: Date
                }
                """)
    }

    func testTransformerNamesInAChainAndWithoutAPathAreChecked() {
        assertMacroExpansion(
            """
            struct Post {
                @Ingredient("tags", transformer: ["trim", "lowercse", "identity"]) var tags: [String]
                @Ingredient(transformer: "trimm") var name: String
                @Ingredient("day", transformer: ["date": "yyyy-MM-dd"]) var day: Date
                @Ingredient("site", transformer: "url") var site: URL
            }
            """,
            expandedSource: """
                struct Post {
                    var tags: [String]
                    var name: String
                    var day: Date
                    var site: URL
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        #""lowercse" is no built-in transformer (did you mean "lowercase"?); baking fails unless the recipe's TransformerRegistry registers it. Built-in: base64, bool, duration, geoPoint, iso8601, lowercase, number, pairs, rfc1123, rfc2822, rfc822, split, string, trim, unixMilliseconds, unixSeconds, uppercase, url, uuid"#,
                    line: 2, column: 47, severity: .warning,
                    fixIts: [FixItSpec(message: "Use the built-in transformer 'lowercase'")]),
                DiagnosticSpec(
                    message:
                        #""identity" is no built-in transformer; baking fails unless the recipe's TransformerRegistry registers it. Built-in: base64, bool, duration, geoPoint, iso8601, lowercase, number, pairs, rfc1123, rfc2822, rfc822, split, string, trim, unixMilliseconds, unixSeconds, uppercase, url, uuid"#,
                    line: 2, column: 59, severity: .warning),
                DiagnosticSpec(
                    message:
                        #""trimm" is no built-in transformer (did you mean "trim"?); baking fails unless the recipe's TransformerRegistry registers it. Built-in: base64, bool, duration, geoPoint, iso8601, lowercase, number, pairs, rfc1123, rfc2822, rfc822, split, string, trim, unixMilliseconds, unixSeconds, uppercase, url, uuid"#,
                    line: 3, column: 30, severity: .warning,
                    fixIts: [FixItSpec(message: "Use the built-in transformer 'trim'")]),
            ],
            macroSpecs: macroSpecs)
    }
}
