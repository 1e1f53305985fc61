import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Testing

/// The JSON Lines source gives the events of the array of its lines, and its
/// native skips leave it where reading and discarding would.
@Suite("JSON Lines events and skipping")
struct JSONLinesSkippingTests {
    static let texts = [
        "{\"a\": 1, \"b\": [true, {\"c\": null}]}\n[1, [2, []], {}]\n\"text\"\n-1.5e3\n",
        "\r\n{\"id\": 1}\r\n\r\n  \n{\"id\": 2, \"tags\": [\"x\", \"y\"]}",
        "null\nfalse\n{}\n[]\n\"\\u00e9\\n\"\n",
        "\n\n",
        "",
    ]

    /// The same records as one JSON array.
    static func asArray(_ text: String) -> String {
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
            .map { $0.trimmingPrefix(while: { $0 == " " }) }
            .filter { !$0.isEmpty }
        return "[" + lines.joined(separator: ",") + "]"
    }

    static func source(_ text: String) throws -> JSONLinesIngredientSource {
        try JSONLinesIngredientSource(.text(text, name: "lines.jsonl"))
    }

    /// The events left after skipping, by reading and discarding, the value
    /// that begins at `index`.
    static func reference(_ events: [IngredientEvent], skippingAt index: Int) -> ArraySlice<IngredientEvent> {
        var depth = 0
        var i = index
        repeat {
            guard i < events.count else { return [] }
            switch events[i] {
            case .beginArray, .beginDictionary: depth += 1
            case .endArray, .endDictionary: depth -= 1
            case .key, .scalar: break
            }
            i += 1
        } while depth > 0
        return events[i...]
    }

    @Test("the events are those of the records as one JSON array", arguments: texts.indices)
    func eventsAsArray(_ which: Int) throws {
        var lines = try Self.source(Self.texts[which])
        var array = try JSONIngredientSource(.text(Self.asArray(Self.texts[which])))
        #expect(try collectEvents(&lines) == collectEvents(&array))
        #expect(try lines.next() == nil)
    }

    @Test("skipping at every event leaves the source where reading and discarding would", arguments: texts.indices)
    func everyPosition(_ which: Int) throws {
        let text = Self.texts[which]
        var full = try Self.source(text)
        let events = try collectEvents(&full)
        for index in 0...events.count {
            var source = try Self.source(text)
            for _ in 0..<index { _ = try source.next() }
            try source.skipValue()
            #expect(
                try collectEvents(&source)[...] == Self.reference(events, skippingAt: index),
                "skip at event \(index) of \(text.debugDescription)")
        }
    }

    @Test("skipping the rest of a container leaves the source where reading would", arguments: texts.indices)
    func restOfContainer(_ which: Int) throws {
        let text = Self.texts[which]
        var full = try Self.source(text)
        let events = try collectEvents(&full)
        for index in events.indices {
            switch events[index] {
            case .beginArray, .beginDictionary: break
            default: continue
            }
            var source = try Self.source(text)
            for _ in 0...index { _ = try source.next() }
            try source.skipRestOfContainer()
            #expect(
                try collectEvents(&source)[...] == Self.reference(events, skippingAt: index),
                "skip rest at event \(index) of \(text.debugDescription)")
        }
    }

    @Test("skipped lines are still checked")
    func skippedLinesChecked() throws {
        var source = try Self.source("{\"a\": 1}\n{\"a\": [1,]}\n{\"a\": 3}\n")
        _ = try source.next()
        let error = try #require(throws: EasyBakeError.self) { try source.skipRestOfContainer() }
        #expect(error.location?.line == 2)
        var element = try Self.source("{\"a\": 1}\n{\"a\" 2}\n")
        _ = try element.next()
        try element.skipValue()
        #expect(throws: EasyBakeError.self) { try element.skipValue() }
    }
}
