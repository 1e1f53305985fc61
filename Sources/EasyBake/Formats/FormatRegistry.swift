import Foundation

/// Formats by name and file extension: a value that a caller builds and
/// passes to what reads files whose format it does not name
/// (``Document/init(reading:formats:)``, ``RecipeFile/load(_:formats:transformers:box:)``).
///
/// A registry is a plain value: there is no shared one to register into,
/// so what a call finds does not depend on what ran before it. Built-in
/// formats have short names in their modules (`.json`, `.jsonLines`,
/// `.xml`, `.yaml`):
///
/// ```swift
/// let formats = FormatRegistry([.json, .yaml])
/// let document = try Document(reading: .file("config.yml"), formats: formats)
/// ```
public struct FormatRegistry: Sendable {
    private var byName: [String: any IngredientFormat] = [:]
    private var byExtension: [String: any IngredientFormat] = [:]

    /// An empty registry.
    public init() {}

    /// A registry of `formats`; a later format replaces an earlier one of the
    /// same name or extension.
    public init(_ formats: [any IngredientFormat]) {
        for format in formats { register(format) }
    }

    /// Adds `format`, replacing any format registered under the same name or
    /// extensions.
    public mutating func register(_ format: any IngredientFormat) {
        byName[format.name.lowercased()] = format
        for ext in format.fileExtensions { byExtension[ext.lowercased()] = format }
    }

    /// The format with `name`, case-insensitively.
    public func format(named name: String) -> (any IngredientFormat)? {
        byName[name.lowercased()]
    }

    /// The format for a file extension (without the dot), case-insensitively.
    public func format(forExtension ext: String) -> (any IngredientFormat)? {
        byExtension[ext.lowercased()]
    }

    /// The format for a file path, from its extension.
    ///
    /// - Throws: ``EasyBakeError/Code/unknownFormat`` listing the known
    ///   extensions; ``EasyBakeError/Code/io`` for a directory, which no
    ///   format reads (its extension would not say what it holds).
    public func format(forPath path: String) throws(EasyBakeError) -> any IngredientFormat {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw EasyBakeError(
                .io, "\(path.debugDescription) is a directory; give a file of it (one payload), or - for standard input"
            )
        }
        let ext = (path as NSString).pathExtension
        if let format = format(forExtension: ext) { return format }
        throw EasyBakeError(
            .unknownFormat,
            "no format for \(path.debugDescription) (extension \(ext.isEmpty ? "none" : ext.debugDescription)); known extensions: \(fileExtensions.joined(separator: ", "))"
        )
    }

    /// The format for an input, from the extension of its file path or name.
    package func format(for input: IngredientInput) throws(EasyBakeError) -> any IngredientFormat {
        try format(forPath: input.filePath ?? input.name)
    }

    /// The names of the registered formats, sorted.
    public var names: [String] { byName.keys.sorted() }

    /// The registered file extensions, sorted.
    public var fileExtensions: [String] { byExtension.keys.sorted() }
}
