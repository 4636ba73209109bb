/// Why recording could not start or stopped. `description` is one line:
/// `/tmp/x.jsonl: cannot write: No space left on device`.
///
/// ```swift
/// options.onError = { error in
///     if error.kind == .cannotWrite && error.code == ENOSPC { showDiskFullBanner() }
/// }
/// ```
public struct RecorderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for code to act on: compare with `==` or match in a `switch`.
    ///
    /// A struct of named values rather than an enum (as swift-nio's `FileSystemError.Code`),
    /// so a kind added later does not break a caller's exhaustive `switch`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The kind's name, as its static member is spelled (`cannotWrite`).
        public let description: String
        private init(_ name: String) { description = name }

        /// The log cannot be opened, created, read or locked (`code` says why: `ENOENT`, `EACCES`, …).
        public static let cannotOpen = Kind("cannotOpen")
        /// The path leads to a directory, a FIFO or a device: logs are regular files.
        public static let notAFile = Kind("notAFile")
        /// The file exists and is not a Rewind log, so it is left as it is.
        public static let notARewindLog = Kind("notARewindLog")
        /// Another recorder (another process) is writing to the log.
        public static let alreadyRecording = Kind("alreadyRecording")
        /// Writing or syncing the log failed (`code` says why: `ENOSPC` when the disk is full, …).
        public static let cannotWrite = Kind("cannotWrite")
        /// Something else removed, truncated, renamed or wrote to the log while recording.
        public static let logChanged = Kind("logChanged")
        /// One entry (or the initial state) could not be encoded and was left out; recording goes on.
        public static let entryNotRecorded = Kind("entryNotRecorded")
        /// The address to stream to is not `host:port`.
        public static let invalidAddress = Kind("invalidAddress")
        /// The listener refused the stream (a wrong token, another recording's stream).
        public static let streamRefused = Kind("streamRefused")
        /// Entries sent to the listener never reached it before the recorder closed.
        public static let entriesNotStreamed = Kind("entriesNotStreamed")
    }

    /// What went wrong, for code to act on.
    public let kind: Kind
    /// The log (or `host:port` stream) the recorder was writing.
    public let path: String
    /// What went wrong, for people: the detail ``kind`` leaves out.
    public let reason: String
    /// The `errno` value when the error came from the system.
    public let code: Int32?

    init(_ kind: Kind, path: String, reason: String, code: Int32? = nil) {
        self.kind = kind
        self.path = path
        self.reason = reason
        self.code = code
    }

    public var description: String { "\(path): \(reason)" + (code.map { ": " + String(cString: strerror($0)) } ?? "") }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
