import EasyBake
import Foundation

extension TestPaths {
    /// The inputs under `Fixtures/regressions/<folder>/`, sorted by name:
    /// each one an input that once crashed, hung or failed a check in a fuzz
    /// target (see `Fuzz/` and the "Fuzzing" section of the EasyBake catalog's "Errors and limits" article).
    public static func regressions(_ folder: String) -> [URL] {
        let directory = fixtures.appendingPathComponent("regressions").appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// The regression inputs of a fuzz target followed by its hand-made
    /// seeds (`Fuzz/Seeds/<folder>/`): the properties the target checks
    /// hold for both.
    public static func fuzzInputs(_ folder: String) -> [URL] {
        let seeds = packageRoot.appendingPathComponent("Fuzz/Seeds").appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: seeds.path)) ?? []
        return regressions(folder)
            + names.filter { !$0.hasPrefix(".") }.sorted().map { seeds.appendingPathComponent($0) }
    }
}

/// What the fuzz targets check of every input, for one format: the input
/// reads or fails with an error; what reads is written and reads back to the
/// same tree. Returns a description of the first broken property, or `nil`.
public func regressionFailure(
    _ file: URL, format: any IngredientFormat, writing: WritingOptions = .init()
) -> String? {
    let bytes: [UInt8]
    do { bytes = Array(try Data(contentsOf: file)) } catch { return "cannot read \(file.path): \(error)" }
    let tree: Ingredients
    do {
        tree = try format.read(.bytes(bytes, name: file.lastPathComponent))
    } catch {
        // Rejecting is fine; the error must still render.
        return error.description.isEmpty ? "an empty error description" : nil
    }
    do {
        let output = try format.write(tree, options: writing)
        let again = try format.read(.bytes(output, name: "written"))
        if again != tree {
            let differences = tree.difference(to: again).prefix(3).map(\.description).joined(separator: "; ")
            return "the written tree reads back differently: \(differences)"
        }
    } catch {
        // The XML writer refuses mixed content whose order the tree does
        // not know, rather than reorder it: that refusal is the property.
        if error.code == .invalidValue, error.message.contains("(mixed content)") { return nil }
        return "writing and reading back failed: \(error)"
    }
    return nil
}
