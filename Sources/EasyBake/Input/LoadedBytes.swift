#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
    package init(copying bytes: [UInt8]) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { memory.baseAddress!.copyMemory(from: base, byteCount: source.count) }
        }
        buffer = UnsafeRawBufferPointer(rebasing: memory[..<bytes.count])
        mapped = false
    }

    /// Maps the file at `path` read-only.
    package init(mapping path: String) throws(EasyBakeError) {
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
            all.withUnsafeBytes {
                if let base = $0.baseAddress { memory.baseAddress!.copyMemory(from: base, byteCount: $0.count) }
            }
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
    package func release(before offset: Int) {
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
