extension IngredientIndex {
    /// Writes the index with no check of its own: the writes a format vouches
    /// for, because its parser has checked its input already (valid UTF-8, a
    /// balanced structure, keys where keys go, its limits counted). It is
    /// what the built-in formats write through, as fast as the index can be
    /// filled; a format of your own that has not checked its input that far
    /// writes through the checked ``Writer`` instead.
    ///
    /// ``IngredientIndex/beginUncheckedWriting(input:sourceName:traits:offsetsAreLinesAndColumns:)``
    /// empties the index and hands you the writer. Until you are done with
    /// it, neither read nor change the index otherwise: the writer writes
    /// its memory directly. Write one value: a scalar, or a container opened
    /// with ``beginArray(at:)`` or ``beginDictionary(at:)``, filled (in a
    /// dictionary, a key and then its value, for each member) and closed with
    /// ``endContainer(elements:)``, which takes the container's element
    /// count (a dictionary's members).
    ///
    /// What the checked writer would throw for is a programming error here:
    /// a debug build asserts it (a key that is not UTF-8, a container closed
    /// that is not open, a position the index does not hold), a release build
    /// does not look. The index's own bounds (2³² entries or bytes) are
    /// always checked and thrown as ``EasyBakeError/Code/limitExceeded``.
    ///
    /// Beyond the checked writer, it offers what a format of elements needs
    /// to gather repeated keys as it writes (``DuplicateKeyPolicy/collect``,
    /// as XML does): a value turned into the first element of an array in
    /// its place (``beginGathering(valueAt:)``), and a closed dictionary
    /// whose repeated keys are gathered in one pass
    /// (``gatherRepeatedKeys(ofDictionaryAt:members:distinctKeys:scratch:)``); and
    /// keys written once to the index and shared by every entry of the same
    /// name (``share(_:)``).
    ///
    /// ```swift
    /// var writer = index.beginUncheckedWriting(input: bytes, sourceName: "config.kv")
    /// writer.beginDictionary(at: 0)
    /// try writer.string(bytesAt: 0, count: 4)         // "port", a key
    /// writer.number(literalAt: 5, count: 4, isInteger: true)
    /// try writer.endContainer(elements: 1)
    /// ```
    public struct UncheckedWriter {
        // The small writes are inlinable and always inlined, as the
        // storage's appends they wrap are: a format calls them for every
        // value, and left to the optimizer, YAML's scanner called them
        // (callgrind: +0.4% on a whole YAML document).
        // One reference and nothing else: a format passes the writer down
        // its parser's calls, value by value, and a larger struct would be
        // retained and released field by field at each (callgrind, YAML
        // records: +1.2% with four more fields).
        @usableFromInline var storage: Storage

        init(storage: Storage) { self.storage = storage }

        /// A writer of no index, whose writes go nowhere anyone reads: what
        /// a format keeps between two values of a stream, so that it holds
        /// no index's memory meanwhile (memory held twice would be copied by
        /// the index's next change).
        public init() { storage = Storage(capacity: 1, arenaCapacity: 1) }

        /// How many entries the index holds: the position of the next value
        /// or key written. Positions are what the gathering calls take.
        @inlinable
        public var count: Int { storage.count }

        /// Makes room at once for `entries` more entries and `arenaBytes`
        /// more bytes of decoded strings, so that a format that knows about
        /// how much it will write moves the index's memory less.
        public func reserve(entries: Int, arenaBytes: Int) {
            storage.reserve(max(entries, 0))
            storage.arenaBuffer.reserve(max(arenaBytes, 0))
        }

        /// Makes room at once for `entries` more entries and their
        /// containers' bookkeeping (about one container in eight values), as
        /// for a format whose strings stay ranges of the input.
        public func reserve(entries: Int) {
            storage.reserve(max(entries, 0))
            storage.extraBuffer.reserve(max(entries, 0) / 8)
        }

        // MARK: Containers

        /// Opens an array that begins at `offset`.
        @inlinable @inline(__always)
        public func beginArray(at offset: Int) {
            storage.openContainer(.array, at: offset)
        }

        /// Opens a dictionary that begins at `offset`.
        @inlinable @inline(__always)
        public func beginDictionary(at offset: Int) {
            storage.openContainer(.dictionary, at: offset)
        }

        /// Closes the innermost open container, which holds `elements`
        /// elements (members, for a dictionary).
        @inlinable @inline(__always)
        public func endContainer(elements: Int) throws(EasyBakeError) {
            try storage.closeContainer(elements: elements)
        }

        /// An empty array at `offset`, opened and closed at once.
        @inlinable @inline(__always)
        public func emptyArray(at offset: Int) {
            storage.append(storage.containerEntry(.array, at: offset))
        }

        /// An empty dictionary at `offset`, opened and closed at once.
        @inlinable @inline(__always)
        public func emptyDictionary(at offset: Int) {
            storage.append(storage.containerEntry(.dictionary, at: offset))
        }

        // MARK: Scalars and keys

        /// A null value at `offset`.
        @inlinable @inline(__always)
        public func null(at offset: Int) {
            storage.appendLiteral(.null, at: offset)
        }

        /// A boolean value at `offset`.
        @inlinable @inline(__always)
        public func bool(_ value: Bool, at offset: Int) {
            storage.appendLiteral(value ? .true : .false, at: offset)
        }

        /// A string (a value, or a key) whose UTF-8 bytes are the `count`
        /// bytes of the input that begin at `offset`.
        @inlinable @inline(__always)
        public func string(bytesAt offset: Int, count: Int) throws(EasyBakeError) {
            try storage.appendUnquotedString(at: offset, length: count)
        }

        /// A string (a value, or a key) whose UTF-8 bytes are the `count`
        /// bytes of the input after the quote at `offset` (`"text"`, with no
        /// escape): its location is its opening quote, as JSON's strings'.
        @inlinable @inline(__always)
        public func string(bytesAfterQuoteAt offset: Int, count: Int) throws(EasyBakeError) {
            try storage.appendString(at: offset, length: count)
        }

        /// A string (a value, or a key) whose `count` bytes after the quote
        /// at `offset` hold backslash escapes as JSON writes them (`\n`,
        /// `\u00E9`, a surrogate pair), which the format has checked: it
        /// stays those bytes of the input, and a read decodes it. Cheaper
        /// than decoding it into ``string(decoded:at:)``, in time and in
        /// memory, when the format's escapes are JSON's.
        public func string(escapedAfterQuoteAt offset: Int, count: Int) throws(EasyBakeError) {
            storage.append(try storage.escapedString(at: offset, length: count))
        }

        /// A string (a value, or a key) decoded by the format, copied into
        /// the index; `offset` is where it begins in the input (0: unknown,
        /// and then it costs no bytes of its own).
        // Inlinable, with the usual case written out here: it is called for
        // every text of an XML document, and a call into the core for each
        // cost the XML reader 1% (callgrind).
        @inlinable
        public func string(decoded bytes: UnsafeRawBufferPointer, at offset: Int) throws(EasyBakeError) {
            assert(String(validating: bytes, as: UTF8.self) != nil, "a decoded string that is not UTF-8")
            let storage = storage
            let located = offset != 0 ? 8 : 0
            let start = storage.arenaCount &+ located
            if start &+ bytes.count <= storage.arenaCapacity, storage.count < storage.capacity,
                UInt64(bytes.count) <= IngredientIndex.lengthMask, start &+ bytes.count <= UInt32.max
            {
                // The condition is the room both writes need; the entry is
                // the one `arenaEntry` makes.
                if located != 0 {
                    (storage.arena + start - 8).storeBytes(
                        of: UInt64(truncatingIfNeeded: offset), toByteOffset: 0, as: UInt64.self)
                }
                if bytes.count > 0 {
                    (storage.arena + start).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
                }
                storage.arenaCount = start &+ bytes.count
                let kind =
                    Kind.string.rawValue | IngredientIndex.arenaFlag
                    | (located != 0 ? 0 : IngredientIndex.unlocatedFlag)
                (storage.entries + storage.count).initialize(
                    to: Entry(kind, payload: UInt64(start) << IngredientIndex.startShift | UInt64(bytes.count)))
                storage.count &+= 1
            } else {
                try appendDecoded(bytes, at: offset)
            }
        }

        /// ``string(decoded:at:)`` when the index must grow first, or the
        /// string is long.
        @usableFromInline
        func appendDecoded(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(EasyBakeError) {
            try storage.appendString(decoded: bytes, at: offset)
        }

        /// Bytes written once to the index (``share(_:)``), which any number
        /// of strings can be: a key that repeats, written once.
        public struct SharedString: Sendable, Hashable {
            @usableFromInline let start: Int
            @usableFromInline let count: Int
            /// The entry of a string of these bytes when it fits one word
            /// (the bytes are shorter than 1 MiB); 0 otherwise.
            @usableFromInline let word: UInt64
        }

        /// Writes `bytes` (UTF-8) to the index once, and returns them as a
        /// shared string that ``string(_:)`` writes as a key or value with no
        /// copy. It is good for this index only, until the writer begins
        /// another value.
        public func share(_ bytes: UnsafeRawBufferPointer) throws(EasyBakeError) -> SharedString {
            assert(String(validating: bytes, as: UTF8.self) != nil, "a shared string that is not UTF-8")
            let start = storage.appendToArena(bytes)
            guard storage.arenaCount <= UInt32.max else { throw IngredientIndex.tooLarge("key", at: 0) }
            // Shared by every entry of the string, so located by none.
            let kind = Kind.string.rawValue | IngredientIndex.arenaFlag | IngredientIndex.unlocatedFlag
            let word =
                UInt64(bytes.count) <= IngredientIndex.lengthMask
                ? Entry(kind, payload: UInt64(start) << IngredientIndex.startShift | UInt64(bytes.count)).word : 0
            return SharedString(start: start, count: bytes.count, word: word)
        }

        /// A string (a key, or a value) whose bytes are `shared`'s. It has
        /// no location of its own: an error about it names no line.
        @inlinable @inline(__always)
        public func string(_ shared: SharedString) {
            assert(shared.start >= 0 && shared.start + shared.count <= storage.arenaCount, "a string not shared here")
            if shared.word != 0 {
                storage.append(Entry(word: shared.word))
            } else {
                appendLong(shared)
            }
        }

        /// ``string(_:)`` of a shared string of 1 MiB or more.
        @usableFromInline
        func appendLong(_ shared: SharedString) {
            let kind = Kind.string.rawValue | IngredientIndex.arenaFlag | IngredientIndex.unlocatedFlag
            storage.append(storage.arenaReference(kind, start: shared.start, length: shared.count))
        }

        /// The UTF-8 bytes of the string written last, a key: what a format
        /// that picks members (``PathMatcher/Picking``) looks up before it
        /// reads the member's value. Valid until the next write.
        @inlinable
        public var lastString: UnsafeRawBufferPointer { storage.lastStringUTF8() }

        /// Takes back the string written last, a key whose member the format
        /// leaves out: a member no path of a ``PathMatcher/Picking`` needs,
        /// skipped unread. Its dictionary's element count does not count it.
        @inlinable
        public func removeLastString() {
            storage.removeLastString()
        }

        // MARK: Numbers

        /// A number whose text is the `count` bytes of the input that begin
        /// at `offset`, in JSON's grammar (which the format vouches for): an
        /// integer, or with `isInteger` false a fraction or an exponent.
        @inlinable @inline(__always)
        public func number(literalAt offset: Int, count: Int, isInteger: Bool) {
            storage.appendNumber(at: offset, length: count, isInteger: isInteger)
        }

        /// A number the format has resolved (``Ingredients/integer(_:)``,
        /// ``Ingredients/float(_:)`` or ``Ingredients/exactNumber(_:)``);
        /// `offset` is where it begins in the input. With `textAtOffset`, the
        /// input holds its text there, unquoted (`0x1F`, `01234`): what a
        /// `String` property asked of the number gets, as written.
        public func number(_ value: Ingredients, at offset: Int, textAtOffset: Bool = false) throws(EasyBakeError) {
            try storage.appendNumber(value, at: offset, textInInput: textAtOffset)
        }

        // MARK: Gathering repeated keys

        /// Makes the value at `position` (the last member's value of the
        /// innermost open dictionary, with all it holds) the first element
        /// of an array in its place, which begins where the value does: how
        /// a repeated key's values are gathered as they come. Each next
        /// value that joins it is written after it and counted with
        /// ``addGatheredElement(toArrayAt:)``; ``endGathering(arrayAt:)``
        /// closes it.
        public func beginGathering(valueAt position: Int) {
            assert(position >= 0 && position < storage.count, "gathering a value the index does not hold")
            // Every open container began before the value, which is closed:
            // none moves.
            assert(
                storage.openContainers.count == 0
                    || storage.openContainers[storage.openContainers.count - 1] < position,
                "gathering a value that is not closed")
            storage.reserve(1)
            let firstOffset = Reader(storage).sourceOffset(at: position)
            let array = storage.containerEntry(.array, at: firstOffset)
            storage.extras[array.extraPosition].low = 1
            let base = storage.entries + position
            // The value's spans are relative, so it reads the same one entry on.
            (base + 1).moveInitialize(from: base, count: storage.count - position)
            base.initialize(to: array)
            storage.count += 1
        }

        /// Counts one more element of the array that ``beginGathering(valueAt:)``
        /// made at `position`: the value written next.
        @inlinable @inline(__always)
        public func addGatheredElement(toArrayAt position: Int) {
            assert(position >= 0 && position < storage.count, "a gathered array the index does not hold")
            storage.extras[storage.entries[position].extraPosition].low &+= 1
        }

        /// Closes the array that ``beginGathering(valueAt:)`` made at
        /// `position`, once no more values join it: it holds every entry
        /// written since, and the elements counted.
        @inlinable
        public func endGathering(arrayAt position: Int) throws(EasyBakeError) {
            assert(position >= 0 && position < storage.count, "a gathered array the index does not hold")
            let entry = storage.entries[position]
            guard
                let array = storage.closed(
                    entry, span: storage.count - position - 1, elements: Int(storage.extras[entry.extraPosition].low),
                    at: position)
            else { throw IngredientIndex.tooLarge("gathered array", at: 0) }
            storage.entries[position] = array
        }

        /// One member of a dictionary, for
        /// ``gatherRepeatedKeys(ofDictionaryAt:members:distinctKeys:scratch:)``.
        public struct Member: Sendable, Hashable {
            /// Which of the dictionary's distinct keys the member has: 0 for
            /// the first key written, 1 for the next other key, and so on.
            public var key: Int32
            /// Whether the member's value is an array of the key's values
            /// gathered in place (``beginGathering(valueAt:)``), whose
            /// elements join the key's other values one by one.
            public var isGathered: Bool

            /// A member with key `key`.
            @inlinable
            public init(key: Int32, isGathered: Bool = false) {
                self.key = key
                self.isGathered = isGathered
            }
        }

        /// The memory ``gatherRepeatedKeys(ofDictionaryAt:members:distinctKeys:scratch:)``
        /// works in, which a format keeps from one dictionary to the next so
        /// that a rewrite allocates nothing once it has grown.
        public struct GatheringScratch {
            var entries = ContiguousArray<Entry>()
            var memberRanges = ContiguousArray<(start: Int, end: Int)>()
            var order = ContiguousArray<Int>()
            var groupStarts = ContiguousArray<Int>()

            /// Empty scratch memory.
            public init() {}
        }

        /// Rewrites the dictionary at `position`, closed and the last value
        /// written, whose keys repeated apart from each other: each key once,
        /// in order of first appearance, with all its values gathered into
        /// an array in document order (the elements of a value gathered in
        /// place join it one by one; any other value is one element, an array
        /// too). A key with one value keeps it as it is.
        ///
        /// - Parameters:
        ///   - position: The dictionary's position.
        ///   - members: Its members in order, one for each key written (a
        ///     repeated key was written again, and is dropped).
        ///   - distinctKeys: How many distinct keys the members have.
        ///   - scratch: The memory the rewrite works in.
        public func gatherRepeatedKeys(
            ofDictionaryAt position: Int, members: UnsafeBufferPointer<Member>, distinctKeys: Int,
            scratch: inout GatheringScratch
        ) throws(EasyBakeError) {
            let distinct = distinctKeys
            assert(position >= 0 && position < storage.count, "a dictionary the index does not hold")
            assert(Reader(storage).kind(at: position) == .dictionary, "gathering the keys of no dictionary")
            let storage = storage
            // Read afresh after each extra made, which may move the extras.
            var reader = Reader(storage)
            // Each member's value, and the members grouped by key (a counting sort).
            scratch.memberRanges.removeAll(keepingCapacity: true)
            scratch.groupStarts.removeAll(keepingCapacity: true)
            scratch.groupStarts.append(contentsOf: repeatElement(0, count: distinct + 1))
            var next = position + 1
            for member in members {
                assert(member.key >= 0 && Int(member.key) < distinct, "a member's key past the distinct keys")
                let valueStart = next + 1
                let valueEnd = reader.end(of: valueStart)
                scratch.memberRanges.append((valueStart, valueEnd))
                scratch.groupStarts[Int(member.key) + 1] += 1
                next = valueEnd
            }
            for key in 0..<distinct { scratch.groupStarts[key + 1] += scratch.groupStarts[key] }
            scratch.order.removeAll(keepingCapacity: true)
            scratch.order.append(contentsOf: repeatElement(0, count: members.count))
            var slots = scratch.groupStarts
            for (m, member) in members.enumerated() {
                scratch.order[slots[Int(member.key)]] = m
                slots[Int(member.key)] += 1
            }
            scratch.entries.removeAll(keepingCapacity: true)
            scratch.entries.reserveCapacity(next - position + distinct)
            // Closed already, it is closed again with its new contents.
            scratch.entries.append(storage.uncompacted(at: position))
            reader = Reader(storage)
            for key in 0..<distinct {
                let group = scratch.groupStarts[key]..<scratch.groupStarts[key + 1]
                let first = scratch.order[group.lowerBound]
                scratch.entries.append(reader.entry(scratch.memberRanges[first].start - 1))
                if group.count == 1 {
                    for p in scratch.memberRanges[first].start..<scratch.memberRanges[first].end {
                        scratch.entries.append(reader.entry(p))
                    }
                    continue
                }
                let arrayPosition = scratch.entries.count
                scratch.entries.append(storage.containerEntry(.array, at: 0))
                reader = Reader(storage)
                var elements = 0
                for g in group {
                    let m = scratch.order[g]
                    var range = scratch.memberRanges[m].start..<scratch.memberRanges[m].end
                    if members[m].isGathered {
                        elements += reader.elementCount(at: range.lowerBound)
                        range = (range.lowerBound + 1)..<range.upperBound
                    } else {
                        elements += 1
                    }
                    for p in range { scratch.entries.append(reader.entry(p)) }
                }
                guard
                    let array = storage.closed(
                        scratch.entries[arrayPosition], span: scratch.entries.count - arrayPosition - 1,
                        elements: elements, firstElement: scratch.entries[arrayPosition + 1])
                else { throw IngredientIndex.tooLarge("gathered array", at: 0) }
                scratch.entries[arrayPosition] = array
            }
            guard
                let dictionary = storage.closed(
                    scratch.entries[0], span: scratch.entries.count - 1, elements: distinct,
                    firstElement: scratch.entries.count > 1 ? scratch.entries[1] : nil)
            else {
                throw IngredientIndex.tooLarge("dictionary", at: 0)
            }
            scratch.entries[0] = dictionary
            // The rewrite replaces the dictionary, which ends the index.
            assert(next == storage.count, "a rewritten dictionary that is not the last value")
            storage.count = position
            storage.reserve(scratch.entries.count)
            scratch.entries.withUnsafeBufferPointer {
                (storage.entries + position).initialize(from: $0.baseAddress!, count: $0.count)
            }
            storage.count += scratch.entries.count
        }
    }

    /// Empties the index and hands back an ``UncheckedWriter`` of it: how a
    /// format whose parser has checked its input writes the index at full
    /// speed (a format that has not writes through
    /// ``write(input:sourceName:limits:traits:_:)``).
    ///
    /// - Parameters:
    ///   - input: The bytes the values are read from, which the index keeps:
    ///     strings and numbers may stay ranges of it, and errors find their
    ///     line and column in it. `nil` when every value is written decoded.
    ///   - sourceName: The input's name, for error locations.
    ///   - traits: The traits of the format's values (``IngredientSource/traits``).
    ///   - offsetsAreLinesAndColumns: Whether the offsets the writes take
    ///     are lines and columns (``lineColumnOffset(line:column:)``) rather
    ///     than byte offsets: for a parser that counts lines, not bytes (XML).
    public mutating func beginUncheckedWriting(
        input: LoadedBytes? = nil, sourceName: String? = nil, traits: IngredientTraits = [],
        offsetsAreLinesAndColumns: Bool = false
    ) -> UncheckedWriter {
        // `begin` keeps an input and a name the index has already (record
        // after record of one stream, a reference count spared), and sets
        // them otherwise; emptying clears the traits and the offsets' kind.
        if let input { begin(input: input, sourceName: sourceName) } else { removeAll() }
        let storage = uniqueStorage
        if input == nil, sourceName != nil { storage.sourceName = sourceName }
        if !traits.isEmpty { storage.traits = traits }
        if offsetsAreLinesAndColumns { storage.offsetsAreLineColumns = true }
        return UncheckedWriter(storage: storage)
    }
}
