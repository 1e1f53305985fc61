import Testing
import EasyBake

/// EasyBake's location, not Swift Testing's of the same name.
typealias SourceLocation = EasyBake.SourceLocation

/// Runs `body` and returns the EasyBakeError it throws, or `nil` when it
/// succeeds. Any other error is recorded as a test failure.
func captureError<T>(_ body: () throws -> T) -> EasyBakeError? {
    do {
        _ = try body()
        return nil
    } catch let error as EasyBakeError {
        return error
    } catch {
        Issue.record("expected an EasyBakeError, got \(error)")
        return nil
    }
}

/// A source of `depth` nested arrays (or single-key dictionaries) around an
/// integer, produced on the fly so that the test does not hold the events.
struct DeepSource: IngredientSource {
    let depth: Int
    let dictionaries: Bool
    private var emitted = 0
    private var pendingKey = false

    init(depth: Int, dictionaries: Bool = false) {
        self.depth = depth
        self.dictionaries = dictionaries
    }

    var location: SourceLocation { SourceLocation(line: 1, column: emitted) }

    mutating func next() throws(EasyBakeError) -> IngredientEvent? {
        if pendingKey {
            pendingKey = false
            return .key("a")
        }
        defer { emitted += 1 }
        if emitted < depth {
            if dictionaries { pendingKey = true }
            return dictionaries ? .beginDictionary : .beginArray
        }
        if emitted == depth { return .scalar(7) }
        if emitted <= 2 * depth { return dictionaries ? .endDictionary : .endArray }
        return nil
    }
}

/// A tiny text format for tests, one event per line, so that documents and
/// error locations can be checked without the JSON source:
///
/// ```
/// {
///   key: name
///   "Ann"
/// }
/// ```
/// `{` `}` `[` `]` open and close containers, `key: x` is a key, and a line
/// holding `null`, `true`, `false`, a JSON number or a `"quoted"` string is a
/// scalar. Indentation is free; blank lines are skipped.
struct LineFormat: IngredientFormat {
    var duplicateKeyPolicy: DuplicateKeyPolicy = .firstWins
    var name: String { "lines" }
    var fileExtensions: [String] { ["lines"] }

    func makeSource(for input: IngredientInput) throws(EasyBakeError) -> any IngredientSource {
        let bytes = try input.loadBytes()
        let text = bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        return LineSource(text: text, name: input.name, policy: duplicateKeyPolicy)
    }
}

struct LineSource: IngredientSource {
    let lines: [Substring]
    let name: String
    let duplicateKeyPolicy: DuplicateKeyPolicy
    private var nextLine = 0
    private var line = 0
    private var column = 1

    init(text: String, name: String, policy: DuplicateKeyPolicy) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        self.name = name
        duplicateKeyPolicy = policy
    }

    var location: SourceLocation {
        SourceLocation(
            sourceName: name, line: max(line, 1), column: column,
            lineText: line >= 1 && line <= lines.count ? String(lines[line - 1]) : nil)
    }

    mutating func next() throws(EasyBakeError) -> IngredientEvent? {
        while nextLine < lines.count {
            let raw = lines[nextLine]
            nextLine += 1
            let indent = raw.prefix { $0 == " " }.count
            let content = raw.dropFirst(indent)
            if content.isEmpty { continue }
            line = nextLine
            column = indent + 1
            switch content {
            case "{": return .beginDictionary
            case "}": return .endDictionary
            case "[": return .beginArray
            case "]": return .endArray
            case "null": return .scalar(.null)
            case "true": return .scalar(true)
            case "false": return .scalar(false)
            default: break
            }
            if content.hasPrefix("key: ") { return .key(String(content.dropFirst(5))) }
            if content.count >= 2, content.first == "\"", content.last == "\"" {
                return .scalar(.string(String(content.dropFirst().dropLast())))
            }
            if let number = Ingredients.number(literal: String(content)) { return .scalar(number) }
            throw EasyBakeError.syntax("expected an event, found \(String(content).debugDescription)", at: location)
        }
        return nil
    }
}

/// The depth of nested containers, measured without recursion.
func nestingDepth(_ tree: Ingredients) -> Int {
    var depth = 0
    var current = tree
    while true {
        switch current {
        case .array(let array) where array.count > 0:
            current = array[0]
        case .dictionary(let dictionary) where dictionary.count > 0:
            current = dictionary[0].value
        case .array, .dictionary:
            return depth + 1
        default:
            return depth
        }
        depth += 1
    }
}
