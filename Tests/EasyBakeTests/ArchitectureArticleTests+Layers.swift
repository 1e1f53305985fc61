import EasyBakeTestSupport
import Foundation
import Testing

// The article's folder table stacks the folders of the core in levels and
// says which folders each one uses. These tests read the table and the
// sources, and fail when a folder names a type of a folder its row does not
// list, when a row lists a folder whose types it never names, or when a use
// of a higher level is not marked `(up)` and explained: so a new upward use
// cannot slip in unseen. What they see is type names; a member that an
// extension adds to another folder's type is not seen (the article says so).

extension ArchitectureArticleTests {
    /// One folder the table lists under another's `Uses`.
    struct FolderUse: Equatable {
        var folder: String
        /// Marked `(up)`: a folder of a higher level.
        var up: Bool
    }

    /// A row of the folder table: `| 2 | `Paths/` | … | Errors |`.
    struct FolderRow: Equatable {
        var level: Int
        var folder: String
        var uses: [FolderUse]
    }

    /// The rows of the table headed `| Level | Folder | Holds | Uses |`.
    static func folderRows(_ markdown: String) -> [FolderRow] {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard let header = lines.firstIndex(where: { $0.hasPrefix("| Level | Folder | Holds | Uses |") }) else {
            return []
        }
        var rows: [FolderRow] = []
        for line in lines[(header + 2)...] {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast().map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count == 4, let level = Int(cells[0]) else { continue }
            let folder = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`/"))
            let uses: [FolderUse] =
                cells[3] == "nothing"
                ? []
                : cells[3].components(separatedBy: ", ").map { entry in
                    entry.hasSuffix(" (up)")
                        ? FolderUse(folder: String(entry.dropLast(5)), up: true) : FolderUse(folder: entry, up: false)
                }
            rows.append(FolderRow(level: level, folder: folder, uses: uses))
        }
        return rows
    }

    /// `source` with its comments and string literals blanked out, so that
    /// a type named in a doc comment or a message is not taken for a use.
    static func code(of source: String) -> String {
        let bytes = Array(source.utf8)
        var kept = [UInt8]()
        kept.reserveCapacity(bytes.count)
        var i = 0
        func starts(with text: String, at position: Int) -> Bool {
            let pattern = Array(text.utf8)
            return position + pattern.count <= bytes.count
                && Array(bytes[position..<position + pattern.count]) == pattern
        }
        while i < bytes.count {
            if starts(with: "//", at: i) {
                while i < bytes.count, bytes[i] != UInt8(ascii: "\n") { i += 1 }
            } else if starts(with: "/*", at: i) {
                var depth = 0
                repeat {
                    if starts(with: "/*", at: i) {
                        depth += 1
                        i += 2
                    } else if starts(with: "*/", at: i) {
                        depth -= 1
                        i += 2
                    } else {
                        i += 1
                    }
                } while depth > 0 && i < bytes.count
                kept.append(UInt8(ascii: " "))
            } else if bytes[i] == UInt8(ascii: "#") || bytes[i] == UInt8(ascii: "\"") {
                // A string literal: raw (`#"…"#`) or not, one line or three quotes.
                var hashes = 0
                while i + hashes < bytes.count, bytes[i + hashes] == UInt8(ascii: "#") { hashes += 1 }
                guard i + hashes < bytes.count, bytes[i + hashes] == UInt8(ascii: "\"") else {
                    kept.append(contentsOf: bytes[i..<i + max(hashes, 1)])
                    i += max(hashes, 1)
                    continue
                }
                let quotes = starts(with: "\"\"\"", at: i + hashes) ? "\"\"\"" : "\""
                let close = Array((quotes + String(repeating: "#", count: hashes)).utf8)
                i += hashes + quotes.utf8.count
                while i < bytes.count {
                    if hashes == 0, bytes[i] == UInt8(ascii: "\\") {
                        i += 2
                        continue
                    }
                    if i + close.count <= bytes.count, Array(bytes[i..<i + close.count]) == close {
                        i += close.count
                        break
                    }
                    i += 1
                }
                kept.append(contentsOf: Array("\"\"".utf8))
            } else {
                kept.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: kept, as: UTF8.self)
    }

    /// The code of each folder's Swift files (see ``code(of:)``): folder →
    /// file name → code, for the folders of `Sources/EasyBake/`.
    static func folderCode(at root: URL) throws -> [String: [String: String]] {
        let base = root.appendingPathComponent("Sources/EasyBake")
        var folders: [String: [String: String]] = [:]
        for folder in try FileManager.default.contentsOfDirectory(atPath: base.path) where !folder.hasSuffix(".docc") {
            let directory = base.appendingPathComponent(folder)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
                isDirectory.boolValue
            else { continue }
            var files: [String: String] = [:]
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path)
            where file.hasSuffix(".swift") {
                files[file] = code(of: try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8))
            }
            folders[folder] = files
        }
        return folders
    }

    /// For each folder, the other folders whose types its code names, each
    /// with an example (`RecordReader in Document.swift`). A type belongs to
    /// the folder whose file declares it at the top level (a name declared
    /// in two folders, two private types, belongs to neither).
    static func folderUses(_ folders: [String: [String: String]]) throws -> [String: [String: String]] {
        let declaration = try NSRegularExpression(
            pattern:
                #"^(?:@[A-Za-z_]+(?:\([^)\n]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect|nonisolated)\s+)*(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z][A-Za-z0-9_]*)"#,
            options: .anchorsMatchLines)
        let identifier = try NSRegularExpression(pattern: #"\b[A-Z][A-Za-z0-9_]*\b"#)
        func matches(_ expression: NSRegularExpression, in text: String, group: Int) -> [String] {
            expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
                Range($0.range(at: group), in: text).map { String(text[$0]) }
            }
        }
        var owners: [String: String] = [:]
        var ambiguous: Set<String> = []
        for (folder, files) in folders {
            for code in files.values {
                for name in matches(declaration, in: code, group: 1) {
                    if let owner = owners[name], owner != folder { ambiguous.insert(name) }
                    owners[name] = folder
                }
            }
        }
        for name in ambiguous { owners[name] = nil }
        var uses: [String: [String: String]] = [:]
        for (folder, files) in folders {
            var found: [String: String] = [:]
            for file in files.keys.sorted() {
                for name in Set(matches(identifier, in: files[file]!, group: 0)).sorted() {
                    guard let owner = owners[name], owner != folder, found[owner] == nil else { continue }
                    found[owner] = "\(name) in \(file)"
                }
            }
            uses[folder] = found
        }
        return uses
    }

    /// What the table says wrongly of `uses` (see ``folderUses(_:)``), or
    /// leaves out; `article` must explain each `(up)` use with the words
    /// "`A/` uses `B/`".
    static func layerProblems(rows: [FolderRow], uses: [String: [String: String]], article: String) -> [String] {
        var problems: [String] = []
        let levels = Dictionary(rows.map { ($0.folder, $0.level) }, uniquingKeysWith: { first, _ in first })
        for folder in uses.keys.sorted() where levels[folder] == nil {
            problems.append("\(folder)/ has no row")
        }
        for row in rows {
            guard let actual = uses[row.folder] else {
                problems.append("\(row.folder)/ has a row and no folder")
                continue
            }
            for use in row.uses {
                guard let level = levels[use.folder] else {
                    problems.append("\(row.folder)/ lists \(use.folder), which has no row")
                    continue
                }
                if level > row.level, !use.up {
                    problems.append("\(row.folder)/ uses \(use.folder)/ of a higher level, not marked (up)")
                }
                if level <= row.level, use.up {
                    problems.append("\(row.folder)/ marks \(use.folder)/ (up), which is not of a higher level")
                }
                if use.up, !article.contains("`\(row.folder)/` uses `\(use.folder)/`") {
                    problems.append("\(row.folder)/ uses \(use.folder)/ (up), which the article does not explain")
                }
                if actual[use.folder] == nil {
                    problems.append("\(row.folder)/ lists \(use.folder), whose types it does not name")
                }
            }
            let listed = Set(row.uses.map(\.folder))
            for (folder, example) in actual.sorted(by: { $0.key < $1.key }) where !listed.contains(folder) {
                problems.append("\(row.folder)/ uses \(folder)/ (\(example)), which its row does not list")
            }
        }
        return problems
    }

    @Test("the folder table says which folders each folder uses, and marks and explains every upward use")
    func folderTableIsTrue() throws {
        let article = try DocumentationExamples.article("EasyBake", "Architecture")
        let rows = Self.folderRows(article)
        let folders = try Self.folderCode(at: TestPaths.packageRoot)
        #expect(Self.layerProblems(rows: rows, uses: try Self.folderUses(folders), article: article) == [])
        // Every folder has a row, from the bottom up.
        #expect(rows.count == folders.count && rows.count >= 14, "rows: \(rows.count)")
        #expect(rows.map(\.level) == rows.map(\.level).sorted())
    }

    @Test("a use the table leaves out, claims wrongly, or does not mark as upward is reported")
    func folderTableProblems() throws {
        let article = """
            | Level | Folder | Holds | Uses |
            | --- | --- | --- | --- |
            | 1 | `Low/` | `Brick` | nothing |
            | 2 | `Mid/` | `Wall` | Low, High |
            | 2 | `Side/` | `Door` | High (up), Low (up) |
            | 3 | `High/` | `Roof` | Mid |
            | 3 | `Gone/` | `Ghost` | nothing |

            `High/` uses nothing it should not.
            """
        let folders: [String: [String: String]] = [
            "Low": [
                "Brick.swift": Self.code(
                    of: """
                        /// A brick; a `Wall` is made of them.
                        public struct Brick { let label = "Roof \\(1)" }
                        """)
            ],
            "Mid": ["Wall.swift": Self.code(of: "@frozen public struct Wall { let bricks: [Brick] }")],
            "Side": ["Door.swift": Self.code(of: "enum Door { static let roof: Roof? = nil /* Brick */ }")],
            "High": ["Roof.swift": Self.code(of: "final class Roof { var wall: Wall?; var door: Door? }")],
            "Attic": ["Box.swift": Self.code(of: "struct Box {}")],
        ]
        let uses = try Self.folderUses(folders)
        #expect(uses["Low"] == [:])
        #expect(uses["High"] == ["Mid": "Wall in Roof.swift", "Side": "Door in Roof.swift"])
        #expect(
            Self.layerProblems(rows: Self.folderRows(article), uses: uses, article: article) == [
                "Attic/ has no row",
                "Mid/ uses High/ of a higher level, not marked (up)",
                "Mid/ lists High, whose types it does not name",
                "Side/ uses High/ (up), which the article does not explain",
                "Side/ marks Low/ (up), which is not of a higher level",
                "Side/ uses Low/ (up), which the article does not explain",
                "Side/ lists Low, whose types it does not name",
                "High/ uses Side/ (Door in Roof.swift), which its row does not list",
                "Gone/ has a row and no folder",
            ])
    }
}
