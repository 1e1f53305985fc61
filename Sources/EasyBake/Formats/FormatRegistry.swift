import Foundation

/// Formats by name and file extension, safe to use from many threads.
///
/// The shared registry starts empty in the core; each format module offers
/// its format to register (`FormatRegistry.shared.register(JSONFormat())`),
/// and the `easybake` command registers all of them.
public final class FormatRegistry: Sendable {
    private struct Formats {
        var byName: [String: any IngredientFormat] = [:]
        var byExtension: [String: any IngredientFormat] = [:]
    }

    private let formats = Locked(Formats())

    /// The registry that the command-line tool and convenience APIs use.
    public static let shared = FormatRegistry()

    /// An empty registry.
    public init() {}

    /// Adds `format`, replacing any format registered under the same name or
    /// extensions.
    public func register(_ format: any IngredientFormat) {
        formats.withLock { formats in
            formats.byName[format.name.lowercased()] = format
            for ext in format.fileExtensions { formats.byExtension[ext.lowercased()] = format }
        }
    }

    /// The format with `name`, case-insensitively.
    public func format(named name: String) -> (any IngredientFormat)? {
        formats.withLock { $0.byName[name.lowercased()] }
    }

    /// The format for a file extension (without the dot), case-insensitively.
    public func format(forExtension ext: String) -> (any IngredientFormat)? {
        formats.withLock { $0.byExtension[ext.lowercased()] }
    }

    /// The format for a file path, from its extension.
    ///
    /// - Throws: ``EasyBakeError/Code/unknownFormat`` listing the known extensions.
    public func format(forPath path: String) throws(EasyBakeError) -> any IngredientFormat {
        let ext = (path as NSString).pathExtension
        if let format = format(forExtension: ext) { return format }
        let known = formats.withLock { $0.byExtension.keys.sorted() }.joined(separator: ", ")
        throw EasyBakeError(
            .unknownFormat,
            "no format for \(path.debugDescription) (extension \(ext.isEmpty ? "none" : ext.debugDescription)); known extensions: \(known); name one with --format")
    }

    /// The names of the registered formats, sorted.
    public var names: [String] { formats.withLock { $0.byName.keys.sorted() } }
}
