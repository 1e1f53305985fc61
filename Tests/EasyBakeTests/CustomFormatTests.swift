import Testing
import EasyBake
import EasyBakeTestSupport

/// A tiny `key=value` lines format, written only against EasyBake's public
/// API: this is what a user does to plug in a format of their own.
struct KeyValueSource: IngredientSource {
    private let lines: [Substring]
    private let name: String
    private var state: (line: Int, pendingValue: Ingredients?, started: Bool, finished: Bool) = (0, nil, false, false)

    init(text: String, name: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        self.name = name
    }

    var location: EasyBake.SourceLocation {
        EasyBake.SourceLocation(sourceName: name, line: max(state.line, 1), column: 1, byteOffset: nil, lineText: nil)
    }

    mutating func next() throws(EasyBakeError) -> IngredientEvent? {
        if !state.started {
            state.started = true
            return .beginDictionary
        }
        if let value = state.pendingValue {
            state.pendingValue = nil
            return .scalar(value)
        }
        while state.line < lines.count {
            let line = lines[state.line]
            state.line += 1
            if line.isEmpty { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw EasyBakeError(.syntax, "expected key=value", location: location)
            }
            let text = String(line[line.index(after: equals)...])
            state.pendingValue = Ingredients.number(literal: text) ?? .string(text)
            return .key(String(line[..<equals]))
        }
        if state.finished { return nil }
        state.finished = true
        return .endDictionary
    }
}

struct KeyValueFormat: IngredientFormat {
    var name: String { "kv" }
    var fileExtensions: [String] { ["kv"] }

    func makeSource(for input: IngredientInput) throws(EasyBakeError) -> any IngredientSource {
        let bytes = try input.loadBytes()
        return KeyValueSource(text: bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }, name: input.name)
    }
}

@Suite("Plugging in a format")
struct CustomFormatTests {
    struct Setting: Decodable { let host: String; let port: Int; let verbose: Bool }

    @Test("a custom source registers, reads, bakes, and locates baking errors")
    func customFormat() throws {
        let registry = FormatRegistry([KeyValueFormat()])
        #expect(registry.names == ["kv"])
        let format = try registry.format(forPath: "config.kv")

        let document = try Document(
            reading: .text("host=example.com\nport=8080\nverbose=yes", name: "config.kv"), format: format)
        #expect(document.tree == ["host": "example.com", "port": 8080, "verbose": "yes"])
        let setting = try Baker().bake(Setting.self, from: document)
        #expect(setting.port == 8080)
        #expect(setting.verbose)

        let broken = try Document(reading: .text("host=a\nport=eighty\nverbose=no", name: "broken.kv"), format: format)
        let error = #expect(throws: EasyBakeError.self) { try Baker().bake(Setting.self, from: broken) }
        #expect(error?.code == .typeMismatch)
        #expect(error?.path?.description == "port")
        #expect(error?.location?.line == 2)
    }

    @Test("the custom source keeps the IngredientSource contract with the protocol's default skips")
    func contract() throws {
        for text in ["host=example.com\nport=8080\n\nverbose=yes", "", "only=1", "a=1\nb=two\n"] {
            let failures = try checkIngredientSource { () throws(EasyBakeError) in
                KeyValueSource(text: text, name: "c.kv")
            }
            #expect(failures.isEmpty, "\(text.debugDescription):\n\(failures.prefix(8).joined(separator: "\n"))")
        }
    }

    @Test("malformed custom input reports the source's location")
    func malformed() {
        let error = #expect(throws: EasyBakeError.self) {
            try Document(reading: .text("a=1\nnonsense", name: "x.kv"), format: KeyValueFormat())
        }
        #expect(error?.location?.line == 2)
    }

    @Test("an unknown extension names the known ones")
    func unknownExtension() {
        let registry = FormatRegistry([KeyValueFormat()])
        let error = #expect(throws: EasyBakeError.self) { try registry.format(forPath: "data.csv") }
        #expect(error?.code == .unknownFormat)
        #expect(error?.message.contains("kv") == true)
    }
}
