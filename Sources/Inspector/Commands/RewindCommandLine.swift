import Foundation

/// The `rewind` command line: `rewind <log>`, `rewind diff A B`, `rewind show …`.
///
/// ```swift
/// exit(RewindCommandLine.run(Array(CommandLine.arguments.dropFirst())))
/// ```
public enum RewindCommandLine {
    /// Runs one command and returns the process exit status.
    ///
    /// A standard output that fails (a full disk) ends the command with one line on
    /// stderr and status 2; a closed pipe (`rewind log app.jsonl | head`) ends it quietly.
    public static func run(_ arguments: [String]) -> Int32 {
        var output = StandardStreams()
        return run(arguments, standardStreams: &output)
    }

    /// ``run(_:)`` on given descriptors (tests pass a full device or a closed pipe).
    static func run(_ arguments: [String], standardStreams streams: inout StandardStreams) -> Int32 {
        let status = run(arguments, streams: &streams)
        return streams.finish(status: status)
    }

    /// The same, writing to the given streams (tests capture them).
    /// With `replay`, the inspector offers replay keys (a debug executable, see ``Inspector``).
    static func run(_ arguments: [String], streams: inout some TextStreams, replay: ReplayLink? = nil) -> Int32 {
        guard let first = arguments.first else {
            streams.error(usage)
            return 2
        }
        switch first {
        case "-h", "--help", "help":
            streams.output(usage)
            return 0
        case "open":
            return OpenCommand.run(Array(arguments.dropFirst()), streams: &streams, replay: replay)
        case "show":
            return ShowCommand.run(Array(arguments.dropFirst()), streams: &streams)
        case "log":
            return LogCommand.run(Array(arguments.dropFirst()), streams: &streams)
        case "stats":
            return StatsCommand.run(Array(arguments.dropFirst()), streams: &streams)
        case "blame":
            return BlameCommand.run(Array(arguments.dropFirst()), streams: &streams)
        case "diff":
            return DiffCommand.run(Array(arguments.dropFirst()), streams: &streams)
        case "export":
            return ExportCommand.run(Array(arguments.dropFirst()), streams: &streams)
        case "import":
            return ImportCommand.run(Array(arguments.dropFirst()), streams: &streams)
        // Asking a recording questions (docs/QUERIES.md).
        case "find":
            return FindCommand.run(Array(arguments.dropFirst()), streams: &streams)
        case "bisect":
            return BisectCommand.run(Array(arguments.dropFirst()), streams: &streams)
        case "testgen":
            return TestgenCommand.run(Array(arguments.dropFirst()), streams: &streams)
        case "tail":
            return TailCommand.run(Array(arguments.dropFirst()), streams: &streams)
        case "listen":
            return ListenCommand.run(Array(arguments.dropFirst()), streams: &streams)
        case "ls":
            return ListCommand.run(Array(arguments.dropFirst()), streams: &streams)
        default:
            // `rewind DIR`: the recordings under it (the list view in a terminal).
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: first, isDirectory: &isDirectory), isDirectory.boolValue {
                return ListCommand.run(arguments, streams: &streams, interactive: true)
            }
            // `rewind app.jsonl`: anything that looks like a path is a log to open.
            if looksLikePath(first) {
                return OpenCommand.run(arguments, streams: &streams, replay: replay)
            }
            streams.error("rewind: unknown command '\(first)'. Run 'rewind --help' for usage.")
            return 2
        }
    }

    static let usage = """
        usage: rewind <log>                 open a log in the inspector (prints the entry list when not a terminal)
               rewind <directory>           the recordings under it: a list view, Enter opens one (text when not a terminal)
               rewind ls <directory> [--format text|json] [--verify]
                                            the recordings under it, failed tests first, then newest first
               rewind open <log>            the same
               rewind show <log> [--at N] [--path /json/pointer]
                                            the state after entry N (default: the last) as JSON
               rewind log <log> [--trace]   one line per entry (--trace: where each action was dispatched)
               rewind stats <log>           entries, keyframes, size, damage, actions by type
               rewind blame <log> <pointer> the entries that changed a path, old → new
               rewind export <log> [--from A] [--to B] [--format markdown|patch|unified|jsonl|redux-devtools]
                             [-o FILE] [--per-entry] [--path /json/pointer] [--redact RULE]...
                                            a bug report, patch, diff, log slice or Redux DevTools file
               rewind import <export.json> -o <out.jsonl>
                                            a Redux DevTools export as a Rewind log
               rewind listen [--port N] [--bind ADDR] [-o DIR] [--token T] [--no-ui]
                                            record apps live over TCP (Recorder(streamingTo:token:)), follow the first
               rewind diff A.json B.json [--format tree|patch|unified]
                                            differences between two JSON documents (exit 0 same, 1 different)
               rewind find <log|dir> '<query>' [--first] [--changes] [--count]
                                            the entries whose state satisfies a query (docs/QUERIES.md)
               rewind bisect <log> '<invariant>'
                                            the first entry where an invariant stops holding (exit 1), with its diff
               rewind testgen <log> [--from A] [--to B] [--xctest] [-o File.swift] [--reducer EXPR] [--module NAME]
                                            a regression test replaying the recording, with its fixture
               rewind tail <log> [-n N|all] [-f] [--format text|json]
                                            each entry as it is recorded: the action and the state diff
        """

    /// A first argument that is an existing file, or contains `/` or `.`, names a log.
    static func looksLikePath(_ argument: String) -> Bool {
        argument.contains("/") || argument.contains(".") || FileManager.default.fileExists(atPath: argument)
    }
}

/// Where commands write; tests substitute an in-memory implementation.
protocol TextStreams {
    mutating func output(_ text: String)
    mutating func error(_ text: String)
    /// True when stdin and stdout are a terminal (the inspector can run full-screen).
    var isTerminal: Bool { get }
}

extension TextStreams {
    var isTerminal: Bool { false }
}

/// Standard output and error through `write(2)`: `FileHandle` traps when a write fails.
struct StandardStreams: TextStreams {
    var outputDescriptor = STDOUT_FILENO
    var errorDescriptor = STDERR_FILENO
    /// The `errno` of the first failed write to the output; nothing more is written after it.
    private(set) var outputFailure: Int32?

    var isTerminal: Bool { isatty(STDIN_FILENO) == 1 && isatty(outputDescriptor) == 1 }

    mutating func output(_ text: String) {
        guard outputFailure == nil else { return }
        outputFailure = OutputFile.writeAll(Array((text.hasSuffix("\n") ? text : text + "\n").utf8), to: outputDescriptor)
    }

    func error(_ text: String) {
        // Nowhere left to report a failing stderr.
        _ = OutputFile.writeAll(Array((text.hasSuffix("\n") ? text : text + "\n").utf8), to: errorDescriptor)
    }

    /// The command's status, or 2 (with one line on stderr) when its output could not be
    /// written; a reader that went away (EPIPE) is not an error worth a line.
    func finish(status: Int32) -> Int32 {
        guard let outputFailure, outputFailure != EPIPE else { return status }
        error("rewind: cannot write to standard output: \(String(cString: strerror(outputFailure)))")
        return 2
    }
}
