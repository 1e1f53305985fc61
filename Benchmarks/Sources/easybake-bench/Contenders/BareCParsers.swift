import CBenchXML2
import CBenchYAML
import Foundation

/// The bare C parsers: the ceiling any parser built on them can reach.
/// Each does the least a caller must do to find the records — a depth
/// counter in its callbacks — and builds nothing.
enum BareC {
    /// The state of the SAX callbacks: element depth and elements at depth 2
    /// (`<user>` under `<users>`).
    private struct SAXCounter {
        var depth = 0
        var records = 0
    }

    /// libxml2's push parser with SAX2 callbacks that only count, fed the
    /// file in 64 KiB chunks.
    static func libxml2SAX(path: String) throws -> Int {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw BenchError("cannot open \(path)") }
        defer { close(fd) }
        var handler = xmlSAXHandler()
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = { context, _, _, _, _, _, _, _, _ in
            let counter = context!.assumingMemoryBound(to: SAXCounter.self)
            counter.pointee.depth += 1
            if counter.pointee.depth == 2 { counter.pointee.records += 1 }
        }
        handler.endElementNs = { context, _, _, _ in
            context!.assumingMemoryBound(to: SAXCounter.self).pointee.depth -= 1
        }
        let counter = UnsafeMutablePointer<SAXCounter>.allocate(capacity: 1)
        counter.initialize(to: SAXCounter())
        defer { counter.deallocate() }
        guard let parser = xmlCreatePushParserCtxt(&handler, counter, nil, 0, path) else {
            throw BenchError("xmlCreatePushParserCtxt failed")
        }
        defer { xmlFreeParserCtxt(parser) }
        _ = xmlCtxtUseOptions(parser, Int32(XML_PARSE_NONET.rawValue))
        let chunk = UnsafeMutablePointer<CChar>.allocate(capacity: 1 << 16)
        defer { chunk.deallocate() }
        while true {
            let count = read(fd, chunk, 1 << 16)
            guard count >= 0 else { throw BenchError("cannot read \(path)") }
            if xmlParseChunk(parser, chunk, Int32(count), count == 0 ? 1 : 0) != 0 || parser.pointee.wellFormed == 0 {
                throw BenchError("libxml2 SAX: \(lastXMLError())")
            }
            if count == 0 { break }
        }
        return counter.pointee.records
    }

    /// libxml2's DOM (`xmlReadMemory`): the record count and each record's
    /// `id` attribute, read after the clock stops.
    static func libxml2DOM(path: String) throws -> Outcome {
        let data = try readData(path)
        let document: xmlDocPtr? = data.withUnsafeBytes { bytes in
            xmlReadMemory(
                bytes.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(bytes.count), path, nil,
                Int32(XML_PARSE_NONET.rawValue))
        }
        guard let document else { throw BenchError("libxml2 DOM: \(lastXMLError())") }
        var records: [xmlNodePtr] = []
        var child = xmlDocGetRootElement(document)?.pointee.children
        while let node = child {
            if node.pointee.type == XML_ELEMENT_NODE { records.append(node) }
            child = node.pointee.next
        }
        return Outcome(count: records.count) {
            defer { xmlFreeDoc(document) }
            return idFingerprint(
                records.map { node -> Int in
                    var attribute = node.pointee.properties
                    while let a = attribute {
                        if String(cString: a.pointee.name) == "id", let text = a.pointee.children?.pointee.content {
                            return Int(String(cString: text)) ?? -1
                        }
                        attribute = a.pointee.next
                    }
                    return -1
                })
        }
    }

    private static func lastXMLError() -> String {
        guard let error = xmlGetLastError(), let message = error.pointee.message else { return "unknown error" }
        return "line \(error.pointee.line): " + String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// libyaml's event loop over the whole file, counting the mappings that
    /// are elements of the top-level sequence.
    static func libyamlEvents(path: String) throws -> Int {
        let data = try readData(path)
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { throw BenchError("yaml_parser_initialize failed") }
        defer { yaml_parser_delete(&parser) }
        return try data.withUnsafeBytes { bytes -> Int in
            yaml_parser_set_input_string(&parser, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count)
            var event = yaml_event_t()
            var depth = 0
            var records = 0
            while true {
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
                    throw BenchError("libyaml: \(problem) at line \(parser.problem_mark.line + 1)")
                }
                let type = event.type
                yaml_event_delete(&event)
                switch type {
                case YAML_MAPPING_START_EVENT:
                    if depth == 2 { records += 1 }
                    depth += 1
                case YAML_SEQUENCE_START_EVENT: depth += 1
                case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT: depth -= 1
                case YAML_STREAM_END_EVENT: return records
                default: break
                }
            }
        }
    }
}
