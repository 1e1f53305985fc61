import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import Foundation
import Testing

/// `BakedRecords.models` reads and bakes off the iterating task's thread:
/// the task waits suspended, its thread free for other tasks; the models,
/// errors and their order are those of the synchronous records; cancelling
/// the task, or dropping the iterator, stops the reading.
@Suite("Models as an AsyncSequence")
struct AsyncModelsTests {
    struct Item: Decodable, Equatable {
        let n: Int
    }

    struct User: Decodable, Sendable {
        let id: Int
        let name: String
    }

    /// A model that is not `Sendable`: the async sequence must not ask it to be.
    final class Entry: Decodable {
        let id: Int
        let name: String
    }

    /// Waits, bounded: a test whose signal never comes fails instead of
    /// hanging.
    static let patience: TimeInterval = 20

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    @Test("a task waiting for models leaves its thread to other tasks")
    func waitingLeavesTheThread() async throws {
        // Every task here runs on one thread. The source stalls at record
        // 150 until a second task opens it: that task can only run while
        // the iterating task is suspended, not while its thread reads.
        let executor = OneThreadExecutor()
        defer { executor.stop() }
        let reached = Signal()
        let opened = Signal()
        let ns = try await withTaskExecutorPreference(executor) {
            try await withThrowingTaskGroup(of: [Int]?.self) { group in
                group.addTask {
                    await reached.raised()
                    opened.raise()
                    return nil
                }
                group.addTask {
                    let source = GeneratedRecords(count: 300) { (n: Int) throws(EasyBakeError) in
                        guard n == 150 else { return }
                        reached.raise()
                        guard opened.wait(seconds: Self.patience) else {
                            throw EasyBakeError(
                                .io, "record \(n) waited for a task that never ran: the reading blocked its thread")
                        }
                    }
                    var ns: [Int] = []
                    for try await item in try Baker().bakeEach(Item.self, from: source, each: "[*]").models {
                        ns.append(item.n)
                    }
                    return ns
                }
                var collected: [Int] = []
                for try await ns in group { collected += ns ?? [] }
                return collected
            }
        }
        #expect(ns == Array(0..<300))
    }

    @Test("models and errors arrive as the records give them, in order")
    func sameAsRecords() async throws {
        // Failing records among a thousand (every 37th has no name, every
        // 101st a string id), more than a batch; then the same payload cut
        // short, which ends the stream with the source's error.
        let users = (0..<1_000).map { i in
            let id = i % 101 == 100 ? #""x\#(i)""# : "\(i)"
            let name = i % 37 == 36 ? "" : #""name": "user \#(i)", "#
            return #"{\#(name)"id": \#(id)}"#
        }
        let whole = "[" + users.joined(separator: ",\n") + "]"
        let cut = String(whole.prefix(whole.count * 2 / 3))
        for text in [whole, cut] {
            let records = Array(try Baker().bakeEach(Entry.self, from: JSONIngredientSource(.text(text)), each: "[*]"))
            #expect(records.count > 600)
            #expect(records.contains { (try? $0.get()) == nil })
            let awaited = await Self.results(
                of: try Baker().bakeEach(Entry.self, from: JSONIngredientSource(.text(text)), each: "[*]").models)
            #expect(awaited.map(Self.describe) == records.map(Self.describe), "\(text.count) bytes")

            // Records baked on several jobs, then handed to the task.
            let users = Array(try Baker().bakeEach(User.self, from: JSONIngredientSource(.text(text)), each: "[*]"))
            for jobs in [1, 2] {
                let onJobs = await Self.results(
                    of: try Baker().bakeEach(
                        User.self, from: JSONIngredientSource(.text(text)), each: "[*]", jobs: jobs
                    )
                    .models)
                #expect(onJobs.map(Self.describe) == users.map(Self.describe), "jobs \(jobs)")
            }
        }
    }

    @Test("cancelling the task stops the reading: next() throws CancellationError, then ends")
    func cancelling() async throws {
        let released = Signal()
        let read = Locked(0)
        let outcome = try await Task {
            // An endless array: only a reading that stops ends its thread.
            let source = GeneratedRecords(count: nil, token: Token(released)) { (n: Int) throws(EasyBakeError) in
                read.withLock { $0 = n + 1 }
            }
            var models = try Baker().bakeEach(Item.self, from: source, each: "[*]").models
            let first = try await models.next()
            withUnsafeCurrentTask { $0?.cancel() }
            var cancelled = false
            do {
                _ = try await models.next()
            } catch is CancellationError {
                cancelled = true
            }
            return (first: first?.n, cancelled: cancelled, after: try await models.next()?.n)
        }.value
        #expect(outcome.first == 0)
        #expect(outcome.cancelled)
        #expect(outcome.after == nil)
        #expect(released.wait(seconds: Self.patience), "the reading thread still holds the source")
        // It read a bounded way ahead of the one model taken, and no further.
        let stoppedAt = read.withLock { $0 }
        #expect(stoppedAt < 1_000)
        #expect(read.withLock { $0 } == stoppedAt)
    }

    @Test("a task cancelled before it asks gets CancellationError, and nothing is read")
    func cancelledBefore() async throws {
        let read = Locked(0)
        let cancelled = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            let source = GeneratedRecords(count: 10) { (_: Int) throws(EasyBakeError) in read.withLock { $0 += 1 } }
            do {
                for try await _ in try Baker().bakeEach(Item.self, from: source, each: "[*]").models {}
                return false
            } catch {
                return error is CancellationError
            }
        }.value
        #expect(cancelled)
        #expect(read.withLock { $0 } == 0)
    }

    @Test("leaving the loop stops the reading")
    func leaving() async throws {
        let released = Signal()
        var first: Int?
        for try await item in try Baker().bakeEach(
            Item.self, from: GeneratedRecords(count: nil, token: Token(released)) { (_: Int) throws(EasyBakeError) in },
            each: "[*]"
        ).models {
            first = item.n
            break
        }
        #expect(first == 0)
        #expect(released.wait(seconds: Self.patience), "the reading thread still holds the source")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    @Test("models baked before the source stalls reach the waiting task")
    func stalledSource() async throws {
        // Three records come at once, then the source waits for the task to
        // have them: they must not wait for a batch to fill. The task runs
        // on a thread of its own, so that a pool busy with other tests does
        // not hold it up.
        let executor = OneThreadExecutor()
        defer { executor.stop() }
        let delivered = Signal()
        let ns = try await withTaskExecutorPreference(executor) {
            let source = GeneratedRecords(count: 5) { (n: Int) throws(EasyBakeError) in
                guard n == 3 else { return }
                guard delivered.wait(seconds: Self.patience) else {
                    throw EasyBakeError(.io, "records 0 to 2 never reached the task")
                }
            }
            var ns: [Int] = []
            for try await item in try Baker().bakeEach(Item.self, from: source, each: "[*]").models {
                ns.append(item.n)
                if item.n == 2 { delivered.raise() }
            }
            return ns
        }
        #expect(ns == [0, 1, 2, 3, 4])
    }

    // MARK: - Helpers

    /// Every result of `models`, iterating on after each failure as the
    /// synchronous records do.
    static func results<Model, Source>(
        of models: BakedRecords<Model, Source>.Models
    ) async -> [Result<Model, EasyBakeError>] {
        var models = models
        var results: [Result<Model, EasyBakeError>] = []
        while true {
            do {
                guard let model = try await models.next() else { return results }
                results.append(.success(model))
            } catch let error as EasyBakeError {
                results.append(.failure(error))
            } catch {
                Issue.record("unexpected \(error)")
                return results
            }
        }
    }

    static func describe(_ result: Result<Entry, EasyBakeError>) -> String {
        describe(result.map { User(id: $0.id, name: $0.name) })
    }

    static func describe(_ result: Result<User, EasyBakeError>) -> String {
        switch result {
        case .success(let user): "\(user.id) \(user.name)"
        case .failure(let error):
            "\(error.code) \(error.message) at \(error.path?.description ?? "") \(error.location?.line ?? 0):\(error.location?.column ?? 0)"
        }
    }
}

/// An array of `count` records `{"n": i}` (endless when `nil`), each made
/// as it is read, after `reading(i)`; `token` goes with the source.
private struct GeneratedRecords: IngredientSource {
    let count: Int?
    let token: Token?
    let reading: @Sendable (Int) throws(EasyBakeError) -> Void
    private var queued: [IngredientEvent] = []
    private var begun = false
    private var ended = false
    private var record = 0

    init(count: Int?, token: Token? = nil, reading: @escaping @Sendable (Int) throws(EasyBakeError) -> Void) {
        self.count = count
        self.token = token
        self.reading = reading
    }

    var location: EasyBake.SourceLocation {
        EasyBake.SourceLocation(sourceName: "<generated>", line: 1, column: record + 1)
    }

    mutating func next() throws(EasyBakeError) -> IngredientEvent? {
        if let event = queued.popLast() { return event }
        if !begun {
            begun = true
            return .beginArray
        }
        if let count, record >= count {
            if ended { return nil }
            ended = true
            return .endArray
        }
        try reading(record)
        queued = [.endDictionary, .scalar(.integer(Int64(record))), .key("n")]
        record += 1
        return .beginDictionary
    }
}

/// Raises its signal when the last reference to it goes.
private final class Token: Sendable {
    let released: Signal
    init(_ released: Signal) { self.released = released }
    deinit { released.raise() }
}

/// A signal raised once, which tasks await suspended and threads wait for
/// blocked, for a bounded time.
private final class Signal: @unchecked Sendable {
    // @unchecked: the stored vars are touched under `changed` only.
    private let changed = NSCondition()
    private var isRaised = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func raise() {
        changed.lock()
        isRaised = true
        let waiters = waiters
        self.waiters = []
        changed.broadcast()
        changed.unlock()
        for waiter in waiters { waiter.resume() }
    }

    /// Whether the signal was raised within `seconds`.
    func wait(seconds: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        changed.lock()
        defer { changed.unlock() }
        while !isRaised {
            if !changed.wait(until: deadline) { return isRaised }
        }
        return true
    }

    func raised() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            changed.lock()
            if isRaised {
                changed.unlock()
                waiter.resume()
            } else {
                waiters.append(waiter)
                changed.unlock()
            }
        }
    }
}

/// A task executor of one thread: a task that blocks the thread holds up
/// every other task that prefers the executor, as one that blocks a thread
/// of the cooperative pool holds up the tasks waiting for a thread when the
/// pool's others are busy.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
private final class OneThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: the stored vars are touched under `changed` only.
    private let changed = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    init() {
        Thread { [self] in run() }.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        changed.lock()
        jobs.append(job)
        changed.signal()
        changed.unlock()
    }

    /// Ends the thread once the jobs queued have run.
    func stop() {
        changed.lock()
        stopped = true
        changed.signal()
        changed.unlock()
    }

    private func run() {
        while true {
            changed.lock()
            while jobs.isEmpty, !stopped { changed.wait() }
            if jobs.isEmpty {
                changed.unlock()
                return
            }
            let job = jobs.removeFirst()
            changed.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
