import Foundation
import Recorder

/// `rewind listen [--port N] [--bind ADDR] [-o DIR] [--token T] [--no-ui]`:
/// waits for apps recording with `ActionRecorder(streamingTo:token:)`, writes each
/// recording to a log in DIR, and opens the inspector following the first one
/// (`--no-ui`, or no terminal: prints what happens and only writes).
///
/// The token is kept in `DIR/.rewind-listen-token` (owner-only), so a
/// restarted listener takes its apps back without them changing anything.
enum ListenCommand: CommandRunner {
    static let defaultPort: UInt16 = 7777
    static let defaultDirectory = "rewind-live"
    static let tokenFileName = ".rewind-listen-token"

    static func run(_ invocation: Invocation, streams: inout some TextStreams) -> Int32 {
        run(invocation, streams: &streams, whileListening: nil)
    }

    /// `rewind listen ARGUMENTS` with `whileListening` (tests), which runs on a thread of its
    /// own once the listener is up; the command stops when it returns.
    static func run(_ arguments: [String], streams: inout some TextStreams,
                    whileListening: @escaping @Sendable (LiveListener) -> Void) -> Int32 {
        CommandLineProgram.rewind.run(CommandTable.command("listen"), arguments, streams: &streams) { invocation, streams in
            run(invocation, streams: &streams, whileListening: whileListening)
        }
    }

    /// Without `whileListening` the command runs until killed.
    static func run(_ invocation: Invocation, streams: inout some TextStreams,
                    whileListening: (@Sendable (LiveListener) -> Void)?) -> Int32 {
        func fail(_ message: String) -> Int32 { invocation.fail(message, streams: &streams) }
        let noUI = invocation.isSet("--no-ui")
        var port = defaultPort
        if let text = invocation["--port"] {
            guard let value = UInt16(text) else { return fail("--port wants a number from 0 to 65535, not '\(text)'") }
            port = value
        }
        let host = invocation["--bind"] ?? "127.0.0.1"
        guard !host.isEmpty else { return fail("--bind wants an address such as 127.0.0.1 or 0.0.0.0") }
        let directory = invocation["-o"] ?? defaultDirectory
        // A token given wrong is refused before anything is created on disk.
        if let given = invocation["--token"], case .failure(let error) = checked(token: given) { return fail(error.description) }
        do {
            // Private when made here: the logs hold the apps' states, and the token is beside them.
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            return fail("cannot create the directory \(directory): \(reason(of: error))")
        }
        let token: String
        switch self.token(given: invocation["--token"], directory: directory) {
        case .success(let value): token = value
        case .failure(let error): return fail(error.description)
        }

        let listener: LiveListener
        do {
            listener = try LiveListener(.init(address: LiveAddress(host: host, port: port), directory: directory, token: token))
        } catch {
            return fail(error.description)
        }
        defer { listener.stop() }
        streams.output(instructions(address: listener.address, token: token, directory: directory, everyInterface: listener.isEveryInterface,
                                    by: invocation.displayName))
        if !listener.isLoopbackOnly {
            streams.error("\(invocation.displayName): warning: \(listener.address.host) can be reached from other machines, and nothing is encrypted: "
                          + "the token and every state travel in clear text (bind 127.0.0.1 and forward the port over SSH instead: docs/LIVE.md)")
        }

        if !noUI && whileListening == nil && streams.isTerminal {
            return followFirstRecording(of: listener, by: invocation.displayName, streams: &streams)
        }
        // Prints events as they come, on this thread (the listener's threads only record them).
        let done = DispatchSemaphore(value: 0)
        let finished = DoneFlag()
        if let whileListening {
            let thread = Thread {
                whileListening(listener)
                finished.set()
                done.signal()
            }
            thread.start()
        }
        var printed = 0
        while true {
            listener.waitUntil(timeout: 0.5) { $0.eventCount > printed }
            printed = printEvents(of: listener, after: printed, streams: &streams).printed
            if finished.isSet { break }
        }
        done.wait()
        return 0
    }

    /// Prints the events after the first `printed` (and how many were no longer kept, when a
    /// flood outran the printing); returns the new count and the first recording's log, if any.
    @discardableResult
    private static func printEvents(of listener: LiveListener, after printed: Int, streams: inout some TextStreams) -> (printed: Int, connected: String?) {
        let snapshot = listener.current
        let (missed, events) = snapshot.events(after: printed)
        if missed > 0 { streams.output("(\(missed.counted("event", "events")) not shown: they came faster than they were printed)") }
        var connected: String?
        for event in events {
            streams.output(event.description)
            if case .connected(_, let path, _) = event, connected == nil { connected = path }
        }
        return (snapshot.eventCount, connected)
    }

    /// What the user sees first: where logs go, and the two lines an app needs.
    /// `command` is how messages start: `rewind listen`, or a debug executable's name.
    static func instructions(address: LiveAddress, token: String, directory: String, everyInterface: Bool = false,
                             by command: String = "rewind listen") -> String {
        var lines = ["\(command): waiting on \(address), writing logs to \(directory)/"]
        if everyInterface {
            lines.append("(listening on every interface: from a device, use this machine's address instead of \(address.host))")
        }
        lines += [
            "In the app:",
            "    let recorder = try ActionRecorder(streamingTo: \"\(address)\", token: \"\(token)\")",
            "    let reducer = recorder.recording(appReducer)",
        ]
        return lines.joined(separator: "\n")
    }

    /// The given token, else the directory's saved one, else a new random one (then saved).
    static func token(given: String?, directory: String) -> Result<String, UsageError> {
        if let given { return checked(token: given) }
        let path = (directory as NSString).appendingPathComponent(tokenFileName)
        switch savedToken(at: path) {
        case .success(let saved?): return .success(saved)
        case .success(nil): break
        case .failure(let error): return .failure(error)
        }
        let token = LiveHandshake.randomHex()
        // Created 0600 under a name of its own (O_EXCL, never through a link), written whole,
        // then linked into place: no other user can ever read it, and a listener started at
        // the same moment finds the whole token or none.
        let temporary = path + ".\(getpid()).\(LiveHandshake.randomHex().prefix(8))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return .failure(UsageError("cannot save the token in \(path): \(String(cString: strerror(errno)))")) }
        defer { unlink(temporary) }
        // Whatever the umask: readable by its owner, who must read it again.
        _ = fchmod(descriptor, 0o600)
        let bytes = Array((token + "\n").utf8)
        let failure = bytes.withUnsafeBytes { WriteAll.write($0, to: descriptor).failure }
        close(descriptor)
        if let failure { return .failure(UsageError("cannot save the token in \(path): \(String(cString: strerror(failure)))")) }
        guard link(temporary, path) == 0 else {
            let code = errno
            // Another listener saved one first: that one is the directory's token.
            if code == EEXIST, case .success(let saved?) = savedToken(at: path) { return .success(saved) }
            return .failure(UsageError("cannot save the token in \(path): \(String(cString: strerror(code)))"))
        }
        return .success(token)
    }

    /// The token saved in `path` (nil when there is none), read without following a link;
    /// a file others could read (made by an older version, or copied) is made private first.
    static func savedToken(at path: String) -> Result<String?, UsageError> {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return .success(nil) }
            return .failure(UsageError("cannot read the saved token \(path): \(String(cString: strerror(errno)))"))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return .failure(UsageError("\(path) is not a file; remove it to make a new token"))
        }
        if status.st_mode & 0o077 != 0 { _ = fchmod(descriptor, 0o600) }
        var bytes = [UInt8](repeating: 0, count: 1024)
        let count = read(descriptor, &bytes, bytes.count)
        let saved = String(decoding: bytes.prefix(max(0, count)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if saved.isEmpty { return .success(nil) }
        guard isStrong(token: saved) else {
            return .failure(UsageError("the token saved in \(path) is too weak (a token needs \(tokenRule)); remove the file to make a new one"))
        }
        return .success(saved)
    }

    /// The fewest characters a token may have, and the fewest different ones among them:
    /// the token is all that keeps another machine's recordings (or guesses) out.
    static let minimumTokenLength = 16
    static let minimumDistinctTokenCharacters = 8

    static let tokenRule = "\(minimumTokenLength) to 256 printable ASCII characters (no space, quote or backslash), at least \(minimumDistinctTokenCharacters) of them different"

    /// A token given with `--token`, if it is one an app can send and a guesser cannot find.
    static func checked(token: String) -> Result<String, UsageError> {
        isStrong(token: token) ? .success(token) : .failure(UsageError("--token wants \(tokenRule)"))
    }

    /// True for 16 to 256 printable ASCII characters without spaces, quotes or backslashes (a
    /// token is printed inside a Swift string literal), at least 8 of them different.
    static func isStrong(token: String) -> Bool {
        let bytes = Array(token.utf8)
        return (minimumTokenLength...256).contains(bytes.count)
            && bytes.allSatisfy { (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
            && Set(bytes).count >= minimumDistinctTokenCharacters
    }

    /// Waits for the first recording, then follows it in the inspector until the user quits.
    private static func followFirstRecording(of listener: LiveListener, by command: String, streams: inout some TextStreams) -> Int32 {
        var path: String?
        var printed = 0
        while path == nil {
            listener.waitUntil(timeout: 3600) { $0.eventCount > printed }
            let shown = printEvents(of: listener, after: printed, streams: &streams)
            printed = shown.printed
            path = shown.connected
        }
        guard let path else { return 0 }
        guard let opened = CommandSupport.openForInspector(
            path, command: command, hint: "rerun with --no-ui (logs are in \((path as NSString).deletingLastPathComponent))", streams: &streams)
        else { return 2 }
        let timeline = opened.timeline
        var terminal = opened.terminal
        var model = InspectorModel(source: timeline, size: terminal.size)
        model.toggleFollow()
        let status = InspectorSession.run(model: &model, terminal: &terminal)
        printEvents(of: listener, after: printed, streams: &streams)
        return status
    }

    private static func reason(of error: any Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}

/// Set once by the thread running `whileListening`, read by the printing loop.
private final class DoneFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
