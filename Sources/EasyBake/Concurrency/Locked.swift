import Foundation

/// A value that several threads share, reached only under its lock: the one
/// way EasyBake guards mutable state (the recipe box, the update streams of
/// models, a shared date formatter, parallel baking's progress count). The type keeps the promise the lock makes: there is no way to
/// the value but ``withLock(_:)``.
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is read and written under `lock` only.
    private let lock = NSLock()
    private var value: Value

    /// Guards `value`.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, under the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
