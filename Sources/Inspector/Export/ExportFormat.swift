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

/// Why an export could not be made; `description` is one line for the user:
/// `there is no entry 40 in checkout.jsonl (it has entries 1–12)`.
///
/// ```swift
/// do {
///     report = try LogExporter.export(logAt: path, request)
/// } catch where error.kind == .entryOutOfRange {
///     request.lastEntry = nil   // export to the end instead
/// }
/// ```
public struct ExportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for code to act on: compare with `==` or match in a `switch`.
    ///
    /// A struct of named values rather than an enum (as swift-nio's `FileSystemError.Code`),
    /// so a kind added later does not break a caller's exhaustive `switch`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The kind's name, as its static member is spelled (`entryOutOfRange`).
        public let description: String
        private init(_ name: String) { description = name }

        /// The file is missing, unreadable, or its header is damaged.
        public static let unreadableLog = Kind("unreadableLog")
        /// The file is empty or not a Rewind log at all (what an export of a directory skips quietly).
        public static let notARewindLog = Kind("notARewindLog")
        /// An entry number the log does not have (the log may have none).
        public static let entryOutOfRange = Kind("entryOutOfRange")
        /// The first entry asked for is after the last.
        public static let invalidRange = Kind("invalidRange")
        /// Every entry in the range was left out of the recording (a gap).
        public static let entriesNotRecorded = Kind("entriesNotRecorded")
        /// An entry asked for is a damaged record.
        public static let damagedEntry = Kind("damagedEntry")
        /// A state the export needs cannot be rebuilt (damage before it).
        public static let stateUnavailable = Kind("stateUnavailable")
        /// ``ExportRequest/path`` does not exist in the state.
        public static let pathNotFound = Kind("pathNotFound")
        /// ``ExportFormat/states`` reads a log file, and the source is not one.
        public static let needsLogFile = Kind("needsLogFile")
        /// The exported bytes could not be written.
        public static let cannotWrite = Kind("cannotWrite")
    }

    /// What went wrong, for code to act on.
    public let kind: Kind
    /// What went wrong, for people, in one line.
    public let description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// A log that could not be opened: ``Kind/notARewindLog`` when it is not a Rewind log at all.
    init(_ error: LogReadError) {
        self.init(error.isNotARecording ? .notARewindLog : .unreadableLog, error.description)
    }

    /// The input is not a Rewind log at all (empty, or no header): what an export of a directory skips quietly.
    var isNotARecording: Bool { kind == .notARewindLog }
}
