import Recorder

/// What `rewind export` writes (and the inspector's `e` key, as `.markdown`).
public enum ExportFormat: String, CaseIterable, Sendable {
    /// A bug report for a GitHub issue: header, numbered actions, a `diff` block per action, the final state.
    case markdown
    /// RFC 6902 operations from the state before the first entry to the state after the last.
    case patch
    /// `diff -u` of the pretty-printed states before the first and after the last entry.
    case unified
    /// A self-contained log slice (header, then a keyframe) that `rewind` and `LogReader` open.
    case jsonl
    /// The `{"payload", "preloadedState"}` file the Redux DevTools extension imports.
    case reduxDevTools = "redux-devtools"
    /// A row per entry as JSON Lines (time, action, payload, changed paths, the state), for SQL engines.
    case states
}

/// What to export from a log.
///
/// ```swift
/// var request = ExportRequest(format: .markdown)
/// request.firstEntry = 3          // entries are numbered from 1, as `rewind log` shows them
/// let report = try LogExporter.export(logAt: "checkout.jsonl", request)
/// ```
public struct ExportRequest: Sendable {
    public var format: ExportFormat
    /// The first and last entries to include, numbered from 1 (`nil`: the first and
    /// last of the log). The diff runs from the state before the first to the state after the last.
    public var firstEntry: Int?
    public var lastEntry: Int?
    /// `patch` and `unified`: one part per entry instead of one for the whole range.
    public var perEntry = false
    /// `markdown`: show only this part of the final state; `patch`, `unified`: diff only this part;
    /// `states`: this part of each state instead of the whole.
    public var path: JSONPointer?
    /// Hides secrets in every state and action payload before anything is formatted.
    public var redaction: Redaction?

    public init(format: ExportFormat) { self.format = format }
}

/// Why an export could not be made; `description` is one line for the user.
public struct ExportError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    /// The input is not a Rewind log at all (empty, or no header): what an export of a directory skips quietly.
    var isNotARecording = false
    init(_ description: String, isNotARecording: Bool = false) {
        self.description = description
        self.isNotARecording = isNotARecording
    }
}
