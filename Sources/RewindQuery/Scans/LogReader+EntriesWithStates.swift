import Foundation
import Recorder

extension LogReader {
    /// Walks the entries in `range` in order, handing `body` each one's index, the entry read in full (as
    /// ``entry(at:)`` reads it; nil when it cannot be) and the state after it (nil when a
    /// damaged record, a gap or a new session makes it unavailable), until `body` returns false.
    ///
    /// What `rewind export --format states` reads: a row per entry with its time, action and
    /// whole state, at one read per run of neighbouring records and one patch per state
    /// (``scanStates(_:keepingPrevious:_:)``), where ``entry(at:)`` and ``state(at:)`` per
    /// entry would read each record alone and replay patches from a keyframe each time.
    package func scanEntriesWithStates(_ range: Range<Int>, _ body: (Int, LogEntry?, JSONValue?) -> Bool) {
        var state: JSONValue?
        var limits = LogLimits.patchLimits
        walkStateRecords(range, start: { state = $0 }) { line in
            line.advance(&state, limits: &limits)
            let entry = line.isReadable ? line.bytes.flatMap { try? ParsedEntry(line: $0, index: line.index, lineNumber: line.lineNumber, sessionStart: sessionStart(ofEntry: line.index)).entry } : nil
            return body(line.index, entry, entry != nil ? state : nil)
        }
    }
}
