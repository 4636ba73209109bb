import Foundation
import Recorder

/// Cuts the bytes of a live stream into records and checks each as the log reader
/// checks a file's lines: the kind prefix, the checksum chained to its session's header,
/// the record size limit, a gap's numbers, and a patch that copies a value (which no
/// recorder writes: copies are how a small record builds a huge state). The first bad
/// record ends the stream.
///
/// Linear: each byte received is looked at once for the end of its record, however
/// many reads a long record takes. No I/O, so the fuzz target drives it with any bytes.
///
/// Public only to the fuzz target (`@_spi(Testing)`).
@_spi(Testing) public struct LiveRecordFramer {
    /// Whole records, back to back, each with its newline.
    public struct Records {
        /// The records' bytes.
        public internal(set) var bytes: [UInt8] = []
        /// Where each record is in ``bytes``, its kind, and whether it is the stream's first.
        var records: [(range: Range<Int>, kind: LiveBacklog.Kind, isFirstOfStream: Bool)] = []
        /// How many records there are.
        public var count: Int { records.count }
    }

    /// Why the stream must end, for people: `record 2 of the stream is damaged (its checksum does not match)`.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// A record longer than this ends the stream.
    public let maximumRecordBytes: Int
    /// Records returned so far.
    public private(set) var recordsRead = 0
    /// Bytes looked at for the end of a record, in all: each byte received once.
    public private(set) var bytesExamined = 0
    /// Bytes received but not yet returned (the start of a record).
    private var pending: [UInt8] = []
    /// How much of `pending` is known to hold no newline.
    private var scanned = 0
    /// The checksum of the stream's latest header, which its session's records are chained to.
    private var sessionKey: UInt32?
    /// A bad record found after good ones: those are returned first, then this.
    private var problem: Problem?

    private static let kindPrefix = Array(#"{"kind":""#.utf8)

    /// A framer for a stream whose first bytes (read with the hello) are `received`.
    public init(maximumRecordBytes: Int, received: [UInt8] = []) {
        self.maximumRecordBytes = maximumRecordBytes
        pending = received
    }

    /// True when bytes of a record that has not ended are held.
    public var holdsPartialRecord: Bool { !pending.isEmpty }

    /// Adds bytes received.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        pending.append(contentsOf: bytes)
    }

    /// Lets `body` append what it receives straight to the bytes held (no copy).
    mutating func receive<Result>(_ body: (inout [UInt8]) -> Result) -> Result {
        body(&pending)
    }

    /// The whole records received so far, checked (none when the next has not ended), or the
    /// first problem: a bad record, or more bytes without an end than a record may hold.
    public mutating func takeRecords() -> Result<Records, Problem> {
        if let problem { return .failure(problem) }
        var batch = Records()
        var start = 0
        defer {
            // Only a record's start remains; once moved to the front it is not moved again.
            if start > 0 {
                pending.removeFirst(start)
                scanned -= start
            }
        }
        // The records before a bad one are stored: it is returned on the next call.
        func stop(_ found: Problem) -> Result<Records, Problem> {
            problem = found
            return batch.count > 0 ? .success(batch) : .failure(found)
        }
        while let newline = nextNewline(from: start) {
            let number = recordsRead + 1
            if newline - start > maximumRecordBytes { return stop(tooLong(number)) }
            let checked: Problem? = pending.withUnsafeBytes { all in
                check(UnsafeRawBufferPointer(rebasing: all[start..<newline]), number: number)
            }
            if let checked { return stop(checked) }
            let offset = batch.bytes.count
            batch.bytes.append(contentsOf: pending[start...newline])
            let line = batch.bytes.withUnsafeBytes { UnsafeRawBufferPointer(rebasing: $0[offset..<(batch.bytes.count - 1)]) }
            batch.records.append((offset..<batch.bytes.count, LiveBacklog.kind(of: line), number == 1))
            recordsRead = number
            start = newline + 1
        }
        if pending.count - start > maximumRecordBytes { return stop(tooLong(recordsRead + 1)) }
        return .success(batch)
    }

    /// The next newline at or after `start`, searching only bytes not searched before.
    private mutating func nextNewline(from start: Int) -> Int? {
        let from = max(start, scanned)
        guard from < pending.count else { return nil }
        let found = pending[from...].firstIndex(of: 0x0A)
        let end = found.map { $0 + 1 } ?? pending.count
        bytesExamined += end - from
        scanned = end
        return found
    }

    /// Why `line` (without its newline) cannot be stored, or nil; a header starts the session it is checked in.
    private mutating func check(_ line: UnsafeRawBufferPointer, number: Int) -> Problem? {
        func damaged(_ why: String) -> Problem { Problem(description: "record \(number) of the stream is damaged (\(why))") }
        // Every record starts with its kind but an entry holding a patch, which starts with its `seq` (format 3).
        guard LogLine.hasPrefix(line, Self.kindPrefix) || LogLine.hasPrefix(line, LogLine.patchEntryPrefix) else {
            return Problem(description: "record \(number) of the stream is not a Rewind record")
        }
        // Checked as a file's line is: a header is unchained; a later record is chained to its
        // session's header (format 2) or unchained (format 1, and gaps the app's stream adds).
        guard let seal = LogLine.unseal(line), seal.key == 0 || seal.key == sessionKey else {
            return damaged("its checksum does not match")
        }
        if LogLine.hasPrefix(line, LogLine.headerPrefix) {
            guard seal.key == 0 else { return damaged("its checksum does not match") }
            sessionKey = seal.stored
        } else if LogLine.hasPrefix(line, LogLine.gapPrefix) {
            guard let record = try? JSONParser.parse(line.bindMemory(to: UInt8.self)) else { return damaged("a gap record that is not JSON") }
            if let problem = LogLimits.gapProblem(record) { return damaged(problem) }
        } else if LogLine.isEntry(line), let problem = Self.copyProblem(line) {
            return damaged(problem)
        }
        return nil
    }

    /// Why an entry's patch must not be stored: it copies a value. Looked for only in a record
    /// that holds `copy` or a `\u` escape (an operation's name written escaped), so a stream
    /// from a recorder is never parsed here.
    private static func copyProblem(_ line: UnsafeRawBufferPointer) -> String? {
        guard contains(line, "copy") || contains(line, "\\u") else { return nil }
        guard let record = try? JSONParser.parse(line.bindMemory(to: UInt8.self)) else { return "an entry that is not JSON" }
        guard let operations = record[RecordField.patch.name]?.arrayValue else { return nil }
        guard !operations.contains(where: { $0["op"]?.stringValue == "copy" }) else {
            return "its patch copies a value, which no recorder writes"
        }
        return nil
    }

    /// Whether `text` is in `line`: `memchr` to each candidate first byte (this looks at every
    /// entry a stream carries; glibc's `memmem` needs `_GNU_SOURCE`, which Swift does not set).
    private static func contains(_ line: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
        let length = text.utf8CodeUnitCount
        guard let base = line.baseAddress, line.count >= length else { return false }
        var position = 0
        while position + length <= line.count,
              let found = memchr(base + position, Int32(text.utf8Start[0]), line.count - length + 1 - position) {
            let offset = base.distance(to: UnsafeRawPointer(found))
            if memcmp(found, text.utf8Start, length) == 0 { return true }
            position = offset + 1
        }
        return false
    }

    private func tooLong(_ number: Int) -> Problem {
        Problem(description: "record \(number) of the stream is longer than the \(maximumRecordBytes)-byte record limit")
    }
}
