import Foundation

extension PathMatcher {
    /// The matcher's states as a format that indexes its input directly
    /// reads them to keep only what the paths reach, as it writes
    /// (``IngredientSource/readValue(startingWith:into:keeping:)``): flat,
    /// in memory of its own, read through plain pointers, for one lookup per
    /// key or element with no allocation, retain or release.
    ///
    /// A format asks ``PathMatcher/picking(for:)`` for it and starts at
    /// ``root``. Each container it opens is read in
    /// ``state(ofContainerIn:isDictionary:)``; in a dictionary, after it
    /// writes a key, ``state(ofMember:ofDictionaryIn:)`` says in which state
    /// the member's value is read, or that no path needs the member — then
    /// the format takes the key back
    /// (``IngredientIndex/UncheckedWriter/removeLastString()``), skips the
    /// value unread and leaves it out of the dictionary's element count. An
    /// array's elements all keep their places, so that indexes count as in
    /// the full array: one no path needs is read in ``State/whole``
    /// (``state(ofElement:ofArrayIn:)``), kept whole, as is everything
    /// inside a value read in that state.
    ///
    /// Resolving the matcher's paths on what the format kept gives what
    /// they give on the whole value.
    public final class Picking: @unchecked Sendable {
        // @unchecked: the buffers are written once, in `init`, and only read after.

        /// A state of the matcher's automaton, in which a value is read.
        public struct State: Hashable, Sendable {
            @usableFromInline let id: Int

            @usableFromInline init(id: Int) { self.id = id }

            /// The state of a value kept whole, with everything in it: no
            /// member of it is left out.
            public static let whole = State(id: -1)

            /// Whether the value is kept whole.
            @inlinable public var keepsWhole: Bool { id < 0 }

            /// The state's number in ``rawTables`` (-1: kept whole).
            package var rawValue: Int32 { Int32(id) }
        }

        /// The state of the value the paths start at (a document, or a
        /// streamed record); `nil` when no path needs anything of it.
        public let root: State?

        @usableFromInline
        struct StateInfo {
            @usableFromInline var isTerminal: Bool
            /// The state a dictionary's members are picked in; -1 when the
            /// dictionary is kept whole (a path ends at it, or some key it
            /// wants can only be matched as a `String`).
            @usableFromInline var pickingState: Int32
            @usableFromInline var keysStart: Int32
            @usableFromInline var keysCount: Int32
            @usableFromInline var elementsStart: Int32
            @usableFromInline var elementsCount: Int32
            /// The state of an element no explicit index names; -1: none.
            @usableFromInline var otherElements: Int32
            /// The state of a member no key names (`[*]` over a
            /// dictionary); -1: none.
            @usableFromInline var otherMembers: Int32
        }

        @usableFromInline
        struct Key {
            @usableFromInline var bytesStart: Int32
            @usableFromInline var length: Int32
            @usableFromInline var target: Int32
        }

        @usableFromInline let infos: UnsafeMutablePointer<StateInfo>
        @usableFromInline let keys: UnsafeMutablePointer<Key>
        @usableFromInline let elements: UnsafeMutablePointer<(index: Int32, state: Int32)>
        @usableFromInline let bytes: UnsafeMutablePointer<UInt8>

        init(_ states: [PathMatcher.State], root: Int?) {
            self.root = root.map { State(id: $0) }
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

        /// The tables as a format's C code reads them (`easybake_picking` in
        /// `CEasyBakeScanning`): the states, keys and named elements, laid
        /// out as ``rawLayout`` says, and the keys' bytes. They live as long
        /// as the picking does.
        package struct RawTables {
            package let states: UnsafeRawPointer
            package let keys: UnsafeRawPointer
            package let elements: UnsafeRawPointer
            package let bytes: UnsafeRawPointer
        }

        package var rawTables: RawTables {
            RawTables(
                states: UnsafeRawPointer(infos), keys: UnsafeRawPointer(keys), elements: UnsafeRawPointer(elements),
                bytes: UnsafeRawPointer(bytes))
        }

        /// The strides and field offsets of the tables, for the test that
        /// holds them to the C layout: a state's stride and the offsets of
        /// its eight fields, a key's stride and its three, an element's
        /// stride and its two.
        package static var rawLayout: [Int] {
            [
                MemoryLayout<StateInfo>.stride, MemoryLayout<StateInfo>.offset(of: \.isTerminal)!,
                MemoryLayout<StateInfo>.offset(of: \.pickingState)!, MemoryLayout<StateInfo>.offset(of: \.keysStart)!,
                MemoryLayout<StateInfo>.offset(of: \.keysCount)!, MemoryLayout<StateInfo>.offset(of: \.elementsStart)!,
                MemoryLayout<StateInfo>.offset(of: \.elementsCount)!,
                MemoryLayout<StateInfo>.offset(of: \.otherElements)!,
                MemoryLayout<StateInfo>.offset(of: \.otherMembers)!,
                MemoryLayout<Key>.stride, MemoryLayout<Key>.offset(of: \.bytesStart)!,
                MemoryLayout<Key>.offset(of: \.length)!, MemoryLayout<Key>.offset(of: \.target)!,
                MemoryLayout<(index: Int32, state: Int32)>.stride, 0,
                MemoryLayout<Int32>.stride,
            ]
        }

        deinit {
            infos.deallocate()
            keys.deallocate()
            elements.deallocate()
            bytes.deallocate()
        }

        /// The state in which the values of a container read in `state` are
        /// read: for a dictionary, the state its members are picked in; for
        /// an array, its own, in which ``state(ofElement:ofArrayIn:)`` tells
        /// each element's. ``State/whole`` when the container is kept whole.
        @inlinable @inline(__always)
        public func state(ofContainerIn state: State, isDictionary: Bool) -> State {
            State(id: containerState(state.id, isObject: isDictionary))
        }

        /// The state element `offset` (from 0) of an array is read in, when
        /// its values are read in `state`; ``State/whole`` for an element no
        /// path needs, which keeps its place.
        @inlinable @inline(__always)
        public func state(ofElement offset: Int, ofArrayIn state: State) -> State {
            State(id: elementState(offset, of: state.id))
        }

        /// The state the value of the member keyed `key` (its UTF-8 bytes)
        /// is read in, when the dictionary's members are read in `state`;
        /// `nil` when no path needs the member, which is then left out.
        @inlinable @inline(__always)
        public func state(ofMember key: UnsafeRawBufferPointer, ofDictionaryIn state: State) -> State? {
            guard state.id >= 0 else { return .whole }
            return memberState(key, in: state.id).map { State(id: $0) }
        }

        @inlinable @inline(__always)
        func containerState(_ state: Int, isObject: Bool) -> Int {
            guard state >= 0, !infos[state].isTerminal else { return -1 }
            return isObject ? Int(infos[state].pickingState) : state
        }

        @inlinable @inline(__always)
        func elementState(_ offset: Int, of state: Int) -> Int {
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

        @inlinable @inline(__always)
        func memberState(_ key: UnsafeRawBufferPointer, in state: Int) -> Int? {
            let info = infos[state]
            var i = Int(info.keysStart)
            let end = i + Int(info.keysCount)
            while i < end {
                let candidate = keys[i]
                if Int(candidate.length) == key.count,
                    key.count == 0
                        || ShortBytes.equal(bytes + Int(candidate.bytesStart), key.baseAddress!, count: key.count)
                {
                    return Int(candidate.target)
                }
                i += 1
            }
            return info.otherMembers >= 0 ? Int(info.otherMembers) : nil
        }
    }
}
