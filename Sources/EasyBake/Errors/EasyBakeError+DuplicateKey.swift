extension EasyBakeError {
    /// The error for `key` occurring twice in one dictionary under
    /// ``DuplicateKeyPolicy/reject``: one text, whichever reader meets the
    /// repeat (the tree builder, or the path walker that skips what no path
    /// needs).
    static func duplicateKey(_ key: String, at location: SourceLocation?) -> EasyBakeError {
        EasyBakeError(.duplicateKey, "key \(key.debugDescription) occurs twice in one dictionary", location: location)
    }
}
