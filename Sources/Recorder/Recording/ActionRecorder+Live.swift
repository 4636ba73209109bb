extension ActionRecorder {
    /// Records live to `rewind listen` on another machine or process, and also to
    /// `file` when one is given. `rewind listen` prints the address and token to use:
    ///
    /// ```swift
    /// let recorder = try ActionRecorder(streamingTo: "192.168.1.20:7777", token: "5b0e…")
    /// let reducer = recorder.recording(appReducer)
    /// ```
    ///
    /// The listener receives the same records the file holds. The app never
    /// waits for the network: records are queued up to `options.liveQueueBytes`,
    /// then entries are dropped and the listener's log gets a gap record; the
    /// connection is retried on its own (50 ms doubling to 1 s). ``flush()`` and
    /// ``close()`` also wait for queued records to be sent while the connection
    /// keeps taking them (at most `options.livePatience`, 1 s, without progress). A listener that refuses
    /// the token stops recording: `options.onError` is called and ``close()`` throws; so
    /// does closing with entries that never reached the listener (``liveDroppedEntries``).
    ///
    /// - Parameters:
    ///   - address: `host:port` (IPv6 in brackets: `[::1]:7777`).
    ///   - token: the listener's token; connections without it are refused.
    ///   - file: also write the log here (``path`` is this file, else the address).
    /// - Throws: ``RecorderError`` when `address` is not `host:port`, or `file` cannot be opened.
    public convenience init(streamingTo address: String, token: String, file: String? = nil, options: Options = Options()) throws(RecorderError) {
        guard let parsed = LiveAddress(address) else {
            throw RecorderError(.invalidAddress, path: address, reason: "is not host:port (for example 127.0.0.1:7777)")
        }
        let fileSink = try file.map { path throws(RecorderError) in try LogAppender(path: path) }
        let live = LiveSink(address: parsed, token: token, capacity: options.liveQueueBytes)
        let sink: any RecordSink = fileSink.map { TeeSink(file: $0, stream: live) } ?? live
        self.init(path: file ?? parsed.description, sink: sink, live: live, options: options)
    }

    /// Entries missing from the listener's log because it was slow or unreachable: those
    /// its gap records stand for (the queue was full, a connection was lost with records in
    /// flight) and those dropped since; after ``close()``, also those that never reached it
    /// (then `close()` throws and says how many). 0 when not recording live.
    public var liveDroppedEntries: Int { live?.droppedEntries ?? 0 }

}

extension ActionRecorder.Options {
    /// ``livePatience`` as the seconds the live sink waits with.
    var livePatienceSeconds: Double {
        let (seconds, attoseconds) = livePatience.components
        return max(0, Double(seconds) + Double(attoseconds) / 1e18)
    }
}
