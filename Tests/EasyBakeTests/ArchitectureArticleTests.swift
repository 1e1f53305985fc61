import EasyBakeTestSupport
import Foundation
import Testing

// The "How EasyBake is built" article is a map of the sources: the files,
// folders and types a payload passes through. These tests check that every
// one it names still exists, so that a rename or a move cannot leave the
// map wrong without a failing test. They check names, not what the prose
// says of them: that stays a reviewer's job.

@Suite("The Architecture article")
struct ArchitectureArticleTests {
    /// What the sources hold, as the article can name it.
    struct SourceNames {
        /// Every file and folder, by its path from the package root
        /// (`Sources/EasyBake/Baking/Baker.swift`, `Sources/EasyBake/Baking`).
        var paths: Set<String> = []
        /// Every type, extension and macro name declared in a Swift file.
        var declared: Set<String> = []
        /// The modules: the folders of `Sources/`.
        var modules: Set<String> = []
    }

    /// Names from outside the package that the article may name: the
    /// standard library's and Foundation's types.
    static let outsideNames: Set<String> = [
        "Array", "AsyncSequence", "Bool", "Data", "Date", "DateFormatter", "Decimal", "Decodable", "Decoder",
        "Double", "Encodable", "Int", "Sendable", "String", "URL", "UUID",
    ]

    /// Reads the names under `Sources/` (and the paths under `Tests/`, which
    /// the article may point to) of the package at `root`.
    static func sourceNames(at root: URL) throws -> SourceNames {
        var names = SourceNames()
        let declaration = try NSRegularExpression(
            pattern: #"\b(?:struct|class|enum|protocol|actor|typealias|extension|macro)\s+([A-Z][A-Za-z0-9_]*)"#)
        for top in ["Sources", "Tests"] {
            let base = root.appendingPathComponent(top)
            guard let walk = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walk {
                let relative = top + "/" + url.path.dropFirst(base.path.count + 1)
                names.paths.insert(relative)
                if top == "Sources", relative.split(separator: "/").count == 2 {
                    names.modules.insert(url.lastPathComponent)
                }
                guard top == "Sources", url.pathExtension == "swift" else { continue }
                let text = try String(contentsOf: url, encoding: .utf8)
                let range = NSRange(text.startIndex..., in: text)
                for match in declaration.matches(in: text, range: range) {
                    if let name = Range(match.range(at: 1), in: text) { names.declared.insert(String(text[name])) }
                }
            }
        }
        return names
    }

    /// The code spans of `markdown` outside its fenced listings, in order:
    /// the text between single or double backticks.
    static func codeSpans(_ markdown: String) throws -> [String] {
        var prose: [Substring] = []
        var inListing = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inListing.toggle()
            } else if !inListing {
                prose.append(line)
            }
        }
        let text = prose.joined(separator: "\n")
        let span = try NSRegularExpression(pattern: "``([^`]+)``|`([^`]+)`")
        return span.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            let group = match.range(at: 1).location != NSNotFound ? 1 : 2
            return Range(match.range(at: group), in: text).map { String(text[$0]) }
        }
    }

    /// What was checked in an article, and what it names that does not exist.
    struct Check {
        var paths = 0
        var names = 0
        var problems: [String] = []
    }

    /// Checks every code span of `markdown` that names a path, a type, a
    /// module or a macro against `sources`:
    ///
    /// - a path from the package root (`Sources/…`, `Tests/…`) must exist;
    ///   a shorter one (`Index/IngredientIndex+Paths.swift`, `Baking/`,
    ///   `Bake.swift`) must be the end of a path that does;
    /// - a span that begins with a capitalized name followed by nothing, a
    ///   `.` or a `/` (`KeyPlan`, `IngredientIndex.Reader.member`,
    ///   ``Baker/RecordMaterialization/automatic``) names types: each
    ///   capitalized step must be declared in the sources, be a module, or
    ///   be one of ``outsideNames``;
    /// - `@Name` must be a macro the sources declare.
    ///
    /// Other spans (code such as `Baker().bake(…)`, keys, options) are not
    /// names and are left alone.
    static func check(_ markdown: String, against sources: SourceNames) throws -> Check {
        var check = Check()
        let pathSuffixes = ["/", ".swift", ".h", ".modulemap", ".c", ".svg"]
        let leadingName = try NSRegularExpression(pattern: #"^@?[A-Z][A-Za-z0-9_]*(?:$|[./])"#)
        for span in try codeSpans(markdown) {
            let isPath =
                span.hasPrefix("Sources/") || span.hasPrefix("Tests/") || pathSuffixes.contains { span.hasSuffix($0) }
            if isPath, !span.contains(" ") {
                check.paths += 1
                let trimmed = span.hasSuffix("/") ? String(span.dropLast()) : span
                let exists =
                    span.hasPrefix("Sources/") || span.hasPrefix("Tests/")
                    ? sources.paths.contains(trimmed)
                    : sources.paths.contains { $0.hasSuffix("/" + trimmed) }
                if !exists { check.problems.append("no file or folder \(span)") }
                continue
            }
            guard leadingName.firstMatch(in: span, range: NSRange(span.startIndex..., in: span)) != nil else {
                continue
            }
            if span.hasPrefix("@") {
                check.names += 1
                let macro = String(span.dropFirst().prefix { $0.isLetter || $0.isNumber })
                if !sources.declared.contains(macro) { check.problems.append("no macro \(macro) (in `\(span)`)") }
                continue
            }
            // The steps of a symbol: the arguments of a function and a
            // DocC disambiguation (`-(_,Ingredients,_)`) are no steps.
            var symbol = span
            if let dash = symbol.range(of: ")-") { symbol = String(symbol[..<dash.lowerBound]) + ")" }
            while let open = symbol.range(of: "(") {
                let close = symbol[open.upperBound...].firstIndex(of: ")") ?? symbol.endIndex
                symbol.removeSubrange(open.lowerBound..<(close == symbol.endIndex ? close : symbol.index(after: close)))
            }
            for step in symbol.split(whereSeparator: { $0 == "." || $0 == "/" }) where step.first?.isUppercase == true {
                check.names += 1
                let name = String(step)
                if !sources.declared.contains(name) && !sources.modules.contains(name) && !outsideNames.contains(name) {
                    check.problems.append("no type \(name) (in `\(span)`)")
                }
            }
        }
        return check
    }

    @Test("every file, folder, module, type and macro the article names exists")
    func namesExist() throws {
        let article = try DocumentationExamples.article("EasyBake", "Architecture")
        let check = try Self.check(article, against: try Self.sourceNames(at: TestPaths.packageRoot))
        #expect(check.problems == [])
        // The map names the flow's files and types: a check that found few
        // of them would check nothing.
        #expect(check.paths >= 60, "paths checked: \(check.paths)")
        #expect(check.names >= 200, "names checked: \(check.names)")
    }

    @Test("a file, a folder, a type or a macro that does not exist is reported")
    func reportsWhatIsMissing() throws {
        let sources = try Self.sourceNames(at: TestPaths.packageRoot)
        let article = """
            The reader (`Sources/EasyBake/Streaming/RecordReader.swift`, `Streaming/`) hands
            `IngredientIndex.Reader.member` to `KeyedValueReader`, not to `RecordWalker`
            (`Sources/EasyBake/Streaming/RecordWalker.swift`, `Walking/`, `Index/Nowhere.swift`);
            ``Baker/bake(_:from:recipe:)-(_,Ingredients,_)``, ``Baker/NoSuchOption/automatic``,
            `@Bakeable`, `@Baked`, `EasyBakeJSON`, `Date`, `Baker().bake(User.self)`.

            ```
            InAListingNothingIsChecked ─▶ Sources/Nowhere.swift
            ```
            """
        let check = try Self.check(article, against: sources)
        #expect(
            check.problems == [
                "no type RecordWalker (in `RecordWalker`)",
                "no file or folder Sources/EasyBake/Streaming/RecordWalker.swift",
                "no file or folder Walking/",
                "no file or folder Index/Nowhere.swift",
                "no type NoSuchOption (in `Baker/NoSuchOption/automatic`)",
                "no macro Baked (in `@Baked`)",
            ])
        #expect(check.paths == 5)
    }

    @Test("the catalog's landing page lists the article")
    func listed() throws {
        let landing = try DocumentationExamples.article("EasyBake", "EasyBake")
        #expect(landing.contains("- <doc:Architecture>"))
    }
}
