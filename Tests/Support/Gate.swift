import Foundation

/// Holds back background work until the test says go: an effect awaits
/// `passed()`, the test calls `open()` when the moment it wants to test has
/// come. Deterministic where a sleep in the effect would only make the
/// wanted order likely.
///
///     let answer = Gate()
///     store.send(.load)                       // the effect awaits `answer.passed()`
///     #expect(store.state.isLoading)          // not answered yet, for certain
///     answer.open()
///     await store.finishEffects()
public final class Gate: @unchecked Sendable {
    // `@unchecked`: `isOpen` and `waiting` are only touched under `lock`.
    private let lock = NSLock()
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// How long a waiter waits for `open()` before the gate opens by itself, saying so on
    /// stderr: a test that forgot to open it then goes on (and fails on what it expects)
    /// instead of hanging the whole run.
    private let timeout: TimeInterval

    public init(timeout: TimeInterval = 60) {
        self.timeout = timeout
    }

    /// Lets every waiter, present and future, through.
    public func open() {
        let released = lock.withLock {
            isOpen = true
            defer { waiting.removeAll() }
            return waiting
        }
        for continuation in released { continuation.resume() }
    }

    /// Returns once the gate is open (at once if it already is).
    public func passed() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let through = lock.withLock {
                if !isOpen { waiting.append(continuation) }
                return isOpen
            }
            if through {
                continuation.resume()
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [self] in
                guard !lock.withLock({ isOpen }) else { return }
                FileHandle.standardError.write(Data("Gate: not opened within \(timeout) s; opening it so the test goes on\n".utf8))
                open()
            }
        }
    }
}
