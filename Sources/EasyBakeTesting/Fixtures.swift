import EasyBake

/// Named test records from a fixture file, baked into models on demand with
/// per-test overrides — the test factory of JKVValue grown up, fed by a file
/// instead of code.
///
/// A fixture file is a dictionary of record names to records, in any format
/// EasyBake reads (YAML is the natural one: its merge keys share defaults
/// between records):
///
/// ```yaml
/// .defaults: &defaults        # a template: names starting with "." are not records
///   unread-messages: 0
///   role: U
/// ada:
///   <<: *defaults
///   user_id: 101
///   full_name: Ada Lovelace
/// grace:
///   <<: *defaults
///   user_id: 102
///   full_name: Grace Hopper
///   role: A
/// ```
///
/// ```swift
/// let fixtures = try Fixtures(reading: .file("Fixtures/yaml/user-records.yaml"), format: YAMLFormat())
/// let ada = try fixtures.make(User.self, "ada")
/// let admin = try fixtures.make(User.self, "ada", ["role": "A", "email": .null])   // .null clears
/// let everyone = try fixtures.makeAll(User.self)                              // in file order
/// ```
///
/// Errors name the fixture file, the record and the ingredient path, and —
/// when the file can be read again and the value was not overridden — the
/// line and column of the offending value:
///
/// ```
/// error: type mismatch: fixture "ada" in user-records.yaml: expected Int, found "many" (string)
///  --> Fixtures/yaml/user-records.yaml:7:20
/// ```
public struct Fixtures: Sendable {
    /// The records by name, templates included, in file order.
    public let records: IngredientDictionary
    /// The name of the fixture file, for messages (`users.yaml`).
    public let name: String
    /// The document the records were read from, used to find the line and
    /// column of a value an error names; `nil` for fixtures made from a tree.
    public let document: Document?
    /// The baker models are baked with.
    public var baker: Baker

    /// Reads a fixture file in `format`.
    ///
    /// - Throws: the reading errors of the format, with their location;
    ///   `EasyBakeError.Code.typeMismatch` when the file is not a
    ///   dictionary of records.
    public init(reading input: IngredientInput, format: some IngredientFormat, baker: Baker = Baker())
        throws(EasyBakeError)
    {
        try self.init(document: try Document(reading: input, format: format), baker: baker)
    }

    /// Reads a fixture file in the format that `formats` has for its file
    /// extension.
    ///
    /// - Throws: `EasyBakeError.Code.unknownFormat`, or the errors of
    ///   `init(reading:format:baker:)`.
    public init(reading input: IngredientInput, formats: FormatRegistry, baker: Baker = Baker()) throws(EasyBakeError) {
        try self.init(document: try Document(reading: input, formats: formats), baker: baker)
    }

    /// Fixtures over an already-read document.
    ///
    /// - Throws: `EasyBakeError.Code.typeMismatch` when its tree is not a
    ///   dictionary of records.
    public init(document: Document, baker: Baker = Baker()) throws(EasyBakeError) {
        try self.init(
            document.tree, name: Self.shortName(document.input.filePath ?? document.input.name),
            document: document, baker: baker)
    }

    /// Fixtures over a tree of records built in code.
    ///
    /// - Throws: `EasyBakeError.Code.typeMismatch` when `tree` is not a
    ///   dictionary.
    public init(_ tree: Ingredients, name: String = "<fixtures>", baker: Baker = Baker()) throws(EasyBakeError) {
        try self.init(tree, name: name, document: nil, baker: baker)
    }

    private init(_ tree: Ingredients, name: String, document: Document?, baker: Baker) throws(EasyBakeError) {
        guard case .dictionary(let records) = tree else {
            throw EasyBakeError(
                .typeMismatch,
                "fixture file \(name) must be a dictionary of record names to records, found \(tree.kind)",
                location: document?.location(of: .root))
        }
        self.records = records
        self.name = name
        self.document = document
        self.baker = baker
    }

    /// The names of the records, in file order, without templates (names
    /// that start with `.`, which exist to be merged into records).
    public var names: [String] { records.keys.filter { !$0.hasPrefix(".") } }

    /// The ingredients of the record `name` with `overrides` applied by
    /// ingredient path (`"address.town"`, `"devices[0].os"`); a
    /// (`Ingredients.null`) value clears a field.
    ///
    /// - Throws: `EasyBakeError.Code.valueNotFound` for an unknown record,
    ///   `EasyBakeError.Code.invalidPath` for an override path that does
    ///   not parse, each naming the file and the record.
    public func ingredients(
        _ name: String, _ overrides: KeyValuePairs<String, Ingredients> = [:]
    ) throws(EasyBakeError) -> Ingredients {
        try prepared(name, overrides).tree
    }

    /// Bakes the record `name` into a `Model`, with `overrides` applied
    /// first.
    ///
    /// ```swift
    /// let user = try fixtures.make(User.self, "ada", ["address.town": "Paris", "email": .null])
    /// ```
    ///
    /// - Parameters:
    ///   - type: the model type.
    ///   - name: the record's name in the fixture file.
    ///   - overrides: ingredient path → value; null clears the field.
    ///   - recipe: the recipe; by default the type's own.
    /// - Throws: the baking error, its path starting with the record's name
    ///   and its location in the fixture file where the value comes from the
    ///   file; lookup and override errors as ``ingredients(_:_:)`` throws them.
    public func make<Model: Decodable>(
        _ type: Model.Type, _ name: String, _ overrides: KeyValuePairs<String, Ingredients> = [:], recipe: Recipe? = nil
    ) throws(EasyBakeError) -> Model {
        let (tree, overridden) = try prepared(name, overrides)
        do {
            return try baker.bake(type, from: tree, recipe: recipe)
        } catch {
            throw locating(error, record: name, overridden: overridden)
        }
    }

    /// Bakes every record (templates excepted) into a `Model`, in file order.
    ///
    /// - Throws: the first record's baking error, as ``make(_:_:_:recipe:)``
    ///   reports it.
    public func makeAll<Model: Decodable>(_ type: Model.Type, recipe: Recipe? = nil) throws(EasyBakeError) -> [Model] {
        var models: [Model] = []
        for name in names { models.append(try make(type, name, recipe: recipe)) }
        return models
    }

    /// Bakes every record (templates excepted) into a `Model`, by name.
    public func makeAllByName<Model: Decodable>(
        _ type: Model.Type, recipe: Recipe? = nil
    ) throws(EasyBakeError) -> [String: Model] {
        var models: [String: Model] = [:]
        for name in names { models[name] = try make(type, name, recipe: recipe) }
        return models
    }

    /// A ``ModelFactory`` whose defaults are the record `name`: for tests
    /// that make many variations of one record.
    ///
    /// - Throws: as ``make(_:_:_:recipe:)`` does when the record alone does
    ///   not bake.
    public func factory<Model: Decodable>(
        _ type: Model.Type, _ name: String, recipe: Recipe? = nil
    ) throws(EasyBakeError) -> ModelFactory<Model> {
        let record = try prepared(name, [:]).tree
        do {
            return try ModelFactory(type, defaults: record, recipe: recipe, baker: baker)
        } catch {
            throw locating(error, record: name, overridden: [])
        }
    }

    // MARK: Internals

    /// The record with overrides applied, and the parsed override paths.
    private func prepared(
        _ name: String, _ overrides: KeyValuePairs<String, Ingredients>
    ) throws(EasyBakeError) -> (tree: Ingredients, overridden: [IngredientPath]) {
        guard var tree = records[name] else {
            let known = names.map(\.debugDescription).joined(separator: ", ")
            throw EasyBakeError(
                .valueNotFound,
                "fixture file \(self.name) has no record \(name.debugDescription) (records: \(known.isEmpty ? "none" : known))"
            )
        }
        var paths: [IngredientPath] = []
        for (pathText, value) in overrides {
            let path: IngredientPath
            do {
                path = try IngredientPath(parsing: pathText)
            } catch {
                var named = error
                named.message = "override of fixture \(name.debugDescription) in \(self.name): \(error.message)"
                throw named
            }
            tree = tree.setting(value, at: path)
            paths.append(path)
        }
        return (tree, paths)
    }

    /// `error` with the record's name in front of its path and its message,
    /// and with the location in the fixture file of the value it names —
    /// unless an override replaced that value, in which case the record's
    /// own location is the honest answer.
    private func locating(_ error: EasyBakeError, record: String, overridden: [IngredientPath]) -> EasyBakeError {
        var named = error
        let inner = error.path ?? .root
        named.path = IngredientPath([.key(record)]).appending(inner)
        named.message = "fixture \(record.debugDescription) in \(name): \(error.message)"
        if named.location == nil, let document {
            let fromOverride = overridden.contains { Self.path($0, covers: inner) }
            named.location = document.location(of: fromOverride ? IngredientPath([.key(record)]) : named.path!)
        }
        return named
    }

    /// Whether `override` is `path` or one of its ancestors (`[*]` matching
    /// any index).
    private static func path(_ override: IngredientPath, covers path: IngredientPath) -> Bool {
        guard override.steps.count <= path.steps.count else { return false }
        for (a, b) in zip(override.steps, path.steps) where a != b {
            switch (a, b) {
            case (.everyElement, .index), (.index, .everyElement): continue
            default: return false
            }
        }
        return true
    }

    /// The last path component, for messages (`Fixtures/yaml/users.yaml` → `users.yaml`).
    private static func shortName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
