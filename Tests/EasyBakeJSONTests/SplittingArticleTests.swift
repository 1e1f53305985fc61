import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Foundation
import Testing

// The code of the "Splitting large inputs across processes" article, line
// for line (`shownCode` checks it); its commands run in easybakeTests'
// DocumentationCommandTests, and its worked example in SplitCommandTests.

@Suite("The splitting article")
struct SplittingArticleTests {
    struct User: Decodable, Equatable {
        let id: Int
        let name: String
    }

    @Test("the article shows the code these tests run")
    func shownCode() throws {
        let check = try DocumentationExamples.checkSwiftListings(
            in: try DocumentationExamples.article("EasyBakeJSON", "SplittingInputs"), runBy: #filePath)
        #expect(check.listings == 1)
        #expect(check.notRun == [])
    }

    @Test("four workers' shares bake every user once, in order")
    func shares() throws {
        let users: Ingredients = .array(
            IngredientArray(
                (0..<97).map { index -> Ingredients in
                    ["id": .integer(Int64(index)), "name": .string(String(repeating: "n", count: index % 13))]
                }))
        let path = TestFiles.directory.appendingPathComponent("users-\(UUID()).jsonl").path
        try Data(try JSONLinesFormat().write(users)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        let workers = 4
        var baked: [User] = []
        for worker in 0..<workers {
            // What worker `worker` runs, on its own machine or process:
            let range = (size * worker / workers)..<(size * (worker + 1) / workers)
            let share = try JSONLinesIngredientSource(.file(path), byteRange: range)
            for result in try Baker().bakeEach(User.self, from: share, each: "[*]") {
                baked.append(try result.get())
            }
        }
        // `baked` holds every user of the file, in order, each once.
        #expect(baked == (0..<97).map { User(id: $0, name: String(repeating: "n", count: $0 % 13)) })
    }
}
