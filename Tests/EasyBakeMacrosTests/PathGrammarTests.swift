import EasyBake
@testable import EasyBakeMacrosImplementation
import EasyBakePathGrammar
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

/// The macros warn of transformer names that are no built-in one (issue 27):
/// their list must be the registry's.
@Suite("The macros' built-in transformer names are the registry's")
struct BuiltInTransformerNameTests {
    @Test("the same names and factories")
    func sameNames() {
        #expect(BuiltInTransformerNames.transformers == TransformerRegistry.builtIn.names)
        #expect(BuiltInTransformerNames.factories == TransformerRegistry.builtIn.factoryNames)
    }

    @Test("the run-time error names the nearest name, the names and the factories, each among them")
    func runTimeMessage() {
        let error = #expect(throws: EasyBakeError.self) { try TransformerRegistry.builtIn.resolve("iso8061") }
        #expect(error?.code == .unknownTransformer)
        #expect(
            error?.message == #"unknown transformer "iso8061"; did you mean "iso8601"? known: "#
                + TransformerRegistry.builtIn.names.joined(separator: ", ")
                + #"; factories, written {"name": argument}: date, lookup, pairs, split, url, each"#)
    }
}
