import EasyBakeTestSupport
import Foundation
import Testing

// The "Performance" article's table states what Benchmarks/RESULTS.md
// measured: after a new benchmark run, update both.

@Suite("The Performance article")
struct PerformanceArticleTests {
    /// The cells of a Markdown table's rows, by their first cells.
    static func rows(_ markdown: String) -> [[String]] {
        markdown.split(separator: "\n")
            .filter { $0.hasPrefix("| ") && !$0.hasPrefix("| scenario") && !$0.hasPrefix("| target") }
            .map { $0.trimmingCharacters(in: .whitespaces).dropFirst().dropLast().split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    @Test("every ratio in the article is the one Benchmarks/RESULTS.md reports")
    func ratios() throws {
        let article = Self.rows(try DocumentationExamples.article("EasyBake", "Performance"))
        let results = Self.rows(try DocumentationExamples.text(of: "Benchmarks/RESULTS.md")).filter { $0.count == 11 }
        // The table compares EasyBake with its peers; rows of EasyBake's
        // other paths (via tree, streaming, jobs, the index alone) are prose.
        #expect(article.count == results.filter { $0[9] != "reference" && !$0[2].hasPrefix("EasyBake") }.count)
        for row in article {
            let measured = results.first { $0[0] == row[0] && $0[1] == row[1] && $0[2] == row[2] && $0[3] == row[3] }
            #expect(measured?[8] == row[4], "\(row[0...3])")
            #expect(measured?[6] == row[5], "\(row[0...3])")
            let reference = results.first { $0[0] == row[0] && $0[1] == row[1] && $0[3] == row[3] && $0[9] == "reference" }
            #expect((reference?[6] ?? "—") == row[6], "\(row[0...3])")
        }
    }
}
