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
            .filter {
                $0.hasPrefix("| ") && !$0.hasPrefix("| scenario") && !$0.hasPrefix("| target")
                    && !$0.hasPrefix("| MB/s")
            }
            .map {
                $0.trimmingCharacters(in: .whitespaces).dropFirst().dropLast().split(
                    separator: "|", omittingEmptySubsequences: false
                ).map { $0.trimmingCharacters(in: .whitespaces) }
            }
    }

    @Test("every ratio in the article is the one Benchmarks/RESULTS.md reports")
    func ratios() throws {
        let article = Self.rows(try DocumentationExamples.article("EasyBake", "Performance"))
        let allRows = Self.rows(try DocumentationExamples.text(of: "Benchmarks/RESULTS.md"))
        let results = allRows.filter { $0.count == 11 }
        let targets = allRows.filter { $0.count == 3 }
        // The table compares EasyBake with its peers; rows of EasyBake's
        // other paths (via tree, streaming, jobs, the index alone) are prose.
        // A `@Bakeable` row gives the ratio of its target in RESULTS.md's
        // targets, measured on the same file.
        let bakeable = article.filter { $0[0].hasSuffix("`@Bakeable`") }
        #expect(bakeable.count == 3)
        for row in bakeable {
            let peer = row[2].split(separator: " ").first.map(String.init) ?? row[2]
            let target = targets.first { $0[0].hasPrefix("@Bakeable bake") && $0[0].hasSuffix(" \(peer)") }
            #expect(target?[1].hasPrefix(row[4]) == true, "\(row[0...3])")
            let scenario = row[0].replacingOccurrences(of: ", `@Bakeable`", with: "")
            let measured = results.first { $0[0] == scenario && $0[1] == row[1] && $0[2] == row[2] && $0[3] == row[3] }
            #expect(measured?[6] == row[5], "\(row[0...3])")
            let own = results.first {
                $0[0] == scenario && $0[1] == row[1] && $0[2] == "EasyBake @Bakeable" && $0[3] == row[3]
            }
            #expect(own?[6] == row[6], "\(row[0...3])")
        }
        let streamingFormats = ["JSON", "XML", "YAML"]
        let peers = article.filter { !$0[0].hasSuffix("`@Bakeable`") && !streamingFormats.contains($0[0]) }
        #expect(peers.count == results.filter { $0[9] != "reference" && !$0[2].hasPrefix("EasyBake") }.count)
        for row in peers {
            let measured = results.first { $0[0] == row[0] && $0[1] == row[1] && $0[2] == row[2] && $0[3] == row[3] }
            #expect(measured?[8] == row[4], "\(row[0...3])")
            #expect(measured?[6] == row[5], "\(row[0...3])")
            let reference = results.first {
                $0[0] == row[0] && $0[1] == row[1] && $0[3] == row[3] && $0[9] == "reference"
            }
            #expect((reference?[6] ?? "—") == row[6], "\(row[0...3])")
        }
    }

    @Test("the streaming table's speeds, ratios and memory are RESULTS.md's")
    func streaming() throws {
        let article = Self.rows(try DocumentationExamples.article("EasyBake", "Performance"))
        let results = Self.rows(try DocumentationExamples.text(of: "Benchmarks/RESULTS.md")).filter { $0.count == 11 }
        let streaming = article.filter { ["JSON", "XML", "YAML"].contains($0[0]) }
        #expect(streaming.count == 3)
        for row in streaming {
            func measured(_ contender: String) -> [String]? {
                results.first {
                    $0[0] == "2. bake every record" && $0[1] == row[0].lowercased() && $0[2] == contender
                        && $0[3] == "200MB"
                }
            }
            func speed(_ contender: String) -> Double? { measured(contender).flatMap { Double($0[4]) } }
            // Each model kind: the whole document, one streamed job against
            // it, two jobs against one.
            for (column, models) in [(1, " @Bakeable"), (4, "")] {
                let whole = speed("EasyBake" + (models.isEmpty ? "" : models))
                let one = speed("EasyBake streaming" + models)
                let two = speed("EasyBake streaming" + models + ", 2 jobs")
                #expect(row[column] == whole.map { String($0) }, "\(row[0]) \(column)")
                if let whole, let one, let two {
                    #expect(
                        row[column + 1] == "\(one) (\(String(format: "%.2f", one / whole))×)", "\(row[0]) \(column + 1)"
                    )
                    #expect(
                        row[column + 2] == "\(two) (\(String(format: "%.2f", two / one))×)", "\(row[0]) \(column + 2)")
                } else {
                    Issue.record("\(row[0]): no streaming rows in RESULTS.md")
                }
            }
            #expect(row[7] == measured("EasyBake streaming @Bakeable")?[6], "\(row[0])")
        }
    }
}
