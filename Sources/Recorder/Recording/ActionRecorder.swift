import Foundation

/// Appends every action and the state it produced to a crash-safe log.
///
/// ```swift
/// let recorder = try ActionRecorder(file: "checkout.jsonl")
/// let reducer = recorder.recording(appReducer)   // same type as appReducer
/// // … dispatch as usual …
/// try recorder.close()
/// ```
///
/// The caller's thread only hands copies of the (copy-on-write) state and the
/// action to a bounded queue; a background thread encodes them, diffs each
/// state against the previous one and writes. Write errors never crash or block
/// the app: recording stops, `Options.onError` is called once and `flush()` and
/// `close()` throw the error. One recorder writes a log at a time.
public final class ActionRecorder: Sendable {
    /// The log file being written (when only streaming live, the listener's address).
    public let path: String
    private let options: Options
    /// The hand-off to the writer thread (``ReducerHandOff`` enqueues into it directly).
    let queue: RecordingQueue
    private let status = Locked(Status())
    private let writerFinished = DispatchSemaphore(value: 0)
    let callerThreadEncoding = CallerThreadEncoding()
    /// The stream to `rewind listen`, when recording live.
    let live: LiveSink?
    /// True for ``disabled`` only: nothing is recorded, nothing is started.
    let isDisabled: Bool

    private struct Status {
        var error: RecorderError?
        var closed = false
        /// Left once `onError` has returned for `error`, so `flush()` and `close()` throw it
        /// only after the callback saw it (it runs on the thread that met the error).
        let reported = DispatchGroup()
        var reportingThread: pthread_t?
    }

    /// Waits until `onError` has been called for the error that stopped recording
    /// (unless called from inside `onError` itself); returns that error.
    private func reportedError() -> RecorderError? {
        let (error, reported, reporter) = status.withLock { ($0.error, $0.reported, $0.reportingThread) }
        if error != nil, reporter.map({ pthread_equal($0, pthread_self()) == 0 }) ?? true { reported.wait() }
        return error
    }

    /// Opens (or creates, owner-only 0600) the log at `path` and starts the writer thread.
    /// An existing log is appended to as a new session, after cutting a torn final line.
    ///
    /// - Throws: ``RecorderError`` when the file cannot be opened (missing directory,
    ///   permission denied), exists and is not a Rewind log, is not a regular file
    ///   (FIFOs and sockets are refused; devices such as `/dev/null` are written as
    ///   they are), or another recorder, in this process or another, is writing it.
    ///
    /// A relative `path` is read against the working directory on Linux and in a
    /// macOS command-line tool; on iOS, tvOS, watchOS and visionOS (and in a macOS
    /// app started from the Finder, whose working directory is `/`) it is placed in
    /// ``defaultDirectory`` instead, where an app can write.
    public convenience init(file path: String, options: Options = Options()) throws(RecorderError) {
        let path = Platform.recordingPath(path)
        // Open first: once every property is set, a throwing init would run deinit.
        try self.init(path: path, sink: LogAppender(path: path), live: nil, options: options)
    }

    /// Records into `name.jsonl` in ``defaultDirectory``, which works on every
    /// platform, a device or simulator included:
    ///
    /// ```swift
    /// let recorder = try ActionRecorder(named: "checkout")   // …/Library/Caches/Rewind/checkout.jsonl on iOS
    /// ```
    ///
    /// - Throws: ``RecorderError`` as ``init(file:options:)`` does.
    public convenience init(named name: String, options: Options = Options()) throws(RecorderError) {
        try self.init(named: name, options: options, environment: ProcessInfo.processInfo.environment)
    }

    /// The same with the environment given (tests).
    convenience init(named name: String, options: Options, environment: [String: String]) throws(RecorderError) {
        let file = name.hasSuffix(".jsonl") ? name : name + ".jsonl"
        try self.init(file: Platform.inRecordingsDirectory(file, environment: environment), options: options)
    }

    /// Where ``init(named:options:)`` writes: `$REWIND_RECORDINGS` when set;
    /// otherwise the app's `Library/Caches/Rewind` on iOS, tvOS, watchOS and
    /// visionOS (and on macOS when the working directory is `/`), the working
    /// directory on macOS command-line tools and on Linux.
    public static var defaultDirectory: String { Platform.recordingsDirectory() }

    /// A recorder that records nothing and costs nothing, for release builds:
    /// ``recording(_:)`` returns the reducer itself, ``middleware()`` passes each
    /// action straight on, `record` returns nil, `flush()` and `close()` do nothing.
    ///
    /// ```swift
    /// #if DEBUG
    /// let recorder = try ActionRecorder(named: "app")
    /// #else
    /// let recorder = ActionRecorder.disabled
    /// #endif
    /// let reducer = recorder.recording(appReducer)   // appReducer itself in release builds
    /// ```
    public static let disabled = ActionRecorder(disabled: ())

    private init(disabled: ()) {
        path = ""
        options = Options()
        live = nil
        isDisabled = true
        queue = RecordingQueue(capacity: 1, policy: .drop)
        queue.close()
        status.withLock { $0.closed = true }
    }

    /// Starts the writer thread over `sink` (a file, a live stream or both; see ActionRecorder+Live.swift).
    init(path: String, sink: any RecordSink, live: LiveSink?, options: Options) {
        self.path = path
        self.options = options
        self.live = live
        isDisabled = false
        queue = RecordingQueue(capacity: options.queueCapacity, byteLimit: options.queueBytes, policy: options.queuePolicy,
                               firstSequence: sink.nextSequence)
        let writer = WriterThreadState(LogWriter(appender: sink, queue: queue, options: options))
        Platform.startThread(named: "rewind-recorder") { [queue, status, writerFinished] in
            ActionRecorder.runWriter(writer.writer, queue: queue, status: status, onError: options.onError)
            writerFinished.signal()
        }
        // A listener refusing the stream stops recording at once, not at the next batch.
        live?.onRefusal { [queue, status] error in ActionRecorder.stop(with: error, queue: queue, status: status, onError: options.onError) }
    }

    deinit {
        if status.withLock({ status in defer { status.closed = true }; return !status.closed }) {
            queue.close()
            writerFinished.wait()
            live?.close(patience: options.livePatienceSeconds)
        }
    }

    /// Wraps a reducer so every call is recorded; returns a function of the same type.
    ///
    /// Works for any return type: `Void`, an effect value, `[Action]`, so it fits
    /// hand-written stores, TCA's `Reduce { state, action in … }` and ReSwift-style
    /// reducers alike. The store must not run the wrapped reducer on two threads at
    /// once (no store does: the state is `inout`); entries are numbered in the order
    /// the reducer ran.
    public func recording<State, Action, Result>(
        _ reducer: @escaping (inout State, Action) -> Result
    ) -> (inout State, Action) -> Result {
        guard !isDisabled else { return reducer }
        let handOff = ReducerHandOff<State, Action>(recorder: self, clock: options.clock, tracesCallStacks: options.trace)
        return { state, action in handOff.dispatch(&state, action, reducer) }
    }

    /// A ReSwift-shaped middleware that records every dispatched action with the
    /// state after it, without importing ReSwift:
    /// `Store(reducer: appReducer, state: nil, middleware: [recorder.middleware()])`.
    ///
    /// The recorded duration covers the rest of the middleware chain and the reducer.
    /// An action dispatched synchronously from inside a subscriber is recorded before
    /// the action that caused it (its state is already the later one); use
    /// ``recording(_:)`` on the reducer when that matters.
    public func middleware<State, Action>()
        -> (@escaping (Action) -> Void, @escaping () -> State?) -> (@escaping (Action) -> Void) -> (Action) -> Void
    {
        guard !isDisabled else { return { _, _ in { next in next } } }
        let clock = options.clock
        let tracesStack = options.trace
        return { [self] _, getState in
            let firstCall = FirstCall()
            return { next in
                { action in
                    let initialState = firstCall.take() ? getState() : nil
                    let trace = CapturedTrace.make(fileID: nil, line: 0, stack: tracesStack)
                    let start = clock.nanoseconds()
                    let ((), values) = RecordedValuesContext.capturing { next(action) }
                    let end = clock.nanoseconds()
                    guard let state = getState() else { return }
                    self.record(state: state, action: action, start: start, end: end, effectOf: nil, initialState: initialState,
                                values: values, trace: trace)
                }
            }
        }
    }

    /// Hands one reducer call to the writer; returns its sequence number (nil once stopped).
    /// The reference `Store` (RewindStore) and the manual ``record(_:state:before:duration:effectOf:fileID:line:)``
    /// call this directly; `values` are what the reducer read through ``Recorded``.
    @discardableResult
    func record<State, Action>(
        state: State, action: Action, start: UInt64, end: UInt64, effectOf: Int64?, initialState: State?,
        values: [CapturedValue] = [], trace: CapturedTrace? = nil, actionType: Any.Type? = nil
    ) -> Int64? {
        guard !isDisabled else { return nil }
        let entry = TypedPendingEntry<State, Action>(state: state, action: action, endNanoseconds: end, durationNanoseconds: end &- start)
        entry.effectOf = effectOf
        if let actionType { entry.actionType = actionType }
        entry.initialState = initialState.map { $0 as Any }
        entry.recordedValues = values
        entry.trace = trace
        if callerThreadEncoding.mustEncodeOnCaller(state) {
            entry.encodedState = EncodedDocument.encode(state)
            entry.encodedInitialState = initialState.map { EncodedDocument.encode($0) }
        }
        if callerThreadEncoding.mustEncodeOnCaller(action) {
            entry.encodedPayload = RecordedValue.encodePayload(action)
        }
        return queue.enqueue(entry)
    }

    var clock: RecorderClock { options.clock }

    /// True when `Options.trace` asks for a call stack with every entry.
    var tracesCallStacks: Bool { options.trace }

    /// True for the first manual ``record(_:state:before:duration:effectOf:fileID:line:)`` call only.
    let firstManualCall = Locked(true)

    /// Returns once everything recorded so far is written to the file (visible to
    /// readers and safe from an app crash; see `Options.durability` for power cuts).
    ///
    /// - Throws: the ``RecorderError`` that stopped recording, if one has: then
    ///   what was recorded since is not in the file.
    public func flush() throws(RecorderError) {
        queue.waitUntilWritten()
        live?.waitUntilSent(patience: options.livePatienceSeconds)
        if let error = reportedError() { throw error }
    }

    /// Writes what is queued, stops the writer thread and closes the file.
    /// Calling it again does nothing more.
    ///
    /// - Throws: the ``RecorderError`` that stopped recording, if any. When recording
    ///   live, also when entries never reached the listener (it was gone, or did not
    ///   confirm them within `Options.livePatience`): the error counts them, `Options.onError` gets
    ///   it too, and ``liveDroppedEntries`` counts every entry missing from its log.
    public func close() throws(RecorderError) {
        let wasOpen = status.withLock { status in
            defer { status.closed = true }
            return !status.closed
        }
        if wasOpen {
            queue.close()
            writerFinished.wait()
            live?.close(patience: options.livePatienceSeconds)
            // Reported here if the stream's thread has not yet done it (once either way).
            if let refused = live?.refusalError { ActionRecorder.stop(with: refused, queue: queue, status: status, onError: options.onError) }
            // Entries that never reached the listener, which its log has no gap record for: said, not silently lost.
            if let lost = live?.lossAtClose { ActionRecorder.stop(with: lost, queue: queue, status: status, onError: options.onError) }
        }
        if let error = reportedError() { throw error }
    }

    /// The error that stopped recording, if one has.
    public var error: RecorderError? { status.withLock { $0.error } }

    /// Stops recording for `error`: the first error is kept and reported once.
    private static func stop(with error: RecorderError, queue: RecordingQueue, status: Locked<Status>, onError: (@Sendable (RecorderError) -> Void)?) {
        let first = status.withLock { status in
            guard status.error == nil else { return false }
            status.error = error
            status.reportingThread = pthread_self()
            status.reported.enter()
            return true
        }
        queue.stop()
        if first {
            onError?(error)
            status.withLock { $0.reported }.leave()
        }
    }

    private static func runWriter(
        _ writer: LogWriter, queue: RecordingQueue, status: Locked<Status>, onError: (@Sendable (RecorderError) -> Void)?
    ) {
        // The file is closed before `close()` returns, so its lock is released by then.
        defer { writer.closeFile() }
        func fail(_ error: RecorderError) { stop(with: error, queue: queue, status: status, onError: onError) }
        while let batch = queue.takeBatch() {
            do {
                try writer.write(batch)
            } catch {
                return fail(error)
            }
            queue.markProcessed(batch.count)
        }
        if status.withLock({ $0.error }) != nil { return }
        do {
            try writer.finish()
        } catch {
            fail(error)
        }
    }
}

/// Hands the writer to its thread. `@unchecked Sendable`: only that thread uses it.
private final class WriterThreadState: @unchecked Sendable {
    let writer: LogWriter
    init(_ writer: LogWriter) { self.writer = writer }
}

/// True exactly once; a wrapper's calls are serialised by its store.
private final class FirstCall {
    private var pending = true
    func take() -> Bool {
        defer { pending = false }
        return pending
    }
}
