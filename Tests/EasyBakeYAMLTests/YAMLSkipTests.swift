import EasyBake
import EasyBakeTestSupport
import EasyBakeYAML
import Testing

/// `YAMLIngredientSource.skipValue()` skips natively (libyaml's events are
/// drained without resolving scalars); these tests hold it to what reading
/// and discarding would do, event for event.
@Suite("YAML skipValue")
struct YAMLSkipTests {
    static let documents: [(String, YAMLReadingOptions.Documents)] = [
        ("a: 1\nb: [x, {y: 2}]\nc: {d: {e: [1, 2, 3]}}\n", .single),
        // Anchors defined inside a skipped part, used after it.
        ("a: {x: &A {p: 1, q: [2, 3]}, y: &S scalar, z: [&T true]}\nb: *A\nc: *S\nd: [*A, *T]\n", .single),
        // Merge keys, inside and around skipped parts.
        (
            "base: &b {k: 1, m: 2}\nderived: {<<: *b, m: 3, n: 4}\nlist: [{<<: [*b, {w: 0}], z: 1}]\nlast: {m: 9, <<: *b}\n",
            .single
        ),
        ("a: &outer {<<: {m: 1}, n: 2}\nb: *outer\nc: {<<: *outer, n: 3}\n", .single),
        ("d: &d {x: {t: 1, u: [{v: 2}]}, y: 3}\na: {<<: *d, y: 4}\nb:\n  <<: {m: {n: {o: 5}}}\n", .single),
        // Several documents, each on its own and as one array.
        ("--- {a: 1}\n--- [x, &y {z: 1}, *y]\n--- scalar\n--- \n", .each),
        ("--- {a: 1}\n--- [x, &y {z: 1}, *y]\n--- scalar\n", .all),
        // One document chosen: the others are parsed but give no events.
        ("--- {a: 1}\n--- [x, &y {z: 1}, *y]\n--- scalar\n", .document(1)),
        ("--- &r {a: [1, 2]}\n--- {b: 2}\n--- [3]\n", .document(0)),
        // Unknown tags (wrapped), block scalars, nulls.
        ("a: !Ref x\nb: !Seq [1, !T 2]\nc: |\n  text\n  more\nd: ~\ne:\n", .single),
        ("", .single),
        ("", .all),
    ]

    /// The events left after skipping, by reading and discarding, the value
    /// that begins at `index` (what the protocol's default does).
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

    static func source(_ text: String, _ documents: YAMLReadingOptions.Documents) throws -> YAMLIngredientSource {
        var options = YAMLReadingOptions()
        options.documents = documents
        // Wrapped unknown tags add events of their own to skip over; the
        // default (their value) adds none.
        options.unknownTags = .wrap
        return try YAMLIngredientSource(.text(text), options: options)
    }

    @Test(
        "skipping at every event leaves the source where reading and discarding would",
        arguments: documents.indices)
    func everyPosition(_ which: Int) throws {
        let (text, documents) = Self.documents[which]
        var full = try Self.source(text, documents)
        let events = try collectEvents(&full)
        for index in 0...events.count {
            var source = try Self.source(text, documents)
            for _ in 0..<index { _ = try source.next() }
            try source.skipValue()
            let rest = try collectEvents(&source)
            #expect(
                rest[...] == Self.reference(events, skippingAt: index),
                "skip at event \(index) of \(text.debugDescription)")
        }
    }

    @Test(
        "skipping the rest of a container leaves the source where reading would",
        arguments: documents.indices)
    func restOfContainer(_ which: Int) throws {
        let (text, documents) = Self.documents[which]
        var full = try Self.source(text, documents)
        let events = try collectEvents(&full)
        for index in events.indices {
            switch events[index] {
            case .beginArray, .beginDictionary: break
            default: continue
            }
            var source = try Self.source(text, documents)
            for _ in 0...index { _ = try source.next() }
            try source.skipRestOfContainer()
            let rest = try collectEvents(&source)
            // The rest after a container's begin: skipping its whole value from the begin.
            #expect(
                rest[...] == Self.reference(events, skippingAt: index),
                "skip rest at event \(index) of \(text.debugDescription)")
        }
    }

    @Test("the rest of a skipped container is still checked, and its anchors recorded")
    func restOfContainerChecks() throws {
        var broken = try YAMLIngredientSource(.text("a: [1, *nowhere]\n"))
        for _ in 0..<3 { _ = try broken.next() }  // beginDictionary, key a, beginArray
        #expect(throws: EasyBakeError.self) { try broken.skipRestOfContainer() }
        var source = try YAMLIngredientSource(.text("a: [1, &x {b: 2}]\nc: *x\n"))
        for _ in 0..<3 { _ = try source.next() }
        try source.skipRestOfContainer()
        #expect(
            try collectEvents(&source) == [
                .key("c"), .beginDictionary, .key("b"), .scalar(2), .endDictionary, .endDictionary,
            ])
        #expect(source.bytesRead == "a: [1, &x {b: 2}]\nc: *x\n".utf8.count)
    }

    @Test("anchors defined in a skipped value still resolve afterwards")
    func anchorsInSkippedValue() throws {
        var source = try Self.source("a: {x: &A {p: 1, q: [2, 3]}, y: &S scalar}\nb: *A\nc: *S\n", .single)
        #expect(try source.next() == .beginDictionary)
        #expect(try source.next() == .key("a"))
        try source.skipValue()
        let rest = try collectEvents(&source)
        #expect(
            rest == [
                .key("b"), .beginDictionary, .key("p"), .scalar(1), .key("q"), .beginArray, .scalar(2), .scalar(3),
                .endArray,
                .endDictionary, .key("c"), .scalar("scalar"), .endDictionary,
            ])
    }

    @Test("a skipped value is still checked: syntax, depth, aliases, budget and tags")
    func errorsInSkippedValue() throws {
        func skipError(_ text: String, _ options: YAMLReadingOptions = .init()) -> EasyBakeError? {
            do {
                var source = try YAMLIngredientSource(.text(text), options: options)
                _ = try source.next()  // beginDictionary
                _ = try source.next()  // key "a"
                try source.skipValue()
                return nil
            } catch {
                return error
            }
        }
        #expect(skipError("a: [1, 2\nb: 3\n")?.code == .syntax)
        let undefined = try #require(skipError("a: [1, *nowhere]\n"))
        #expect(undefined.code == .syntax)
        #expect(undefined.message == "alias *nowhere refers to an undefined anchor")
        #expect(undefined.location?.column == 8)
        #expect(skipError("a: &x [1, *x]\n")?.message == "alias *x refers to a node that contains it")
        #expect(skipError("a: [[[[1]]]]\n", options(maximumDepth: 3))?.code == .limitExceeded)
        var bomb = "a:\n  - &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...6 {
            bomb += "  - &a\(level) [\(Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", "))]\n"
        }
        #expect(skipError(bomb, options(maximumExpansion: 10_000))?.code == .limitExceeded)
        #expect(skipError("a: [!!int abc]\n")?.code == .invalidValue)
        #expect(skipError("a: [{<<: 5}]\n")?.code == .syntax)
        // And a well-formed skip moves on.
        #expect(skipError("a: [1, {b: *c}]\n") != nil)
        #expect(skipError("a: &c [1, {b: 2}]\n") == nil)
    }

    @Test("bytesRead grows to the input's size")
    func bytesRead() throws {
        let text = "a: 1\nb: [x, y]\nc: long text here\n"
        var source = try YAMLIngredientSource(.text(text))
        #expect(source.bytesRead == 0)
        var last = 0
        while try source.next() != nil {
            #expect(source.bytesRead >= last)
            last = source.bytesRead
        }
        #expect(source.bytesRead == text.utf8.count)
    }
}
