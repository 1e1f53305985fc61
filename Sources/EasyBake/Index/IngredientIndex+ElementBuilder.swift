extension IngredientIndex {
    /// Builds an index straight from a source's callbacks, with no
    /// `IngredientEvent` and no `String` per key or text: how the XML reader
    /// fills the fast core.
    ///
    /// It holds exactly what ``Builder`` would build from the same values
    /// under ``DuplicateKeyPolicy/collect`` (the policy of every source of
    /// elements): each key once, in order of first appearance, a repeated
    /// key's values gathered into an array in document order, a value that
    /// is itself an array kept as one element. It counts nodes as the tree
    /// builder does (one per dictionary, array and scalar) and reports the
    /// node limit the same way: the caller turns a `false` into
    /// ``nodeLimitError(at:)`` at the value's location.
    ///
    /// Keys are small integers (``keyID(_:)-(UnsafeRawBufferPointer)``) that
    /// the caller looks up once per distinct name and caches, so finding a
    /// repeated key hashes and compares no bytes. Repeats that follow each
    /// other (`<tags>a</tags><tags>b</tags>`, the usual case in XML) are
    /// gathered in place; a dictionary whose repeats are apart is rewritten
    /// once, when it closes.
    ///
    /// ```swift
    /// var builder = IngredientIndex.ElementBuilder(building: &index, maximumNodes: limits.maximumNodes)
    /// defer { builder.deallocate() }
    /// let name = builder.keyID("name")
    /// _ = builder.beginDictionary()          // {
    /// try builder.key(name)                  //   "name":
    /// _ = try builder.string(bytes)          //   "…"
    /// try builder.endDictionary()            // }
    /// ```
    package struct ElementBuilder {
        /// One open dictionary.
        private struct Frame {
            /// The position of its entry.
            let position: Int
            /// Where its distinct keys begin in `openKeys`.
            let keyStart: Int
            /// Where its members begin in `members`.
            let memberStart: Int
            /// The distinct key (from `keyStart`) of its last member; `-1` before any.
            var lastKey = -1
            /// The position of its last member's value (a gathered array, once gathered).
            var lastValue = 0
            /// Whether a key repeated apart from its previous member.
            var needsRewrite = false
        }

        /// One member of an open dictionary: which distinct key it has, and
        /// whether its value is an array of repeats gathered in place.
        private struct Member {
            var key: Int32
            var gathered: Bool
        }

        /// A key held by an open dictionary, and what ``firstPositions``
        /// held for its ID before (restored when the dictionary closes).
        private struct OpenKey {
            let id: Int32
            let saved: Int32
        }

        /// The bytes of one interned key, and where the index's arena holds
        /// them once written (`-1` before).
        private struct KeyName {
            let start: Int
            let count: Int
            var arenaOffset: Int = -1
        }

        // Called for every key and value: the state lives in manually
        // managed stacks (`GrowableBuffer`), read and written through plain
        // pointers, with no uniqueness check or retain per access; and the
        // builder is a struct its owner keeps in place, so that calling it
        // retains nothing either. The owner frees it with `deallocate()`.
        private var storage: Storage
        /// What ``detach()`` points the builder at, so that it holds no
        /// index's storage between two values of a stream (a storage held
        /// twice would be copied by the index's next change).
        private let placeholder = Storage(capacity: 1, arenaCapacity: 1)
        private let locatedByLines: Bool
        private let sourceName: String?
        private let maximumNodes: Int
        private var nodes = 0
        private var frames = GrowableBuffer<Frame>()
        private var members = GrowableBuffer<Member>()
        /// The distinct keys of the open dictionaries, innermost last.
        private var openKeys = GrowableBuffer<OpenKey>()
        /// For each key ID, the position in `openKeys` of its innermost
        /// occurrence, or stale: a sparse set, so that finding a key in the
        /// innermost dictionary is one look-up whatever its size.
        private var firstPositions = GrowableBuffer<Int32>()
        private var keyNames = GrowableBuffer<KeyName>()
        private var keyIDs: [[UInt8]: Int32] = [:]
        private var keyBytes = ContiguousArray<UInt8>()
        /// The position of the gathered array the next value joins, or `-1`.
        private var gathering = -1
        /// Where the next value begins in the input, as the index's source
        /// offset (the caller's encoding: a line and column for XML, see
        /// ``IngredientIndex/lineColumnOffset(line:column:)``); 0 when unknown.
        package var valueOffset = 0
        private var scratch = ContiguousArray<Entry>()
        private var memberRanges = ContiguousArray<(start: Int, end: Int)>()
        private var order = ContiguousArray<Int>()
        private var groupStarts = ContiguousArray<Int>()

        /// Frees the builder's memory; it is not used again.
        package func deallocate() {
            frames.deallocate()
            members.deallocate()
            openKeys.deallocate()
            firstPositions.deallocate()
            keyNames.deallocate()
        }

        /// A builder that fills `index`, emptied first and marked as holding
        /// elements (``IngredientTraits/dictionariesAreElements``). The index
        /// must not be read or changed otherwise until the builder is done
        /// and dropped.
        /// A builder of `index` (emptied first). With `locatedByLines`, the
        /// ``valueOffset``s given are lines and columns
        /// (``IngredientIndex/lineColumnOffset(line:column:)``), which
        /// ``IngredientIndex/mark(at:)`` turns into locations in
        /// `sourceName`: how a bake error on an XML index gets its line and
        /// column.
        package init(
            building index: inout IngredientIndex, maximumNodes: Int, locatedByLines: Bool = false,
            sourceName: String? = nil
        ) {
            index.removeAll()
            index.traits = .dictionariesAreElements
            storage = index.storageForBuilding
            storage.offsetsAreLineColumns = locatedByLines
            storage.sourceName = sourceName
            self.locatedByLines = locatedByLines
            self.sourceName = sourceName
            self.maximumNodes = maximumNodes
        }

        /// Makes the builder fill `index` next (emptied first, its memory
        /// kept), as a new builder would, but keeping the key IDs it gave
        /// out: so one builder serves value after value of a stream (XML's
        /// records) and its callers' cached IDs stay good. The node count
        /// starts again: the node limit holds for each value.
        package mutating func restart(building index: inout IngredientIndex) {
            index.removeAll()
            index.traits = .dictionariesAreElements
            storage = index.storageForBuilding
            storage.offsetsAreLineColumns = locatedByLines
            storage.sourceName = sourceName
            nodes = 0
            frames.count = 0
            members.count = 0
            openKeys.count = 0
            gathering = -1
            valueOffset = 0
            // A value that failed may have left keys open; and each key is
            // written to the new index's arena afresh.
            for id in 0..<keyNames.count {
                firstPositions[id] = Int32.max
                keyNames[id].arenaOffset = -1
            }
        }

        /// Lets go of the index being built, which the builder must not
        /// change again until ``restart(building:)``.
        package mutating func detach() {
            storage = placeholder
        }

        /// Makes room at once for the index of a document of about
        /// `inputBytes` bytes, so that the index's memory, which would
        /// double again and again, is copied less.
        package mutating func reserve(forInputBytes inputBytes: Int) {
            // About one entry per 12 bytes of markup, and a third of the
            // bytes as text; at most 64 MiB of each, so that a large
            // document of long texts does not get room it never fills.
            let bytes = max(inputBytes, 0)
            storage.reserve(min(bytes / 12, 1 << 22))
            storage.reserveArena(min(bytes / 3, 1 << 26))
        }

        /// Whether every dictionary opened was closed (or none opened).
        package var isEmpty: Bool { frames.count == 0 }

        /// The error for passing the node limit, at `location` (the value's),
        /// worded by the one limit error every builder uses.
        package func nodeLimitError(at location: SourceLocation) -> EasyBakeError {
            EasyBakeError.limit(.maximumNodes, maximumNodes, at: location)
        }

        // MARK: Keys

        /// The ID of the key made of `bytes` (UTF-8): the same bytes give the
        /// same ID. Hashes the bytes; callers cache the ID per name.
        package mutating func keyID(_ bytes: UnsafeRawBufferPointer) -> Int32 {
            let key = [UInt8](bytes)
            if let id = keyIDs[key] { return id }
            let id = Int32(keyNames.count)
            keyNames.append(KeyName(start: keyBytes.count, count: key.count))
            keyBytes.append(contentsOf: key)
            firstPositions.append(Int32.max)
            keyIDs[key] = id
            return id
        }

        /// The ID of the key `key` (see ``keyID(_:)-(UnsafeRawBufferPointer)``).
        package mutating func keyID(_ key: String) -> Int32 {
            var key = key
            return key.withUTF8 { keyID(UnsafeRawBufferPointer($0)) }
        }

        /// The key with ID `id` in the innermost dictionary: its value is the
        /// next value. A key the dictionary holds already is not written
        /// again: the value joins the first one's (gathered into an array).
        package mutating func key(_ id: Int32) throws(EasyBakeError) {
            assert(frames.count > 0, "a key outside a dictionary")
            assert(id >= 0 && Int(id) < keyNames.count, "a key ID this builder did not give out")
            let top = frames.count - 1
            let frame = frames[top]
            let found = Int(firstPositions[Int(id)])
            if found >= frame.keyStart, found < openKeys.count, openKeys[found].id == id {
                let distinct = found - frame.keyStart
                if distinct == frame.lastKey {
                    // The previous member has this key: its value becomes
                    // (or already is) an array the next value joins.
                    if !members[members.count - 1].gathered {
                        gatherInPlace(at: frame.lastValue)
                        members[members.count - 1].gathered = true
                    }
                    gathering = frame.lastValue
                    return
                }
                try finishGathered(top)
                frames[top].needsRewrite = true
                frames[top].lastKey = distinct
                members.append(Member(key: Int32(distinct), gathered: false))
                // The key is written again, so that the members still read
                // as key and value, and dropped by the rewrite.
                try appendKey(id)
                return
            }
            try finishGathered(top)
            openKeys.append(OpenKey(id: id, saved: firstPositions[Int(id)]))
            firstPositions[Int(id)] = Int32(openKeys.count - 1)
            let distinct = openKeys.count - 1 - frame.keyStart
            frames[top].lastKey = distinct
            members.append(Member(key: Int32(distinct), gathered: false))
            try appendKey(id)
        }

        private mutating func appendKey(_ id: Int32) throws(EasyBakeError) {
            var name = keyNames[Int(id)]
            if name.arenaOffset < 0 {
                // Written to the arena once per index; every entry of the
                // key points at the same bytes.
                name.arenaOffset = keyBytes.withUnsafeBytes { bytes in
                    storage.appendToArena(
                        UnsafeRawBufferPointer(rebasing: bytes[name.start..<(name.start + name.count)]))
                }
                guard storage.arenaCount <= UInt32.max else { throw IngredientIndex.tooLarge("key", at: 0) }
                keyNames[Int(id)] = name
            }
            // Shared by every entry of the key, so located by none.
            let kind = Kind.string.rawValue | IngredientIndex.arenaFlag | IngredientIndex.unlocatedFlag
            storage.append(storage.arenaReference(kind, start: name.arenaOffset, length: name.count))
        }

        // MARK: Values

        /// Counts a value against the node limit and notes where it starts
        /// in its dictionary; `false` when the limit is passed.
        @inline(__always)
        private mutating func beginValue() -> Bool {
            nodes &+= 1
            if nodes > maximumNodes { return false }
            if gathering >= 0 {
                assert(gathering < storage.count, "a gathered array the index does not hold")
                storage.extras[storage.entries[gathering].extraPosition].low &+= 1
                gathering = -1
            } else if frames.count > 0 {
                frames[frames.count - 1].lastValue = storage.count
            }
            return true
        }

        /// Opens a dictionary: the next value of the innermost one, or the
        /// top value. `false` when it passes the node limit.
        package mutating func beginDictionary() -> Bool {
            guard beginValue() else { return false }
            frames.append(Frame(position: storage.count, keyStart: openKeys.count, memberStart: members.count))
            storage.openContainer(.dictionary, at: valueOffset)
            return true
        }

        /// Closes the innermost dictionary.
        package mutating func endDictionary() throws(EasyBakeError) {
            assert(frames.count > 0, "a dictionary closed that was not open")
            let top = frames.count - 1
            let frame = frames[top]
            try finishGathered(top)
            let memberCount = members.count - frame.memberStart
            let distinctCount = openKeys.count - frame.keyStart
            try storage.closeContainer(elements: memberCount)
            if frame.needsRewrite { try rewrite(frame, members: memberCount, distinct: distinctCount) }
            var i = openKeys.count
            while i > frame.keyStart {
                i -= 1
                firstPositions[Int(openKeys[i].id)] = openKeys[i].saved
            }
            openKeys.count -= distinctCount
            members.count -= memberCount
            frames.count -= 1
        }

        /// A string value; `false` when it passes the node limit.
        package mutating func string(_ bytes: UnsafeRawBufferPointer) throws(EasyBakeError) -> Bool {
            guard beginValue() else { return false }
            let storage = storage
            let offset = valueOffset
            let located = offset != 0 ? 8 : 0
            let start = storage.arenaCount &+ located
            guard bytes.count <= UInt32.max, start + bytes.count <= UInt32.max else {
                throw IngredientIndex.tooLarge("decoded string", at: 0)
            }
            if start + bytes.count <= storage.arenaCapacity, storage.count < storage.capacity,
                UInt64(bytes.count) <= IngredientIndex.lengthMask
            {
                // The usual case, without the calls of `appendString(decoded:at:)`:
                // the condition is the room both writes need. The entry is
                // the one `arenaEntry` makes.
                if located != 0 {
                    (storage.arena + start - 8).storeBytes(
                        of: UInt64(truncatingIfNeeded: offset), toByteOffset: 0, as: UInt64.self)
                }
                if bytes.count > 0 {
                    (storage.arena + start).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
                }
                storage.arenaCount = start + bytes.count
                let kind =
                    Kind.string.rawValue | IngredientIndex.arenaFlag
                    | (located != 0 ? 0 : IngredientIndex.unlocatedFlag)
                (storage.entries + storage.count).initialize(
                    to: Entry(kind, payload: UInt64(start) << IngredientIndex.startShift | UInt64(bytes.count)))
                storage.count &+= 1
            } else {
                try storage.appendString(decoded: bytes, at: valueOffset)
            }
            return true
        }

        /// A null value; `false` when it passes the node limit.
        package mutating func null() -> Bool {
            guard beginValue() else { return false }
            storage.appendLiteral(.null, at: valueOffset)
            return true
        }

        /// An empty array or dictionary; `false` when it passes the node limit.
        package mutating func emptyContainer(_ kind: Kind) -> Bool {
            guard beginValue() else { return false }
            storage.append(storage.containerEntry(kind, at: valueOffset))
            return true
        }

        // MARK: Gathering

        /// Makes the value at `position`, the last of the innermost
        /// dictionary, the first element of an array in its place.
        private mutating func gatherInPlace(at position: Int) {
            assert(position >= 0 && position < storage.count, "gathering a value the index does not hold")
            storage.reserve(1)
            // The array begins where its first element does.
            let firstOffset = Reader(storage).sourceOffset(at: position)
            let array = storage.containerEntry(.array, at: firstOffset)
            storage.extras[array.extraPosition].low = 1
            let base = storage.entries + position
            // The value's spans are relative, so it reads the same one entry on.
            (base + 1).moveInitialize(from: base, count: storage.count - position)
            base.initialize(to: array)
            storage.count += 1
        }

        /// Sets the span of the innermost dictionary's last member once no
        /// more values join it, when it is a gathered array.
        @inline(__always)
        private mutating func finishGathered(_ top: Int) throws(EasyBakeError) {
            guard frames[top].lastKey >= 0, members[members.count - 1].gathered else { return }
            let position = frames[top].lastValue
            assert(position >= 0 && position < storage.count, "a gathered array the index does not hold")
            let entry = storage.entries[position]
            guard
                let array = storage.closed(
                    entry, span: storage.count - position - 1, elements: Int(storage.extras[entry.extraPosition].low))
            else { throw IngredientIndex.tooLarge("gathered array", at: 0) }
            storage.entries[position] = array
        }

        /// Rewrites a closed dictionary whose keys repeated apart: each key
        /// once, in order of first appearance, with all its values gathered
        /// into an array (the elements of values gathered in place join it
        /// one by one).
        private mutating func rewrite(_ frame: Frame, members memberCount: Int, distinct: Int) throws(EasyBakeError) {
            // Read afresh after each extra made, which may move the extras.
            var reader = Reader(storage)
            // Each member's value, and the members grouped by key (a counting sort).
            memberRanges.removeAll(keepingCapacity: true)
            groupStarts.removeAll(keepingCapacity: true)
            groupStarts.append(contentsOf: repeatElement(0, count: distinct + 1))
            var position = frame.position + 1
            for m in 0..<memberCount {
                let valueStart = position + 1
                let valueEnd = reader.end(of: valueStart)
                memberRanges.append((valueStart, valueEnd))
                groupStarts[Int(members[frame.memberStart + m].key) + 1] += 1
                position = valueEnd
            }
            for key in 0..<distinct { groupStarts[key + 1] += groupStarts[key] }
            order.removeAll(keepingCapacity: true)
            order.append(contentsOf: repeatElement(0, count: memberCount))
            var next = groupStarts
            for m in 0..<memberCount {
                let key = Int(members[frame.memberStart + m].key)
                order[next[key]] = m
                next[key] += 1
            }
            scratch.removeAll(keepingCapacity: true)
            scratch.reserveCapacity(position - frame.position + distinct)
            scratch.append(reader.entry(frame.position))
            for key in 0..<distinct {
                let group = groupStarts[key]..<groupStarts[key + 1]
                let first = order[group.lowerBound]
                scratch.append(reader.entry(memberRanges[first].start - 1))
                if group.count == 1 {
                    for p in memberRanges[first].start..<memberRanges[first].end { scratch.append(reader.entry(p)) }
                    continue
                }
                let arrayPosition = scratch.count
                scratch.append(storage.containerEntry(.array, at: 0))
                reader = Reader(storage)
                var elements = 0
                for g in group {
                    let m = order[g]
                    var range = memberRanges[m].start..<memberRanges[m].end
                    if members[frame.memberStart + m].gathered {
                        elements += reader.elementCount(at: range.lowerBound)
                        range = (range.lowerBound + 1)..<range.upperBound
                    } else {
                        elements += 1
                    }
                    for p in range { scratch.append(reader.entry(p)) }
                }
                guard
                    let array = storage.closed(
                        scratch[arrayPosition], span: scratch.count - arrayPosition - 1, elements: elements)
                else { throw IngredientIndex.tooLarge("gathered array", at: 0) }
                scratch[arrayPosition] = array
            }
            guard let dictionary = storage.closed(scratch[0], span: scratch.count - 1, elements: distinct) else {
                throw IngredientIndex.tooLarge("dictionary", at: 0)
            }
            scratch[0] = dictionary
            // The rewrite replaces the dictionary, which ends the index.
            assert(position == storage.count, "a rewritten dictionary that is not the last value")
            storage.count = frame.position
            storage.reserve(scratch.count)
            scratch.withUnsafeBufferPointer {
                (storage.entries + frame.position).initialize(from: $0.baseAddress!, count: $0.count)
            }
            storage.count += scratch.count
        }
    }
}

extension IngredientIndex.Storage {
    /// Room for `more` bytes in the arena after those it holds.
    func reserveArena(_ more: Int) {
        assert(more >= 0, "room for fewer than no bytes")
        arenaBuffer.reserve(more)
    }
}
