internal import CYAML
import EasyBake

// Indentation of flow content: what libyaml accepts inside flow collections
// that YAML 1.2 forbids, checked from the bytes.
extension YAMLEngine {
    /// Enters a collection of the input (not of a replay): records the column
    /// of a block collection (see ``blockColumn(_:)``), or counts a flow one.
    @inline(__always)
    func enterLayout(flow: Bool, _ event: yaml_event_t) throws(EasyBakeError) {
        if !layout.isEmpty { try checkFlowIndentation() }
        if flow {
            flowLevel += 1
            layout.append(-1)
        } else {
            layout.append(blockColumn(event))
        }
    }

    /// Leaves a collection of the input. The end of a flow collection is
    /// flow content too: a closing bracket on a new line must be indented
    /// past the block collection around it (`test: [` then `]` at the key's
    /// column is invalid YAML 1.2; libyaml 0.2.5 lets it through).
    @inline(__always)
    func leaveLayout() throws(EasyBakeError) {
        if flowLevel > 0 { try checkFlowIndentation() }
        if layout.popLast() == -1 { flowLevel -= 1 }
    }

    /// The column of a block collection: that of its first key or `-`.
    ///
    /// Not the start mark's: the start mark of a collection with an anchor
    /// or a tag is that of the anchor or tag, which may stand on the line of
    /// the key above (`defaults: &d` then `  k: [1, 2]`), right of the
    /// collection's own content. Its end mark is where its first key or `-`
    /// begins — except for a sequence at its key's column (`key:` then
    /// `- item`), whose start event ends after the first `-`.
    @inline(__always)
    func blockColumn(_ event: yaml_event_t) -> Int {
        if event.type == YAML_SEQUENCE_START_EVENT, parser.pointee.state == YAML_PARSE_INDENTLESS_SEQUENCE_ENTRY_STATE {
            return event.end_mark.column - 1
        }
        return event.end_mark.column
    }

    /// Flow content continued on a later line must be indented more than the
    /// block collection around it (`key: [a,\nb]` is invalid); libyaml 0.2.5
    /// does not check this.
    @inline(__always)
    func checkFlowIndentation() throws(EasyBakeError) {
        guard flowLevel > 0 else { return }
        guard let block = layout.last(where: { $0 >= 0 }) else { return }
        if markColumn <= block {
            let found = foundAtMark().map { ", found \($0) at column \(markColumn + 1)" } ?? ""
            throw EasyBakeError.syntax(
                "expected flow content on a new line to be indented past column \(block + 1), "
                    + "where the block collection it is in stands\(found)",
                at: currentLocation())
        }
    }

    /// Whether the token after the scalar libyaml just parsed is a `:` that
    /// makes it a key. libyaml has it queued already: it looks past every
    /// scalar that could be a key before handing the scalar out.
    var isFollowedByValueIndicator: Bool {
        let tokens = parser.pointee.tokens
        assert(
            {
                guard let head = tokens.head else { return true }
                guard let start = tokens.start, let tail = tokens.tail, let end = tokens.end else { return false }
                return start <= head && head <= tail && tail <= end
            }(), "libyaml's token queue outside its array")
        guard let head = tokens.head, head != tokens.tail else { return false }
        return head.pointee.type == YAML_VALUE_TOKEN
    }

    /// libyaml 0.2.5 reads `[-]` as a plain "-"; YAML forbids a plain scalar
    /// that starts with "-" followed by a space, a line break or a flow
    /// indicator. A "-" followed by `:` is a plain key (`-: x`, `{-: 1}`),
    /// which the caller lets through.
    func rejectLoneDash() throws(EasyBakeError) {
        throw EasyBakeError.syntax(
            #"expected a scalar, found a lone '-' (a "-" before a space, a line break, ',', ']' or '}' is no "#
                + #"plain scalar: quote it, "-", or write a sequence entry as "- value")"#,
            at: currentLocation())
    }

    /// An anchor's name: libyaml's NUL-terminated bytes (`""` without one).
    func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    /// Whether the next node stands as a mapping key.
    var inKeyPosition: Bool {
        guard let top = frames.last else { return false }
        return top.isMapping && top.expectingKey
    }

    /// An untagged, unanchored scalar: its text in key position, its value
    /// otherwise.
    @inline(__always)
    func fastScalar(value: UnsafeMutablePointer<yaml_char_t>?, length: Int, plain: Bool) throws(EasyBakeError)
        -> YAMLScalar
    {
        if length > options.limits.maximumStringBytes {
            throw EasyBakeError.limit(.maximumStringBytes, options.limits.maximumStringBytes, at: currentLocation())
        }
        assert(value != nil || length == 0, "a scalar's length without its value")
        let raw = UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : length)
        if inKeyPosition {
            let isMergeKey = plain && length == 2 && raw[0] == UInt8(ascii: "<") && raw[1] == UInt8(ascii: "<")
            return YAMLScalar(value: .null, text: String(decoding: raw, as: UTF8.self), isMergeKey: isMergeKey)
        }
        guard plain else {
            return YAMLScalar(value: .string(String(decoding: raw, as: UTF8.self)), text: "", isMergeKey: false)
        }
        if length > options.limits.maximumNumberLength, let first = raw.first,
            YAMLScalarResolver.isDigit(first) || first == UInt8(ascii: "-") || first == UInt8(ascii: "+")
        {
            if YAMLScalarResolver.number(raw) != nil {
                throw EasyBakeError.limit(
                    .maximumNumberLength, options.limits.maximumNumberLength, at: currentLocation())
            }
        }
        return YAMLScalar(
            value: YAMLScalarResolver.resolvePlain(raw, schema: options.schema), text: "", isMergeKey: false)
    }

    /// A scalar that is being skipped: a key keeps its text (merge keys need
    /// it to decide which merged entries a mapping overrides), a value is
    /// neither resolved nor turned into a string.
    @inline(__always)
    func placeholder(value: UnsafeMutablePointer<yaml_char_t>?, length: Int, plain: Bool) throws(EasyBakeError)
        -> YAMLScalar
    {
        if length > options.limits.maximumStringBytes {
            throw EasyBakeError.limit(.maximumStringBytes, options.limits.maximumStringBytes, at: currentLocation())
        }
        guard inKeyPosition else { return YAMLScalar(value: .null, text: "", isMergeKey: false) }
        assert(value != nil || length == 0, "a scalar's length without its value")
        let raw = UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : length)
        let isMergeKey = plain && length == 2 && raw[0] == UInt8(ascii: "<") && raw[1] == UInt8(ascii: "<")
        return YAMLScalar(value: .null, text: String(decoding: raw, as: UTF8.self), isMergeKey: isMergeKey)
    }

    /// For a container with a tag EasyBake does not know: opens the
    /// single-key mapping that keeps the tag visible (or throws, if unknown
    /// tags are rejected).
    func beginWrapper(containerTag tag: UnsafeMutablePointer<yaml_char_t>?) throws(EasyBakeError) {
        guard let tag else { return }
        let tagName = String(cString: tag)
        guard !YAMLScalarResolver.isKnownContainerTag(tagName) else { return }
        switch options.unknownTags {
        case .value:
            return
        case .reject:
            throw EasyBakeError(
                .unsupported, "unknown tag \(YAMLScalarResolver.display(tag: tagName))", location: currentLocation())
        case .wrap:
            // A tagged key is an error either way: let feed() report it.
            if inKeyPosition { return }
            let key = YAMLScalarResolver.display(tag: tagName)
            try feed(.beginMapping(tag: nil))
            try feed(.scalar(YAMLScalar(value: .string(key), text: key, isMergeKey: false)))
            wrappers.append(frames.count + 1)
        }
    }

    /// Closes the wrapper of a container that ended at `depth`, if it has one.
    @inline(__always)
    func endWrapper(_ depth: Int) throws(EasyBakeError) {
        if let last = wrappers.last, last == depth {
            wrappers.removeLast()
            try feed(.endMapping)
        }
    }

    func makeScalar(
        value: UnsafeMutablePointer<yaml_char_t>?, length: Int, tag: UnsafeMutablePointer<yaml_char_t>?, plain: Bool,
        unknownTag: inout String?
    ) throws(EasyBakeError) -> YAMLScalar {
        if length > options.limits.maximumStringBytes {
            throw EasyBakeError.limit(.maximumStringBytes, options.limits.maximumStringBytes, at: currentLocation())
        }
        assert(value != nil || length == 0, "a scalar's length without its value")
        let raw = UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : length)
        let text = String(decoding: raw, as: UTF8.self)
        if let tag {
            let tagName = String(cString: tag)
            if tagName == YAMLScalarResolver.tagPrefix + "merge" {
                return YAMLScalar(value: .string(text), text: text, isMergeKey: true)
            }
            let resolved: Ingredients?
            do {
                resolved = try YAMLScalarResolver.resolveTagged(raw, text: text, tag: tagName, schema: options.schema)
            } catch var error {
                error.location = currentLocation()
                throw error
            }
            if let resolved { return YAMLScalar(value: resolved, text: text, isMergeKey: false) }
            let shown = YAMLScalarResolver.display(tag: tagName)
            switch options.unknownTags {
            case .reject:
                throw EasyBakeError(.unsupported, "unknown tag \(shown)", location: currentLocation())
            case .wrap:
                unknownTag = shown
            case .value:
                break
            }
            // A tagged scalar is not resolved by the schema (YAML 1.2 §3.3.2:
            // only untagged plain scalars are): the value as if untagged
            // would be a guess; the text is what was written.
            return YAMLScalar(value: .string(text), text: text, isMergeKey: false)
        }
        guard plain else { return YAMLScalar(value: .string(text), text: text, isMergeKey: false) }
        if length > options.limits.maximumNumberLength, let first = raw.first,
            YAMLScalarResolver.isDigit(first) || first == UInt8(ascii: "-") || first == UInt8(ascii: "+")
        {
            if YAMLScalarResolver.number(raw) != nil {
                throw EasyBakeError.limit(
                    .maximumNumberLength, options.limits.maximumNumberLength, at: currentLocation())
            }
        }
        let resolved = YAMLScalarResolver.resolvePlain(raw, text: text, schema: options.schema)
        return YAMLScalar(value: resolved, text: text, isMergeKey: length == 2 && text == "<<")
    }
}
