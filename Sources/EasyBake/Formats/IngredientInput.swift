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
/// files in chunks through ``openReader()``.
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
    /// after a first pass.
    ///
    /// - Throws: ``EasyBakeError/Code/io`` when standard input cannot be read.
    public func rereadable() throws(EasyBakeError) -> IngredientInput {
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

    /// A reader that delivers the input in chunks, for sources that never
    /// need it whole.
    ///
    /// - Throws: ``EasyBakeError/Code/io`` when the file cannot be opened.
    public func openReader() throws(EasyBakeError) -> ChunkReader {
        switch storage {
        case .bytes(let bytes): return ChunkReader(bytes: bytes)
        case .file(let path): return try ChunkReader(path: path)
        case .standardInput: return ChunkReader(descriptor: 0, name: name, owned: false)
        }
    }
}

/// Reads an input in chunks: from memory, or from a file descriptor with
/// `read(2)`, so that memory does not grow with the input.
public struct ChunkReader: ~Copyable {
    private let bytes: [UInt8]?
    private var offset = 0
    private let descriptor: Int32
    private let owned: Bool
    private let name: String

    init(bytes: [UInt8]) {
        self.bytes = bytes
        descriptor = -1
        owned = false
        name = "<bytes>"
    }

    init(descriptor: Int32, name: String, owned: Bool) {
        bytes = nil
        self.descriptor = descriptor
        self.owned = owned
        self.name = name
    }

    init(path: String) throws(EasyBakeError) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw EasyBakeError.io(errno, "cannot open", path) }
        self.init(descriptor: fd, name: path, owned: true)
    }

    deinit { if owned { _ = close(descriptor) } }

    /// Fills `buffer` with the next bytes; returns how many, 0 at the end.
    /// For the format modules; ``readToEnd()`` is the public way to read.
    package mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(EasyBakeError) -> Int {
        if let bytes {
            let count = min(buffer.count, bytes.count - offset)
            guard count > 0 else { return 0 }
            bytes.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
            }
            offset += count
            return count
        }
        while true {
            let count = systemRead(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw EasyBakeError.io(errno, "cannot read", name)
        }
    }
}

extension ChunkReader {
    /// Reads everything that is left.
    public mutating func readToEnd() throws(EasyBakeError) -> [UInt8] {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { chunk.deallocate() }
        var all: [UInt8] = []
        while true {
            let count = try read(into: chunk)
            if count == 0 { return all }
            all.append(contentsOf: chunk[..<count])
        }
    }
}

/// `read(2)`, named apart from `ChunkReader.read(into:)`.
@inline(__always)
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

/// The bytes of a whole input, owned in memory or mapped from a file, alive
/// as long as this object.
///
/// Mapped files are read with sequential-access advice, so the kernel reads
/// ahead and may drop pages already read: a gigabyte file does not need a
/// gigabyte of memory to stay resident.
public final class LoadedBytes: @unchecked Sendable {
    // Immutable after init; the memory is never written, hence Sendable.
    /// The bytes, for the format modules, which keep this object alive as
    /// long as they scan them. Others read them with ``withUnsafeBytes(_:)``.
    package let buffer: UnsafeRawBufferPointer
    private let mapped: Bool

    /// Copies `bytes` into memory owned by this object.
    public init(copying bytes: [UInt8]) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { memory.baseAddress!.copyMemory(from: base, byteCount: source.count) }
        }
        buffer = UnsafeRawBufferPointer(rebasing: memory[..<bytes.count])
        mapped = false
    }

    /// Maps the file at `path` read-only.
    public init(mapping path: String) throws(EasyBakeError) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw EasyBakeError.io(errno, "cannot open", path) }
        defer { _ = close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw EasyBakeError.io(errno, "cannot stat", path) }
        let size = Int(info.st_size)
        if (info.st_mode & S_IFMT) != S_IFREG || size == 0 {
            // Not a regular file (a pipe, a device) or empty: read it instead.
            var reader = ChunkReader(descriptor: fd, name: path, owned: false)
            let all = try reader.readToEnd()
            let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(all.count, 1), alignment: 16)
            all.withUnsafeBytes { if let base = $0.baseAddress { memory.baseAddress!.copyMemory(from: base, byteCount: $0.count) } }
            buffer = UnsafeRawBufferPointer(rebasing: memory[..<all.count])
            mapped = false
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            throw EasyBakeError.io(errno, "cannot map", path)
        }
        _ = madvise(address, size, MADV_SEQUENTIAL)
        buffer = UnsafeRawBufferPointer(start: address, count: size)
        mapped = true
    }

    /// Calls `body` with the bytes, which stay valid only during the call.
    ///
    /// ```swift
    /// let text = try input.loadBytes().withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    /// ```
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        defer { withExtendedLifetime(self) {} }
        return try body(buffer)
    }

    /// The number of bytes.
    public var count: Int { buffer.count }

    /// Tells the kernel that the bytes before `offset` will not be read
    /// again, so a streaming reader's resident memory stays bounded.
    public func release(before offset: Int) {
        guard mapped, let base = buffer.baseAddress else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let end = (min(offset, buffer.count) / page) * page
        if end > 0 { _ = madvise(UnsafeMutableRawPointer(mutating: base), end, MADV_DONTNEED) }
    }

    deinit {
        if mapped {
            _ = munmap(UnsafeMutableRawPointer(mutating: buffer.baseAddress), buffer.count)
        } else {
            UnsafeMutableRawPointer(mutating: buffer.baseAddress)?.deallocate()
        }
    }
}

extension EasyBakeError {
    static func io(_ code: Int32, _ what: String, _ name: String) -> EasyBakeError {
        let reason = String(cString: strerror(code))
        return EasyBakeError(.io, "\(what) \(name): \(reason)", location: nil)
    }
}
