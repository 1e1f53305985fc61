import Foundation
import Testing
import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport

/// nst/JSONTestSuite's parsing cases: `y_` files must parse, `n_` files must
/// be rejected with an error, `i_` files may go either way; none may crash.
@Suite("JSONTestSuite", .enabled(if: TestPaths.corpus("JSONTestSuite") != nil, "../shared/corpora is absent"))
struct JSONTestSuiteTests {
    static func cases(prefix: String) -> [String] {
        guard let folder = TestPaths.corpus("JSONTestSuite")?.appendingPathComponent("test_parsing"),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [] }
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
    }

    static func read(_ name: String) throws(EasyBakeError) -> Ingredients {
        let path = TestPaths.corpus("JSONTestSuite")!.appendingPathComponent("test_parsing").appendingPathComponent(
            name
        ).path
        return try JSONFormat().read(.file(path))
    }

    @Test("every y_ file parses", arguments: cases(prefix: "y_"))
    func accepted(_ name: String) throws {
        _ = try Self.read(name)
    }

    @Test("every n_ file is rejected with a positioned error", arguments: cases(prefix: "n_"))
    func rejected(_ name: String) {
        let error = #expect(throws: EasyBakeError.self) { try Self.read(name) }
        #expect(error?.location != nil, "\(name): \(String(describing: error))")
    }

    @Test("every i_ file parses or fails cleanly", arguments: cases(prefix: "i_"))
    func implementationDefined(_ name: String) {
        do {
            _ = try Self.read(name)
        } catch {
            #expect(!error.message.isEmpty)
        }
    }

    @Test("the suite is all there")
    func counts() {
        #expect(Self.cases(prefix: "y_").count >= 90)
        #expect(Self.cases(prefix: "n_").count >= 180)
    }
}
