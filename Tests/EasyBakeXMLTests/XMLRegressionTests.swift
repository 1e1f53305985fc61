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
    @Test(
        "each regression input and fuzz seed keeps the fuzz target's properties", arguments: TestPaths.fuzzInputs("xml")
    )
    func regression(file: URL) {
        #expect(regressionFailure(file, format: XMLFormat()) == nil, "\(file.lastPathComponent)")
        #expect(regressionFailure(file, format: XMLFormat(), writing: .init(prettyPrinted: true)) == nil)
        // As the fuzz target does: the markup of every element kept, and
        // written back whole.
        guard let tree = try? XMLFormat().read(.file(file.path)) else { return }
        var options = XMLReadingOptions()
        options.markupElements = Self.elementNames(tree)
        guard !options.markupElements.isEmpty else { return }
        #expect(
            regressionFailure(file, format: XMLFormat(options: options)) == nil,
            "\(file.lastPathComponent), markup kept")
    }

    static func elementNames(_ tree: Ingredients) -> Set<String> {
        var names = Set<String>()
        var pending = [tree]
        while let value = pending.popLast() {
            switch value {
            case .dictionary(let dictionary):
                for (key, member) in dictionary where !key.hasPrefix("@") && !key.hasPrefix("#") {
                    names.insert(key)
                    pending.append(member)
                }
            case .array(let elements): pending.append(contentsOf: elements)
            default: break
            }
        }
        return names
    }
}
