import Dispatch
import Foundation

// Results made on one thread and taken on another, in input order.
//
// The jobs of `bakeEach(…, jobs:)` put their results here for the thread
// that iterates their records, and the thread that reads and bakes the
// records of `BakedRecords.models` puts its own here for the task that
// iterates the models. A thread waits for results blocked
// (`takeAll(into:)`); a task waits suspended (`take()`), so that its thread
// goes on with other tasks: Swift concurrency's cooperative pool has one
// thread per core, and a task that blocked one would hold it for as long as
// the records take to read.
//
// A result moves through the queue: the thread that puts it keeps no
// reference to it, and one thread or task takes it. That is what `sending`
// says of a value, which the compiler cannot follow through a lock; so the
// queue does not ask the model to be `Sendable` (its APIs decide).
//
// A task that waits is handed what is queued once `handOverCount` results
// are, or once it has waited `handOverWait`: a fast producer's models cross
// in batches, so that resuming the task costs little per model, and a slow
// one's arrive as they are made.

/// Results in input order between the thread that makes them and the thread
/// or task that takes them, at most `capacity` of them queued at a time.
final class RecordQueue<Model>: @unchecked Sendable {
    // @unchecked: every stored var is touched under `changed`'s lock only,
    // and the results move through the queue (see above).

    /// Thrown to the producer once no one takes the results any more.
    struct Abandoned: Error {}

    /// Results handed to a waiting task; they move (see above).
    private struct Handed: @unchecked Sendable {
        var results: [Result<Model, EasyBakeError>]
    }

    /// A task waiting for results: what resumes it, since when it waits,
    /// and the number of its wait, which the timer that ends the wait names.
    private typealias Waiting = (
        continuation: CheckedContinuation<Handed, any Error>, since: ContinuousClock.Instant, number: Int
    )

    /// How many results a waiting task is handed at once, unless it has
    /// waited `handOverWait`.
    private static var handOverCount: Int { 64 }
    /// How long a task waits at most while fewer than `handOverCount`
    /// results are queued.
    private static var handOverWait: Duration { .milliseconds(1) }

    private let changed = NSCondition()
    private let capacity: Int
    private var results: [Result<Model, EasyBakeError>] = []
    private var ended = false
    private var abandoned = false
    private var waiting: Waiting?
    private var waits = 0

    init(capacity: Int) {
        assert(capacity > 0, "a queue that holds nothing never hands anything out")
        self.capacity = capacity
    }

    /// Adds a result; waits while the queue is full.
    func put(_ result: Result<Model, EasyBakeError>) throws(Abandoned) {
        changed.lock()
        while results.count >= capacity, !abandoned { changed.wait() }
        if abandoned {
            changed.unlock()
            throw Abandoned()
        }
        results.append(result)
        let handing = dueHandOver()
        changed.broadcast()
        changed.unlock()
        handing?.resume()
    }

    /// The producer ended: after the results queued, there are none.
    func end() {
        changed.lock()
        ended = true
        let handing = dueHandOver(now: true)
        changed.broadcast()
        changed.unlock()
        handing?.resume()
    }

    /// No one takes the results any more: the producer stops, and a task
    /// waiting for results throws `CancellationError`.
    func abandon() {
        changed.lock()
        abandoned = true
        let waiter = waiting?.continuation
        waiting = nil
        changed.broadcast()
        changed.unlock()
        waiter?.resume(throwing: CancellationError())
    }

    /// Takes every result queued, waiting for one; empty once the producer
    /// ended and all were taken.
    func takeAll(into taken: inout [Result<Model, EasyBakeError>]) {
        changed.lock()
        defer { changed.unlock() }
        while results.isEmpty, !ended { changed.wait() }
        swap(&taken, &results)
        changed.broadcast()
    }

    /// Takes every result queued, suspending the calling task until there
    /// is one (see above); empty once the producer ended and all were taken.
    ///
    /// - Throws: `CancellationError` when the task is cancelled, or was
    ///   before: the queue is then abandoned, and the producer stops.
    func take() async throws -> [Result<Model, EasyBakeError>] {
        // What is queued already is taken without suspending.
        if let queued = takeQueued() { return queued }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Handed, any Error>) in
                changed.lock()
                if abandoned {
                    changed.unlock()
                    continuation.resume(throwing: CancellationError())
                    return
                }
                waits += 1
                waiting = (continuation, .now, waits)
                let handing = dueHandOver(now: !results.isEmpty || ended)
                let number = waits
                changed.unlock()
                if let handing { return handing.resume() }
                RecordQueueTimers.queue.asyncAfter(deadline: .now() + .milliseconds(1)) {
                    self.endWait(number)
                }
            }
        } onCancel: {
            abandon()
        }.results
    }

    /// Takes the results queued, if any (and the queue was not abandoned).
    private func takeQueued() -> [Result<Model, EasyBakeError>]? {
        changed.lock()
        defer { changed.unlock() }
        guard !results.isEmpty, !abandoned else { return nil }
        defer { results = [] }
        changed.broadcast()
        return results
    }

    /// Hands the task in its `number`th wait what is queued, if it still
    /// waits and anything is.
    private func endWait(_ number: Int) {
        changed.lock()
        let handing = waiting?.number == number && !results.isEmpty ? dueHandOver(now: true) : nil
        changed.unlock()
        handing?.resume()
    }

    /// A waiting task and what it is handed, to resume once the lock is
    /// released; taken out of the queue.
    private struct HandOver {
        let continuation: CheckedContinuation<Handed, any Error>
        let handed: Handed
        func resume() { continuation.resume(returning: handed) }
    }

    /// Under the lock: the hand-over to the waiting task, when one waits
    /// and it is due (`now`, or by `handOverCount` and `handOverWait`).
    private func dueHandOver(now: Bool = false) -> HandOver? {
        guard let waiting else { return nil }
        guard
            now || results.count >= min(Self.handOverCount, capacity)
                || waiting.since.duration(to: .now) >= Self.handOverWait
        else { return nil }
        self.waiting = nil
        defer { results = [] }
        return HandOver(continuation: waiting.continuation, handed: Handed(results: results))
    }

    /// The taking end of the queue: when the last reference to it goes, the
    /// producer stops.
    final class Consumer: RecordTaking {
        private let queue: RecordQueue
        /// Results taken and not handed out yet, the next one last.
        private var taken: [Result<Model, EasyBakeError>] = []

        init(_ queue: RecordQueue) { self.queue = queue }

        /// The next result, waiting blocked for one; `nil` after the last.
        func next() -> Result<Model, EasyBakeError>? {
            if taken.isEmpty {
                queue.takeAll(into: &taken)
                taken.reverse()
            }
            // Moved out, not copied: a copy would retain every reference the
            // model holds, and release them again here.
            return taken.popLast()
        }

        /// The next result, the task suspended while there is none; `nil`
        /// after the last.
        ///
        /// - Throws: `CancellationError` when the task is cancelled.
        func nextAwaiting() async throws -> Result<Model, EasyBakeError>? {
            if taken.isEmpty {
                taken = try await queue.take()
                taken.reverse()
            }
            return taken.popLast()
        }

        deinit { queue.abandon() }
    }
}

/// Where the timers that end a task's wait run: a queue of their own, so
/// that a wait ends on time even while the cooperative pool is busy (on
/// Linux, Dispatch's global queues are the pool's threads).
enum RecordQueueTimers {
    static let queue = DispatchQueue(label: "EasyBake.RecordQueue.timers")
}
