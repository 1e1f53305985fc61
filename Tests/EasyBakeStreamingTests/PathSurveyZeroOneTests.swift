import EasyBake
import EasyBakeJSON
import EasyBakeXML
import Testing

@Suite("PathSurvey: integers that are 0 or 1")
struct PathSurveyZeroOneTests {
    private func entries(_ json: String) throws -> [String: PathSurvey.Entry] {
        var survey = PathSurvey()
        var source = try JSONIngredientSource(.text(json))
        try survey.add(from: &source)
        return Dictionary(uniqueKeysWithValues: survey.entries.map { ($0.path.description, $0) })
    }

    @Test("integers, integer-like strings and exact numbers are told apart from 0 and 1")
    func zeroOrOne() throws {
        let found = try entries(
            """
            [{"flag": 1, "text": "0", "big": 0, "two": 1, "many": "2", "huge": 0, "none": true},
             {"flag": false, "text": "1", "big": 1, "two": 2, "many": 1, "huge": 123456789012345678901234567890, "none": "x"}]
            """)
        #expect(found["[*].flag"]?.integersAreZeroOrOne == true)
        #expect(found["[*].text"]?.integersAreZeroOrOne == true)
        #expect(found["[*].big"]?.integersAreZeroOrOne == true)
        #expect(found["[*].two"]?.integersAreZeroOrOne == false)
        #expect(found["[*].many"]?.integersAreZeroOrOne == false)
        #expect(found["[*].huge"]?.integersAreZeroOrOne == false)
        #expect(found["[*].none"]?.integersAreZeroOrOne == true)
    }

    @Test("record trees added one by one are told apart the same way")
    func recordTrees() throws {
        var survey = PathSurvey()
        survey.add(try JSONFormat().read(.text(#"{"a": 1}"#)))
        survey.add(try JSONFormat().read(.text(#"{"a": "true"}"#)))
        let a = try #require(survey.entries.first { $0.path.description == "a" })
        #expect(a.integersAreZeroOrOne)
        var other = PathSurvey()
        other.add(try JSONFormat().read(.text(#"{"a": 3}"#)))
        other.add(try JSONFormat().read(.text(#"{"a": "true"}"#)))
        let b = try #require(other.entries.first { $0.path.description == "a" })
        #expect(!b.integersAreZeroOrOne)
    }

    @Test("XML attributes are integer-like strings: 0 and 1 count as 0 and 1")
    func xmlAttributes() throws {
        var survey = PathSurvey()
        var source = try XMLIngredientSource(.text(#"<r><i on="1"/><i on="true"/><i on="0"/><j n="5"/></r>"#))
        try survey.add(from: &source)
        let found = Dictionary(uniqueKeysWithValues: survey.entries.map { ($0.path.description, $0) })
        #expect(found["r.i[*].@on"]?.integersAreZeroOrOne == true)
        #expect(found["r.i[*].@on"]?.count(of: .boolString) == 1)
        #expect(found["r.j.@n"]?.integersAreZeroOrOne == false)
    }
}
