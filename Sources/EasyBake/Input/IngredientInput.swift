#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a payload comes from: bytes in memory, a file, or standard input.
///
/// Sources that scan a contiguous buffer (JSON) call ``loadBytes()``, which
/// maps a file rather than copying it; sources on C parsers (XML, YAML) read
/// files in chunks.
public struct IngredientInput: Sendable {
    enum Storage: Sendable {
        case bytes([UInt8])
        case file(String)
        case standardInput
    }

    let storage: Storage

    /// The name used in error locations: the file path, `<stdin>` or `<bytes>`.
    public let name: String

    /// Input from bytes in memory.
    public static func bytes(_ bytes: [UInt8], name: String = "<bytes>") -> IngredientInput {
        IngredientInput(storage: .bytes(bytes), name: name)
    }

    /// Input from the UTF-8 encoding of `text`.
    public static func text(_ text: String, name: String = "<text>") -> IngredientInput {
        IngredientInput(storage: .bytes(Array(text.utf8)), name: name)
    }

    /// Input from the file at `path`; `-` names standard input.
    public static func file(_ path: String) -> IngredientInput {
        path == "-" ? standardInput : IngredientInput(storage: .file(path), name: path)
    }

    /// Input from standard input.
    public static let standardInput = IngredientInput(storage: .standardInput, name: "<stdin>")

    /// Whether the input is bytes or text in memory, rather than a file or
    /// standard input that a source reads in chunks. For the format modules.
    package var isInMemory: Bool {
        if case .bytes = storage { true } else { false }
    }

    /// The file path, when the input is a file.
    public var filePath: String? {
        if case .file(let path) = storage { path } else { nil }
    }

    /// This input, or for standard input, which can be read only once, its
    /// bytes in memory: an input that can be read again, to locate an error
    /// after a first pass, as `Document` and the command do.
    ///
    /// - Throws: ``EasyBakeError/Code/io`` when standard input cannot be read.
    package func rereadable() throws(EasyBakeError) -> IngredientInput {
        guard case .standardInput = storage else { return self }
        var reader = try openReader()
        return .bytes(try reader.readToEnd(), name: name)
    }

    /// The bytes of the whole input, mapped from a file when possible.
    ///
    /// - Throws: ``EasyBakeError/Code/io`` when the file cannot be read.
    public func loadBytes() throws(EasyBakeError) -> LoadedBytes {
        switch storage {
        case .bytes(let bytes):
            return LoadedBytes(copying: bytes)
        case .file(let path):
            return try LoadedBytes(mapping: path)
        case .standardInput:
            var reader = try openReader()
            return LoadedBytes(copying: try reader.readToEnd())
        }
    }

    /// The bytes of the whole input (``loadBytes()``), no more than
    /// `limits.maximumInputBytes` of them: how every source that reads its
    /// input whole checks its size.
    ///
    /// - Throws: ``EasyBakeError/Code/io`` when the file cannot be read,
    ///   ``EasyBakeError/Code/limitExceeded`` when the input is larger.
    package func loadBytes(limits: IngredientLimits) throws(EasyBakeError) -> LoadedBytes {
        let loaded = try loadBytes()
        guard loaded.buffer.count <= limits.maximumInputBytes else {
            throw EasyBakeError.inputTooLarge(limits.maximumInputBytes, in: loaded.buffer, sourceName: name)
        }
        return loaded
    }

    /// A reader that delivers the input in chunks, for sources that never
    /// need it whole.
    ///
    /// - Throws: ``EasyBakeError/Code/io`` when the file cannot be opened.
    package func openReader() throws(EasyBakeError) -> ChunkReader {
        switch storage {
        case .bytes(let bytes): return ChunkReader(bytes: bytes)
        case .file(let path): return try ChunkReader(path: path)
        case .standardInput: return ChunkReader(descriptor: 0, name: name, owned: false)
        }
    }
}

extension EasyBakeError {
    /// The error for an input larger than `maximum` bytes, `bytes` (all of
    /// it, or as much as was read), located at its first byte past the
    /// limit: the one wording and place of the input-size limit in every
    /// format.
    package static func inputTooLarge(
        _ maximum: Int, in bytes: UnsafeRawBufferPointer, sourceName: String?
    ) -> EasyBakeError {
        .limit(
            .maximumInputBytes, maximum,
            at: SourceLocation.locate(offset: maximum, in: bytes, sourceName: sourceName))
    }

    static func io(_ code: Int32, _ what: String, _ name: String) -> EasyBakeError {
        let reason = String(cString: strerror(code))
        return EasyBakeError(.io, "\(what) \(name): \(reason)", location: nil)
    }
}
