import Foundation
import EasyBake

/// Where tests write their files: one folder per test process in the
/// system's temporary folder, removed when the process exits, so that a run
/// of the tests leaves nothing behind (thousands of runs on a developer's
/// machine otherwise fill its temporary folder).
public enum TestFiles {
    /// The folder, made on first use.
    public static let directory: URL = {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("easybake-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestFiles.directory) }
        return folder
    }()
}

/// Locations of the project's fixtures and of the shared corpora, found from
/// this file's path so that tests run from any working directory.
public enum TestPaths {
    /// The package root.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // EasyBakeTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // root

    /// `Fixtures/` in the package.
    public static let fixtures = packageRoot.appendingPathComponent("Fixtures")

    /// A file under `Fixtures/`, e.g. `fixture("json/users.json")`.
    public static func fixture(_ relativePath: String) -> URL {
        fixtures.appendingPathComponent(relativePath)
    }

    /// `../shared` beside the package root, present on developer machines and
    /// in CI but not in a user's clone; tests that need it skip without it.
    public static let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")

    /// A folder under `../shared/corpora`, or `nil` when absent.
    public static func corpus(_ name: String) -> URL? {
        let url = shared.appendingPathComponent("corpora").appendingPathComponent(name)
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
            ? url : nil
    }
}

/// A small deterministic random number generator (SplitMix64), so that
/// property tests are reproducible from their seed.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Reads all events of a source into an array, for assertions.
public func collectEvents<S: IngredientSource>(_ source: inout S) throws -> [IngredientEvent] {
    var events: [IngredientEvent] = []
    while let event = try source.next() { events.append(event) }
    return events
}
