import Testing

@testable import EasyBake

@Suite("The nesting rule of events")
struct EventNestingTests {
    @Test("a container's beginning opens a level, its end closes one, a key or a scalar changes none")
    func depthChanges() {
        let events: [IngredientEvent] = [
            .beginDictionary, .key("a"), .beginArray, .scalar(1), .endArray, .endDictionary,
        ]
        #expect(events.map(\.depthChange) == [1, 0, 1, 0, -1, -1])
    }

    @Test("skipping a value by its events reads its events and no more, or to the end of the events")
    func skipsOneValue() throws {
        let events: [IngredientEvent] = [
            .beginDictionary, .key("a"), .beginArray, .scalar(1), .endArray, .endDictionary, .scalar("next"),
        ]
        var read = 0
        func next() -> IngredientEvent? {
            defer { read += 1 }
            return read < events.count ? events[read] : nil
        }
        try IngredientEvent.skipValue(reading: next)
        #expect(read == 6)
        try IngredientEvent.skipValue(reading: next)
        #expect(read == 7)
        try IngredientEvent.skipValue(reading: next)
        #expect(read == 8)
    }

    @Test("a source's default skip steps over one value, whatever it nests")
    func sourceSkipsByEvents() throws {
        var source = IngredientTreeSource(["skipped": ["a": [1, [2]], "b": [:]], "kept": "yes"])
        #expect(try source.next() == .beginDictionary)
        #expect(try source.next() == .key("skipped"))
        try source.skipValueReadingEvents()
        #expect(try source.next() == .key("kept"))
        #expect(try source.next() == .scalar("yes"))
    }
}
