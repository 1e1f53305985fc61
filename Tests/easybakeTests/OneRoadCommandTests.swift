import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Foundation
import Testing
@testable import easybake

/// `easybake bake` bakes through the library's baker (issue 31, item 1):
/// every shipped recipe over every fixture, through the command (one job
/// and two, `--keep-going`) and through the library (`Baker` into
/// ``ProcessedIngredients`` from each record's tree, and `bakeEach` from
/// the source), gives the same values and the same errors — code, message,
/// model and property, path, line and column.
@Suite("One road: the command bakes as the library does")
struct OneRoadCommandTests {
    /// A fixture, the record path its records are at (`nil`: the whole
    /// payload as one record), and how it is read.
    struct Reading: CustomStringConvertible, Sendable {
        let fixture: String
        let each: String?
        var documentsAll = false
        var markup: Set<String> = []

        var description: String { "\(fixture) \(each ?? "(whole)")" }

        var arguments: [String] {
            var arguments = each.map { ["--each", $0, "--keep-going"] } ?? []
            if documentsAll { arguments += ["--documents", "all"] }
            if !markup.isEmpty { arguments += ["--xml-markup", markup.sorted().joined(separator: ",")] }
            return arguments
        }

        var payload: Payload {
            Payload(
                path: TestPaths.fixture(fixture).path, format: nil,
                documents: DocumentSelection(choice: documentsAll ? .all : nil, markupElements: markup))
        }
    }

    /// Every fixture of a payload format, at its records and whole.
    static let readings: [Reading] = {
        let records: [Reading] = [
            Reading(fixture: "json/users.json", each: "users[*]"),
            Reading(fixture: "json/benchmark-users.json", each: "users[*]"),
            Reading(fixture: "jsonl/users.jsonl", each: "[*]"),
            Reading(fixture: "xml/feed.rss", each: "rss.channel.item[*]"),
            Reading(fixture: "xml/media.rss", each: "rss.channel.item[*]"),
            Reading(fixture: "xml/podcast.rss", each: "rss.channel.item[*]"),
            Reading(fixture: "xml/atom.xml", each: "feed.entry[*]"),
            Reading(fixture: "xml/atom-xhtml.xml", each: "feed.entry[*]"),
            Reading(fixture: "xml/atom-xhtml.xml", each: "feed.entry[*]", markup: ["summary", "content"]),
            Reading(fixture: "yaml/users.yaml", each: "users[*]"),
            Reading(fixture: "yaml/members.yaml", each: "[*]"),
            Reading(fixture: "yaml/user-records.yaml", each: "[*]"),
            Reading(fixture: "yaml/user-documents.yaml", each: "[*]", documentsAll: true),
        ]
        let wholes = records.filter { !$0.documentsAll && $0.markup.isEmpty }
            .map { Reading(fixture: $0.fixture, each: nil) }
        var seen = Set<String>()
        return records + wholes.filter { seen.insert($0.fixture).inserted }
    }()

    static let recipes: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: TestPaths.fixture("recipes").path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { "recipes/" + $0 }
    }()

    /// What baking a fixture gives, record by record: a line, or an error
    /// as the command prints it.
    struct Outcome: Equatable {
        var lines: [String] = []
        var errors: [String] = []
        var foundNothing = false
    }

    /// The library's outcome: each record's tree (or the whole payload's)
    /// baked into `ProcessedIngredients` by `Baker`, its error given the
    /// record's path and located in the input, as the command locates it.
    static func library(_ recipe: Recipe, _ reading: Reading) throws -> Outcome {
        let input = IngredientInput.file(reading.payload.path)
        let format = try reading.payload.resolvedFormat(for: input)
        let locator = Document(tree: .null, input: input, format: format)
        var source = AnyIngredientSource(try format.makeSource(for: input))
        var records: [(path: IngredientPath, tree: Ingredients)] = []
        if let each = reading.each {
            var reader = try RecordReader(source: source, each: each)
            while let record = try reader.next() { records.append((record.path, record.ingredients)) }
        } else {
            records.append((IngredientPath(), try Ingredients(reading: &source)))
        }
        var outcome = Outcome()
        for record in records {
            do throws(EasyBakeError) {
                let processed = try Baker().bake(ProcessedIngredients.self, from: record.tree, recipe: recipe)
                outcome.lines.append(
                    String(decoding: try JSONFormat().write(.dictionary(processed.ingredients)), as: UTF8.self))
                if !processed.foundAnyPath, !recipe.entries.isEmpty { outcome.foundNothing = true }
            } catch {
                var placed = error
                placed.path = record.path.appending(error.path ?? IngredientPath())
                outcome.errors.append(locator.locating(placed).description)
            }
        }
        return outcome
    }

    /// The command's outcome, with `jobs` jobs.
    static func command(_ recipe: String, _ reading: Reading, jobs: String) throws -> (
        Outcome, status: Int32, standardError: String
    ) {
        let result = try Command.run(
            ["bake", "--recipe", TestPaths.fixture(recipe).path, "--jobs", jobs] + reading.arguments + [
                reading.payload.path
            ])
        var outcome = Outcome(
            lines: result.lines, foundNothing: result.standardError.contains("found none of its paths"))
        // A diagnostic begins a line with `error: ` or `warning: ` and runs
        // to the next; the last error of a --keep-going run is the count of
        // the records that failed.
        var blocks: [String] = []
        for line in result.standardError.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("error: ") || line.hasPrefix("warning: ") || blocks.isEmpty {
                blocks.append(String(line))
            } else {
                blocks[blocks.count - 1] += "\n" + line
            }
        }
        for block in blocks where block.hasPrefix("error: ") && !block.contains("(--keep-going)") {
            outcome.errors.append(block.trimmingCharacters(in: .newlines))
        }
        return (outcome, result.status, result.standardError)
    }

    @Test(
        "every shipped recipe over every fixture: the command's lines and errors are the library's", arguments: recipes)
    func differential(recipe recipeName: String) throws {
        let recipe = try #require(
            try RecipeFile.load(.file(TestPaths.fixture(recipeName).path), format: JSONFormat()).first)
        var records = 0, failures = 0
        for reading in Self.readings {
            let expected = try Self.library(recipe, reading)
            records += expected.lines.count + expected.errors.count
            failures += expected.errors.count
            for jobs in ["1", "2"] {
                let (actual, status, standardError) = try Self.command(recipeName, reading, jobs: jobs)
                #expect(actual.lines == expected.lines, "\(recipeName) \(reading) --jobs \(jobs)")
                // Without --each the one record's error is the whole output.
                #expect(actual.errors == expected.errors, "\(recipeName) \(reading) --jobs \(jobs): \(standardError)")
                #expect(
                    actual.foundNothing == expected.foundNothing,
                    "\(recipeName) \(reading) --jobs \(jobs): \(standardError)")
                #expect(
                    status == (expected.errors.isEmpty ? 0 : 1),
                    "\(recipeName) \(reading) --jobs \(jobs): \(standardError)")
            }
        }
        #expect(records > 0)
        // Every recipe meets records it cannot read by key (the whole JSON
        // Lines payload is an array): the errors are compared, not only values.
        #expect(failures > 0, "\(recipeName)")
    }

    @Test("bakeEach into ProcessedIngredients gives each record what its tree gives", arguments: recipes)
    func streamingLibrary(recipe recipeName: String) throws {
        let recipe = try #require(
            try RecipeFile.load(.file(TestPaths.fixture(recipeName).path), format: JSONFormat()).first)
        for reading in Self.readings {
            guard let each = reading.each else { continue }
            let input = IngredientInput.file(reading.payload.path)
            let format = try reading.payload.resolvedFormat(for: input)
            let expected = try Self.library(recipe, reading)
            var lines: [String] = []
            var codes: [String] = []
            for result in try Baker().bakeEach(
                ProcessedIngredients.self, from: AnyIngredientSource(try format.makeSource(for: input)), each: each,
                recipe: recipe)
            {
                switch result {
                case .success(let processed):
                    lines.append(
                        String(decoding: try JSONFormat().write(.dictionary(processed.ingredients)), as: UTF8.self))
                case .failure(let error):
                    codes.append("\(error.code)")
                }
            }
            #expect(lines == expected.lines, "\(recipeName) \(reading)")
            #expect(
                codes == expected.errors.map { String($0.dropFirst("error: ".count).prefix { $0 != ":" }) },
                "\(recipeName) \(reading)")
        }
    }
}
