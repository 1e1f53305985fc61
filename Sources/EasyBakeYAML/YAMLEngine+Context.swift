internal import CYAML
import EasyBake

// Context: whether the next node is a key or a value, and what each node
// becomes in the event stream.
extension YAMLEngine {
    /// Takes one node event, in its context: keys, merge keys, depth.
    func feed(_ node: YAMLNodeEvent) throws(EasyBakeError) {
        switch node {
        case .scalar(let scalar):
            if let top = frames.indices.last, frames[top].isMapping, frames[top].expectingKey {
                frames[top].expectingKey = false
                if scalar.isMergeKey {
                    try beginMerge(inFrame: top)
                    return
                }
                rememberKey(scalar.text, inFrame: top)
                emit(node, asKey: true)
                try completed(key: true)
            } else {
                emit(node, asKey: false)
                try completed(key: false)
            }
        case .beginMapping, .beginSequence:
            if let top = frames.last, top.isMapping, top.expectingKey {
                throw EasyBakeError(
                    .unsupported, "a mapping key must be a scalar, found a \(node.isMapping ? "mapping" : "sequence")",
                    location: currentLocation())
            }
            if frames.count >= options.limits.maximumDepth {
                throw EasyBakeError.limit(.maximumDepth, options.limits.maximumDepth, at: currentLocation())
            }
            frames.append(Frame(isMapping: node.isMapping, keyStart: keyStack.count))
            emit(node, asKey: false)
        case .endMapping:
            guard let frame = frames.last else { return }
            if !frame.merges.isEmpty { try emitMerged(frame) }
            keyStack.removeLast(keyStack.count - frame.keyStart)
            frames.removeLast()
            emit(node, asKey: false)
            try completed(key: false)
        case .endSequence:
            frames.removeLast()
            emit(node, asKey: false)
            try completed(key: false)
        }
    }

    @inline(__always)
    func rememberKey(_ key: String, inFrame top: Int) {
        if frames[top].merging || keyStack.count - frames[top].keyStart < Self.rememberedKeys {
            keyStack.append(key)
        } else {
            frames[top].keysOverflowed = true
        }
    }

    /// Routes an event to the innermost capture, or to the output (and the
    /// recordings open there).
    @inline(__always)
    func emit(_ node: YAMLNodeEvent, asKey: Bool) {
        if !captures.isEmpty {
            captures[captures.count - 1].buffer.append(node)
            return
        }
        if !recordings.isEmpty { recordBuffer.append(node) }
        // A document not chosen is parsed and checked, but none of it is output.
        if droppingDocument { return }
        if discarding {
            switch node {
            case .beginMapping, .beginSequence: discardDepth += 1
            case .endMapping, .endSequence: discardDepth -= 1
            case .scalar: break
            }
            // The skipped value is complete (or the skip met an end or a key,
            // which, like reading, it consumes).
            if discardDepth <= 0 { discarding = false }
            return
        }
        let tag: String?
        switch node {
        case .beginMapping(let nodeTag):
            output.append(.beginDictionary)
            tag = nodeTag
        case .endMapping:
            output.append(.endDictionary)
            tag = nil
        case .beginSequence(let nodeTag):
            output.append(.beginArray)
            tag = nodeTag
        case .endSequence:
            output.append(.endArray)
            tag = nil
        case .scalar(let scalar):
            output.append(asKey ? .key(scalar.text) : .scalar(scalar.value))
            tag = scalar.tag
        }
        // `outputTags` is empty while no queued event has a tag.
        if tag != nil || !outputTags.isEmpty {
            if outputTags.isEmpty { outputTags = Array(repeating: nil, count: output.count - 1) }
            outputTags.append(tag)
        }
    }

    /// Called after a node ends: closes the recordings and the merge capture
    /// that end with it, and moves its mapping on to the next key.
    func completed(key: Bool) throws(EasyBakeError) {
        let depth = frames.count
        if depth == 0, captures.isEmpty, !droppingDocument, options.documents == .single, documentCount == 1 {
            singleDocumentComplete = true
        }
        while let last = recordings.last, last.level == captures.count, last.depth == depth {
            recordings.removeLast()
            let events: [YAMLNodeEvent]
            if last.level == 0 {
                events = Array(recordBuffer[last.start...])
                if !recordings.contains(where: { $0.level == 0 }) { recordBuffer.removeAll(keepingCapacity: true) }
            } else {
                events = Array(captures[last.level - 1].buffer[last.start...])
            }
            anchors[last.name] = events
        }
        if let capture = captures.last, capture.depth == depth {
            captures.removeLast()
            try endMerge(capture.buffer, inFrame: depth - 1)
        }
        if !key, let top = frames.indices.last, frames[top].isMapping { frames[top].expectingKey = true }
    }
}
