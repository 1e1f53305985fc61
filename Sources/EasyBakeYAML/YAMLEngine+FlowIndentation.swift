internal import CYAML
import EasyBake

// Indentation of flow content: what libyaml accepts inside flow collections
// that YAML 1.2 forbids, checked from the bytes.
extension YAMLEngine {
    /// Enters a collection of the input (not of a replay): records the column
    /// of a block collection, or counts a flow one.
    @inline(__always)
    func enterLayout(flow: Bool) throws(EasyBakeError) {
        if !layout.isEmpty { try checkFlowIndentation() }
        if flow {
            flowLevel += 1
            layout.append(-1)
        } else {
            layout.append(markColumn)
        }
    }

    @inline(__always)
    func leaveLayout() {
        if layout.popLast() == -1 { flowLevel -= 1 }
    }

    /// Flow content continued on a later line must be indented more than the
    /// block collection around it (`key: [a,\nb]` is invalid); libyaml 0.2.5
    /// does not check this.
    @inline(__always)
    func checkFlowIndentation() throws(EasyBakeError) {
        guard flowLevel > 0 else { return }
        guard let block = layout.last(where: { $0 >= 0 }) else { return }
        if markColumn <= block {
            throw EasyBakeError.syntax(
                "flow content on a new line must be indented more than the block collection it is in (column \(block + 1))",
                at: currentLocation())
        }
    }

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
    func fastScalar(value: UnsafeMutablePointer<yaml_char_t>?, length: Int, plain: Bool) throws(EasyBakeError) -> YAMLScalar {
        if length > options.limits.maximumStringBytes {
            throw EasyBakeError.limit(.maximumStringBytes, options.limits.maximumStringBytes, at: currentLocation())
        }
        let raw = UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : length)
        if inKeyPosition {
            let isMergeKey = plain && length == 2 && raw[0] == UInt8(ascii: "<") && raw[1] == UInt8(ascii: "<")
            return YAMLScalar(value: .null, text: String(decoding: raw, as: UTF8.self), isMergeKey: isMergeKey)
        }
        guard plain else { return YAMLScalar(value: .string(String(decoding: raw, as: UTF8.self)), text: "", isMergeKey: false) }
        if length > options.limits.maximumNumberLength, let first = raw.first,
           YAMLScalarResolver.isDigit(first) || first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            if YAMLScalarResolver.number(raw) != nil {
                throw EasyBakeError.limit(.maximumNumberLength, options.limits.maximumNumberLength, at: currentLocation())
            }
        }
        return YAMLScalar(value: YAMLScalarResolver.resolvePlain(raw, schema: options.schema), text: "", isMergeKey: false)
    }

    /// A scalar that is being skipped: a key keeps its text (merge keys need
    /// it to decide which merged entries a mapping overrides), a value is
    /// neither resolved nor turned into a string.
    @inline(__always)
    func placeholder(value: UnsafeMutablePointer<yaml_char_t>?, length: Int, plain: Bool) throws(EasyBakeError) -> YAMLScalar {
        if length > options.limits.maximumStringBytes {
            throw EasyBakeError.limit(.maximumStringBytes, options.limits.maximumStringBytes, at: currentLocation())
        }
        guard inKeyPosition else { return YAMLScalar(value: .null, text: "", isMergeKey: false) }
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
            throw EasyBakeError(.unsupported, "unknown tag \(YAMLScalarResolver.display(tag: tagName))", location: currentLocation())
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
           YAMLScalarResolver.isDigit(first) || first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            if YAMLScalarResolver.number(raw) != nil {
                throw EasyBakeError.limit(.maximumNumberLength, options.limits.maximumNumberLength, at: currentLocation())
            }
        }
        let resolved = YAMLScalarResolver.resolvePlain(raw, text: text, schema: options.schema)
        return YAMLScalar(value: resolved, text: text, isMergeKey: length == 2 && text == "<<")
    }
}
