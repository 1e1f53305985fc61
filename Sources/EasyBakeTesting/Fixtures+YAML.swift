import EasyBake
import EasyBakeYAML

/// Fixture files in YAML, the format whose merge keys share defaults between records.
extension Fixtures {
    /// Reads a YAML fixture file: a mapping of record names to records, where
    /// merge keys (`<<: *defaults`) share defaults between records and names
    /// starting with `.` hold templates rather than records.
    ///
    /// ```swift
    /// let fixtures = try Fixtures(yaml: .file("Fixtures/yaml/user-records.yaml"))
    /// let ada = try fixtures.make(User.self, "ada", ["email": .null])
    /// ```
    ///
    /// - Parameters:
    ///   - input: the fixture file (or text, or bytes).
    ///   - options: how the YAML reads; the core schema and rejected duplicate
    ///     keys by default.
    ///   - baker: the baker models are baked with.
    /// - Throws: `EasyBakeError` for malformed YAML (with line and column),
    ///   a duplicate record name, or a file that is not a mapping.
    public init(yaml input: IngredientInput, options: YAMLReadingOptions = .init(), baker: Baker = Baker())
        throws(EasyBakeError)
    {
        try self.init(reading: input, format: YAMLFormat(options: options), baker: baker)
    }
}
