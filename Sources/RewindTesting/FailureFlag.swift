import Foundation

/// Set from any thread when an issue is recorded.
final class FailureFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    private nonisolated(unsafe) static var caseCounter = 0
    private static let counterLock = NSLock()

    /// Sets the flag; true when it was not set before.
    @discardableResult
    func set() -> Bool { lock.withLock { defer { value = true }; return !value } }
    var isSet: Bool { lock.withLock { value } }

    static func nextCaseNumber() -> Int {
        counterLock.withLock { caseCounter += 1; return caseCounter }
    }
}
