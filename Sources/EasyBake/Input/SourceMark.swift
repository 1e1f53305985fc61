/// Where an event begins, cheap to take for every record and turned into a
/// line and column only when someone asks — as when an error is reported.
///
/// A source that counts lines as it reads hands out its location; a source
/// that reads bytes in memory (JSON) hands out the byte offset, because
/// counting lines up to every record would cost as much as reading them.
public struct SourceMark: Sendable {
    private enum Storage: Sendable {
        case location(SourceLocation)
        case offset(Int, in: LoadedBytes, sourceName: String?)
        case deferred(@Sendable () -> SourceLocation)
    }

    private let storage: Storage

    /// A mark at a location already known.
    public init(_ location: SourceLocation) { storage = .location(location) }

    /// A mark at a byte offset in UTF-8 bytes that stay alive with the mark.
    public init(offset: Int, in bytes: LoadedBytes, sourceName: String?) {
        storage = .offset(offset, in: bytes, sourceName: sourceName)
    }

    /// A mark whose location `locate` computes when asked for (a source
    /// that knows the line and column but must read its input again for the
    /// excerpt).
    public init(deferred locate: @escaping @Sendable () -> SourceLocation) {
        storage = .deferred(locate)
    }

    /// The line and column of the mark (computed now, for an offset).
    public var location: SourceLocation {
        switch storage {
        case .location(let location): location
        case .offset(let offset, let bytes, let name):
            SourceLocation.locate(offset: offset, in: bytes.buffer, sourceName: name)
        case .deferred(let locate): locate()
        }
    }
}
