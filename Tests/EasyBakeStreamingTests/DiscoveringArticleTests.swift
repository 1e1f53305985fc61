import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Foundation
import Testing

/// The "Discover paths and scaffold a model" article's Swift example, line for
/// line (`shownCode` checks it), on the shipped users fixture.
@Suite("The Discover paths and scaffold a model article")
struct DiscoveringArticleTests {
    let usersPath = TestPaths.fixture("json/users.json").path

    @Test("the article shows the code these tests run")
    func shownCode() throws {
        let check = try DocumentationExamples.checkSwiftListings(
            in: try DocumentationExamples.article("EasyBake", "DiscoveringPayloads"), runBy: #filePath)
        #expect(check.listings == 1)
        #expect(check.notRun == [])
    }

    @Test("a survey of the whole payload, then of each record")
    func survey() throws {
        var survey = PathSurvey()
        var source = try JSONIngredientSource(.file(usersPath))  // Fixtures/json/users.json
        try survey.add(from: &source)
        let sometimesMissing = survey.entries.filter { $0.missing > 0 }.map(\.path.description)
        var records = try RecordReader(source: try JSONIngredientSource(.file(usersPath)), each: "users[*]")
        var perRecord = PathSurvey()
        while try records.nextRecord(reading: { (first, source) throws(EasyBakeError) in
            try perRecord.add(startingWith: first, from: &source)
        }) != nil {}
        #expect(sometimesMissing == ["users[*].email", "users[*].homepage", "users[*].address.postcode"])
        #expect(perRecord.documents == 3)
        let relative = survey.entries.map(\.path.description).filter { $0.hasPrefix("users[*].") }.map {
            String($0.dropFirst(9))
        }
        #expect(perRecord.entries.map(\.path.description).dropFirst().elementsEqual(relative))
        // The article says so.
        let article = try DocumentationExamples.article("EasyBake", "DiscoveringPayloads")
        #expect(
            article.replacingOccurrences(of: "\n", with: " ").contains(
                #"`sometimesMissing` is `["users[*].email", "users[*].homepage", "users[*].address.postcode"]`"#))
    }
}
