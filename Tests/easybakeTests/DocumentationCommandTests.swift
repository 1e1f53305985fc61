import EasyBakeTestSupport
import Foundation
import Testing

/// Runs the `easybake` commands that the README and the DocC articles show
/// in their `sh` listings, read from the files, and compares what they print
/// with the `# ` lines that follow each command.
///
/// A listing may set a variable (`XML='<a/>'`) and pipe it in
/// (`echo "$XML" | swift run easybake … -`). Expected output that ends with a
/// `# …` line is a prefix of what the command prints; a command followed by
/// no `# ` line must only succeed. Lines that are not `easybake` commands
/// (`swift test`, the benchmark, the fuzzers) are not run.
@Suite("The commands the documentation shows")
struct DocumentationCommandTests {
    struct ShownCommand: CustomStringConvertible {
        let file: String
        let line: Int
        let arguments: [String]
        let input: String?
        var expected: [String] = []
        var description: String { "\(file), listing line \(line): easybake \(arguments.joined(separator: " "))" }
    }

    /// The README and every article of every catalog.
    static let documents: [String] = {
        var files = ["README.md"]
        let sources = TestPaths.packageRoot.appendingPathComponent("Sources")
        for module in (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? [] {
            let catalog = sources.appendingPathComponent(module).appendingPathComponent("\(module).docc")
            for name in (try? FileManager.default.contentsOfDirectory(atPath: catalog.path)) ?? []
            where name.hasSuffix(".md") {
                files.append("Sources/\(module)/\(module).docc/\(name)")
            }
        }
        return files.sorted()
    }()

    /// Splits a command line into words, honouring single and double quotes.
    static func words(_ line: Substring) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var inWord = false
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }

    static func commands(in file: String) throws -> [ShownCommand] {
        var commands: [ShownCommand] = []
        for listing in DocumentationExamples.listings(in: try DocumentationExamples.text(of: file), language: "sh") {
            var variables: [String: String] = [:]
            for (offset, line) in listing.text.split(separator: "\n").enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("# ") || trimmed == "#" {
                    if !commands.isEmpty, commands[commands.count - 1].file == file,
                        commands[commands.count - 1].line == listing.line + offset
                            - commands[commands.count - 1].expected.count
                    {
                        commands[commands.count - 1].expected.append(String(trimmed.dropFirst(2)))
                    }
                    continue
                }
                if let equals = trimmed.firstIndex(of: "="),
                    trimmed[..<equals].allSatisfy({ $0.isUppercase || $0 == "_" }),
                    let value = words(trimmed[trimmed.index(after: equals)...]).first
                {
                    variables[String(trimmed[..<equals])] = value
                    continue
                }
                var input: String?
                var command = trimmed[...]
                if command.hasPrefix("echo "), let pipe = command.firstIndex(of: "|") {
                    let echoed = words(command[command.index(command.startIndex, offsetBy: 5)..<pipe])
                    input =
                        echoed.map { $0.hasPrefix("$") ? variables[String($0.dropFirst())] ?? "" : $0 }.joined(
                            separator: " ") + "\n"
                    command = command[command.index(after: pipe)...].drop { $0 == " " }
                }
                guard command.hasPrefix("swift run easybake ") else { continue }
                let arguments = Array(words(command).dropFirst(3))
                commands.append(
                    ShownCommand(file: file, line: listing.line + offset + 1, arguments: arguments, input: input))
            }
        }
        return commands
    }

    @Test("every shown easybake command prints what the documentation says", arguments: documents)
    func shownCommands(file: String) throws {
        for command in try Self.commands(in: file) {
            let result = try Command.run(command.arguments, input: command.input)
            #expect(result.status == 0, "\(command): \(result.standardError)")
            var expected = command.expected
            if let last = expected.last, last.hasPrefix("…") {
                expected.removeLast()
                #expect(Array(result.lines.prefix(expected.count)) == expected, "\(command)")
                #expect(result.lines.count > expected.count, "\(command)")
            } else if !expected.isEmpty {
                #expect(result.lines == expected, "\(command)")
            }
        }
    }

    @Test("the documentation shows commands to run")
    func someCommands() throws {
        let all = try Self.documents.flatMap { try Self.commands(in: $0) }
        #expect(all.count >= 8)
        #expect(all.contains { $0.input != nil })
    }
}
