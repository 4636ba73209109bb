import Foundation

/// Work items done on several threads whose results are consumed in item
/// order on the calling thread as soon as each is ready: a query over a big
/// log's chunks, or over every recording in a directory, streams its output
/// in order while the cores work ahead.
package enum ParallelInOrder {
    /// Runs `work` for items `0..<count` on up to `workers` threads and hands
    /// each result to `consume` in order, until it returns false (items not
    /// yet started are then skipped; those running finish and are dropped).
    /// `ahead` bounds how many items may be started before the consumer has taken the one before
    /// them: results that are large (an export's rows) then wait in memory a few at a time.
    package static func run<Result: Sendable>(count: Int, workers: Int, ahead: Int = .max, work: @escaping @Sendable (Int) -> Result,
                                      consume: (Result) -> Bool) {
        run(workers: workers, ahead: ahead, work: { $0 < count ? work($0) : nil }, consume: consume)
    }

    /// The same for items whose number is not known ahead (chunks of a log
    /// still being indexed): `work` returns nil for the first item past the end.
    package static func run<Result: Sendable>(workers: Int, ahead: Int = .max, work: @escaping @Sendable (Int) -> Result?, consume: (Result) -> Bool) {
        if workers <= 1 {
            var item = 0
            while let result = work(item), consume(result) { item += 1 }
            return
        }
        let board = ResultBoard<Result>(ahead: ahead)
        for _ in 0..<workers {
            board.workerStarted()
            Thread.detachNewThread {
                while let item = board.take() {
                    guard let result = work(item) else {
                        board.end(at: item)
                        break
                    }
                    board.finish(item, result)
                }
                board.workerDone()
            }
        }
        var item = 0
        while let result = board.wait(for: item) {
            if !consume(result) {
                board.cancel()
                break
            }
            item += 1
        }
        // Workers hold the work closure (and what it captured): let them end before returning.
        board.waitForWorkers()
    }
}

/// Hands items to worker threads and their results back by position.
private final class ResultBoard<Result: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var next = 0
    /// The first item past the end, once a worker found it.
    private var endItem = Int.max
    private var results: [Int: Result] = [:]
    private var cancelled = false
    private var runningWorkers = 0
    /// Items the consumer has taken, and how far past them workers may start.
    private var consumed = 0
    private let ahead: Int

    init(ahead: Int) { self.ahead = max(1, ahead) }

    func take() -> Int? {
        condition.withLock {
            while !cancelled, next < endItem, next - consumed >= ahead { condition.wait() }
            guard !cancelled, next < endItem else { return nil }
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

    func end(at item: Int) {
        condition.withLock {
            endItem = min(endItem, item)
            condition.broadcast()
        }
    }

    /// Item `item`'s result; nil past the end, or once cancelled.
    func wait(for item: Int) -> Result? {
        condition.withLock {
            while results[item] == nil {
                if item >= endItem || cancelled || (runningWorkers == 0 && item >= next) { return nil }
                condition.wait()
            }
            consumed = item + 1
            condition.broadcast()
            return results.removeValue(forKey: item)
        }
    }

    func cancel() {
        condition.withLock {
            cancelled = true
            condition.broadcast()
        }
    }

    func workerStarted() { condition.withLock { runningWorkers += 1 } }

    func workerDone() {
        condition.withLock {
            runningWorkers -= 1
            condition.broadcast()
        }
    }

    func waitForWorkers() { condition.withLock { while runningWorkers > 0 { condition.wait() } } }
}
