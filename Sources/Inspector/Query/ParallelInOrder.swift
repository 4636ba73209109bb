import Foundation

/// Work items done on several threads whose results are consumed in item
/// order on the calling thread as soon as each is ready: a query over a big
/// log's chunks, or over every recording in a directory, streams its output
/// in order while the cores work ahead.
enum ParallelInOrder {
    /// Runs `work` for items `0..<count` on up to `workers` threads and hands
    /// each result to `consume` in order, until it returns false (items not
    /// yet started are then skipped; those running finish and are dropped).
    static func run<Result: Sendable>(count: Int, workers: Int, work: @escaping @Sendable (Int) -> Result, consume: (Result) -> Bool) {
        guard count > 0 else { return }
        if workers <= 1 || count == 1 {
            for item in 0..<count where !consume(work(item)) { return }
            return
        }
        let board = ResultBoard<Result>(count: count)
        for _ in 0..<min(workers, count) {
            board.workerStarted()
            Thread.detachNewThread {
                while let item = board.take() { board.finish(item, work(item)) }
                board.workerDone()
            }
        }
        var consuming = true
        for item in 0..<count {
            guard let result = board.wait(for: item) else { break }
            if consuming, !consume(result) {
                consuming = false
                board.cancel()
            }
        }
        // Workers hold the work closure (and what it captured): let them end before returning.
        board.waitForWorkers()
    }
}

/// Hands items to worker threads and their results back by position.
private final class ResultBoard<Result: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var next = 0
    private let count: Int
    private var results: [Int: Result] = [:]
    private var cancelled = false
    private var runningWorkers = 0

    init(count: Int) { self.count = count }

    func take() -> Int? {
        condition.withLock {
            guard !cancelled, next < count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func finish(_ item: Int, _ result: Result) {
        condition.withLock {
            results[item] = result
            condition.broadcast()
        }
    }

    /// Item `item`'s result; nil once cancelled for an item never started.
    func wait(for item: Int) -> Result? {
        condition.withLock {
            while results[item] == nil {
                if cancelled && item >= next { return nil }
                condition.wait()
            }
            return results.removeValue(forKey: item)
        }
    }

    func cancel() { condition.withLock { cancelled = true } }

    func workerStarted() { condition.withLock { runningWorkers += 1 } }

    func workerDone() {
        condition.withLock {
            runningWorkers -= 1
            condition.broadcast()
        }
    }

    func waitForWorkers() { condition.withLock { while runningWorkers > 0 { condition.wait() } } }
}
