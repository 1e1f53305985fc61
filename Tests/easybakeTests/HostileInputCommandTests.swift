import Foundation
import Testing
import EasyBakeTestSupport

/// The command on hostile input: an error naming the record and the value,
/// the other records baked, and no trap.
@Suite("The command on hostile numbers")
struct HostileInputCommandTests {
    @Test("a last_seen of 1e20 with the shipped recipe fails that record, not the process")
    func farLastSeen() throws {
        let fixture = try String(contentsOf: TestPaths.fixture("json/users.json"), encoding: .utf8)
        let hostile = fixture.replacingOccurrences(of: "\"last_seen\": 1763625600", with: "\"last_seen\": 1e20")
        #expect(hostile != fixture)
        let file = TestFiles.directory.appendingPathComponent("hostile-users-\(UUID()).json")
        try hostile.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try Command.run([
            "bake", "--recipe", "Fixtures/recipes/users.json", "--each", "users[*]", file.path,
        ])
        // A trap would die without this message.
        #expect(result.status == 1)
        #expect(result.standardError.contains("number out of range"), "\(result.standardError)")
        #expect(result.standardError.contains(":11:20"), "\(result.standardError)")
        #expect(result.standardError.contains("not a date between the years 1 and 9999"), "\(result.standardError)")
        #expect(result.standardError.contains("last_seen"), "\(result.standardError)")
    }
}
