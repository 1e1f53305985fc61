import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Foundation
import Testing

/// Inputs the JSON fuzz target found (`Fixtures/regressions/json/`): each
/// reads or fails with an error, and what reads writes back to the same tree.
@Suite("JSON fuzz regressions")
struct JSONRegressionTests {
    @Test("each regression input keeps the fuzz target's properties", arguments: TestPaths.regressions("json"))
    func regression(file: URL) {
        #expect(regressionFailure(file, format: JSONFormat()) == nil, "\(file.lastPathComponent)")
        #expect(regressionFailure(file, format: JSONFormat(), writing: .init(prettyPrinted: true, sortedKeys: true)) == nil)
    }
}
