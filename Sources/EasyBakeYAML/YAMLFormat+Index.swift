import EasyBake

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension YAMLFormat {
    /// Reads the single document of `input` into `index`, replacing what it
    /// held: the fast core's way in.
    ///
    /// Common block YAML — mappings, sequences and one-line scalars, as
    /// configuration files and data exports write it — is indexed straight
    /// from its bytes, with no libyaml event and no `String` per value
    /// (strings and numbers stay where they are in the input). Anything
    /// else (anchors, tags, flow collections, block scalars, several
    /// documents, a repeated key, ...) is read through the source's events,
    /// as `read(_:)` reads it: the same index, and the same errors, either
    /// way. A bake error from a natively read index names the line and
    /// column of the value at fault.
    ///
    /// - Throws: what reading `input` through ``YAMLIngredientSource`` throws.
    public func readIndex(_ input: IngredientInput, into index: inout IngredientIndex) throws(EasyBakeError) {
        if byteRange == nil, readIndexNatively(input, into: &index) { return }
        var source = try makeSource(for: input)
        try index.read(single: &source)
    }

    /// Builds the index of `input` natively, without libyaml; `false`, with
    /// `index` emptied, when the input leaves the subset the native scanner
    /// reads (or is wrong, or passes a limit), so that the event path must
    /// read it. For ``readIndex(_:into:)``, and for tests that compare the
    /// two paths.
    package func readIndexNatively(_ input: IngredientInput, into index: inout IngredientIndex) -> Bool {
        guard options.documents == .single, let loaded = Self.bytesForScanning(input, options: options) else {
            return false
        }
        let writer = index.beginUncheckedWriting(input: loaded, sourceName: input.name)
        // Block YAML has about one entry per ten bytes; room for more is only
        // address space until it is used.
        writer.reserve(entries: loaded.buffer.count / 8)
        var scanner = YAMLIndexScanner(bytes: loaded.buffer, options: options)
        do {
            try scanner.build(into: writer)
            return true
        } catch {
            index.removeAll()
            return false
        }
    }

    /// The bytes of `input`, when the native scanner may read it: bytes it
    /// can hold whole. Standard input (and a file that is no regular file,
    /// a pipe) can be read only once: what the scanner does not read, the
    /// event path could not read again.
    static func bytesForScanning(_ input: IngredientInput, options: YAMLReadingOptions) -> LoadedBytes? {
        guard input.isInMemory || isRegularFile(input.filePath) else { return nil }
        return try? input.loadBytes(limits: options.limits)
    }

    private static func isRegularFile(_ path: String?) -> Bool {
        guard let path else { return false }
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}
