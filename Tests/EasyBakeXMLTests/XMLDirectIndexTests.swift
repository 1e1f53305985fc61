@testable import EasyBake
@testable import EasyBakeXML
import EasyBakeTestSupport
import Testing

// The index XMLFormat builds straight from libxml2's callbacks must be the
// index the event path builds from the same document (and hold the tree's
// values), and both must fail alike: same code, message and location.

/// What one way of reading gave: the value, or the error's full text.
private enum Outcome: Equatable, CustomStringConvertible {
    case value(String)
    case failure(String)

    var description: String {
        switch self {
        case .value(let text): "value \(text)"
        case .failure(let text): "failure \(text)"
        }
    }
}

/// Every value in order, with its kind: dictionaries' keys in order, so
/// that two renderings are equal only for exactly equal values.
private func render(_ value: Ingredients) -> String {
    switch value {
    case .null: return "null"
    case .bool(let flag): return "bool(\(flag))"
    case .integer(let integer): return "int(\(integer))"
    case .float(let float): return "float(\(float))"
    case .exactNumber(let text): return "exact(\(text))"
    case .string(let text): return text.debugDescription
    case .array(let elements): return "[" + elements.map(render).joined(separator: ", ") + "]"
    case .dictionary(let members):
        return "{" + members.map { "\($0.key.debugDescription): \(render($0.value))" }.joined(separator: ", ") + "}"
    }
}

/// The index's entries, position by position: kind, span, element count and bytes.
private func render(_ index: IngredientIndex) -> String {
    var lines: [String] = []
    for position in 0..<index.count {
        let bytes = index.withUTF8(at: position) { Array($0) }
        lines.append(
            "\(index.kind(at: position)) \(index.end(of: position) - position) \(index.elementCount(at: position)) \(bytes)"
        )
    }
    return lines.joined(separator: "\n") + " elements: \(index.traits.contains(.dictionariesAreElements))"
}

private func errorText(_ error: EasyBakeError) -> String {
    "\(error.code) \(error.message) at \(error.location.map { "\($0.line):\($0.column)" } ?? "-") | \(error)"
}

/// The document read through events into an index (the reference), and
/// straight into an index; each as the tree of the index and its entries.
private func outcomes(_ bytes: [UInt8], _ options: XMLReadingOptions) -> (
    events: Outcome, direct: Outcome, tree: Outcome
) {
    let input = IngredientInput.bytes(bytes, name: "test.xml")
    func run(_ body: () throws(EasyBakeError) -> IngredientIndex) -> Outcome {
        do {
            let index = try body()
            return .value(render(try Ingredients(index: index)) + "\n" + render(index))
        } catch {
            return .failure(errorText(error))
        }
    }
    let events = run { () throws(EasyBakeError) in
        var source = try XMLIngredientSource(input, options: options)
        var index = IngredientIndex()
        try index.read(single: &source)
        return index
    }
    let direct = run { () throws(EasyBakeError) in
        // An index that held another document first: it is replaced.
        var index = IngredientIndex(["old": ["x", "y"]])
        try XMLFormat(options: options).readIndex(input, into: &index)
        return index
    }
    let tree: Outcome
    do {
        var source = try XMLIngredientSource(input, options: options)
        tree = .value(render(try Ingredients(reading: &source)))
    } catch {
        tree = .failure(errorText(error))
    }
    return (events, direct, tree)
}

/// Checks that both paths agree; returns whether the document read.
@discardableResult
private func expectSame(_ bytes: [UInt8], _ options: XMLReadingOptions, _ comment: String) -> Bool {
    let (events, direct, tree) = outcomes(bytes, options)
    #expect(events == direct, "\(comment)\n\(String(decoding: bytes, as: UTF8.self))")
    // The tree reads the same values (the index's entries aside).
    switch (events, tree) {
    case (.value(let indexed), .value(let read)):
        #expect(indexed.hasPrefix(read + "\n"), "\(comment): tree \(read)")
    case (.failure(let a), .failure(let b)):
        #expect(a == b, "\(comment)")
    default:
        Issue.record("\(comment): events \(events), tree \(tree)")
    }
    if case .value = events { return true }
    return false
}

/// The option sets each document is read with.
private let optionSets: [(String, XMLReadingOptions)] = {
    var sets: [(String, XMLReadingOptions)] = [("default", XMLReadingOptions())]
    sets.append(("trimsText", XMLReadingOptions(trimsText: true)))
    sets.append(("resolveToURIs", XMLReadingOptions(namespaces: .resolveToURIs)))
    sets.append(("strip", XMLReadingOptions(namespaces: .strip, keepsNamespaceDeclarations: false)))
    sets.append(("acceptsNamespaceErrors", XMLReadingOptions(namespaces: .resolveToURIs, acceptsNamespaceErrors: true)))
    // Attributes and elements share keys, and the text key is an element name.
    sets.append(("bare keys", XMLReadingOptions(attributePrefix: "", textKey: "b")))
    sets.append(("markup", XMLReadingOptions(markupElements: ["p", "b"])))
    var limits = IngredientLimits.default
    limits.maximumNodes = 12
    sets.append(("12 nodes", XMLReadingOptions(limits: limits)))
    limits = .default
    limits.maximumDepth = 4
    limits.maximumStringBytes = 12
    limits.maximumExpansion = 20
    sets.append(("small limits", XMLReadingOptions(limits: limits)))
    return sets
}()

@Suite("XML straight into an index")
struct XMLDirectIndexTests {
    static let handWritten: [String] = [
        "<a/>",
        "<a></a>",
        "<a>text</a>",
        "<a>  </a>",
        "<a>\n  <b>1</b>\n</a>",
        "<a x=\"1\" y=\"2\"/>",
        "<a x=\"1\">text</a>",
        "<a x=\"&amp;&lt;&#65;\">&amp;&#x42;</a>",
        "<a><b>1</b><b>2</b><b>3</b></a>",
        "<a><b>1</b><c/><b>2</b></a>",
        "<a><b>1</b><b>2</b><c/><b>3</b><b>4</b><c>x</c></a>",
        "<a><b><c>1</c></b><b><c>2</c><c>3</c></b></a>",
        "<a><b/><b/><b x=\"1\"/></a>",
        "<a>t1<b/>t2<b/>t3</a>",
        "<a>t1<b/>  <c/>t2</a>",
        "<a><![CDATA[x < y]]></a>",
        "<a>one<![CDATA[ & two]]>three</a>",
        "<!DOCTYPE a [<!ENTITY e \"entity text\">]><a>&e;&e;<b>&e;</b></a>",
        "<!DOCTYPE a [<!ENTITY e \"<b>in</b>\">]><a>&e;&e;</a>",
        "<!DOCTYPE a [<!ENTITY e \"v\">]><a x=\"&e;&e;\"/>",
        "<a xmlns=\"urn:d\" xmlns:p=\"urn:p\"><p:b p:x=\"1\">v</p:b><b/></a>",
        "<p:a xmlns:p=\"urn:p\"><p:b/><q:b xmlns:q=\"urn:p\"/></p:a>",
        "<a xmlns:p=\"urn:p\"><p:b/><b/><p:b/></a>",
        "<a><p:b/></a>",
        "<a xmlns:e=\"urn:easybake:xml\"><t e:empty=\"array\"/><s e:empty=\"string\"/><d e:empty=\"dictionary\"/></a>",
        "<a xmlns:e=\"urn:easybake:xml\"><t e:empty=\"array\"/><t>x</t><t e:empty=\"array\"/></a>",
        "<a xmlns:e=\"urn:easybake:xml\"><t e:empty=\"dictionary\"/><u/><t e:empty=\"dictionary\"/></a>",
        "<a xmlns:e=\"urn:easybake:xml\"><t e:empty=\"list\"/></a>",
        "<a xmlns:e=\"urn:easybake:xml\"><t e:empty=\"array\">x</t></a>",
        "<a xmlns:e=\"urn:easybake:xml\"><t e:empty=\"array\" x=\"1\"/></a>",
        "<a xmlns:e=\"urn:easybake:xml\"><t e:other=\"1\"/></a>",
        "<a><b>1</b></a><!-- after -->",
        "<?xml version=\"1.0\"?><!-- c --><?pi x?><a><!-- in --><?pi?>t</a>",
        "<a><b>1</b><b>2</b></a>junk",
        "<a><b>1</b>",
        "<a><b></a>",
        "",
        "   ",
        "<a x=\"1\" x=\"2\"/>",
        "<a>&undefined;</a>",
        "<!DOCTYPE a [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><a>&x;</a>",
        "<!DOCTYPE a [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;\">]><a>&b;&b;</a>",
        "<a><b><c><d><e><f>deep</f></e></d></c></b></a>",
        "<a>a long text that passes a small string limit</a>",
        "<averyveryverylongname/>",
        "<a averyveryverylongname=\"1\"/>",
        "<a x=\"a long value past the limit\"/>",
        "<a><b>1</b><b>2</b><b>3</b><b>4</b><b>5</b><b>6</b><b>7</b><b>8</b><b>9</b><b>10</b><b>11</b><b>12</b></a>",
        "<a b=\"attr\"><b>elem</b><c/><b>elem2</b></a>",
        "<a>text<b>1</b></a>",
        "<a><b>t<c/></b><b>u</b></a>",
        "<p><b>bold</b> and <i>it</i> text</p>",
        "<a><p>x <b>y</b> z</p><p>w</p></a>",
        "<a xmlns:q=\"urn:q\" q:x=\"1\" xmlns=\"urn:d\"><q:b/></a>",
        "<?xml version=\"1.1\"?><a xmlns:p=\"urn:p\"><b xmlns:p=\"\"><p:c/></b></a>",
        "<a>\u{E9}t\u{E9} \u{1F600}</a>",
        "<a>x\r\ny</a>",
    ]

    @Test("hand-written documents: the same index, value and errors as the event path", arguments: handWritten)
    func handWrittenDocument(_ xml: String) {
        for (name, options) in optionSets {
            expectSame(Array(xml.utf8), options, name)
        }
    }

    @Test("seeded random documents and mutations of them: the same as the event path")
    func randomDocuments() {
        var random = SeededGenerator(seed: 42)
        var read = 0
        var failed = 0
        for round in 0..<300 {
            let document = RandomXML.document(&random)
            let (name, options) = optionSets[Int(random.next() % UInt64(optionSets.count))]
            for (document, options, comment) in [
                (document, options, "round \(round), \(name)"),
                (document, XMLReadingOptions(), "round \(round), default"),
            ] {
                if expectSame(document, options, comment) { read += 1 } else { failed += 1 }
            }
            var mutated = document
            for _ in 0...(random.next() % 3) { RandomXML.mutate(&mutated, &random) }
            if expectSame(mutated, options, "round \(round) mutated, \(name)") { read += 1 } else { failed += 1 }
        }
        // Both outcomes are well represented.
        #expect(read > 300 && failed > 150, "\(read) read, \(failed) failed")
    }

    @Test("a node limit passed in one slice and a syntax error in a later one: the limit is reported, as by events")
    func nodeLimitBeforeLaterError() {
        let records = String(repeating: "<r><b>1</b><b>2</b><c x=\"y\">t</c></r>\n", count: 400)
        var limits = IngredientLimits.default
        limits.maximumNodes = 300
        for tail in ["</root>", "</root>junk", "<oops", ""] {
            expectSame(Array(("<root>" + records + tail).utf8), XMLReadingOptions(limits: limits), "tail \(tail)")
        }
        // The error in the same slice as the value that passes the limit wins.
        let early = "<root><r><b>1</b></r><r><b>1</b><<</r>" + records + "</root>"
        limits.maximumNodes = 5
        expectSame(Array(early.utf8), XMLReadingOptions(limits: limits), "same slice")
    }

    @Test("a marked element with a kept namespace declaration holds content: an error, on both paths")
    func markedElementWithDeclaration() throws {
        let xml = "<a xmlns:e=\"urn:easybake:xml\"><t xmlns:q=\"urn:q\" e:empty=\"array\"/></a>"
        let error = try #require(xmlError(xml))
        #expect(error.code == .invalidValue)
        #expect(error.message.contains("expected nothing inside an element marked easybake:empty=\"array\""))
        expectSame(Array(xml.utf8), XMLReadingOptions(), "kept declaration")
        // Without kept declarations there is nothing but the marker.
        let options = XMLReadingOptions(keepsNamespaceDeclarations: false)
        #expect(try xmlTree(xml, options: options) == .dict(["a": .dict(["t": []])]))
        expectSame(Array(xml.utf8), options, "declarations dropped")
    }

    @Test("a large document of records with repeats: the same index")
    func largeDocument() {
        var random = SeededGenerator(seed: 7)
        var xml = "<users>"
        for i in 0..<300 {
            xml += "<user id=\"\(i)\"><name>n\(i)</name>"
            for _ in 0..<(random.next() % 4) { xml += "<tags>t\(random.next() % 10)</tags>" }
            if random.next() % 3 == 0 { xml += "<note/>" }
            for _ in 0..<(random.next() % 3) { xml += "<orders><id>\(random.next() % 100)</id><sku>s</sku></orders>" }
            if random.next() % 4 == 0 { xml += "<tags>late</tags>" }
            xml += "</user>\n"
        }
        xml += "</users>"
        expectSame(Array(xml.utf8), XMLReadingOptions(), "users")
    }

    @Test("XML declares its elements as a trait, and its index, whole or a record's, keeps it")
    func traits() throws {
        let input = IngredientInput.text("<feed><item><t>a</t></item></feed>")
        #expect(try XMLIngredientSource(input).traits == .markup)
        #expect(try XMLIngredientSource(input).dictionariesAreElements)
        #expect(try AnyIngredientSource(XMLIngredientSource(input)).traits == .markup)
        var index = IngredientIndex()
        try XMLFormat().readIndex(input, into: &index)
        #expect(index.traits == .markup)
        // A lone item is one record of `feed.item[*]`.
        struct Item: Decodable { let t: String }
        let records = try Baker().bakeEach(Item.self, from: XMLIngredientSource(input), each: "feed.item[*]")
        #expect(try records.map { try $0.get().t } == ["a"])
    }
}

/// Random documents over a small vocabulary, so that names repeat next to
/// each other and apart, with attributes, namespaces, mixed content, CDATA,
/// entities, comments, EasyBake's empty markers and whitespace.
enum RandomXML {
    static let names = ["a", "b", "tags", "p", "p:c", "q:d", "item"]
    static let attributes = ["id", "x", "p:y", "b"]
    static let values = ["1", "a&amp;b", "", " sp ", "&#65;", "&e;", "long attribute value"]
    static let texts = [
        "t", "  ", "\n  ", "x &amp; y", "&e;", "<![CDATA[c<d]]>", "&#x1F600;", "\u{E9}", "longer text here",
    ]

    static func document(_ random: inout SeededGenerator) -> [UInt8] {
        var out = ""
        if random.next() % 3 == 0 { out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" }
        out += "<!DOCTYPE root [<!ENTITY e \"ent\">]>"
        out += "<root xmlns:p=\"urn:p\" xmlns:easybake=\"urn:easybake:xml\""
        if random.next() % 4 == 0 { out += " xmlns=\"urn:default\"" }
        out += ">"
        element(into: &out, depth: 0, &random)
        for _ in 0..<(random.next() % 4) { element(into: &out, depth: 0, &random) }
        out += "</root>"
        return Array(out.utf8)
    }

    static func pick<T>(_ items: [T], _ random: inout SeededGenerator) -> T {
        items[Int(random.next() % UInt64(items.count))]
    }

    static func element(into out: inout String, depth: Int, _ random: inout SeededGenerator) {
        var name = pick(names, &random)
        if random.next() % 10 == 0 {
            if name.hasPrefix("q:") { name = "item" }
            out += "<" + name
            // A marked element holds nothing else (a few do, an error).
            if random.next() % 30 == 0 { out += " id=\"1\"" }
            out += " easybake:empty=\"\(pick(["array", "string", "dictionary"], &random))\"/>"
            return
        }
        out += "<" + name
        if name.hasPrefix("q:") { out += " xmlns:q=\"urn:q\"" }
        var used = Set<String>()
        for _ in 0..<(random.next() % 3) {
            let attribute = pick(attributes, &random)
            guard used.insert(attribute).inserted else { continue }
            out += " \(attribute)=\"\(pick(values, &random))\""
        }
        if random.next() % 10 == 0 {
            out += "/>"
            return
        }
        out += ">"
        let children = depth >= 3 ? 0 : Int(random.next() % 5)
        if children == 0 {
            if random.next() % 4 != 0 { out += pick(texts, &random) }
        } else {
            for _ in 0..<children {
                switch random.next() % 6 {
                case 0: out += pick(texts, &random)
                case 1: out += "<!-- c -->"
                default: break
                }
                element(into: &out, depth: depth + 1, &random)
                // Often the same element again, next to the first.
                if random.next() % 3 == 0 { element(into: &out, depth: depth + 1, &random) }
            }
            if random.next() % 3 == 0 { out += pick(texts, &random) }
        }
        out += "</" + name + ">"
    }

    static func mutate(_ bytes: inout [UInt8], _ random: inout SeededGenerator) {
        guard !bytes.isEmpty else { return }
        let at = Int(random.next() % UInt64(bytes.count))
        switch random.next() % 4 {
        case 0:
            bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(random.next() % 5)))
        case 1:
            bytes.insert(pick(Array("<>/&;\"'= x#]".utf8), &random), at: at)
        case 2:
            let end = min(bytes.count, at + 1 + Int(random.next() % 20))
            bytes.insert(contentsOf: bytes[at..<end], at: Int(random.next() % UInt64(bytes.count)))
        default:
            bytes[at] = pick(Array("<>/&ab \n".utf8), &random)
        }
    }
}
