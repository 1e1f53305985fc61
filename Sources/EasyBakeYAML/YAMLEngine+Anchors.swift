internal import CYAML
import EasyBake

// Anchors, aliases and merge keys: recording nodes, replaying them within
// the expansion budget, and merging mappings.
extension YAMLEngine {
    /// Starts recording the node an event anchors (`anchor`: libyaml's
    /// NUL-terminated name, valid during the event), if it anchors one.
    func startRecording(_ anchor: UnsafeMutablePointer<yaml_char_t>?) {
        guard let anchor else { return }
        let level = captures.count
        let start = level == 0 ? recordBuffer.count : captures[level - 1].buffer.count
        recordings.append(Recording(name: String(cString: anchor), level: level, depth: frames.count, start: start))
    }

    func startReplay(_ name: String) throws(EasyBakeError) {
        guard let events = anchors[name] else {
            if recordings.contains(where: { $0.name == name }) {
                throw EasyBakeError.syntax("alias *\(name) refers to a node that contains it", at: currentLocation())
            }
            throw EasyBakeError.syntax("alias *\(name) refers to an undefined anchor", at: currentLocation())
        }
        expansion += events.count
        if expansion > options.limits.maximumExpansion {
            throw EasyBakeError(
                .limitExceeded,
                "maximumExpansion limit of \(options.limits.maximumExpansion) exceeded (alias *\(name) would replay \(events.count) more events)",
                location: currentLocation())
        }
        if events.count == 1 {
            // A scalar: no need to go through the replay queue.
            try feed(events[0])
        } else {
            replay = events
            replayIndex = 0
        }
    }

    func beginMerge(inFrame top: Int) throws(EasyBakeError) {
        if frames[top].keysOverflowed {
            throw EasyBakeError(
                .unsupported,
                "a merge key must come among the first \(Self.rememberedKeys) keys of its mapping",
                location: currentLocation())
        }
        frames[top].merging = true
        captures.append(Capture(depth: frames.count))
    }

    /// Checks the captured value of a merge key and keeps its mappings for
    /// the end of the mapping.
    func endMerge(_ buffer: [YAMLNodeEvent], inFrame top: Int) throws(EasyBakeError) {
        let problem = "the value of a merge key (<<) must be a mapping or a sequence of mappings"
        guard let first = buffer.first else { return }
        switch first {
        case .beginMapping:
            frames[top].merges.append(buffer[...])
        case .beginSequence:
            var i = 1
            while i < buffer.count - 1 {
                guard case .beginMapping = buffer[i] else { throw EasyBakeError.syntax(problem, at: currentLocation()) }
                let end = Self.endOfNode(buffer[...], from: i)
                frames[top].merges.append(buffer[i..<end])
                i = end
            }
        default:
            throw EasyBakeError.syntax(problem, at: currentLocation())
        }
    }

    /// The index after the node that starts at `start`.
    static func endOfNode(_ events: ArraySlice<YAMLNodeEvent>, from start: Int) -> Int {
        var depth = 0
        var i = start
        repeat {
            switch events[i] {
            case .beginMapping, .beginSequence: depth += 1
            case .endMapping, .endSequence: depth -= 1
            case .scalar: break
            }
            i += 1
        } while depth > 0 && i < events.endIndex
        return i
    }

    /// Emits the merged entries whose keys the mapping does not have, the
    /// earlier merged mapping winning.
    func emitMerged(_ frame: Frame) throws(EasyBakeError) {
        var seen = Set(keyStack[frame.keyStart...])
        for mapping in frame.merges {
            var i = mapping.startIndex + 1
            let end = mapping.endIndex - 1
            while i < end {
                guard case .scalar(let key) = mapping[i] else { break }
                let valueEnd = Self.endOfNode(mapping, from: i + 1)
                if seen.insert(key.text).inserted {
                    expansion += valueEnd - i
                    if expansion > options.limits.maximumExpansion {
                        throw EasyBakeError.limit(
                            .maximumExpansion, options.limits.maximumExpansion, at: currentLocation())
                    }
                    emit(mapping[i], asKey: true)
                    emitValue(mapping[(i + 1)..<valueEnd])
                }
                i = valueEnd
            }
        }
    }

    /// Emits one captured value, telling the keys of its nested mappings
    /// from their values (captured events do not record which is which).
    func emitValue(_ events: ArraySlice<YAMLNodeEvent>) {
        // Per open container: 0 a sequence, 1 a mapping awaiting a key, 2 one awaiting a value.
        var stack: [UInt8] = []
        for event in events {
            let top = stack.last
            emit(event, asKey: top == 1)
            switch event {
            case .beginMapping, .beginSequence:
                if top == 2 { stack[stack.count - 1] = 1 }
                stack.append(event.isMapping ? 1 : 0)
            case .endMapping, .endSequence:
                stack.removeLast()
            case .scalar:
                if top == 1 { stack[stack.count - 1] = 2 } else if top == 2 { stack[stack.count - 1] = 1 }
            }
        }
    }
}
