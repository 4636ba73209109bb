/// Why a log could not be opened or an entry read. `description` is one line
/// meant for people: `checkout.jsonl: not a Rewind log (the first line is not a Rewind header)`.
public struct LogReadError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Reason: Sendable, Equatable {
        case notFound
        case isDirectory
        /// A FIFO, a device, a socket: named ("a FIFO").
        case notRegularFile(String)
        case unreadable(String)
        case empty
        case notALog
        case tornHeader
        case damagedHeader(String)
        case futureVersion(Int)
        case entryOutOfRange(index: Int, count: Int)
        case damagedRecord(line: Int, reason: String)
        /// The entry by the number `rewind log` gives it.
        case stateUnavailable(entryNumber: Int, damagedLine: Int?)
        case lineTooLong(line: Int)
        case changedWhileReading
    }

    let reason: Reason
    /// The log file the error is about.
    public let path: String

    init(_ reason: Reason, path: String) {
        self.reason = reason
        self.path = path
    }

    /// True when the file is not a Rewind log at all (empty, or its first line is
    /// not a header): what a search of a directory skips quietly, where a damaged log is reported.
    package var isNotARecording: Bool { reason == .empty || reason == .notALog }

    public var description: String {
        "\(path): " + {
            switch reason {
            case .notFound: "no such file"
            case .isDirectory: "is a directory, not a log file"
            case .notRegularFile(let kind): "is \(kind), not a log file"
            case .unreadable(let why): "cannot read: \(why)"
            case .empty: "empty file, not a Rewind log"
            case .notALog: "not a Rewind log (the first line is not a Rewind header)"
            case .tornHeader: "not a usable Rewind log: the recording stopped while writing its header"
            case .damagedHeader(let why): "the log header is damaged: \(why)"
            case .futureVersion(let version):
                "written by a newer Rewind (log format version \(version)); this version reads format \(LogLine.formatVersion)"
            case .entryOutOfRange(let index, let count):
                // An index (from 0) a caller asked for, not an entry number: said so, so it is not taken for one.
                "no entry at index \(index) (" + (count == 0 ? "the log has no entries)" : "the log has \(count) at indexes 0–\(count - 1))")
            case .damagedRecord(let line, let why): "line \(line) is damaged: \(why)"
            case .stateUnavailable(let entry, let line):
                "the state at entry \(entry) cannot be rebuilt: it depends on "
                    + (line.map { "line \($0), which is damaged" } ?? "a missing record")
                    + "; states are available again from the next keyframe"
            case .changedWhileReading: "the log was replaced while this was being read; read it again"
            case .lineTooLong(let line):
                "line \(line) is longer than the \(LogReader.maximumLineBytes >> 20) MB record limit"
            }
        }()
    }
}

/// A damaged place in a log: reported, skipped, and not counted as an entry.
public struct LogDamage: Sendable, Equatable, CustomStringConvertible {
    /// One-based line number.
    public var lineNumber: Int
    /// Byte offset of the line's start.
    public var offset: Int64
    /// What is wrong: `checksum mismatch`, `incomplete final line (no newline)`, …
    public var reason: String
    /// True when the line holds a record that was read, and what is damaged is the records
    /// missing before it (deleted or moved lines); false when the line itself was skipped.
    public var lineWasRead = false

    public var description: String { "line \(lineNumber): \(reason)" }
}
