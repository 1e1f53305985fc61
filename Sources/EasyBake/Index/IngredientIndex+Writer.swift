import EasyBakePathGrammar

extension IngredientIndex {
    /// Writes an index value by value: how a format of your own fills the
    /// fast core directly, as the built-in formats do, with no
    /// ``IngredientEvent`` and no tree in between.
    ///
    /// ``IngredientIndex/write(input:sourceName:limits:traits:_:)`` empties the index
    /// and hands you a writer. Write exactly one value: a scalar, or a
    /// container opened with ``beginArray(at:)`` or ``beginDictionary(at:)``,
    /// filled, and closed with ``endArray()`` or ``endDictionary()``. In a
    /// dictionary each member is a key, then its value.
    ///
    /// Each write takes the byte offset in the input where the value begins:
    /// what an error about the value reports as its line and column. A string
    /// or number whose text is the input's own bytes is written by its offset
    /// and length (``string(bytesAt:count:)``, ``number(literalAt:count:)``)
    /// and stays a range of the input until a property asks for it; one your
    /// format decodes (escapes, entities) is written from its bytes, which the
    /// index copies (``string(_:at:)``).
    ///
    /// The writer checks what the index's readers rely on and throws
    /// ``EasyBakeError`` when a write breaks it: the structure (a key only
    /// where a dictionary expects one, a container closed by its own kind,
    /// one value in all), ranges within the input, valid UTF-8, JSON's
    /// number grammar for a number's text, and the ``IngredientLimits`` given
    /// (depth, nodes, string length). A key written twice in one dictionary
    /// is kept, and lookups find its first value, as
    /// ``DuplicateKeyPolicy/firstWins`` says; a format with another policy
    /// applies it before writing.
    ///
    /// ```swift
    /// // {"port": 8080}, read from `bytes` (a LoadedBytes of the input)
    /// try index.write(input: bytes, sourceName: "config.kv") { writer in
    ///     try writer.beginDictionary(at: 0)
    ///     try writer.key(bytesAt: 0, count: 4)         // "port"
    ///     try writer.number(literalAt: 5, count: 4)    // 8080
    ///     try writer.endDictionary()
    /// }
    /// ```
    public struct Writer {
        private struct Open {
            let position: Int
            let isDictionary: Bool
            var elements = 0
            /// Inside a dictionary: whether a key comes next.
            var expectsKey = true
        }

        private let storage: Storage
        private let limits: IngredientLimits
        private let input: LoadedBytes?
        private let sourceName: String?
        private var open: [Open] = []
        private var nodes = 0
        /// Whether the one value is written.
        private(set) var isComplete = false

        init(storage: Storage, input: LoadedBytes?, sourceName: String?, limits: IngredientLimits) {
            self.storage = storage
            self.input = input
            self.sourceName = sourceName
            self.limits = limits
        }

        // MARK: Containers

        /// Opens an array that begins at `offset`.
        public mutating func beginArray(at offset: Int) throws(EasyBakeError) {
            try beginContainer(.array, at: offset)
        }

        /// Opens a dictionary that begins at `offset`; a key comes next.
        public mutating func beginDictionary(at offset: Int) throws(EasyBakeError) {
            try beginContainer(.dictionary, at: offset)
        }

        /// Closes the innermost container, an array.
        public mutating func endArray() throws(EasyBakeError) {
            try endContainer(dictionary: false)
        }

        /// Closes the innermost container, a dictionary, after a member's
        /// value (or none).
        public mutating func endDictionary() throws(EasyBakeError) {
            try endContainer(dictionary: true)
        }

        private mutating func beginContainer(_ kind: Kind, at offset: Int) throws(EasyBakeError) {
            try beginValue(at: offset)
            guard open.count < limits.maximumDepth else {
                throw EasyBakeError.limit(.maximumDepth, limits.maximumDepth, at: location(offset))
            }
            open.append(Open(position: storage.count, isDictionary: kind == .dictionary))
            storage.openContainer(kind, at: offset)
        }

        private mutating func endContainer(dictionary: Bool) throws(EasyBakeError) {
            guard let top = open.last, top.isDictionary == dictionary else {
                throw misuse(
                    open.isEmpty
                        ? "a container closed that is not open"
                        : "a \(dictionary ? "dictionary" : "array") closed inside an open \(dictionary ? "array" : "dictionary")"
                )
            }
            guard !top.isDictionary || top.expectsKey else { throw misuse("a dictionary closed after a key") }
            open.removeLast()
            try storage.closeContainer(elements: top.elements)
            if open.isEmpty { isComplete = true }
        }

        // MARK: Keys

        /// A key of the innermost dictionary: the `count` bytes of the input
        /// that begin at `offset`.
        public mutating func key(bytesAt offset: Int, count: Int) throws(EasyBakeError) {
            try beginKey(at: offset)
            try checkString(try inputBytes(at: offset, count: count), at: offset)
            try storage.appendUnquotedString(at: offset, length: count)
        }

        /// A key of the innermost dictionary, decoded by the format; `offset`
        /// is where it begins in the input.
        public mutating func key(_ text: String, at offset: Int) throws(EasyBakeError) {
            try beginKey(at: offset)
            try appendDecoded(text, at: offset)
        }

        private mutating func beginKey(at offset: Int) throws(EasyBakeError) {
            guard !isComplete, let top = open.last, top.isDictionary, top.expectsKey else {
                throw misuse("a key where no dictionary expects one")
            }
            open[open.count - 1].expectsKey = false
            open[open.count - 1].elements += 1
        }

        // MARK: Scalars

        /// A null value at `offset`.
        public mutating func null(at offset: Int) throws(EasyBakeError) {
            try beginValue(at: offset)
            storage.appendLiteral(.null, at: offset)
            finishScalar()
        }

        /// A boolean value at `offset`.
        public mutating func bool(_ value: Bool, at offset: Int) throws(EasyBakeError) {
            try beginValue(at: offset)
            storage.appendLiteral(value ? .true : .false, at: offset)
            finishScalar()
        }

        /// A string value: the `count` bytes of the input that begin at
        /// `offset`, UTF-8.
        public mutating func string(bytesAt offset: Int, count: Int) throws(EasyBakeError) {
            try beginValue(at: offset)
            try checkString(try inputBytes(at: offset, count: count), at: offset)
            try storage.appendUnquotedString(at: offset, length: count)
            finishScalar()
        }

        /// A string value decoded by the format; `offset` is where it begins
        /// in the input.
        public mutating func string(_ text: String, at offset: Int) throws(EasyBakeError) {
            try beginValue(at: offset)
            try appendDecoded(text, at: offset)
            finishScalar()
        }

        /// A number whose text is the `count` bytes of the input that begin
        /// at `offset`, in JSON's grammar (`-12`, `3.5e2`): it keeps that text,
        /// exactly, for a property that asks for it.
        public mutating func number(literalAt offset: Int, count: Int) throws(EasyBakeError) {
            try beginValue(at: offset)
            let bytes = try inputBytes(at: offset, count: count)
            guard count <= limits.maximumNumberLength else {
                throw EasyBakeError.limit(.maximumNumberLength, limits.maximumNumberLength, at: location(offset))
            }
            guard JSONNumberGrammar.matches(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: count)
            else {
                throw EasyBakeError(
                    .syntax, "expected a number, found \(String(decoding: bytes, as: UTF8.self).debugDescription)",
                    location: location(offset))
            }
            let isInteger = !bytes.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
            storage.appendNumber(at: offset, length: count, isInteger: isInteger)
            finishScalar()
        }

        /// An integer value the format has resolved; `offset` is where it
        /// begins in the input.
        public mutating func number(_ value: Int64, at offset: Int) throws(EasyBakeError) {
            try beginValue(at: offset)
            try storage.appendNumber(.integer(value), at: offset)
            finishScalar()
        }

        /// A floating-point value the format has resolved; `offset` is where
        /// it begins in the input.
        public mutating func number(_ value: Double, at offset: Int) throws(EasyBakeError) {
            try beginValue(at: offset)
            try storage.appendNumber(.float(value), at: offset)
            finishScalar()
        }

        // MARK: Checks

        private mutating func beginValue(at offset: Int) throws(EasyBakeError) {
            guard !isComplete else { throw misuse("a second value after the one the index holds") }
            guard offset >= 0, input.map({ offset <= $0.buffer.count }) ?? true else {
                throw misuse("an offset outside the input (\(offset))")
            }
            if let top = open.last {
                if top.isDictionary {
                    guard !top.expectsKey else { throw misuse("a value where the dictionary expects a key") }
                    open[open.count - 1].expectsKey = true
                } else {
                    open[open.count - 1].elements += 1
                }
            }
            nodes += 1
            guard nodes <= limits.maximumNodes else {
                throw EasyBakeError.limit(.maximumNodes, limits.maximumNodes, at: location(offset))
            }
        }

        private mutating func finishScalar() {
            if open.isEmpty { isComplete = true }
        }

        /// The input's `count` bytes at `offset`, checked to lie within it.
        private func inputBytes(at offset: Int, count: Int) throws(EasyBakeError) -> UnsafeRawBufferPointer {
            guard let input else { throw misuse("bytes of the input written to an index without one") }
            guard offset >= 0, count >= 0, offset <= input.buffer.count - count else {
                throw misuse("bytes \(offset)..<\(offset + count) outside the input of \(input.buffer.count)")
            }
            return UnsafeRawBufferPointer(rebasing: input.buffer[offset..<(offset + count)])
        }

        private func checkString(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(EasyBakeError) {
            guard bytes.count <= limits.maximumStringBytes else {
                throw EasyBakeError.limit(.maximumStringBytes, limits.maximumStringBytes, at: location(offset))
            }
            guard String(validating: bytes, as: UTF8.self) != nil else {
                throw EasyBakeError(.syntax, "a string that is not valid UTF-8", location: location(offset))
            }
        }

        private func appendDecoded(_ text: String, at offset: Int) throws(EasyBakeError) {
            guard text.utf8.count <= limits.maximumStringBytes else {
                throw EasyBakeError.limit(.maximumStringBytes, limits.maximumStringBytes, at: location(offset))
            }
            try storage.appendString(decoded: Array(text.utf8), at: offset)
        }

        /// The line and column of `offset`, when the writer has the input.
        private func location(_ offset: Int) -> SourceLocation? {
            guard let input else { return nil }
            return SourceMark(offset: min(max(offset, 0), input.buffer.count), in: input, sourceName: sourceName)
                .location
        }

        /// The error of a write the index cannot hold, worded as the tree
        /// builder words malformed events.
        private func misuse(_ what: String) -> EasyBakeError {
            EasyBakeError(.syntax, what)
        }
    }

    /// Empties the index and fills it with the one value `body` writes (see
    /// ``Writer``): how a format of your own builds the index directly, in
    /// its ``IngredientFormat/readIndex(_:into:)``.
    ///
    /// - Parameters:
    ///   - input: The bytes the values are read from, which the index keeps:
    ///     strings and numbers may stay ranges of it, and errors find their
    ///     line and column in it. `nil` when every value is written decoded
    ///     (errors then have no location).
    ///   - sourceName: The input's name, for error locations.
    ///   - limits: The limits the writer holds the value to.
    ///   - traits: The traits of your format's values (its source's
    ///     ``IngredientSource/traits``), which the index keeps as its
    ///     ``traits``. By default none.
    ///   - body: Writes the one value through the writer it is given.
    /// - Throws: ``EasyBakeError`` from `body`, from a write the writer
    ///   rejects, or when `body` returns before the value is complete.
    public mutating func write(
        input: LoadedBytes? = nil, sourceName: String? = nil, limits: IngredientLimits = .default,
        traits: IngredientTraits = [], _ body: (inout Writer) throws(EasyBakeError) -> Void
    ) throws(EasyBakeError) {
        if let input { begin(input: input, sourceName: sourceName) } else { removeAll() }
        self.traits = traits
        let storage = storageForBuilding
        storage.sourceName = sourceName
        var writer = Writer(storage: storage, input: input, sourceName: sourceName, limits: limits)
        do throws(EasyBakeError) {
            try body(&writer)
            guard writer.isComplete else {
                throw EasyBakeError(.syntax, "the value written to the index is incomplete (a container is not closed)")
            }
        } catch {
            removeAll()
            throw error
        }
    }
}
