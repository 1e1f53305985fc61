import Foundation

extension PathMatcher {
    /// The matcher's states as a source that indexes its input directly
    /// needs them to pick a record's members (``IngredientSource/readValue(startingWith:into:keeping:)``):
    /// flat, in memory it owns, read through plain pointers — a `State`
    /// holds arrays and dictionaries, and taking one out of `states` for
    /// every key read would cost a retain and a release per field.
    ///
    /// Dictionaries are picked as no elements (`[*]` reaches each member):
    /// the sources that pick (JSON) have none.
    package final class Picking: @unchecked Sendable {
        // @unchecked: the buffers are written once, in `init`, and only read after.
        struct StateInfo {
            var isTerminal: Bool
            /// The state a dictionary's members are picked in; -1 when the
            /// dictionary is kept whole (a path ends at it, or some key it
            /// wants can only be matched as a `String`).
            var pickingState: Int32
            var keysStart: Int32
            var keysCount: Int32
            var elementsStart: Int32
            var elementsCount: Int32
            /// The state of an element no explicit index names; -1: none.
            var otherElements: Int32
            /// The state of a member no key names (`[*]` over a
            /// dictionary); -1: none.
            var otherMembers: Int32
        }

        struct Key {
            var bytesStart: Int32
            var length: Int32
            var target: Int32
        }

        private let infos: UnsafeMutablePointer<StateInfo>
        private let keys: UnsafeMutablePointer<Key>
        private let elements: UnsafeMutablePointer<(index: Int32, state: Int32)>
        private let bytes: UnsafeMutablePointer<UInt8>

        init(_ states: [State]) {
            let keyCount = states.reduce(0) { $0 + $1.wantedKeys.keys.count }
            let elementCount = states.reduce(0) { $0 + $1.elements.count }
            let byteCount = states.reduce(0) { $0 + $1.wantedKeys.utf8.reduce(0) { $0 + $1.count } }
            infos = .allocate(capacity: max(states.count, 1))
            keys = .allocate(capacity: max(keyCount, 1))
            elements = .allocate(capacity: max(elementCount, 1))
            bytes = .allocate(capacity: max(byteCount, 1))
            var nextKey = 0, nextElement = 0, nextByte = 0
            for (id, state) in states.enumerated() {
                let dictionary = states[state.memberDictionaryState]
                let picks = !state.isTerminal && !dictionary.isTerminal && dictionary.wantedKeys.isASCII
                let keysStart = nextKey
                for (utf8, target) in zip(state.wantedKeys.utf8, state.keyTargets) {
                    (bytes + nextByte).initialize(from: utf8, count: utf8.count)
                    (keys + nextKey).initialize(
                        to: Key(bytesStart: Int32(nextByte), length: Int32(utf8.count), target: Int32(target)))
                    nextByte += utf8.count
                    nextKey += 1
                }
                let elementsStart = nextElement
                for (index, target) in state.elements.sorted(by: { $0.key < $1.key }) {
                    (elements + nextElement).initialize(to: (Int32(index), Int32(target)))
                    nextElement += 1
                }
                (infos + id).initialize(
                    to: StateInfo(
                        isTerminal: state.isTerminal, pickingState: picks ? Int32(state.memberDictionaryState) : -1,
                        keysStart: Int32(keysStart), keysCount: Int32(nextKey - keysStart),
                        elementsStart: Int32(elementsStart), elementsCount: Int32(nextElement - elementsStart),
                        otherElements: Int32(state.otherElements ?? -1), otherMembers: Int32(state.otherKeys ?? -1)))
            }
        }

        deinit {
            infos.deallocate()
            keys.deallocate()
            elements.deallocate()
            bytes.deallocate()
        }

        /// The state a container opened in `state` reads its values in: a
        /// dictionary's picking state for its members, an array's own for
        /// its elements; -1 when it is kept whole.
        @inline(__always)
        package func containerState(_ state: Int, isObject: Bool) -> Int {
            guard state >= 0, !infos[state].isTerminal else { return -1 }
            return isObject ? Int(infos[state].pickingState) : state
        }

        /// The state element `offset` of an array read in `state` is read
        /// in; -1 (whole) for an element no path needs, which keeps its
        /// place so that indexes count as in the full array.
        @inline(__always)
        package func elementState(_ offset: Int, of state: Int) -> Int {
            guard state >= 0 else { return -1 }
            let info = infos[state]
            var i = Int(info.elementsStart)
            let end = i + Int(info.elementsCount)
            while i < end {
                if Int(elements[i].index) == offset { return Int(elements[i].state) }
                i += 1
            }
            return Int(info.otherElements)
        }

        /// The state the value of the member keyed `key` of a dictionary
        /// picked in `state` is read in; `nil` when no path needs it.
        @inline(__always)
        package func memberState(_ key: UnsafeRawBufferPointer, in state: Int) -> Int? {
            let info = infos[state]
            var i = Int(info.keysStart)
            let end = i + Int(info.keysCount)
            while i < end {
                let candidate = keys[i]
                if Int(candidate.length) == key.count,
                    key.count == 0 || memcmp(bytes + Int(candidate.bytesStart), key.baseAddress!, key.count) == 0
                {
                    return Int(candidate.target)
                }
                i += 1
            }
            return info.otherMembers >= 0 ? Int(info.otherMembers) : nil
        }
    }
}
