import Foundation
import Recorder

/// One live recording's log in the listener's directory. A reconnecting app
/// (or a restarted listener) finds it again by its session name, which ends
/// the file name: `checkout-20260301-101500-3f2a…9c.jsonl`.
///
/// Used by one connection at a time, under `LiveListener`'s lock once it is
/// registered (``existing(session:in:)`` reads the file before, without the lock).
final class LiveSessionLog {
    let path: String
    /// The last sequence number held, as an entry or inside a gap; nil before the first.
    private(set) var lastSequence: Int64?
    /// Entry numbers the log has given so far (entries, what its gaps stand for, damaged
    /// records), so the listener can say which entries a gap takes.
    private(set) var entryNumbersTaken = 0
    /// The number the next entry (or gap) stored takes.
    var nextEntryNumber: Int { entryNumbersTaken == Int.max ? Int.max : entryNumbersTaken + 1 }
    private let descriptor: Int32
    /// The file's own chain (format 2): records are sealed anew as they are stored, so the
    /// file is one unbroken chain whatever the stream dropped (docs/LIVE.md). Nil for a
    /// format 1 stream, which has no chain to keep: its records are stored as they came.
    private var chain: LogChain?

    private init(path: String, descriptor: Int32, lastSequence: Int64?, chain: LogChain?) {
        self.path = path
        self.descriptor = descriptor
        self.lastSequence = lastSequence
        self.chain = chain
    }

    deinit { close(descriptor) }

    /// The log an earlier connection (or an earlier run of the listener) wrote for `session`,
    /// with a torn final line cut away; nil when there is none.
    static func existing(session: String, in directory: String) throws(LiveListenError) -> LiveSessionLog? {
        let suffix = "-\(session).jsonl"
        guard let name = (try? FileManager.default.contentsOfDirectory(atPath: directory))?.first(where: { $0.hasSuffix(suffix) }) else {
            return nil
        }
        let path = (directory as NSString).appendingPathComponent(name)
        let reader: LogReader
        do {
            reader = try LogReader(path: path)
        } catch {
            throw LiveListenError("cannot resume \(path): \(error.description)")
        }
        var last: Int64?
        if reader.entryCount > 0, let entry = try? reader.entry(at: reader.entryCount - 1) { last = entry.sequence }
        // The reader checked the gap's numbers (LogLimits.gapProblem): this cannot overflow.
        if let gap = reader.gaps.last { last = max(last ?? -1, gap.firstSequence + Int64(gap.droppedCount) - 1) }
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0 else { throw LiveListenError("cannot open \(path): \(String(cString: strerror(errno)))") }
        // A listener killed while writing leaves a partial line: new records start on a fresh one.
        if let torn = reader.tornTail, ftruncate(descriptor, off_t(torn.offset)) != 0 {
            let code = errno
            close(descriptor)
            throw LiveListenError("cannot cut the torn last line of \(path): \(String(cString: strerror(code)))")
        }
        let log = LiveSessionLog(path: path, descriptor: descriptor, lastSequence: last, chain: resumedChain(reader.lastRecordSeal))
        log.entryNumbersTaken = reader.gaps.reduce(reader.entryCount + reader.damage.count) { taken, gap in
            let (sum, overflow) = taken.addingReportingOverflow(max(1, gap.droppedCount))
            return overflow ? Int.max : sum
        }
        return log
    }

    /// Creates the log for a new session from its header record (with its newline),
    /// and reads it back as the inspector would, so a header no reader accepts is refused.
    static func create(header: [UInt8], session: String, in directory: String) throws(LiveListenError) -> LiveSessionLog {
        let fields = (try? JSONParser.parse(header.dropLast())) ?? [:]
        let path = (directory as NSString).appendingPathComponent(fileName(header: fields, session: session))
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw LiveListenError("cannot create \(path): \(String(cString: strerror(errno)))") }
        let chained = header.dropLast().withUnsafeBytes { LogLine.unseal(UnsafeRawBufferPointer($0))?.number } != nil
        let log = LiveSessionLog(path: path, descriptor: descriptor, lastSequence: nil, chain: chained ? LogChain() : nil)
        do {
            try log.append(header)
            _ = try LogReader(path: path)
        } catch let error as LogReadError {
            unlink(path)
            throw LiveListenError(error.description)
        } catch {
            unlink(path)
            throw error as? LiveListenError ?? LiveListenError("\(error)")
        }
        return log
    }

    /// The chain a log goes on with after its last record, from that record's framing alone (one
    /// line read, not the file): a header's own checksum is its session's key; a later record's
    /// is its checksum XOR the key. Nil for format 1, which has no chain.
    private static func resumedChain(_ last: LogLine.Seal?) -> LogChain? {
        guard let last, let number = last.number, number < .max else { return nil }
        var chain = LogChain()
        chain.key = number == 0 ? last.stored : last.key
        chain.nextNumber = number + 1
        return chain
    }

    /// Appends whole, verified records (each with its newline), sealed anew in this file's chain.
    /// A header starts a session with a chain of its own, as in a log opened again.
    func append(_ records: [UInt8]) throws(LiveListenError) {
        var bytes = records
        if var chain {
            bytes.removeAll(keepingCapacity: true)
            records.withUnsafeBytes { all in
                var start = 0
                while start < all.count, let newline = all[start...].firstIndex(of: 0x0A) {
                    let line = UnsafeRawBufferPointer(rebasing: all[start..<newline])
                    if LogLine.hasPrefix(line, LogLine.headerPrefix) { chain = LogChain() }
                    LogLine.reseal(line, into: &bytes, chain: &chain)
                    start = newline + 1
                }
            }
            self.chain = chain
        }
        if let failure = bytes.withUnsafeBytes({ WriteAll.write($0, to: descriptor).failure }) {
            throw LiveListenError("cannot write \(path): \(String(cString: strerror(failure)))")
        }
    }

    func noteStored(_ kind: LiveBacklog.Kind) {
        switch kind {
        case .entry(let sequence, _):
            lastSequence = max(lastSequence ?? -1, sequence)
            entryNumbersTaken = entryNumbersTaken.addingSaturating(1)
        case .gap(let first, let count):
            // Saturating: the framer checked a gap's numbers (LogLimits.gapProblem); this holds without it too.
            lastSequence = max(lastSequence ?? -1, first.addingSaturating(count).addingSaturating(-1))
            entryNumbersTaken = entryNumbersTaken.addingSaturating(max(1, Int(clamping: count)))
        case .header: lastSequence = nil
        case .other: break
        }
    }

    /// The reason a gap record (with its newline) gives, when it gives one.
    static func reason(ofGap record: ArraySlice<UInt8>) -> String? {
        (try? JSONParser.parse(record.dropLast()))?[RecordField.reason.name]?.stringValue
    }

    /// `<process>-<yyyyMMdd-HHmmss>[-<test or metadata>]-<session>.jsonl`, in UTC, file-name-safe.
    static func fileName(header: JSONValue, session: String) -> String {
        let process = safe(header["process"]?.stringValue ?? "app", limit: 40)
        // A header from elsewhere may say 1e300 or -1e300: only a date a file name can hold is used.
        let seconds = header["created"]?.doubleValue.flatMap { (0...253_402_300_799).contains($0) ? $0 : nil }
        let created = seconds.map(Date.init(timeIntervalSince1970:)) ?? Date()
        var parts = [process.isEmpty ? "app" : process, timestamp(created)]
        if let metadata = header["metadata"]?.objectValue, metadata.count > 0 {
            let text = metadata["test"]?.stringValue
                ?? Array(metadata.members).sorted { $0.0 < $1.0 }.compactMap { $0.1.stringValue }.joined(separator: "-")
            let described = safe(text, limit: 24)
            if !described.isEmpty { parts.append(described) }
        }
        parts.append(session)
        return parts.joined(separator: "-") + ".jsonl"
    }

    private static func safe(_ text: String, limit: Int) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_", ".": result.unicodeScalars.append(scalar)
            default: if !result.hasSuffix("_") { result += "_" }
            }
            if result.count >= limit { break }
        }
        while result.hasPrefix(".") || result.hasPrefix("_") { result.removeFirst() }
        while result.hasSuffix("_") { result.removeLast() }
        return result
    }

    /// `20260301-101500` (UTC).
    static func timestamp(_ date: Date) -> String {
        var seconds = time_t(saturating: date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return "00000000-000000" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))-\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))"
    }
}
