#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads an input in chunks: from memory, or from a file descriptor with
/// `read(2)`, so that memory does not grow with the input. For the format
/// modules that feed a C parser (XML, YAML); others read an input whole with
/// `IngredientInput.loadBytes()`.
package struct ChunkReader: ~Copyable {
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
    /// For the format modules.
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
    mutating func readToEnd() throws(EasyBakeError) -> [UInt8] {
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
