internal import CYAML
import EasyBake

/// Reads YAML into ``IngredientEvent``s, driving libyaml's event parser
/// directly — no intermediate node tree.
///
/// Plain scalars are resolved by the YAML 1.2 core schema: `null`, `~` and
/// the empty scalar are null; `true`/`false` (in three casings) are Bools —
/// YAML 1.1's `yes`/`no`/`on`/`off` stay strings, as YAML 1.2 says; decimal,
/// `0x` and `0o` integers and decimal floats (with `.inf` and `.nan`) are
/// numbers, never silently rounded. Quoted and block scalars are strings.
/// The explicit tags `!!str`, `!!int`, `!!float`, `!!bool` and `!!null` are
/// honoured.
///
/// An alias replays the events of its anchored node; the events replayed
/// count against ``IngredientLimits/maximumExpansion``, so an alias bomb
/// ("billion laughs") fails fast. Keys that repeat within one mapping are an
/// error (``DuplicateKeyPolicy/reject``, as the YAML spec requires), unless
/// the policy is changed. A stream of several documents yields each
/// document's events in turn.
public struct YAMLIngredientSource: IngredientSource {
    public var duplicateKeyPolicy: DuplicateKeyPolicy

    private let parser: YAMLParser

    /// A source over `input` (files are mapped, not copied).
    ///
    /// - Throws: ``EasyBakeError/Code/io`` when the input cannot be read.
    public init(
        input: IngredientInput, limits: IngredientLimits = .default, duplicateKeyPolicy: DuplicateKeyPolicy = .reject
    ) throws(EasyBakeError) {
        let bytes = try input.loadBytes()
        guard bytes.buffer.count <= limits.maximumInputBytes else {
            throw EasyBakeError.limit("maximumInputBytes", limits.maximumInputBytes, at: nil)
        }
        parser = YAMLParser(bytes: bytes, limits: limits, sourceName: input.name)
        self.duplicateKeyPolicy = duplicateKeyPolicy
    }

    /// A source over the UTF-8 of `text`.
    public init(text: String, name: String = "<text>", limits: IngredientLimits = .default) throws(EasyBakeError) {
        try self.init(input: .text(text, name: name), limits: limits)
    }

    public mutating func next() throws(EasyBakeError) -> IngredientEvent? { try parser.next() }

    public var location: SourceLocation { parser.location }

    /// How many documents have begun so far.
    public var documentCount: Int { parser.documentCount }
}

/// Owns a `yaml_parser_t` and turns its events into ingredient events.
final class YAMLParser {
    private var parser = yaml_parser_t()
    private let bytes: LoadedBytes
    private let limits: IngredientLimits
    private let sourceName: String

    private struct Frame {
        var isMapping: Bool
        var expectingKey: Bool
    }

    private var frames: [Frame] = []
    /// Events waiting to be returned (alias replays).
    private var queue: [(IngredientEvent, line: Int, column: Int)] = []
    private var queueIndex = 0
    /// Recorded events of anchored nodes, by anchor.
    private var anchors: [String: [IngredientEvent]] = [:]
    /// Anchors being recorded: name, events so far, depth at which the node began.
    private var recording: [(name: String, events: [IngredientEvent], depth: Int)] = []
    private var expansion = 0
    private var markLine = 0
    private var markColumn = 0
    private var finished = false
    private(set) var documentCount = 0

    init(bytes: LoadedBytes, limits: IngredientLimits, sourceName: String) {
        self.bytes = bytes
        self.limits = limits
        self.sourceName = sourceName
        yaml_parser_initialize(&parser)
        if let base = bytes.buffer.baseAddress {
            yaml_parser_set_input_string(&parser, base.assumingMemoryBound(to: UInt8.self), bytes.buffer.count)
        } else {
            yaml_parser_set_input_string(&parser, "", 0)
        }
    }

    deinit { yaml_parser_delete(&parser) }

    var location: SourceLocation { location(line: markLine, column: markColumn) }

    private func location(line: Int, column: Int) -> SourceLocation {
        SourceLocation(sourceName: sourceName, line: line + 1, column: column + 1, lineText: lineText(line))
    }

    /// The text of a 0-based line, found by scanning only when reporting.
    private func lineText(_ line: Int) -> String? {
        let buffer = bytes.buffer
        var current = 0
        var start = 0
        var index = 0
        while index < buffer.count, current < line {
            if buffer[index] == UInt8(ascii: "\n") {
                current += 1
                start = index + 1
            }
            index += 1
        }
        guard current == line else { return nil }
        var end = start
        while end < buffer.count, buffer[end] != UInt8(ascii: "\n"), buffer[end] != UInt8(ascii: "\r"), end - start < 400 { end += 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
    }

    private func parserError() -> EasyBakeError {
        let problem = parser.problem.map { String(cString: $0) } ?? "malformed YAML"
        let context = parser.context.map { String(cString: $0) }
        let mark = parser.problem_mark
        let message = context.map { "\(problem) \($0)" } ?? problem
        let code: EasyBakeError.Code = parser.error == YAML_READER_ERROR ? .unsupportedEncoding : .syntax
        return EasyBakeError(code, message, location: location(line: Int(mark.line), column: Int(mark.column)))
    }

    func next() throws(EasyBakeError) -> IngredientEvent? {
        while true {
            if queueIndex < queue.count {
                let (event, line, column) = queue[queueIndex]
                queueIndex += 1
                if queueIndex == queue.count {
                    queue.removeAll(keepingCapacity: true)
                    queueIndex = 0
                }
                markLine = line
                markColumn = column
                return try deliver(event)
            }
            if finished { return nil }
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else { throw parserError() }
            defer { yaml_event_delete(&event) }
            markLine = Int(event.start_mark.line)
            markColumn = Int(event.start_mark.column)
            switch event.type {
            case YAML_STREAM_END_EVENT:
                finished = true
                return nil
            case YAML_DOCUMENT_START_EVENT:
                documentCount += 1
                anchors.removeAll()
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                let tag = scalar.tag.map { String(cString: $0) }
                let value = try resolve(text, tag: tag, plain: scalar.style == YAML_PLAIN_SCALAR_STYLE)
                let anchor = scalar.anchor.map { String(cString: $0) }
                if let anchor { recording.append((anchor, [], frames.count)) }
                return try deliver(.scalar(value), isKeyText: text)
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                let isMapping = event.type == YAML_MAPPING_START_EVENT
                let anchorPointer = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
                if let anchorPointer { recording.append((String(cString: anchorPointer), [], frames.count)) }
                return try deliver(isMapping ? .beginDictionary : .beginArray)
            case YAML_SEQUENCE_END_EVENT:
                return try deliver(.endArray)
            case YAML_MAPPING_END_EVENT:
                return try deliver(.endDictionary)
            case YAML_ALIAS_EVENT:
                let name = String(cString: event.data.alias.anchor)
                guard let events = anchors[name] else {
                    throw EasyBakeError(.syntax, "alias *\(name) names no anchor defined before it", location: location)
                }
                expansion += events.count
                guard expansion <= limits.maximumExpansion else {
                    throw EasyBakeError.limit("maximumExpansion", limits.maximumExpansion, at: location)
                }
                let (line, column) = (markLine, markColumn)
                queue.append(contentsOf: events.map { ($0, line, column) })
            default:
                continue  // stream and document boundaries carry no value
            }
        }
    }

    /// Passes an event on: keys of mappings become `.key` events, depth is
    /// bounded, and anchored nodes are recorded.
    private func deliver(_ event: IngredientEvent, isKeyText: String? = nil) throws(EasyBakeError) -> IngredientEvent {
        var output = event
        if let top = frames.last, top.isMapping, top.expectingKey {
            switch event {
            case .scalar(let value):
                output = .key(isKeyText ?? Self.keyText(value))
                frames[frames.count - 1].expectingKey = false
            case .endDictionary:
                break
            default:
                throw EasyBakeError(.unsupported, "a mapping key must be a scalar; complex keys are not supported", location: location)
            }
        } else if let top = frames.last, top.isMapping, !top.expectingKey {
            frames[frames.count - 1].expectingKey = true  // the value begins; the next event is a key
        }
        switch event {
        case .beginArray, .beginDictionary:
            guard frames.count < limits.maximumDepth else {
                throw EasyBakeError.limit("maximumDepth", limits.maximumDepth, at: location)
            }
            frames.append(Frame(isMapping: event == .beginDictionary, expectingKey: true))
        case .endArray, .endDictionary:
            frames.removeLast()
        default:
            break
        }
        record(event)
        return output
    }

    /// Appends `event` (as a value, not a key) to the anchors being recorded
    /// and closes those whose node just ended.
    private func record(_ event: IngredientEvent) {
        guard !recording.isEmpty else { return }
        for index in recording.indices { recording[index].events.append(event) }
        while let last = recording.last, frames.count == last.depth {
            anchors[last.name] = last.events
            recording.removeLast()
        }
    }

    private static func keyText(_ value: Ingredients) -> String {
        switch value {
        case .string(let text): text
        case .null: ""
        case .bool(let flag): flag ? "true" : "false"
        case .integer(let number): String(number)
        case .float(let number): number.description
        case .exactNumber(let text): text
        default: value.description
        }
    }

    // MARK: Scalars

    private func resolve(_ text: String, tag: String?, plain: Bool) throws(EasyBakeError) -> Ingredients {
        switch tag {
        case nil, "!":
            return plain && tag == nil ? YAMLScalars.resolve(text) : .string(text)
        case "tag:yaml.org,2002:str":
            return .string(text)
        case "tag:yaml.org,2002:null":
            return .null
        case "tag:yaml.org,2002:bool", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float":
            let resolved = YAMLScalars.resolve(text)
            let fits: Bool = switch (tag, resolved) {
            case ("tag:yaml.org,2002:bool", .bool): true
            case ("tag:yaml.org,2002:int", .integer), ("tag:yaml.org,2002:int", .exactNumber): true
            case ("tag:yaml.org,2002:float", .float), ("tag:yaml.org,2002:float", .exactNumber): true
            case ("tag:yaml.org,2002:float", .integer(let whole)): Double(exactly: whole) != nil
            default: false
            }
            guard fits else {
                throw EasyBakeError(.invalidValue, "\(text.debugDescription) is not a valid \(tag!.split(separator: ":").last!)", location: location)
            }
            if tag == "tag:yaml.org,2002:float", case .integer(let whole) = resolved { return .float(Double(whole)) }
            return resolved
        default:
            // Other tags (application tags, !!binary, !!timestamp) keep the text.
            return .string(text)
        }
    }
}

/// The YAML 1.2 core schema for plain scalars.
enum YAMLScalars {
    static func resolve(_ text: String) -> Ingredients {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .float(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .float(-.infinity)
        case ".nan", ".NaN", ".NAN": return .float(.nan)
        default: break
        }
        guard let first = text.utf8.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
                || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) else { return .string(text) }
        if text.hasPrefix("0x"), text.count > 2, let value = Int64(text.dropFirst(2), radix: 16) { return .integer(value) }
        if text.hasPrefix("0o"), text.count > 2, let value = Int64(text.dropFirst(2), radix: 8) { return .integer(value) }
        return number(text) ?? .string(text)
    }

    /// `[-+]? ( \.[0-9]+ | [0-9]+ ( \.[0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`,
    /// rewritten into JSON number syntax for the shared classifier.
    private static func number(_ text: String) -> Ingredients? {
        var bytes = Array(text.utf8)
        var i = 0
        var json: [UInt8] = []
        json.reserveCapacity(bytes.count + 2)
        if bytes[i] == UInt8(ascii: "+") { i += 1 } else if bytes[i] == UInt8(ascii: "-") { json.append(UInt8(ascii: "-")); i += 1 }
        func isDigit(_ i: Int) -> Bool { i < bytes.count && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9") }
        let integerStart = i
        while isDigit(i) { i += 1 }
        var integerDigits = Array(bytes[integerStart..<i])
        // Leading zeros are allowed in YAML, not in JSON.
        while integerDigits.count > 1, integerDigits[0] == UInt8(ascii: "0") { integerDigits.removeFirst() }
        var fraction: [UInt8] = []
        var hasPoint = false
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            hasPoint = true
            i += 1
            let fractionStart = i
            while isDigit(i) { i += 1 }
            fraction = Array(bytes[fractionStart..<i])
        }
        guard !integerDigits.isEmpty || !fraction.isEmpty else { return nil }
        json.append(contentsOf: integerDigits.isEmpty ? [UInt8(ascii: "0")] : integerDigits)
        if hasPoint { json.append(UInt8(ascii: ".")); json.append(contentsOf: fraction.isEmpty ? [UInt8(ascii: "0")] : fraction) }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            json.append(UInt8(ascii: "e"))
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { json.append(bytes[i]); i += 1 }
            guard isDigit(i) else { return nil }
            while isDigit(i) { json.append(bytes[i]); i += 1 }
        }
        guard i == bytes.count else { return nil }
        bytes = json
        return Ingredients.number(literal: String(decoding: bytes, as: UTF8.self))
    }
}
