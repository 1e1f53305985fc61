import EasyBake
import EasyBakeTestSupport
import EasyBakeXML
import Foundation
import Testing

/// Inputs the XML fuzz target found (`Fixtures/regressions/xml/`): each
/// reads or fails with an error, and what reads writes back to the same tree.
/// The target's seeds (`Fuzz/Seeds/xml/`) are held to the same.
@Suite("XML fuzz regressions")
struct XMLRegressionTests {
    @Test("each regression input and fuzz seed keeps the fuzz target's properties", arguments: TestPaths.fuzzInputs("xml"))
    func regression(file: URL) {
        #expect(regressionFailure(file, format: XMLFormat()) == nil, "\(file.lastPathComponent)")
        #expect(regressionFailure(file, format: XMLFormat(), writing: .init(prettyPrinted: true)) == nil)
    }
}
