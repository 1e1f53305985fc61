import Foundation

// The models of a record stream as an `AsyncSequence`, read and baked off
// Swift concurrency's cooperative pool.
//
// Reading and baking block: a read waits for the disk or a pipe, and a
// gigabyte file takes seconds to bake. Done inside `next()`, that work would
// hold a thread of the cooperative pool, which has one per core, for as
// long, and the other tasks would wait for it. The records are read and
// baked on a thread of their own instead, which puts each result in a
// `RecordQueue`; the iterating task takes them from it in batches, and
// waits suspended while there are none, its thread free for other tasks.
// The queue holds `readAhead` results at most, so memory stays bounded
// however long the stream, and the thread stops when the task is cancelled
// or drops the iterator.

extension BakedRecords {
    /// The models as an `AsyncSequence` that throws the first failure:
    ///
    /// ```swift
    /// for try await user in try Baker().bakeEach(User.self, from: source, each: "users[*]").models {
    ///     …
    /// }
    /// ```
    ///
    /// The records are read and baked on a thread of their own, not on the
    /// iterating task's: a read that waits for a pipe, or a large file's
    /// bake, does not hold a thread of Swift concurrency's cooperative pool.
    /// See ``Models`` for the order, errors, cancellation and memory.
    public var models: Models { Models(records: self) }

    /// The models of ``BakedRecords`` as an `AsyncSequence`.
    ///
    /// The first call of ``next()`` starts a thread that reads and bakes
    /// the records, a few hundred ahead of the models handed out; the task
    /// that iterates waits suspended while none is ready, leaving its thread
    /// to other tasks. Models arrive in input order, in batches when the
    /// thread bakes faster than the task takes them, and as they are baked
    /// when it is slower (a pipe read as its records come).
    ///
    /// A record that fails to bake is thrown by ``next()``, with its record
    /// index, path and location, as ``BakedRecords`` gives it; calling
    /// ``next()`` again goes on with the next record. An error of the source
    /// is thrown after the models before it, and ends the stream.
    ///
    /// Once the iterating task is cancelled, ``next()`` throws
    /// `CancellationError` (models baked ahead are dropped), and returns
    /// `nil` after that; the thread stops after the record it is reading.
    /// Dropping the iterator stops the thread too.
    ///
    /// The model need not be `Sendable`. Each is made on the reading thread
    /// and handed over, and that thread keeps no reference to it, as it
    /// would to a `sending` result; a model whose decoding shares state
    /// beyond the model (a cache its initializer fills) must make that state
    /// safe to reach from another thread.
    ///
    /// There is one thread per iteration, for as long as it reads. Each
    /// model is made on it and freed on the task's, which costs more per
    /// model than a synchronous bake (see "On every core" in the streaming
    /// article); where that matters, iterate ``BakedRecords`` itself, on a
    /// thread of your own.
    public struct Models: AsyncSequence, AsyncIteratorProtocol {
        /// The baked model type.
        public typealias Element = Model
        /// The records, until the first model is asked for.
        private var records: BakedRecords?
        /// The results the reading thread baked, once it started; `nil`
        /// again once the stream ended or the task was cancelled.
        private var baked: RecordQueue<Model>.Consumer?

        /// How many results the reading thread holds at most, baked and not
        /// taken yet: enough for the task to take them in batches, few
        /// enough for memory of a few hundred models.
        private static var readAhead: Int { 256 }

        init(records: BakedRecords) { self.records = records }

        /// The sequence itself, which is its own iterator: iterate it once.
        public func makeAsyncIterator() -> Self { self }

        /// The next model, or `nil` after the last.
        ///
        /// - Throws: a record's baking error or the source's error (see
        ///   ``Models``), or `CancellationError` once the task is cancelled.
        public mutating func next() async throws -> Model? {
            guard records != nil || baked != nil else { return nil }
            guard !Task.isCancelled else {
                // Dropping the queue's end stops the reading thread.
                (records, baked) = (nil, nil)
                throw CancellationError()
            }
            let baked = self.baked ?? startBaking()
            let result: Result<Model, EasyBakeError>?
            do {
                result = try await baked.nextAwaiting()
            } catch {
                self.baked = nil
                throw error
            }
            guard let result else {
                self.baked = nil
                return nil
            }
            return try result.get()
        }

        /// Moves the records to a thread that reads and bakes them into a
        /// queue, and keeps the queue's end.
        private mutating func startBaking() -> RecordQueue<Model>.Consumer {
            let queue = RecordQueue<Model>(capacity: Self.readAhead)
            let moved = MovedRecords(records)
            records = nil
            // Neither the records nor the model (nor its metatype) need be
            // Sendable: the reading is handed to its thread as a plain
            // closure, which only that thread runs.
            let reading = UncheckedJob {
                guard var records = moved.take() else { return queue.end() }
                while let result = records.next() {
                    do throws(RecordQueue<Model>.Abandoned) {
                        try queue.put(result)
                    } catch {
                        return
                    }
                }
                queue.end()
            }
            let thread = Thread { reading.run() }
            thread.name = "EasyBake models"
            // As deep as a main thread's: a model bakes one call deeper for
            // each level of nesting.
            thread.stackSize = 8 << 20
            thread.start()
            let consumer = RecordQueue.Consumer(queue)
            baked = consumer
            return consumer
        }
    }

    /// The records, handed to the thread that reads them: the iterator
    /// gives up its copy, and the thread takes them out, so that only that
    /// thread holds them, and they go when it ends.
    private final class MovedRecords {
        private var records: BakedRecords?

        init(_ records: BakedRecords?) { self.records = records }

        /// The records, taken out; called once, on the reading thread.
        func take() -> BakedRecords? {
            defer { records = nil }
            return records
        }
    }
}
