import Foundation
import Recorder
import RewindQuery

/// `rewind export LOG|DIR --format states`: recordings as a table, one JSON object a line
/// (JSON Lines), which DuckDB, ClickHouse, Spark or BigQuery read as they are (docs/EXPORT.md,
/// "Querying recordings with SQL"). A row per entry:
///
///     {"recording":"cart.jsonl","entry":3,"kind":"entry","session":1,"time":"2026-12-05T14:02:11.250000Z",
///      "duration":0.000012,"action":"cart.add","payload":{…},"fromEffect":false,"changed":["/cart/items/-"],
///      "state":{…},"lastEntry":null,"line":null,"reason":null}
///
/// With paths, the chosen parts of the state are columns named by their pointers
/// (`"/cart/total":12`, null where the state has no such part) instead of `state`. Entries that
/// were not recorded are one row per gap (`"kind":"gap"`, `entry` to `lastEntry`, `reason`), a
/// damaged record is a row (`"kind":"damaged"`, its `line` and `reason`), an entry whose state
/// cannot be rebuilt has `"state":null` and a `reason`, and a file under a directory that is a
/// damaged log is a row (`"kind":"unreadable"`). Every row has every column, in one order (null
/// where it does not apply), so the schema an engine infers is the same for any recording.
/// Rows are streamed: a gigabyte log is never held.
struct StateRowsExport {
    var paths: [JSONPointer] = []
    var redaction: Redaction?
    var firstEntry: Int?
    var lastEntry: Int?

    /// Entries whose rows one worker makes at a time (a few megabytes of rows).
    static let chunkEntries = 2048

    /// Writes the rows of the recording at `path`, named `shown` in the `recording` column,
    /// handing them to `sink` a chunk at a time, in order. Chunks of entries are made on
    /// `workers` threads (each rebuilds the state before its first entry, then one patch per
    /// entry) while the calling thread writes the ones before them; a few wait at most.
    /// Throws when the file is not a recording at all, the range is not in it, or `sink` fails;
    /// damage becomes rows.
    func write(recordingAt path: String, shownAs shown: String, workers: Int = ProcessInfo.processInfo.activeProcessorCount,
               to sink: (UnsafeBufferPointer<UInt8>) throws(OutputFile.Failure) -> Void) throws(ExportError) {
        let timeline: LogTimeline
        do {
            timeline = try LogTimeline(path: path, keepsDamagedRows: true)
        } catch {
            throw ExportError(error)
        }
        let rowRange = try rowRange(in: timeline)
        let entries = readerIndexes(of: rowRange, in: timeline)
        let chunks = stride(from: entries.lowerBound, to: entries.upperBound, by: Self.chunkEntries).map {
            $0..<min($0 + Self.chunkEntries, entries.upperBound)
        }
        let sessionStarts = timeline.reader.laterSessions.map(\.beforeEntry).filter { $0 > 0 }
        let export = self
        // A chunk's rows hold about twice its records (each row repeats its state); buffers go round
        // between the workers and the writer, so none is allocated, grown and faulted in anew per chunk.
        let bytesPerEntry = Int(timeline.byteCount) / max(1, timeline.reader.entryCount)
        let buffers = RowBuffers(capacity: min(64 << 20, Self.chunkEntries * (2 * bytesPerEntry + 256)))
        var failure: OutputFile.Failure?
        ParallelInOrder.run(count: max(1, chunks.count), workers: min(workers, chunks.count), ahead: 2 * max(1, workers), work: { item in
            let chunk = item < chunks.count ? chunks[item] : entries
            // The placeholders before a chunk's first entry are its own; the last chunk takes those after the last entry too.
            let firstRow = item == 0 ? rowRange.lowerBound : timeline.entryIndex(ofRecordedLogIndex: chunk.lowerBound - 1) + 1
            let endRow = item >= chunks.count - 1 ? rowRange.upperBound : nil
            let rows = RowWriter(buffer: buffers.take(), recording: shown, paths: export.paths)
            export.write(chunk, in: timeline, to: rows, fromRow: firstRow, toRow: endRow, sessionStarts: sessionStarts)
            return rows
        }, consume: { rows in
            defer { buffers.give(rows.buffer) }
            do throws(OutputFile.Failure) {
                try sink(rows.bytes)
            } catch {
                failure = error
                return false
            }
            return true
        })
        if let failure { throw ExportError(.cannotWrite, failure.description) }
    }

    /// The rows of reader entries `chunk`, and of the gaps and damaged records among them, starting at
    /// timeline row `fromRow` (placeholders before the first entry) and, when `toRow` is given, going on to it.
    private func write(_ chunk: Range<Int>, in timeline: LogTimeline, to rows: RowWriter, fromRow: Int, toRow: Int?, sessionStarts: [Int]) {
        var nextRow = fromRow
        func placeholders(before row: Int) {
            while nextRow < row {
                if let record = timeline.damagedRecord(at: nextRow) {
                    rows.damaged(number: timeline.entryNumber(at: nextRow), line: record.line, reason: record.reason)
                } else if let gap = timeline.gap(at: nextRow) {
                    rows.gap(number: timeline.entryNumber(at: nextRow), gap: gap)
                }
                nextRow += 1
            }
        }
        timeline.reader.scanEntriesWithStates(chunk) { index, entry, state in
            let row = timeline.entryIndex(ofRecordedLogIndex: index)
            placeholders(before: row)
            nextRow = row + 1
            let number = timeline.entryNumber(at: row)
            guard let entry else {
                rows.damaged(number: number, line: nil, reason: "the record cannot be read as an entry")
                return true
            }
            var payload = entry.action.payload
            var state = state
            if let redaction, !redaction.isEmpty {
                payload = redaction.redact(payload)
                state = state.map(redaction.redact)
            }
            rows.entry(number: number, session: 1 + sessionStarts.count { $0 <= index }, entry: entry, payload: payload, state: state)
            return true
        }
        if let toRow { placeholders(before: toRow) }
    }

    /// The one row that says a file under a directory could not be read as a recording.
    static func unreadableRow(recording shown: String, reason: String) -> [UInt8] {
        let rows = RowWriter(buffer: _ByteBuffer(capacity: 1024), recording: shown, paths: [])
        rows.unreadable(reason: reason)
        return rows.buffer.bytes
    }

    /// The timeline rows whose numbers lie in `firstEntry…lastEntry` (all of them without a range).
    private func rowRange(in timeline: LogTimeline) throws(ExportError) -> Range<Int> {
        guard firstEntry != nil || lastEntry != nil else { return 0..<timeline.count }
        let lastNumber = timeline.count > 0 ? timeline.entryNumber(at: timeline.count - 1) : 0
        let first = firstEntry ?? 1
        if first > lastNumber { throw ExportError(.entryOutOfRange, "there is no entry \(first) in \(timeline.name) (it has \(lastNumber == 0 ? "no entries" : "entries 1–\(lastNumber)"))") }
        let rows = LogCommand.rows(numbered: first...max(first, lastEntry ?? lastNumber), in: timeline)
        // A gap's row counts when any of the numbers it stands for is in the range.
        if rows.lowerBound > 0, let gap = timeline.gap(at: rows.lowerBound - 1),
           timeline.entryNumber(at: rows.lowerBound - 1) + max(1, gap.droppedCount) - 1 >= first {
            return (rows.lowerBound - 1)..<rows.upperBound
        }
        return rows
    }

    /// The reader's entries among `rows`.
    private func readerIndexes(of rows: Range<Int>, in timeline: LogTimeline) -> Range<Int> {
        var lower = rows.lowerBound, upper = rows.upperBound
        while lower < upper, timeline.recordedLogIndex(ofEntry: lower) == nil { lower += 1 }
        while upper > lower, timeline.recordedLogIndex(ofEntry: upper - 1) == nil { upper -= 1 }
        guard lower < upper, let first = timeline.recordedLogIndex(ofEntry: lower), let last = timeline.recordedLogIndex(ofEntry: upper - 1) else {
            return 0..<0
        }
        return first..<(last + 1)
    }
}

/// The byte buffers rows are written into, handed back once written out.
private final class RowBuffers: @unchecked Sendable {
    private let capacity: Int
    private let spare = Locked<[_ByteBuffer]>([])

    init(capacity: Int) { self.capacity = capacity }

    func take() -> _ByteBuffer { spare.withLock { $0.popLast() } ?? _ByteBuffer(capacity: capacity) }

    func give(_ buffer: _ByteBuffer) {
        buffer.removeAll(keepingCapacityUpTo: capacity * 2)
        spare.withLock { $0.append(buffer) }
    }
}

/// Writes rows into a byte buffer, every column in one order in every row. Sendable as a chunk's
/// rows go from the worker that wrote them to the thread that writes them out, never shared.
private final class RowWriter: @unchecked Sendable {
    let buffer: _ByteBuffer
    /// `{"recording":"…","entry":` — the same for every row of a recording.
    private let head: [UInt8]
    private let paths: [JSONPointer]
    /// `,"/cart/total":` for each path, written once.
    private let pathKeys: [[UInt8]]

    /// What is written so far (valid until the next write).
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: buffer.base, count: buffer.count) }

    init(buffer: _ByteBuffer, recording: String, paths: [JSONPointer]) {
        self.buffer = buffer
        var head = Array(#"{"recording":"#.utf8)
        JSONWriter.appendString(recording, to: &head)
        head += Array(#","entry":"#.utf8)
        self.head = head
        self.paths = paths
        pathKeys = paths.map { path in
            var key = Array(",".utf8)
            JSONWriter.appendString(path.description, to: &key)
            key.append(UInt8(ascii: ":"))
            return key
        }
    }

    private func start(number: Int?, kind: StaticString) {
        head.withUnsafeBufferPointer { buffer.append($0) }
        if let number { JSONWriter.writeInt64(Int64(number), to: buffer) } else { buffer.append("null") }
        buffer.append(#","kind":""#)
        buffer.append(kind)
        buffer.append("\"")
    }

    /// The entry columns of a row that is not an entry: every row has every column, so an engine
    /// that infers the schema from the rows it sees finds the same columns in any recording.
    private func noEntryColumns() {
        buffer.append(#","session":null,"time":null,"duration":null,"action":null,"payload":null,"fromEffect":null,"changed":null"#)
        if paths.isEmpty {
            buffer.append(#","state":null"#)
        } else {
            for key in pathKeys {
                key.withUnsafeBufferPointer { buffer.append($0) }
                buffer.append("null")
            }
        }
    }

    /// `lastEntry`, `line` and `reason`, the columns that say what a row that is not a plain entry stands for.
    private func end(lastEntry: Int? = nil, line: Int? = nil, reason: String? = nil) {
        buffer.append(#","lastEntry":"#)
        if let lastEntry { JSONWriter.writeInt64(Int64(lastEntry), to: buffer) } else { buffer.append("null") }
        buffer.append(#","line":"#)
        if let line { JSONWriter.writeInt64(Int64(line), to: buffer) } else { buffer.append("null") }
        buffer.append(#","reason":"#)
        if let reason { JSONWriter.writeString(reason, to: buffer) } else { buffer.append("null") }
        buffer.append("}\n")
    }

    func entry(number: Int, session: Int, entry: LogEntry, payload: JSONValue, state: JSONValue?) {
        start(number: number, kind: "entry")
        buffer.append(#","session":"#)
        JSONWriter.writeInt64(Int64(session), to: buffer)
        buffer.append(#","time":""#)
        Self.writeTime(entry.time, to: buffer)
        buffer.append(#"","duration":"#)
        JSONWriter.writeDouble(entry.duration, to: buffer)
        buffer.append(#","action":"#)
        JSONWriter.writeString(entry.action.name, to: buffer)
        buffer.append(#","payload":"#)
        JSONWriter.write(payload, to: buffer)
        buffer.append(entry.effectOf != nil ? #","fromEffect":true,"changed":["# : #","fromEffect":false,"changed":["#)
        for (position, path) in entry.changedPaths.enumerated() {
            if position > 0 { buffer.append(",") }
            JSONWriter.writeString(path.description, to: buffer)
        }
        buffer.append("]")
        if paths.isEmpty {
            buffer.append(#","state":"#)
            if let state { JSONWriter.write(state, to: buffer) } else { buffer.append("null") }
        } else {
            for (path, key) in zip(paths, pathKeys) {
                key.withUnsafeBufferPointer { buffer.append($0) }
                if let value = state?[pointer: path] { JSONWriter.write(value, to: buffer) } else { buffer.append("null") }
            }
        }
        end(reason: state == nil ? "the state after this entry cannot be rebuilt: a damaged record, a gap or a new session lies between it and the keyframe before it" : nil)
    }

    func gap(number: Int, gap: LogGap) {
        start(number: number, kind: "gap")
        noEntryColumns()
        end(lastEntry: number + max(1, gap.droppedCount) - 1, reason: "not recorded" + (gap.explanation.map { ": " + $0 } ?? ""))
    }

    func damaged(number: Int, line: Int?, reason: String) {
        start(number: number, kind: "damaged")
        noEntryColumns()
        end(line: line, reason: reason)
    }

    func unreadable(reason: String) {
        start(number: nil, kind: "unreadable")
        noEntryColumns()
        end(reason: reason)
    }

    /// `2026-12-05T14:02:11.250000Z`: UTC, microseconds, the form SQL engines read as a timestamp.
    static func writeTime(_ time: Date, to buffer: _ByteBuffer) {
        let seconds = time.timeIntervalSince1970
        var whole = Int(seconds.rounded(.down))
        var micros = Int(((seconds - Double(whole)) * 1_000_000).rounded())
        if micros == 1_000_000 { whole += 1; micros = 0 }
        var clock = time_t(whole)
        var parts = tm()
        gmtime_r(&clock, &parts)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            var value = value
            while divisor > 0 {
                buffer.append(UInt8(ascii: "0") + UInt8((value / divisor) % 10))
                value %= divisor
                divisor /= 10
            }
        }
        digits(Int(parts.tm_year) + 1900, 4)
        buffer.append("-")
        digits(Int(parts.tm_mon) + 1, 2)
        buffer.append("-")
        digits(Int(parts.tm_mday), 2)
        buffer.append("T")
        digits(Int(parts.tm_hour), 2)
        buffer.append(":")
        digits(Int(parts.tm_min), 2)
        buffer.append(":")
        digits(Int(parts.tm_sec), 2)
        buffer.append(".")
        digits(micros, 6)
        buffer.append("Z")
    }
}
