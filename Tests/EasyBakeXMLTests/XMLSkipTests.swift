import EasyBake
import EasyBakeTestSupport
@testable import EasyBakeXML
import Testing

/// `XMLIngredientSource.skipValue()` skips natively; these tests hold it to
/// the meaning of the protocol's default: the same events follow as when
/// the value is read and discarded.
@Suite("XML skipValue")
struct XMLSkipTests {
    /// The index just past the value that begins at `start`, counted the
    /// way the protocol's default `skipValue()` counts.
    static func endOfValue(_ events: [IngredientEvent], from start: Int) -> Int {
        var depth = 0
        var index = start
        repeat {
            guard index < events.count else { return index }
            switch events[index] {
            case .beginArray, .beginDictionary: depth += 1
            case .endArray, .endDictionary: depth -= 1
            case .key, .scalar: break
            }
            index += 1
        } while depth > 0
        return index
    }

    /// Reads `prefix` events, skips, and reads the rest.
    static func eventsSkipping(at prefix: Int, _ xml: String, options: XMLReadingOptions = .init()) throws
        -> [IngredientEvent]
    {
        var source = try XMLIngredientSource(.text(xml, name: "test.xml"), options: options)
        var events: [IngredientEvent] = []
        for _ in 0..<prefix { if let event = try source.next() { events.append(event) } }
        try source.skipValue()
        events += try collectEvents(&source)
        return events
    }

    /// Checks skipping at every position listed (all by default).
    static func checkSkips(_ xml: String, positions: StrideTo<Int>? = nil, options: XMLReadingOptions = .init()) throws
    {
        var reader = try XMLIngredientSource(.text(xml, name: "test.xml"), options: options)
        let all = try collectEvents(&reader)
        for start in positions ?? stride(from: 0, to: all.count + 1, by: 1) where start <= all.count {
            let expected = Array(all[..<start]) + Array(all[endOfValue(all, from: start)...])
            let got = try eventsSkipping(at: start, xml, options: options)
            #expect(
                got == expected,
                "skipping at event \(start) (\(start < all.count ? all[start].description : "end")) of \(xml.prefix(80))"
            )
        }
    }

    static let documents: [String] = [
        "<a/>",
        "<a>text</a>",
        #"<a x="1" y="&amp;2"/>"#,
        #"<r><e id="1">one</e><e id="2"><b>two</b></e><e/></r>"#,
        "<r><item>1</item><item>2</item><item><n>3</n><n>4</n></item></r>",
        "<p>Hello <b>you</b> there <i>and <u>deep</u> here</i>!</p>",
        "<r>\n  <a>\n    <b>x</b>\n  </a>\n  <c>y</c>\n</r>",
        #"<r xmlns:dc="urn:dc"><dc:creator>A</dc:creator><x dc:y="z">t</x></r>"#,
        #"<!DOCTYPE r [<!ENTITY e "<b>in</b> entity">]><r><a>&e;</a><c>&e; text</c></r>"#,
        "<r><![CDATA[<not markup>]]><x/><!-- c --><?pi d?><y>1</y></r>",
    ]

    @Test("skipping at every event gives the events of reading and discarding", arguments: documents)
    func everyPosition(_ xml: String) throws {
        try Self.checkSkips(xml)
    }

    @Test("skipping across chunk boundaries, with the value partly queued")
    func largeDocument() throws {
        var xml = "<feed>\n"
        for i in 0..<1200 {
            xml += #"  <item id="\#(i)"><title>Item \#(i) &amp; more</title><tag>a</tag><tag>b</tag>"#
            xml += "<body>Mixed <b>bold \(i)</b> text</body><empty/></item>\n"
        }
        xml += "</feed>\n"
        #expect(xml.utf8.count > 2 * 65536)
        try Self.checkSkips(xml, positions: stride(from: 0, to: 40_000, by: 397))
        // Around the ends of the first batches of queued events (where
        // bytesRead grows, a new chunk was parsed): the value then begins
        // in one batch and ends in a later one, or begins just after a key
        // that ended a batch.
        var source = try XMLIngredientSource(.text(xml))
        var boundaries: [Int] = []
        var index = 0
        var bytes = source.bytesRead
        while try source.next() != nil {
            if source.bytesRead != bytes, index > 0 { boundaries.append(index) }
            bytes = source.bytesRead
            index += 1
        }
        #expect(boundaries.count >= 2)
        for boundary in boundaries.prefix(3) {
            try Self.checkSkips(xml, positions: stride(from: boundary - 12, to: boundary + 2, by: 1))
        }
        // The root's whole value (everything but the document dictionary).
        #expect(try Self.eventsSkipping(at: 2, xml) == [.beginDictionary, .key("feed"), .endDictionary])
    }

    @Test("skipping an element whose key ended the first chunk's events")
    func valueStartsInNextChunk() throws {
        // The first 64 KiB end inside <t>'s text, so its key is the last
        // event of the first batch and nothing of its value is queued.
        let head = "<r><p>" + String(repeating: "x", count: 65_514) + "</p><t>"
        #expect(head.utf8.count == 65_527)
        let tails = [
            String(repeating: "y", count: 100) + "</t><z>1</z></r>",
            String(repeating: "y", count: 100) + "<u a='1'>v</u>w</t><z>1</z></r>",
            "<u>" + String(repeating: "y", count: 100) + "</u></t><z>1</z></r>",
        ]
        for tail in tails {
            try Self.checkSkips(head + tail, positions: stride(from: 3, to: 12, by: 1))
            #expect(
                try Self.eventsSkipping(at: 6, head + tail).suffix(5)
                    == [.key("t"), .key("z"), .scalar("1"), .endDictionary, .endDictionary])
        }
    }

    /// Reads `prefix` events (the last a begin), skips the rest of that
    /// container, and reads the rest.
    static func eventsSkippingRest(at prefix: Int, _ xml: String) throws -> [IngredientEvent] {
        var source = try XMLIngredientSource(.text(xml, name: "test.xml"))
        var events: [IngredientEvent] = []
        for _ in 0..<prefix { if let event = try source.next() { events.append(event) } }
        try source.skipRestOfContainer()
        events += try collectEvents(&source)
        return events
    }

    static func checkSkipRest(_ xml: String, positions: StrideTo<Int>? = nil) throws {
        var reader = try XMLIngredientSource(.text(xml, name: "test.xml"))
        let all = try collectEvents(&reader)
        for start in positions ?? stride(from: 0, to: all.count, by: 1) where start < all.count {
            guard case .beginDictionary = all[start] else { continue }
            let expected = Array(all[...start]) + Array(all[endOfValue(all, from: start)...])
            let got = try eventsSkippingRest(at: start + 1, xml)
            #expect(got == expected, "skipping the rest after event \(start) of \(xml.prefix(80))")
        }
    }

    @Test(
        "skipRestOfContainer after every beginDictionary gives the events of reading and discarding",
        arguments: documents)
    func skipRest(_ xml: String) throws {
        try Self.checkSkipRest(xml)
    }

    @Test("skipRestOfContainer across slice and chunk boundaries, and errors in the skipped rest")
    func skipRestLarge() throws {
        var xml = "<feed>\n"
        for i in 0..<1200 {
            xml +=
                #"  <item id="\#(i)"><title>Item \#(i)</title><tag>a</tag><body>Mixed <b>bold</b> text</body></item>\n"#
        }
        xml += "</feed>\n"
        try Self.checkSkipRest(xml, positions: stride(from: 0, to: 30_000, by: 331))
        #expect(try Self.eventsSkippingRest(at: 1, xml) == [.beginDictionary])
        let broken = "<r><a>" + String(repeating: "<p>padding</p>\n", count: 5000) + "<b></c></a></r>"
        var source = try XMLIngredientSource(.text(broken))
        for _ in 0..<3 { _ = try source.next() }
        #expect(throws: EasyBakeError.self) { try source.skipRestOfContainer() }
    }

    @Test("a skipped subtree makes no events (so no strings and no dictionaries)")
    func skippedSubtreeMakesNoEvents() throws {
        var xml = "<r><skip>"
        for i in 0..<3000 { xml += #"<item id="\#(i)"><title>Title \#(i)</title><n>\#(i)</n></item>"# }
        xml += "</skip><keep>1</keep></r>"
        var reader = try XMLIngredientSource(.text(xml))
        let all = try collectEvents(&reader)
        #expect(reader.eventsMade == all.count)

        var skipper = try XMLIngredientSource(.text(xml))
        for _ in 0..<4 { _ = try skipper.next() }  // up to key("skip")
        try skipper.skipValue()
        #expect(try collectEvents(&skipper) == [.key("keep"), .scalar("1"), .endDictionary, .endDictionary])
        // Only what the first 1 KiB slice queued before the skip was made.
        #expect(skipper.eventsMade < 200)
        #expect(all.count > 27_000)
    }

    @Test("skipping the whole document before the first event leaves nothing")
    func wholeDocument() throws {
        var source = try XMLIngredientSource(.text("<r><a>1</a><b x='2'/></r>"))
        try source.skipValue()
        #expect(try source.next() == nil)
        try source.skipValue()
        #expect(try source.next() == nil)
    }

    /// Broken parts that come after more than one 64 KiB chunk of the
    /// skipped value, so that they are parsed while skipping.
    static let brokenInsideSkippedValue: [(String, EasyBakeError.Code)] = [
        ("<b>x</c>", .syntax),
        ("<b x='1' x='2'/>", .syntax),
        ("fish & chips", .syntax),
        ("<b>", .syntax),
        ("<b>&e;</b>", .forbidden),
        ("&undeclared;", .forbidden),
        (String(repeating: "<d>", count: 40) + String(repeating: "</d>", count: 40), .limitExceeded),
        ("<t>" + String(repeating: "x", count: 5000) + "</t>", .limitExceeded),
        ("<t v='" + String(repeating: "x", count: 5000) + "'/>", .limitExceeded),
        ("<!-- a -- b -->", .syntax),
        ("<b>&#0;</b>", .syntax),
    ]

    @Test("errors inside a skipped value still throw, from skipValue", arguments: brokenInsideSkippedValue)
    func errorsInsideSkippedValue(_ broken: String, _ code: EasyBakeError.Code) throws {
        let padding = String(repeating: "<p>padding</p>\n", count: 5000)
        let xml =
            #"<!DOCTYPE r SYSTEM "r.dtd" [<!ENTITY e SYSTEM "file:///etc/passwd">]>"#
            + "\n<r><a>\n" + padding + broken + "</a></r>\n"
        var options = XMLReadingOptions()
        options.limits.maximumDepth = 20
        options.limits.maximumStringBytes = 4096
        var source = try XMLIngredientSource(.text(xml, name: "test.xml"), options: options)
        // The document dictionary, "r", r's dictionary, "a": then skip a's value.
        var read: [IngredientEvent] = []
        for _ in 0..<4 { if let event = try source.next() { read.append(event) } }
        #expect(read == [.beginDictionary, .key("r"), .beginDictionary, .key("a")])
        let error = #expect(throws: EasyBakeError.self) { try source.skipValue() }
        #expect(error?.code == code, "\(String(describing: error))")
        #expect(error?.location?.line == 5003)
        // Reading the same document fails the same way.
        #expect(xmlError(xml, options: options)?.code == code)
    }

    @Test("a well-formed skipped value with the same padding reads on")
    func paddedSkip() throws {
        let xml = "<r><a>" + String(repeating: "<p>padding</p>\n", count: 5000) + "</a><z>after</z></r>"
        var source = try XMLIngredientSource(.text(xml))
        for _ in 0..<4 { _ = try source.next() }
        try source.skipValue()
        #expect(try collectEvents(&source) == [.key("z"), .scalar("after"), .endDictionary, .endDictionary])
    }

    @Test("bytesRead grows to the input's size, also through ProgressReporting")
    func bytesRead() throws {
        var xml = "<r>"
        for i in 0..<20_000 { xml += "<i>\(i)</i>" }
        xml += "</r>"
        let size = xml.utf8.count
        var source = try XMLIngredientSource(.text(xml))
        #expect(source.bytesRead <= 4)
        var seen: [Int] = []
        while try source.next() != nil {
            if seen.last != source.bytesRead { seen.append(source.bytesRead) }
        }
        #expect(seen.count >= size / 65536)
        #expect(seen == seen.sorted())
        #expect(source.bytesRead == size)
        let reporting: any ProgressReporting = source
        #expect(reporting.bytesRead == size)
    }
}
