import Foundation

/// One recording as `rewind ls` lists it, read from the header and the last
/// records only (never the whole file), so thousands list in a moment.
package struct RecordingSummary: Equatable, Sendable {
    /// The file, as found under the listed directory.
    var path: String
    /// `path` relative to the listed directory.
    var relativePath: String
    var bytes: Int64
    /// When recording started (the header's `created`), else the file's modification time;
    /// nil when neither can be known (a file that cannot be looked at).
    var created: Date?
    var processName: String?
    /// The test that made it (metadata `test`, set by RewindTesting).
    var testName: String?
    /// True when the header's metadata says the test failed (`outcome: failed`).
    var failed: Bool
    /// Entries of the last session, from the last entry's sequence number (+1).
    /// `--verify` counts them exactly instead. Nil when no entry was found near the end.
    var entries: Int?
    /// What is wrong with the file, if anything: a torn last line, damaged records
    /// (with `--verify`), or why it is not a readable log.
    var damage: String?
    /// False when the file is not a Rewind log at all (the header could not be read).
    var isLog: Bool

    /// The test name, else the process name.
    var displayName: String { testName ?? processName ?? "?" }

    /// Failed tests first, then newest first, then by path.
    static func listOrder(_ left: RecordingSummary, _ right: RecordingSummary) -> Bool {
        if left.failed != right.failed { return left.failed }
        // Newest first; a recording of unknown date after every dated one.
        if left.created != right.created { return (left.created ?? .distantPast) > (right.created ?? .distantPast) }
        return left.relativePath < right.relativePath
    }
}
