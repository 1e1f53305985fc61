import Testing

@Suite("easybake help")
struct HelpSnapshotTests {
    /// Each command's help, at a fixed width: the help wraps to the terminal,
    /// which `COLUMNS` names.
    @Test(
        "each command's help is as its snapshot shows",
        arguments: [
            [], ["bake"], ["get"], ["convert"], ["paths"], ["scaffold"], ["schema"],
        ])
    func help(command: [String]) throws {
        let result = try Command.run(command + ["--help"], environment: ["COLUMNS": "80", "LINES": "25"])
        #expect(result.status == 0, "\(result.standardError)")
        let name = (["easybake"] + command).joined(separator: "-")
        Snapshot.expect(result.standardOutput, matches: "help-\(name).txt")
    }
}
