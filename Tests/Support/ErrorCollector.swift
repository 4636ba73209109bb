import Foundation
import Recorder

/// Collects what `ActionRecorder.Options.onError` reports. The callback may run on
/// the recorder's own threads (the writer, a live stream) a moment after
/// `close()` has already thrown the same error, so a test waits for it
/// with `waitFor(count:)`, which the callback wakes: awaited, not polled.
///
///     let errors = ErrorCollector()
///     options.onError = errors.add
///     …
///     #expect(errors.waitFor(count: 1))
///     #expect(errors.all.map(\.description) == ["…"])
public final class ErrorCollector: @unchecked Sendable {
    // `@unchecked`: `errors` is only touched under `condition`.
    private let condition = NSCondition()
    private var errors: [RecorderError] = []

    public init() {}

    /// Records `error` and wakes a waiting test.
    @Sendable public func add(_ error: RecorderError) {
        condition.withLock {
            errors.append(error)
            condition.broadcast()
        }
    }

    /// The errors reported so far, oldest first.
    public var all: [RecorderError] { condition.withLock { errors } }

    /// Waits until at least `count` errors were reported; false if `timeout` seconds passed first.
    /// The timeout only bounds a broken run: a passing test never waits it out.
    public func waitFor(count: Int, timeout: Double = 60) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while errors.count < count {
            if !condition.wait(until: deadline) { return errors.count >= count }
        }
        return true
    }
}
