import Recorder

/// The records arriving on one live connection, a read at a time, each checked
/// by a ``LiveRecordFramer``. The first bad record ends the stream.
struct RecordStream {
    let connection: LiveSocket
    private var framer: LiveRecordFramer

    typealias Batch = LiveRecordFramer.Records

    enum Next {
        case records(Batch)
        /// The app closed the connection after a whole record.
        case end
        case failure(String)
    }

    static let readSize = 1 << 16

    /// Records returned so far.
    var recordsRead: Int { framer.recordsRead }

    init(connection: LiveSocket, buffer: [UInt8], maximumRecordBytes: Int) {
        self.connection = connection
        framer = LiveRecordFramer(maximumRecordBytes: maximumRecordBytes, received: buffer)
    }

    mutating func next() -> Next {
        while true {
            switch framer.takeRecords() {
            case .failure(let problem): return .failure(problem.description)
            case .success(let batch) where batch.count > 0: return .records(batch)
            case .success: break
            }
            let connection = connection
            switch framer.receive({ connection.receive(into: &$0, maximum: RecordStream.readSize, timeout: 86_400) }) {
            case .success(0): return framer.holdsPartialRecord ? .failure("the stream ended inside record \(recordsRead + 1)") : .end
            case .success: continue
            case .failure(let failure) where failure.isTimeout: continue   // an idle app is fine
            case .failure(let failure): return .failure(failure.description)
            }
        }
    }
}
