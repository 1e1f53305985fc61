import Foundation
import Testing
import EasyBake
import EasyBakeTestSupport

/// One line of a `key=value` input: where it starts, where its `=` is
/// (`nil`: none) and where it ends, as byte offsets.
struct KeyValueLine {
    let start: Int
    let equals: Int?
    let end: Int

    /// The lines of `bytes`.
    static func lines(of bytes: LoadedBytes) -> [KeyValueLine] {
        bytes.withUnsafeBytes { buffer in
            var lines: [KeyValueLine] = []
            var start = 0
            var equals: Int?
            for offset in 0...buffer.count {
                if offset == buffer.count || buffer[offset] == UInt8(ascii: "\n") {
                    lines.append(KeyValueLine(start: start, equals: equals, end: offset))
                    start = offset + 1
                    equals = nil
                } else if equals == nil, buffer[offset] == UInt8(ascii: "=") {
                    equals = offset
                }
            }
            return lines
        }
    }

    var isEmpty: Bool { end == start }

    /// The error of a line with no `=`.
    func malformed(line: Int, name: String) -> EasyBakeError {
        EasyBakeError(
            .syntax, "expected key=value", location: SourceLocation(sourceName: name, line: line + 1, column: 1))
    }

    /// Writes the line's value: a number when its text is one, else a string.
    func writeValue(of bytes: LoadedBytes, to writer: inout IngredientIndex.Writer) throws(EasyBakeError) {
        let valueStart = equals! + 1
        let text = bytes.withUnsafeBytes { String(decoding: $0[valueStart..<end], as: UTF8.self) }
        if Ingredients.number(literal: text) != nil {
            try writer.number(literalAt: valueStart, count: end - valueStart)
        } else {
            try writer.string(bytesAt: valueStart, count: end - valueStart)
        }
    }
}

/// A tiny `key=value` lines format, written only against EasyBake's public
/// API: this is what a user does to plug in a format of their own. Its
/// source reads events, and indexes a value straight from the bytes with
/// ``IngredientIndex/Writer``; so does its format's `readIndex`.
struct KeyValueSource: IngredientSource {
    private let bytes: LoadedBytes
    private let lines: [KeyValueLine]
    private let name: String
    private var state: (line: Int, pendingValue: Ingredients?, started: Bool, finished: Bool) = (0, nil, false, false)

    init(bytes: LoadedBytes, name: String) {
        self.bytes = bytes
        lines = KeyValueLine.lines(of: bytes)
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
            guard let equals = line.equals else { throw line.malformed(line: state.line - 1, name: name) }
            let (key, text) = bytes.withUnsafeBytes {
                (
                    String(decoding: $0[line.start..<equals], as: UTF8.self),
                    String(decoding: $0[(equals + 1)..<line.end], as: UTF8.self)
                )
            }
            state.pendingValue = Ingredients.number(literal: text) ?? .string(text)
            return .key(key)
        }
        if state.finished { return nil }
        state.finished = true
        return .endDictionary
    }

    /// Indexes the value `first` begins through the public writer: the
    /// whole dictionary from the first line on, or the value of the line
    /// just keyed.
    mutating func readValue(startingWith first: IngredientEvent, into index: inout IngredientIndex)
        throws(EasyBakeError)
    {
        switch first {
        case .beginDictionary:
            try KeyValueFormat.write(lines, from: state.line, of: bytes, name: name, into: &index)
            state.line = lines.count
            state.finished = true
        case .scalar:
            let line = lines[state.line - 1]
            try index.write(input: bytes, sourceName: name) { (writer) throws(EasyBakeError) in
                try line.writeValue(of: bytes, to: &writer)
            }
        default:
            throw EasyBakeError(.syntax, "a value cannot begin with \(first)")
        }
    }
}

struct KeyValueFormat: IngredientFormat {
    var name: String { "kv" }
    var fileExtensions: [String] { ["kv"] }

    func makeSource(for input: IngredientInput) throws(EasyBakeError) -> any IngredientSource {
        KeyValueSource(bytes: try input.loadBytes(), name: input.name)
    }

    // The fast core's way in: the input's index, written straight from its
    // bytes. The "Writing a format" article shows these two functions as
    // they are here (a test holds the two to each other).
    func readIndex(_ input: IngredientInput, into index: inout IngredientIndex) throws(EasyBakeError) {
        let bytes = try input.loadBytes()
        try Self.write(KeyValueLine.lines(of: bytes), from: 0, of: bytes, name: input.name, into: &index)
    }

    /// Writes the lines from `first` on into `index`, as one dictionary
    /// (the source's streamed read calls it too).
    static func write(
        _ lines: [KeyValueLine], from first: Int, of bytes: LoadedBytes, name: String,
        into index: inout IngredientIndex
    ) throws(EasyBakeError) {
        try index.write(input: bytes, sourceName: name) { (writer) throws(EasyBakeError) in
            try writer.beginDictionary(at: lines[first].start)
            for number in first..<lines.count where !lines[number].isEmpty {
                let line = lines[number]
                guard let equals = line.equals else { throw line.malformed(line: number, name: name) }
                try writer.key(bytesAt: line.start, count: equals - line.start)
                try line.writeValue(of: bytes, to: &writer)
            }
            try writer.endDictionary()
        }
    }
}

/// The same format read through its events only (the protocol's defaults):
/// the reference the writer's index is held to.
struct KeyValueEventsFormat: IngredientFormat {
    var name: String { "kv-events" }
    var fileExtensions: [String] { ["kve"] }

    func makeSource(for input: IngredientInput) throws(EasyBakeError) -> any IngredientSource {
        EventsOnly(base: KeyValueSource(bytes: try input.loadBytes(), name: input.name))
    }

    struct EventsOnly: IngredientSource {
        var base: KeyValueSource
        var location: EasyBake.SourceLocation { base.location }
        mutating func next() throws(EasyBakeError) -> IngredientEvent? { try base.next() }
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
                KeyValueSource(bytes: try IngredientInput.text(text).loadBytes(), name: "c.kv")
            }
            #expect(failures.isEmpty, "\(text.debugDescription):\n\(failures.prefix(8).joined(separator: "\n"))")
        }
    }

    @Test(
        "the index the format writes through the public writer holds what its events build",
        arguments: ["host=example.com\nport=8080\n\nverbose=yes", "", "only=1", "a=1\nb=two\nc=-2.50e1\nd=é"])
    func writtenIndex(_ text: String) throws {
        var index = IngredientIndex()
        try KeyValueFormat().readIndex(.text(text, name: "w.kv"), into: &index)
        let viaEvents = try KeyValueEventsFormat().read(.text(text, name: "w.kv"))
        #expect(try Ingredients(index: index) == viaEvents)
    }

    @Test("a number the writer keeps as the input's text bakes into a String as written")
    func numberText() throws {
        struct Price: Decodable { let amount: String; let count: Int }
        let price = try Baker().bake(
            Price.self, from: .text("amount=1.50\ncount=3", name: "p.kv"), format: KeyValueFormat())
        #expect(price.amount == "1.50")
        #expect(price.count == 3)
    }

    @Test("the Writing a format article shows the format's readIndex as the test has it")
    func article() throws {
        let article = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent(
                "Sources/EasyBake/EasyBake.docc/WritingAFormat.md"), encoding: .utf8)
        let test = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent(
                "Tests/EasyBakeTests/CustomFormatTests.swift"), encoding: .utf8)
        func lines(_ text: String, from start: String, to end: String) -> [String] {
            let all = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = all.firstIndex(where: { $0.hasPrefix(start) }),
                let last = all[first...].firstIndex(where: { $0.hasPrefix(end) })
            else { return [] }
            return Array(all[first...last])
        }
        let shown = lines(article, from: "func readIndex(", to: "try writer.endDictionary()")
        #expect(shown.count > 5)
        #expect(shown == lines(test, from: "func readIndex(", to: "try writer.endDictionary()"))
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
