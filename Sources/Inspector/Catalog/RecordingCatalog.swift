import Foundation
import Recorder

/// Finds the recordings under a directory and summarises each from its first
/// and last bytes, on every core. `verify` instead indexes each file fully
/// (exact entry counts and damage, at disk speed).
package enum RecordingCatalog {
    /// Bytes read from each end of a file; a header or last record longer than
    /// this is read further, up to `maximumEdgeBytes`.
    static let edgeBytes = 16 << 10
    static let maximumEdgeBytes = 4 << 20

    /// Every `*.jsonl` under `directory` (hidden folders included: RewindTesting writes
    /// to `.build/rewind-recordings`), summarised and in list order.
    package static func list(_ directory: String, verify: Bool = false) -> [RecordingSummary] {
        let paths = logFiles(under: directory)
        let results = SummarySlots(count: paths.count)
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            let (path, relative) = paths[index]
            results.set(index, verify ? verified(path, relativePath: relative) : summary(path, relativePath: relative))
        }
        return results.values.sorted(by: RecordingSummary.listOrder)
    }

    static func logFiles(under directory: String) -> [(path: String, relative: String)] {
        let base = URL(fileURLWithPath: directory).standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        var files: [(String, String)] = []
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".jsonl") else { continue }
            let path = (base as NSString).appendingPathComponent(relative)
            var status = stat()
            if stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG { files.append((path, relative)) }
        }
        return files
    }

    /// Header and tail only.
    static func summary(_ path: String, relativePath: String) -> RecordingSummary {
        var summary = RecordingSummary(path: path, relativePath: relativePath, bytes: 0, created: nil, failed: false, isLog: false)
        // Looked at before it is opened: a file that cannot be read still has a size and a date.
        var status = stat()
        if stat(path, &status) == 0 {
            summary.bytes = Int64(status.st_size)
            #if canImport(Darwin)
            summary.created = Date(timeIntervalSince1970: Double(status.st_mtimespec.tv_sec))
            #else
            summary.created = Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec))
            #endif
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            summary.damage = "cannot read: \(String(cString: strerror(errno)))"
            return summary
        }
        defer { close(descriptor) }
        if fstat(descriptor, &status) == 0 { summary.bytes = Int64(status.st_size) }
        guard let line = firstLine(descriptor, size: summary.bytes) else {
            summary.damage = summary.bytes == 0 ? "empty file" : "not a Rewind log"
            return summary
        }
        guard let header = verifiedRecord(line[...]), header.withUnsafeBytes({ LogLine.hasPrefix($0, LogLine.headerPrefix) }),
              let fields = try? JSONParser.parse(Array(header)), fields["format"]?.stringValue == "rewind" else {
            summary.damage = line.starts(with: LogLine.headerPrefix) ? "damaged header" : "not a Rewind log"
            return summary
        }
        summary.isLog = true
        // Not a time a date can show: the list says "?" for it; scripts still get the number.
        if let created = fields["created"]?.doubleValue, created.isFinite { summary.created = Date(timeIntervalSince1970: created) }
        summary.processName = fields["process"]?.stringValue
        let metadata = fields["metadata"]?.objectValue
        summary.testName = metadata?["test"]?.stringValue
        summary.failed = metadata?["outcome"]?.stringValue == "failed"
        // Format 2 chains each record's checksum to its session's header: the first session's key.
        let firstKey = header.withUnsafeBytes { LogLine.unseal($0) }.flatMap { $0.number == 0 ? $0.stored : nil }
        let tail = lastRecords(descriptor, size: summary.bytes, sessionKeys: firstKey.map { [$0] } ?? [])
        // Sequence numbers are checksummed, not checked: one that counts no entries leaves "? entries".
        summary.entries = tail.lastSequence.flatMap { (0..<Int64.max).contains($0) ? Int($0) + 1 : nil } ?? (tail.sawHeaderOnly ? 0 : nil)
        if tail.torn { summary.damage = "torn last line" }
        return summary
    }

    /// The whole file indexed: exact entries and every damaged line.
    static func verified(_ path: String, relativePath: String) -> RecordingSummary {
        var summary = self.summary(path, relativePath: relativePath)
        guard summary.isLog else { return summary }
        do {
            let reader = try LogReader(path: path)
            summary.entries = reader.entryCount
            var problems: [String] = []
            if !reader.damage.isEmpty { problems.append("\(reader.damage.count) damaged record\(reader.damage.count == 1 ? "" : "s")") }
            if reader.tornTail != nil { problems.append("torn last line") }
            summary.damage = problems.isEmpty ? nil : problems.joined(separator: ", ")
        } catch {
            summary.damage = error.description
        }
        return summary
    }

    /// The first line without its newline; nil when there is none within the limit.
    private static func firstLine(_ descriptor: Int32, size: Int64) -> [UInt8]? {
        var length = edgeBytes
        while true {
            let bytes = read(descriptor, at: 0, count: Int(min(Int64(length), size)))
            if let newline = bytes.firstIndex(of: 0x0A) { return Array(bytes[..<newline]) }
            guard Int64(bytes.count) < size, length < maximumEdgeBytes else { return nil }
            length *= 4
        }
    }

    /// The last entry's (or gap's) sequence number and whether the last line is torn,
    /// from the end of the file.
    ///
    /// A line is a record when its checksum verifies as the reader checks it: unchained
    /// (a header, a format 1 record) or chained to its session's key (format 2). The key
    /// is the session header's checksum: `sessionKeys` (the first session's), a header
    /// inside the window, or, for a later session whose header lies before the window, a
    /// key two lines of the window share (changed bytes give a random key; two lines
    /// agreeing on one by chance is one in four billion).
    private static func lastRecords(_ descriptor: Int32, size: Int64, sessionKeys: Set<UInt32>) -> (lastSequence: Int64?, torn: Bool, sawHeaderOnly: Bool) {
        var length = Int64(edgeBytes)
        while true {
            let start = max(0, size - length)
            let bytes = read(descriptor, at: start, count: Int(size - start))
            var torn = bytes.last != 0x0A
            // Lines wholly inside the window: after its first newline, unless it starts the file.
            var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
            if bytes.last == 0x0A { lines.removeLast() }
            let firstIsWhole = start == 0
            let seals = lines.enumerated().map { offset, line in offset == 0 && !firstIsWhole ? nil : seal(of: line) }
            let keys = sessionKeys.union(keysOfThisWindow(seals))
            var sawHeader = false
            for offset in lines.indices.reversed() {
                if offset == 0 && !firstIsWhole { break }
                let isLast = offset == lines.count - 1
                let verified = seals[offset].flatMap { found in found.seal.key == 0 || keys.contains(found.seal.key) ? found.record : nil }
                let kind = verified.map { record in record.withUnsafeBytes { LiveBacklog.kind(of: $0) } }
                guard let kind else {
                    if isLast { torn = true }
                    continue
                }
                switch kind {
                case .entry(let sequence, _): return (sequence, torn, false)
                case .gap(let first, let count):
                    guard count > 0, case (let last, false) = first.addingReportingOverflow(count - 1) else { return (nil, torn, false) }
                    return (last, torn, false)
                case .header: sawHeader = true
                case .other: continue
                }
                if sawHeader { return (nil, torn, true) }
            }
            if start == 0 || length >= Int64(maximumEdgeBytes) { return (nil, torn, false) }
            length *= 4
        }
    }

    /// The record a line holds when its checksum verifies unchained (a header or a
    /// format 1 record). A log whose line endings were converted to CRLF verifies
    /// without the carriage return, and is read so, as ``LogReader`` reads it.
    private static func verifiedRecord(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard let found = seal(of: line), found.seal.key == 0 else { return nil }
        return found.record
    }

    /// A line's framing and the record it frames (without a CRLF's carriage return); nil
    /// when it does not end with a checksum member.
    private static func seal(of line: ArraySlice<UInt8>) -> (seal: LogLine.Seal, record: ArraySlice<UInt8>)? {
        if let seal = line.withUnsafeBytes(LogLine.unseal) { return (seal, line) }
        if line.last == 0x0D, let seal = line.dropLast().withUnsafeBytes(LogLine.unseal) { return (seal, line.dropLast()) }
        return nil
    }

    /// The session keys the window itself shows: each header's checksum, and any
    /// chained key two lines share.
    private static func keysOfThisWindow(_ seals: [(seal: LogLine.Seal, record: ArraySlice<UInt8>)?]) -> Set<UInt32> {
        var keys = Set<UInt32>()
        var seen = Set<UInt32>()
        for case let (seal, record)? in seals {
            if seal.key == 0 {
                if seal.number == 0, record.withUnsafeBytes({ LogLine.hasPrefix($0, LogLine.headerPrefix) }) { keys.insert(seal.stored) }
            } else if !seen.insert(seal.key).inserted {
                keys.insert(seal.key)
            }
        }
        return keys
    }

    private static func read(_ descriptor: Int32, at offset: Int64, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let result = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            if result > 0 { done += result } else if result < 0 && errno == EINTR { continue } else { break }
        }
        bytes.removeLast(count - done)
        return bytes
    }
}

/// Slots written by `concurrentPerform`'s iterations, each its own index.
/// `@unchecked Sendable`: the slots are guarded by `lock`.
private final class SummarySlots: @unchecked Sendable {
    private var slots: [RecordingSummary?]
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: RecordingSummary) { lock.withLock { slots[index] = value } }
    var values: [RecordingSummary] { slots.compactMap { $0 } }
}
