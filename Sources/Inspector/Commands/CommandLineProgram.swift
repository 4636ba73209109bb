import Foundation

/// The executable running the command line: `rewind`, or a user's debug
/// executable (``Inspector``), which has its own name, links a reducer and
/// offers the replay-only commands. It dispatches to the commands of
/// ``CommandTable`` and answers `--help`, `help CMD` and `--version` itself.
struct CommandLineProgram {
    /// `rewind`, or the debug executable's file name: usage and messages say it.
    var name: String
    var commands: [CommandSpec]
    /// The linked reducer's replay engine (a debug executable only).
    var replay: ReplayLink?
    /// The Swift invariants `bisect` checks (a debug executable only).
    var invariants: [AnyStateInvariant] = []

    /// The `rewind` executable.
    static var rewind: CommandLineProgram { CommandLineProgram(name: "rewind", commands: CommandTable.commands) }

    /// A debug executable called `name`, with the reducer linked.
    static func debug(name: String, replay: @escaping ReplayLink, invariants: [AnyStateInvariant]) -> CommandLineProgram {
        CommandLineProgram(name: name, commands: CommandTable.debugCommands(invariants: !invariants.isEmpty),
                           replay: replay, invariants: invariants)
    }

    func command(named name: String) -> CommandSpec? {
        commands.first { $0.name == name }
    }

    /// Runs one command line (without the program name) and returns the exit status.
    func run(_ arguments: [String], streams: inout some TextStreams) -> Int32 {
        guard let first = arguments.first else {
            streams.error(help)
            return 2
        }
        switch first {
        case "-h", "--help":
            streams.output(help)
            return 0
        case "--version":
            streams.output(versionLine)
            return 0
        case "help":
            guard arguments.count > 1 else {
                streams.output(help)
                return 0
            }
            guard let command = command(named: arguments[1]) else { return unknownCommand(arguments[1], streams: &streams) }
            streams.output(help(of: command))
            return 0
        default:
            break
        }
        if let command = command(named: first) {
            return run(command, Array(arguments.dropFirst()), streams: &streams)
        }
        // `rewind -- -odd.jsonl`: after `--` comes a log or a directory, whatever its name
        // (the chosen command's parser reads the `--` too).
        let endsOptions = first == "--"
        guard let target = endsOptions ? arguments.dropFirst().first : first else {
            streams.error(usageError("'--' wants a log or a directory after it", command: nil))
            return 2
        }
        // `rewind DIR`: the recordings under it (the list view in a terminal).
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory), isDirectory.boolValue, let list = command(named: "ls") {
            return run(list, arguments, chosenByPath: true, streams: &streams)
        }
        // `rewind app.jsonl`: anything that looks like a path is a log to open.
        if endsOptions || Self.looksLikePath(target), let open = command(named: "open") {
            return run(open, arguments, chosenByPath: true, streams: &streams)
        }
        return unknownCommand(first, streams: &streams)
    }

    /// Parses `arguments` for `command` and runs it.
    func run(_ command: CommandSpec, _ arguments: [String], chosenByPath: Bool = false, streams: inout some TextStreams) -> Int32 {
        run(command, arguments, chosenByPath: chosenByPath, streams: &streams) { invocation, streams in
            command.runner.run(invocation, streams: &streams)
        }
    }

    /// Parses `arguments` for `command`: prints its help (status 0) or the usage
    /// error (status 2), or hands the parsed invocation to `body` (tests use it to
    /// run a command with what they inject, such as a listener callback).
    func run<Streams: TextStreams>(_ command: CommandSpec, _ arguments: [String], chosenByPath: Bool = false, streams: inout Streams,
                                   body: (Invocation, inout Streams) -> Int32) -> Int32 {
        switch CommandParser.parse(arguments, for: command) {
        case .help:
            streams.output(help(of: command))
            return 0
        case .usageError(let message):
            streams.error(usageError(message, command: command))
            return 2
        case .parsed(let parsed):
            return body(Invocation(program: self, command: command, parsed: parsed, chosenByPath: chosenByPath), &streams)
        }
    }

    private func unknownCommand(_ name: String, streams: inout some TextStreams) -> Int32 {
        let what = CommandParser.looksLikeOption(name) ? "unknown option" : "unknown command"
        streams.error(usageError("\(what) '\(name)'", command: nil))
        return 2
    }

    /// A first argument that is an existing file, or contains `/` or `.`, names a log.
    static func looksLikePath(_ argument: String) -> Bool {
        argument.contains("/") || argument.contains(".") || FileManager.default.fileExists(atPath: argument)
    }
}
