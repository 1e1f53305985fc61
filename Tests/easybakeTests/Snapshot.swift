import Foundation
import Testing

/// Long expected outputs — the command's tables and help, the scaffold's
/// Swift and recipe files — kept as files under `Snapshots/` beside the
/// tests rather than as strings inside them, so that a change to an output
/// reads as a diff of that output.
///
/// A test compares its output with its snapshot. With
/// `EASYBAKE_RECORD_SNAPSHOTS=1` in the environment the snapshot is written
/// instead, and the test fails once more if it changed, so that a recording
/// run is never mistaken for a passing one; a missing snapshot fails too.
/// The folder is found from the test file's own path, so a clean clone runs
/// the tests from any working directory; `Package.swift` excludes it from
/// the target's sources.
enum Snapshot {
    static let recordVariable = "EASYBAKE_RECORD_SNAPSHOTS"

    static var isRecording: Bool {
        ProcessInfo.processInfo.environment[recordVariable].map { !$0.isEmpty && $0 != "0" } ?? false
    }

    /// The snapshot file `name` (with its extension, e.g. `paths-table.txt`)
    /// beside the test file at `filePath`.
    static func file(_ name: String, filePath: String) -> URL {
        URL(fileURLWithPath: filePath).deletingLastPathComponent()
            .appendingPathComponent("Snapshots").appendingPathComponent(name)
    }

    /// Expects `actual` to equal the snapshot `name`, or records it.
    static func expect(
        _ actual: String, matches name: String, filePath: String = #filePath,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let file = file(name, filePath: filePath)
        let expected = try? String(contentsOf: file, encoding: .utf8)
        if isRecording {
            guard expected != actual else { return }
            do {
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try actual.write(to: file, atomically: true, encoding: .utf8)
                Issue.record(
                    "recorded snapshot \(name); run again without \(recordVariable) to check it",
                    sourceLocation: sourceLocation)
            } catch {
                Issue.record("could not record snapshot \(file.path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let expected else {
            Issue.record(
                "no snapshot \(file.path): run the test with \(recordVariable)=1 to record it, and check it in",
                sourceLocation: sourceLocation)
            return
        }
        guard actual != expected else { return }
        Issue.record(
            "output differs from snapshot \(name) (\(recordVariable)=1 rewrites it):\n\(difference(expected, actual))",
            sourceLocation: sourceLocation)
    }

    /// The first lines where the two texts part, for the failure message.
    static func difference(_ expected: String, _ actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let first =
            zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(old.count, new.count)
        var lines = ["first difference at line \(first + 1):"]
        for line in old[first..<min(old.count, first + 5)] { lines.append("- \(line)") }
        for line in new[first..<min(new.count, first + 5)] { lines.append("+ \(line)") }
        return lines.joined(separator: "\n")
    }
}
