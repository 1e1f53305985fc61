import EasyBake

/// How a ``YAMLIngredientSource`` reads a stream.
///
/// ```swift
/// var options = YAMLReadingOptions()
/// options.schema = .yaml11          // yes/no/on/off are booleans
/// options.documents = .all          // every document, as one array
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
    ///
    /// A YAML stream may hold several documents (`---` begins each). Read as
    /// one document where there are several, a stream is an error rather
    /// than its first document: nothing is dropped unseen. Whatever is
    /// chosen, the whole stream is parsed, so that a syntax error in any
    /// document is reported.
    ///
    /// ```swift
    /// let stream = "name: web\n---\nname: db\n"
    /// let all = try YAMLFormat(options: .init(documents: .all)).read(.text(stream))          // [["name": "web"], ["name": "db"]]
    /// let second = try YAMLFormat(options: .init(documents: .document(1))).read(.text(stream)) // ["name": "db"]
    /// ```
    public enum Documents: Sendable, Hashable {
        /// One document (the default). An empty stream reads as `null`, as
        /// an empty config file should; a stream of several documents is
        /// an `EasyBakeError.Code.multipleDocuments` error that says how
        /// many there are and how to choose, once the whole stream has been
        /// parsed. The rest of the stream is parsed before the last event
        /// of the first document's value is handed out (the error comes
        /// instead of it), so every reader of one document sees the error:
        /// `YAMLFormat.read`, `Document`, `Fixtures`, `RecipeFile.load`,
        /// `RecipeBox.load`, baking from an input, and readers that take
        /// one value and never ask for the end, such as
        /// `PathMatcher.resolve(from:)`.
        case single
        /// Every document, together as one top-level array: `[*]` over it
        /// gives the documents as records (streamed one at a time by
        /// `RecordReader` and `bakeEach`). An empty stream is an empty array.
        case all
        /// Every document, each as one top-level value in turn (read them one
        /// at a time with `Ingredients.read(from:duplicateKeys:)`). An empty
        /// stream has no values.
        case each
        /// The document at this index, counting from 0, as one document;
        /// the others are parsed (their syntax checked) and dropped. A
        /// stream with no such document is an
        /// `EasyBakeError.Code.valueNotFound` error.
        case document(Int)
    }

    /// What a node with an unknown tag reads as.
    ///
    /// Known tags are YAML's own scalar types (`!!str`, `!!int`, `!!float`,
    /// `!!bool`, `!!null`, `!!binary`, `!!timestamp`), its collection types
    /// (`!!map`, `!!seq`, `!!omap`, `!!pairs`, `!!set`), `!!merge` and the
    /// non-specific `!`. Everything else — application tags such as
    /// CloudFormation's `!Ref`, language tags such as `!!python/object` — is
    /// unknown.
    ///
    /// Whatever is chosen, ``YAMLIngredientSource/currentTag`` gives the
    /// tag of the node being read, for a consumer of the source's events.
    public enum UnknownTags: String, Sendable, Hashable, CaseIterable {
        /// The node keeps its kind and reads as its value, as YAML 1.2 keeps
        /// a node's kind whatever its tag: a sequence is an array, a mapping
        /// a dictionary, and a scalar its text as a string — `!Ref bucket`
        /// reads as `"bucket"`, `!Count 12` as `"12"`. A tagged scalar is not
        /// resolved by the schema (YAML 1.2 resolves only untagged plain
        /// scalars), and EasyBake cannot know what the tag would make of it,
        /// so it stays the text that was written; baking still coerces
        /// `"12"` to a number property. The default: the data keeps the
        /// shape it has without the tag, as Yams and Go's yaml.v3 read it,
        /// and as yaml-test-suite expects.
        case value
        /// The node becomes a single-key dictionary from the tag, as written
        /// (`!Ref`, `!!python/tuple`, `!<tag:example.com,2024:x>`), to the
        /// node's value as ``value`` reads it: `!Ref bucket` reads as
        /// `{"!Ref": "bucket"}`, so that a transformer or a recipe path
        /// (`bucket["!Ref"]`) can see and act on the tag. A mapping key
        /// cannot hold a dictionary, so a tagged key keeps its text only.
        case wrap
        /// An unknown tag is an error (`EasyBakeError.Code.unsupported`, with
        /// the tag's position), for input that must not carry tags anyone
        /// would act on.
        case reject
    }

    /// Which plain scalars are not strings. Default ``Schema/core``.
    public var schema: Schema
    /// Which documents to read. Default ``Documents/single``.
    public var documents: Documents
    /// What the consumer should do with a key that repeats in one mapping.
    /// Default `DuplicateKeyPolicy.reject`: the YAML specification requires
    /// keys to be unique.
    public var duplicateKeys: DuplicateKeyPolicy
    /// What a node with a tag EasyBake does not know (`!Ref x`,
    /// `!!python/object:os.system`) reads as. Default ``UnknownTags/value``:
    /// the node's value, its kind kept. A tag never instantiates anything.
    public var unknownTags: UnknownTags
    /// The bounds on depth, string and number size, input size and alias
    /// expansion.
    public var limits: IngredientLimits

    /// Options with the given values; each defaults to the value its
    /// property documents.
    public init(
        schema: Schema = .core,
        documents: Documents = .single,
        duplicateKeys: DuplicateKeyPolicy = .reject,
        unknownTags: UnknownTags = .value,
        limits: IngredientLimits = .default
    ) {
        self.schema = schema
        self.documents = documents
        self.duplicateKeys = duplicateKeys
        self.unknownTags = unknownTags
        self.limits = limits
    }
}
