internal import CYAML
import EasyBake

/// Writes events as YAML through libyaml's emitter, which knows when a
/// string can stay plain and how to escape it; EasyBake decides only what
/// libyaml cannot know — which plain strings would read back as another type.
final class YAMLWriter {
    private let options: WritingOptions
    private let emitter: UnsafeMutablePointer<yaml_emitter_t>
    private let event: UnsafeMutablePointer<yaml_event_t>
    private let sink = OutputSink()

    init(options: WritingOptions) {
        self.options = options
        emitter = .allocate(capacity: 1)
        event = .allocate(capacity: 1)
        event.initialize(to: yaml_event_t())
        yaml_emitter_initialize(emitter)
        yaml_emitter_set_output(
            emitter,
            { data, buffer, size in
                guard let data, let buffer else { return 0 }
                Unmanaged<OutputSink>.fromOpaque(data).takeUnretainedValue().bytes
                    .append(contentsOf: UnsafeBufferPointer(start: buffer, count: size))
                return 1
            }, Unmanaged.passUnretained(sink).toOpaque())
        yaml_emitter_set_unicode(emitter, 1)
        yaml_emitter_set_width(emitter, -1)
        yaml_emitter_set_indent(emitter, Int32(min(max(options.indentWidth, 2), 9)))
    }

    deinit {
        yaml_emitter_delete(emitter)
        emitter.deallocate()
        event.deallocate()
    }

    func write(_ source: inout some IngredientSource) throws(EasyBakeError) -> [UInt8] {
        try emit(yaml_stream_start_event_initialize(event, YAML_UTF8_ENCODING))
        var documents = 0
        while true {
            if options.sortedKeys {
                guard let tree = try Ingredients.read(from: &source) else { break }
                var sorted = IngredientTreeSource(tree, sortingKeys: true)
                try startDocument(explicit: documents > 0)
                try writeValue(&sorted)
            } else {
                guard let first = try source.next() else { break }
                try startDocument(explicit: documents > 0)
                try writeValue(&source, first: first)
            }
            try emit(yaml_document_end_event_initialize(event, 1))
            documents += 1
        }
        try emit(yaml_stream_end_event_initialize(event))
        yaml_emitter_flush(emitter)
        return sink.bytes
    }

    private func startDocument(explicit: Bool) throws(EasyBakeError) {
        try emit(yaml_document_start_event_initialize(event, nil, nil, nil, explicit ? 0 : 1))
    }

    /// Writes one value, whose first event may already have been read.
    private func writeValue(_ source: inout some IngredientSource, first: IngredientEvent? = nil) throws(EasyBakeError)
    {
        var depth = 0
        var pending = first
        repeat {
            let read: IngredientEvent?
            if let pending { read = pending } else { read = try source.next() }
            guard let next = read else {
                throw EasyBakeError.syntax("the events end inside a container", at: source.location)
            }
            pending = nil
            switch next {
            case .beginDictionary:
                depth += 1
                try emit(yaml_mapping_start_event_initialize(event, nil, nil, 1, YAML_BLOCK_MAPPING_STYLE))
            case .beginArray:
                depth += 1
                try emit(yaml_sequence_start_event_initialize(event, nil, nil, 1, YAML_BLOCK_SEQUENCE_STYLE))
            case .endDictionary:
                depth -= 1
                try emit(yaml_mapping_end_event_initialize(event))
            case .endArray:
                depth -= 1
                try emit(yaml_sequence_end_event_initialize(event))
            case .key(let key):
                // EasyBake reads a key back as its text, whatever it looks
                // like; other readers resolve keys as values (`no:` is the key
                // false to PyYAML, `1:` the key 1), so a key is quoted by the
                // rule values are.
                try scalar(key, style: Self.isMisread(key) ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE)
            case .scalar(let value):
                try writeScalar(value)
            }
        } while depth > 0
    }

    private func writeScalar(_ value: Ingredients) throws(EasyBakeError) {
        switch value {
        case .null: try scalar("null", style: YAML_PLAIN_SCALAR_STYLE)
        case .bool(let flag): try scalar(flag ? "true" : "false", style: YAML_PLAIN_SCALAR_STYLE)
        case .integer(let number): try scalar(String(number), style: YAML_PLAIN_SCALAR_STYLE)
        case .float(let number):
            let text = number.isNaN ? ".nan" : number.isInfinite ? (number < 0 ? "-.inf" : ".inf") : number.description
            try scalar(text, style: YAML_PLAIN_SCALAR_STYLE)
        case .exactNumber(let text): try scalar(text, style: YAML_PLAIN_SCALAR_STYLE)
        case .string(let text):
            try scalar(text, style: Self.style(for: text))
        case .array, .dictionary:
            throw EasyBakeError.syntax("a scalar event holds a container", at: nil)
        }
    }

    /// Double quotes for a string that plain would turn into another type
    /// (see ``isMisread(_:)``), a literal block for multi-line text,
    /// otherwise libyaml's choice.
    static func style(for text: String) -> yaml_scalar_style_t {
        if isMisread(text) { return YAML_DOUBLE_QUOTED_SCALAR_STYLE }
        if text.utf8.contains(UInt8(ascii: "\n")) { return YAML_LITERAL_SCALAR_STYLE }
        return YAML_ANY_SCALAR_STYLE
    }

    /// Whether `text`, written plain, would read as something other than
    /// that string: to EasyBake's reader under either schema, or to a YAML
    /// 1.1 reader (PyYAML and most of the ecosystem), which also makes
    /// dates, `1_000`, `0b101`, `017`, sexagesimals (`12:30:00`), `<<` and
    /// `=` other types — so that `yes` or `2024-01-01` survive older readers.
    static func isMisread(_ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { utf8 -> Bool in
            let raw = UnsafeRawBufferPointer(utf8)
            if case .string = YAMLScalarResolver.resolvePlain(raw, text: text, schema: .yaml11) {
                return YAMLScalarResolver.isYAML11NonString(raw)
            }
            return true
        }
    }

    private func scalar(_ text: String, style: yaml_scalar_style_t) throws(EasyBakeError) {
        var copy = text
        let plain: Int32 = style == YAML_DOUBLE_QUOTED_SCALAR_STYLE ? 0 : 1
        try emit(
            copy.withUTF8 { utf8 in
                yaml_scalar_event_initialize(
                    event, nil, nil, utf8.baseAddress ?? ("" as StaticString).utf8Start, Int32(clamping: utf8.count),
                    plain, 1, style)
            })
    }

    /// Emits the event just initialized (`status` is the initializer's result).
    private func emit(_ status: Int32) throws(EasyBakeError) {
        guard status == 1 else { throw EasyBakeError(.io, "libyaml could not create an event") }
        guard yaml_emitter_emit(emitter, event) == 1 else {
            let problem = emitter.pointee.problem.map { String(cString: $0) } ?? "unknown problem"
            throw EasyBakeError(.invalidValue, "libyaml's emitter failed: \(problem)")
        }
    }
}

private final class OutputSink {
    var bytes: [UInt8] = []
}
