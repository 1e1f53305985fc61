import EasyBake
import EasyBakeXML
import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import SWXMLHash
import XMLCoder

extension Contenders {
    static let xml: [Contender] = [
        easyBakeTree("xml", XMLFormat()), easyBakeIndex("xml", XMLFormat()), swxmlHashTree(), libxml2DOMTree(),
        libxml2SAX(.tree),
        easyBakeBake("xml", XMLFormat()), easyBakeIndexBake("xml", XMLFormat()), easyBakeBakeable("xml", XMLFormat()),
        xmlCoderBake(), xmlParserDelegateBake(), swxmlHashBake(),
        easyBakeSelect("xml", XMLFormat()), easyBakeIndexSelect("xml", XMLFormat()), xmlCoderSelect(),
        xmlParserDelegateSelect(), swxmlHashSelect(),
        libxml2SAX(.select),
    ]

    // MARK: libxml2

    static func libxml2DOMTree() -> Contender {
        Contender(.tree, "xml", "libxml2 DOM", note: "xmlReadMemory") { workload in
            try BareC.libxml2DOM(path: workload.path)
        }
    }

    static func libxml2SAX(_ scenario: Scenario) -> Contender {
        Contender(
            scenario, "xml", "libxml2 SAX (bare)", note: "push parser, 64 KiB chunks, counting callbacks; the ceiling"
        ) {
            .counted(try BareC.libxml2SAX(path: $0.path))
        }
    }

    // MARK: SWXMLHash

    private static func swxmlHashParse(_ path: String) throws -> XMLIndexer {
        let indexer = XMLHash.config { $0.detectParsingErrors = true }.parse(try readData(path))
        if case .parsingError(let error) = indexer { throw BenchError("SWXMLHash: \(error)") }
        return indexer
    }

    static func swxmlHashTree() -> Contender {
        Contender(.tree, "xml", "SWXMLHash", inputLimit: xmlParserDataLimit, limitReason: xmlParserDataReason) {
            workload in
            let users = try swxmlHashParse(workload.path)["users"]["user"].all
            return Outcome(count: users.count) {
                idFingerprint(users.map { Int($0.element?.attribute(by: "id")?.text ?? "") ?? -1 })
            }
        }
    }

    static func swxmlHashBake() -> Contender {
        Contender(
            .bake, "xml", "SWXMLHash", inputLimit: xmlParserDataLimit, limitReason: xmlParserDataReason,
            note: "tree, then mapping code"
        ) { workload in
            let users = try swxmlHashParse(workload.path)["users"]["user"].all
            var record = FieldRecord()
            return .users(
                try users.map { indexer in
                    guard let user = indexer.element else { throw BenchError("SWXMLHash: not an element") }
                    record.reset()
                    for (name, attribute) in user.allAttributes { record.fields[name] = attribute.text }
                    for case let child as SWXMLHash.XMLElement in user.children {
                        switch child.name {
                        case "address":
                            for case let part as SWXMLHash.XMLElement in child.children {
                                record.address[part.name] = part.text
                            }
                        case "orders":
                            var order: [String: String] = [:]
                            for case let part as SWXMLHash.XMLElement in child.children { order[part.name] = part.text }
                            record.orders.append(order)
                        case "tags": record.tags.append(child.text)
                        default: record.fields[child.name] = child.text
                        }
                    }
                    return try User(fields: record)
                })
        }
    }

    static func swxmlHashSelect() -> Contender {
        Contender(
            .select, "xml", "SWXMLHash", inputLimit: xmlParserDataLimit, limitReason: xmlParserDataReason,
            note: "tree, then three lookups"
        ) { workload in
            let users = try swxmlHashParse(workload.path)["users"]["user"].all
            return .picks(
                try users.map { user in
                    guard let id = user.element?.attribute(by: "id").flatMap({ Int($0.text) }),
                        let email = user["email"].element?.text, let city = user["address"]["city"].element?.text
                    else {
                        throw BenchError("SWXMLHash: a user without id, email or address.city")
                    }
                    return Pick(id: id, email: email, city: city)
                })
        }
    }

    // MARK: XMLCoder

    /// XMLCoder's default `trimValueWhitespaces: true` trims each text run
    /// between entity references, so `"quoted" <fast>` (written with
    /// `&quot;` and `&lt;`) loses the space between them; exact text needs it off.
    private static func xmlDecoder() -> XMLDecoder {
        XMLDecoder(trimValueWhitespaces: false, removeWhitespaceElements: true)
    }

    private static let xmlCoderNote =
        "XMLDecoder(trimValueWhitespaces: false, removeWhitespaceElements: true); the default trims around entities"

    static func xmlCoderBake() -> Contender {
        Contender(
            .bake, "xml", "XMLCoder", inputLimit: xmlParserDataLimit, limitReason: xmlParserDataReason,
            note: xmlCoderNote
        ) { workload in
            let decoder = xmlDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return .users(try decoder.decode(XMLUsersDocument.self, from: try readData(workload.path)).user)
        }
    }

    static func xmlCoderSelect() -> Contender {
        Contender(
            .select, "xml", "XMLCoder", inputLimit: xmlParserDataLimit, limitReason: xmlParserDataReason,
            note: xmlCoderNote
        ) { workload in
            .picks(try xmlDecoder().decode(XMLPickDocument.self, from: try readData(workload.path)).user.map(\.pick))
        }
    }

    // MARK: Foundation's XMLParser

    static func xmlParserDelegateBake() -> Contender {
        Contender(
            .bake, "xml", "XMLParser delegate", inputLimit: xmlParserDataLimit, limitReason: xmlParserDataReason,
            note: "a delegate that builds records"
        ) { workload in
            var users: [User] = []
            try RecordXMLDelegate.parse(workload.path) { users.append(try User(fields: $0)) }
            return .users(users)
        }
    }

    static func xmlParserDelegateSelect() -> Contender {
        Contender(
            .select, "xml", "XMLParser delegate", inputLimit: xmlParserDataLimit, limitReason: xmlParserDataReason,
            note: "keeps only the three fields' text"
        ) { workload in
            var picks: [Pick] = []
            try RecordXMLDelegate.parse(workload.path, keeping: ["id", "email", "city"]) {
                picks.append(try Pick(fields: $0))
            }
            return .picks(picks)
        }
    }
}

/// An `XMLParser` delegate that collects each `<user>`'s element texts into
/// a ``FieldRecord`` and hands it on — what a user of `XMLParser` writes.
final class RecordXMLDelegate: NSObject, XMLParserDelegate {
    private enum Section { case user, address, order }

    private var record = FieldRecord()
    private var order: [String: String] = [:]
    private var text = ""
    private var depth = 0
    private var section = Section.user
    private let keeping: Set<String>?
    private let onRecord: (FieldRecord) throws -> Void
    private var failure: (any Error)?

    private init(keeping: Set<String>?, onRecord: @escaping (FieldRecord) throws -> Void) {
        self.keeping = keeping
        self.onRecord = onRecord
    }

    /// Parses the file at `path`, calling `onRecord` for each record; with
    /// `keeping`, only elements of those names are recorded.
    static func parse(
        _ path: String, keeping: Set<String>? = nil,
        onRecord: @escaping (FieldRecord) throws -> Void
    ) throws {
        let parser = XMLParser(data: try readData(path))
        let delegate = RecordXMLDelegate(keeping: keeping, onRecord: onRecord)
        parser.delegate = delegate
        let finished = parser.parse()
        if let failure = delegate.failure { throw failure }
        guard finished else {
            throw BenchError(
                "XMLParser: \(parser.parserError.map { "\($0)" } ?? "failed") at line \(parser.lineNumber)")
        }
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        depth += 1
        text = ""
        switch depth {
        case 2:
            record.reset()
            for (key, value) in attributes where keeping?.contains(key) ?? true { record.fields[key] = value }
        case 3:
            switch name {
            case "address": section = .address
            case "orders": section = .order; order = [:]
            default: section = .user
            }
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if depth >= 3 { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        defer { depth -= 1; text = "" }
        switch depth {
        case 4:
            guard keeping?.contains(name) ?? true else { return }
            if section == .address { record.address[name] = text } else if section == .order { order[name] = text }
        case 3:
            switch section {
            case .address: break
            case .order: if keeping == nil { record.orders.append(order) }
            case .user:
                guard keeping?.contains(name) ?? true else { return }
                if name == "tags" { record.tags.append(text) } else { record.fields[name] = text }
            }
        case 2:
            do { try onRecord(record) } catch {
                failure = error
                parser.abortParsing()
            }
        default: break
        }
    }
}
