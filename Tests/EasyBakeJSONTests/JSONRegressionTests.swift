import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Foundation
import Testing

/// Inputs the JSON fuzz target found (`Fixtures/regressions/json/`): each
/// reads or fails with an error, and what reads writes back to the same tree.
/// The target's seeds (`Fuzz/Seeds/json/`) are held to the same.
@Suite("JSON fuzz regressions")
struct JSONRegressionTests {
    @Test(
        "each regression input and fuzz seed keeps the fuzz target's properties",
        arguments: TestPaths.fuzzInputs("json"))
    func regression(file: URL) {
        #expect(regressionFailure(file, format: JSONFormat()) == nil, "\(file.lastPathComponent)")
        #expect(
            regressionFailure(file, format: JSONFormat(), writing: .init(prettyPrinted: true, sortedKeys: true)) == nil)
    }
}
