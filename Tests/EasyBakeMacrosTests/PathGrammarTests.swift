import EasyBake
@testable import EasyBakeMacrosImplementation
import Testing

/// The macros check paths with their own copy of the grammar (the plugin
/// does not link the library); these keep the copy's verdicts equal to
/// `IngredientPath(parsing:)`'s.
@Suite("The macros' path grammar agrees with the library's")
struct PathGrammarTests {
    static let paths = [
        "a", "a.b", "a[0]", "a[-1]", "[0]", "[*].name", #"["a b"]"#, "['x.y'].z", #"a["q\"uote"]"#,
        "", ".a", "a.", "a..b", "a b", "a[", "a[x]", "a[1", "a[]", #"a["open]"#, "a[99999999999999999999]",
        #"a["bad\escape"]"#, "a]b", "a[0]b", "é.ß", "a[-]",
    ]

    @Test("same verdict and column", arguments: paths)
    func sameVerdict(path: String) {
        let problem = PathGrammar.problem(in: path)
        do {
            _ = try IngredientPath(parsing: path)
            #expect(problem == nil)
        } catch {
            #expect(problem != nil)
            #expect(error.location?.column == problem?.column)
            if let problem {
                #expect(error.message.contains("expected \(problem.expected), found \(problem.found)"))
            }
        }
    }

    @Test("suggestions parse")
    func suggestions() {
        #expect(PathGrammar.suggestion(for: "a..b") == "a.b")
        #expect(PathGrammar.suggestion(for: ".a") == "a")
        #expect(PathGrammar.suggestion(for: "first name") == #"["first name"]"#)
        #expect(PathGrammar.suggestion(for: "a[x]") == nil)
        #expect(PathGrammar.suggestion(for: "...") == nil)
    }
}
