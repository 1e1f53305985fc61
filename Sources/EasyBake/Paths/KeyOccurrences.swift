/// How often each key has occurred so far among one dictionary's members:
/// a repeated key's occurrence index, 0 for its first.
///
/// Under `DuplicateKeyPolicy.collect` a repeated key gathers its values
/// into an array in input order, so occurrence *n* is element *n* of that
/// array: a path `key[n]` reads the *n*th occurrence, and a path that stops
/// at `key` (or goes on with a key) reads the first. The path locator counts
/// keys with it, and so does the streaming path walker in a dictionary whose
/// every member a `[*]` reads. In its other dictionaries the walker counts
/// only the keys some path wants, by their index among the wanted keys (a
/// bit each, the source having matched the key's bytes already), so that
/// its hot path hashes no key text.
struct KeyOccurrences: Sendable {
    private var counts: [String: Int] = [:]

    /// No key seen yet.
    package init() {}

    /// Counts one more occurrence of `key` and returns its index: 0 the
    /// first time, 1 for its first repeat, and so on.
    package mutating func record(_ key: String) -> Int {
        let occurrence = counts[key, default: 0]
        counts[key] = occurrence + 1
        return occurrence
    }
}
