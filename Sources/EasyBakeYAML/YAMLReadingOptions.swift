import EasyBake

/// How a ``YAMLIngredientSource`` reads a stream.
///
/// ```swift
/// var options = YAMLReadingOptions()
/// options.schema = .yaml11          // yes/no/on/off are booleans
/// options.documents = .array        // every document, as one array
/// let tree = try YAMLFormat(options: options).read(.file("config.yaml"))
/// ```
public struct YAMLReadingOptions: Sendable, Hashable {
    /// Which plain scalars are not strings.
    public enum Schema: String, Sendable, Hashable, CaseIterable {
        /// The YAML 1.2 core schema (the default): `null`, `~` and the empty
        /// scalar are null; `true`/`false` (and their `True`/`TRUE` spellings)
        /// are booleans; decimal, `0x` and `0o` integers and floats including
        /// `.inf`, `-.inf` and `.nan` are numbers; everything else is a string.
        ///
        /// The default because it is what the current specification says, and
        /// because YAML 1.1's rules turn the country code `NO` or the answer
        /// `yes` into a boolean behind the user's back (the "Norway problem").
        case core
        /// The core schema plus YAML 1.1's booleans: `y`, `yes`, `on` and
        /// `n`, `no`, `off` (in lower, title and upper case). For files written
        /// against YAML 1.1 tools (older Ansible, Kubernetes, Rails configs).
        case yaml11
    }

    /// Which documents of a stream the source reads.
    public enum Documents: String, Sendable, Hashable, CaseIterable {
        /// The first document only (the default); the rest of the stream is
        /// not parsed. An empty stream reads as `null`, as an empty config
        /// file should.
        case first
        /// Every document, each as one top-level value in turn (read them one
        /// at a time with ``Ingredients/read(from:duplicateKeys:)``). An empty
        /// stream has no values.
        case each
        /// Every document, together as one array.
        case array
    }

    /// Which plain scalars are not strings. Default ``Schema/core``.
    public var schema: Schema
    /// Which documents to read. Default ``Documents/first``.
    public var documents: Documents
    /// What the consumer should do with a key that repeats in one mapping.
    /// Default ``DuplicateKeyPolicy/reject``: the YAML specification requires
    /// keys to be unique.
    public var duplicateKeys: DuplicateKeyPolicy
    /// Whether a scalar with a tag EasyBake does not know (`!Ref x`,
    /// `!!python/object`) is an error. Default `false`: such a scalar reads as
    /// its text, and a container with an unknown tag reads as the container.
    /// A tag never instantiates anything.
    public var rejectsUnknownTags: Bool
    /// The bounds on depth, string and number size, input size and alias
    /// expansion.
    public var limits: IngredientLimits

    public init(
        schema: Schema = .core,
        documents: Documents = .first,
        duplicateKeys: DuplicateKeyPolicy = .reject,
        rejectsUnknownTags: Bool = false,
        limits: IngredientLimits = .default
    ) {
        self.schema = schema
        self.documents = documents
        self.duplicateKeys = duplicateKeys
        self.rejectsUnknownTags = rejectsUnknownTags
        self.limits = limits
    }
}
