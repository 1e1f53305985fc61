import CBenchSimdjson
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

    // MARK: simdjson

    /// The kernel simdjson chose for this processor, for the report's notes.
    static var simdjsonImplementation: String { String(cString: easybake_bench_simdjson_implementation()) }

    /// simdjson's DOM: the whole document parsed to its tape, then each
    /// record's `id` read from it, inside the clock as the EasyBake index
    /// row reads its ids.
    static func simdjsonDOM(path: String) throws -> Outcome {
        var ids: [Int] = []
        try withUnsafeMutablePointer(to: &ids) { ids in
            try withSimdjsonError { error, capacity in
                easybake_bench_simdjson_dom_ids(
                    path, ids,
                    { context, id in context!.assumingMemoryBound(to: [Int].self).pointee.append(Int(id)) }, error,
                    capacity)
            }
        }
        return Outcome(count: ids.count) { idFingerprint(ids) }
    }

    /// simdjson's On-Demand API: `id`, `email` and `address.city` of each
    /// record, every other value passed over on its structural index.
    static func simdjsonOnDemandPicks(path: String) throws -> [Pick] {
        var picks: [Pick] = []
        try withUnsafeMutablePointer(to: &picks) { picks in
            try withSimdjsonError { error, capacity in
                easybake_bench_simdjson_ondemand_picks(
                    path, picks,
                    { context, id, email, emailLength, city, cityLength in
                        func text(_ bytes: UnsafePointer<CChar>?, _ count: Int) -> String {
                            String(decoding: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self)
                        }
                        context!.assumingMemoryBound(to: [Pick].self).pointee.append(
                            Pick(id: Int(id), email: text(email, emailLength), city: text(city, cityLength)))
                    }, error, capacity)
            }
        }
        return picks
    }

    /// Runs a shim call that returns -1 with a message, as a thrown error.
    private static func withSimdjsonError(_ call: (UnsafeMutablePointer<CChar>, Int) -> Int32) throws {
        var message = [CChar](repeating: 0, count: 256)
        let status = message.withUnsafeMutableBufferPointer { call($0.baseAddress!, $0.count) }
        guard status == 0 else {
            let text = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            throw BenchError("simdjson: " + String(decoding: text, as: UTF8.self))
        }
    }
}
