/// Where the writer thread's sealed records go: the log file, a live stream,
/// or both. Called from the writer thread only.
protocol RecordSink: AnyObject {
    /// What errors name: the log file's path, or the listener's address.
    var path: String { get }
    /// The first entry's sequence number: where an existing log's numbering left off (0 for a new one).
    var nextSequence: Int64 { get }
    /// Takes whole records (each ending with its newline), in order.
    func write(_ bytes: [UInt8]) throws(RecorderError)
    /// Forces what was written to durable storage (where that means something).
    func synchronize() throws(RecorderError)
    /// Called after every batch: throws when recording must stop (the file was removed, the listener refused us).
    func checkStillLinked() throws(RecorderError)
    /// True once after the sink lost records: the writer makes its next entry a keyframe,
    /// so what follows the gap can be rebuilt without the entries that were lost.
    func takeKeyframeRequest() -> Bool
    /// Closes what the sink writes to (a file's lock is released then); nothing is written after.
    func closeFile()
}

extension LogAppender: RecordSink {
    /// The appender checks the file before and after each write, so nothing is left to check.
    func checkStillLinked() throws(RecorderError) {}
    func takeKeyframeRequest() -> Bool { false }
}

/// A log file and a live stream fed the same records.
final class TeeSink: RecordSink {
    private let file: any RecordSink
    private let stream: any RecordSink

    var path: String { file.path }
    var nextSequence: Int64 { file.nextSequence }

    init(file: any RecordSink, stream: any RecordSink) {
        self.file = file
        self.stream = stream
    }

    func write(_ bytes: [UInt8]) throws(RecorderError) {
        try file.write(bytes)
        try stream.write(bytes)
    }

    func synchronize() throws(RecorderError) { try file.synchronize() }

    func checkStillLinked() throws(RecorderError) {
        try file.checkStillLinked()
        try stream.checkStillLinked()
    }

    func takeKeyframeRequest() -> Bool { stream.takeKeyframeRequest() }

    func closeFile() {
        file.closeFile()
        stream.closeFile()
    }
}
