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

    public init() {}

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
            if through { continuation.resume() }
        }
    }
}
