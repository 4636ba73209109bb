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
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
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
        streams.output(instructions(address: listener.address, token: token, directory: directory, by: invocation.displayName))

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
            listener.waitUntil(timeout: 0.5) { $0.events.count > printed }
            let events = listener.current.events
            for event in events[printed...] { streams.output(event.description) }
            printed = events.count
            if finished.isSet { break }
        }
        done.wait()
        return 0
    }

    /// What the user sees first: where logs go, and the two lines an app needs.
    /// `command` is how messages start: `rewind listen`, or a debug executable's name.
    static func instructions(address: LiveAddress, token: String, directory: String, by command: String = "rewind listen") -> String {
        var lines = ["\(command): waiting on \(address), writing logs to \(directory)/"]
        if address.host == "0.0.0.0" || address.host == "::" {
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
        if let saved = try? String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), !saved.isEmpty {
            return .success(saved)
        }
        let token = LiveHandshake.randomHex()
        guard FileManager.default.createFile(atPath: path, contents: Data((token + "\n").utf8), attributes: [.posixPermissions: 0o600]) else {
            return .failure(UsageError("cannot save the token in \(path): \(String(cString: strerror(errno)))"))
        }
        return .success(token)
    }

    /// A token given with `--token`, if it is one an app can send.
    static func checked(token: String) -> Result<String, UsageError> {
        guard !token.isEmpty, token.utf8.count <= 256 else { return .failure(UsageError("--token wants 1 to 256 characters")) }
        return .success(token)
    }

    /// Waits for the first recording, then follows it in the inspector until the user quits.
    private static func followFirstRecording(of listener: LiveListener, by command: String, streams: inout some TextStreams) -> Int32 {
        var path: String?
        var printed = 0
        while path == nil {
            listener.waitUntil(timeout: 3600) { $0.events.count > printed }
            let events = listener.current.events
            for event in events[printed...] {
                streams.output(event.description)
                if case .connected(_, let connected, _) = event, path == nil { path = connected }
            }
            printed = events.count
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
        for event in listener.current.events[printed...] { streams.output(event.description) }
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
