import Recorder

/// A replay session with its Swift types erased, so the inspector's model can
/// hold one without becoming generic over the user's State and Action.
/// ``ReplayWorkbench`` is the implementation, over Recorder's `ReplaySession`.
///
/// Entries are numbered as the log reader numbers them: `0..<entryCount` are the
/// log's readable entries, `entryCount...` the entries of the branch (if any).
/// The timeline also has a row for each damaged record; ``ReplayTimeline`` maps its
/// positions to these numbers and back.
protocol ReplayEngine: AnyObject {
    /// Entries in the log (not counting the branch).
    var entryCount: Int { get }
    /// Which recorded action types and states decode with the current types.
    var compatibility: ReplayCompatibilityReport { get }
    /// Replays from `start` to the end through the real reducer and compares each state with the recording.
    func replay(from start: Int) -> ReplayRun
    /// A fresh copy for a background queue (``ReplayVerifier``).
    func makeVerifier() -> any ReplayVerifier

    /// Entries skipped with ``toggleSkip(_:)``.
    var skipped: Set<Int> { get }
    /// Skips (or unskips) a log entry; states after it are recomputed without it.
    func toggleSkip(_ index: Int)
    /// True when the state shown for entry `index` is recomputed (it follows a skipped entry).
    func isRecomputed(_ index: Int) -> Bool
    /// The state after log entry `index`: recorded, or recomputed when it follows a skipped entry.
    func effectiveState(at index: Int) throws -> JSONValue

    /// Actions dispatched by hand (``dispatch(actionJSON:at:)``), after the entry they fork from.
    var branch: ReplayBranch? { get }
    /// Decodes `actionJSON` with the user's Action type and dispatches it on the state at
    /// `position`, extending or starting the branch. Returns the new entry's position.
    func dispatch(actionJSON: String, at position: Int) throws(ReplayEditError) -> Int
    /// Writes the entries up to the fork (skipped ones left out) and the branch as a new log.
    /// Returns the number of entries written.
    func saveBranch(to path: String) throws(ReplayEditError) -> Int
}

/// Actions dispatched by hand on the state after entry `forkIndex`.
struct ReplayBranch: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        /// Case path of the action (`todo.add`).
        var name: String
        /// The action as the user typed it.
        var payload: JSONValue
        /// The state the reducer computed.
        var state: JSONValue
    }

    /// The log entry whose state the first branch action was dispatched on.
    var forkIndex: Int
    var entries: [Entry]
}

/// Why an edited action could not be dispatched or a branch saved; one line
/// that names the field for decode errors: `todos[0].title: expected a string, found 3`.
struct ReplayEditError: Error, Sendable, Equatable, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
