import Foundation

/// The code listings of the documentation — the README and the articles of
/// the DocC catalogs — read from their files, so that tests can check that
/// what a reader sees is what the tests run.
///
/// A Swift listing is checked against a test file: every non-blank line of
/// the listing must appear, in order and trimmed, among the test file's lines
/// (the test runs that code, with its own assertions in between). Output
/// listings (JSON, YAML, rendered errors) are compared with what the code
/// produces. A listing right after the line `<!-- not compiled: REASON -->`
/// (a manifest fragment) is left out of ``listings(in:language:)``.
public enum DocumentationExamples {
    /// One fenced code listing.
    public struct Listing: Sendable, CustomStringConvertible {
        /// The info string after the opening fence (`swift`, `json`, `sh`, or empty).
        public let language: String
        /// The listing's text, without the fences.
        public let text: String
        /// The line of the opening fence in the file, from 1.
        public let line: Int

        public var description: String { "the \(language.isEmpty ? "plain" : language) listing at line \(line)" }
    }

    /// The text of the DocC article `name` (without `.md`) in `module`'s catalog:
    /// `Sources/<module>/<module>.docc/<name>.md`.
    public static func article(_ module: String, _ name: String) throws -> String {
        try text(of: "Sources/\(module)/\(module).docc/\(name).md")
    }

    /// The text of a file, by its path from the package root (`README.md`).
    public static func text(of relativePath: String) throws -> String {
        try String(contentsOf: TestPaths.packageRoot.appendingPathComponent(relativePath), encoding: .utf8)
    }

    /// The listings of `markdown` in `language` (`nil`: every language), in order.
    public static func listings(in markdown: String, language: String? = nil) -> [Listing] {
        var listings: [Listing] = []
        var open: (language: String, line: Int, lines: [Substring], exempt: Bool)?
        var previous: Substring = ""
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var current = open {
                if trimmed == "```" {
                    if !current.exempt, language == nil || current.language == language {
                        listings.append(
                            Listing(
                                language: current.language, text: current.lines.joined(separator: "\n"),
                                line: current.line))
                    }
                    open = nil
                } else {
                    current.lines.append(line)
                    open = current
                }
            } else if trimmed.hasPrefix("```") {
                let exempt = previous.trimmingCharacters(in: .whitespaces).hasPrefix("<!-- not compiled:")
                open = (String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces), index + 1, [], exempt)
            }
            if open == nil, !trimmed.isEmpty { previous = line }
        }
        return listings
    }

    /// The lines of `listing` that are not found, in order, in `source`.
    /// Empty when the source holds the whole listing.
    ///
    /// Layout is not compared: both sides lose their whitespace and their
    /// commas (swift-format adds a trailing one), so a test formatted by
    /// swift-format (a long call wrapped over lines, comments aligned
    /// differently) still holds the article's listing. Everything else — names,
    /// literals, comments, their order — must be the same.
    public static func missingLines(of listing: String, in source: String) -> [String] {
        let wanted = listing.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
        let available = withoutLayout(source)
        var position = available.startIndex
        for (index, line) in wanted.enumerated() {
            let code = withoutLayout(line)
            guard let found = available[position...].range(of: code) else { return Array(wanted[index...]) }
            position = found.upperBound
        }
        return []
    }

    /// `text` without whitespace and commas.
    private static func withoutLayout(_ text: some StringProtocol) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.filter { $0 != "," && !CharacterSet.whitespacesAndNewlines.contains($0) }))
    }

    /// What a test file does not run of a page's Swift listings.
    public struct SwiftListingCheck: Sendable {
        /// How many Swift listings the page has.
        public let listings: Int
        /// Each listing the test file does not hold whole, with its missing lines.
        public let notRun: [String]
    }

    /// Checks the Swift listings of `markdown` against the test file at
    /// `testFile` (its `#filePath`): every non-blank line of each listing
    /// must appear, in order, among the file's lines (``missingLines(of:in:)``).
    public static func checkSwiftListings(in markdown: String, runBy testFile: String) throws -> SwiftListingCheck {
        let source = try String(contentsOfFile: testFile, encoding: .utf8)
        let swiftListings = listings(in: markdown, language: "swift")
        let notRun = swiftListings.compactMap { listing -> String? in
            let missing = missingLines(of: listing.text, in: source)
            return missing.isEmpty ? nil : "\(listing): missing \(missing)"
        }
        return SwiftListingCheck(listings: swiftListings.count, notRun: notRun)
    }
}
