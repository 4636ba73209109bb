import Recorder

/// The records arriving on one live connection, a read at a time, each
/// checked as the log reader checks a file's lines: its checksum, its kind
/// prefix, and the record size limit. The first bad record ends the stream.
struct RecordStream {
    let connection: LiveSocket
    /// Bytes read but not yet returned (a partial record).
    private var pending: [UInt8]
    let maximumRecordBytes: Int
    /// Records returned so far.
    private(set) var recordsRead = 0

    /// Whole records, back to back, each with its newline.
    struct Batch {
        var bytes: [UInt8] = []
        var records: [(range: Range<Int>, kind: LiveBacklog.Kind, isFirstOfStream: Bool)] = []
    }

    enum Next {
        case records(Batch)
        /// The app closed the connection after a whole record.
        case end
        case failure(String)
    }

    /// The checksum of the stream's latest header, which its session's records are chained to.
    private var sessionKey: UInt32?

    static let readSize = 1 << 16
    private static let kindPrefix = Array(#"{"kind":""#.utf8)

    init(connection: LiveSocket, buffer: [UInt8], maximumRecordBytes: Int) {
        self.connection = connection
        pending = buffer
        self.maximumRecordBytes = maximumRecordBytes
    }

    mutating func next() -> Next {
        while true {
            var batch = Batch()
            var start = 0
            var searchFrom = 0
            while let newline = pending[searchFrom...].firstIndex(of: 0x0A) {
                let number = recordsRead + 1
                let length = newline - start
                if length > maximumRecordBytes { return .failure(tooLong(number)) }
                var key = sessionKey
                let problem: String? = pending.withUnsafeBytes { all in
                    let line = UnsafeRawBufferPointer(rebasing: all[start..<newline])
                    guard LogLine.hasPrefix(line, RecordStream.kindPrefix) else { return "record \(number) of the stream is not a Rewind record" }
                    // Checked as a file's line is: a header is unchained; a later record is chained to its
                    // session's header (format 2) or unchained (format 1, and gaps the app's stream adds).
                    guard let seal = LogLine.unseal(line), seal.key == 0 || seal.key == key else {
                        return "record \(number) of the stream is damaged (its checksum does not match)"
                    }
                    if LogLine.hasPrefix(line, LogLine.headerPrefix) {
                        guard seal.key == 0 else { return "record \(number) of the stream is damaged (its checksum does not match)" }
                        key = seal.stored
                    }
                    let kind = LiveBacklog.kind(of: line)
                    let offset = batch.bytes.count
                    batch.bytes.append(contentsOf: all[start...newline])
                    batch.records.append((offset..<batch.bytes.count, kind, number == 1))
                    return nil
                }
                if let problem { return .failure(problem) }
                sessionKey = key
                recordsRead = number
                start = newline + 1
                searchFrom = start
            }
            pending.removeFirst(start)
            if !batch.records.isEmpty { return .records(batch) }
            if pending.count > maximumRecordBytes { return .failure(tooLong(recordsRead + 1)) }
            switch connection.receive(into: &pending, maximum: RecordStream.readSize, timeout: 86_400) {
            case .success(0): return pending.isEmpty ? .end : .failure("the stream ended inside record \(recordsRead + 1)")
            case .success: continue
            case .failure(let failure) where failure.isTimeout: continue   // an idle app is fine
            case .failure(let failure): return .failure(failure.description)
            }
        }
    }

    private func tooLong(_ number: Int) -> String {
        "record \(number) of the stream is longer than the \(maximumRecordBytes)-byte record limit"
    }
}
