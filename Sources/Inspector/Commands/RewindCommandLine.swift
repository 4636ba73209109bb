import Foundation

/// The `rewind` command line: `rewind <log>`, `rewind diff A B`, `rewind show …`.
///
/// ```swift
/// exit(RewindCommandLine.run(Array(CommandLine.arguments.dropFirst())))
/// ```
public enum RewindCommandLine {
    /// Runs one command and returns the process exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        var output = StandardStreams()
        return run(arguments, streams: &output)
    }

    /// The same, writing to the given streams (tests capture them).
    static func run(_ arguments: [String], streams: inout some TextStreams) -> Int32 {
        guard let first = arguments.first else {
            streams.error(usage)
            return 2
        }
        switch first {
        case "-h", "--help", "help":
            streams.output(usage)
            return 0
        default:
            streams.error("rewind: unknown command '\(first)'. Run 'rewind --help' for usage.")
            return 2
        }
    }

    static let usage = """
        usage: rewind <log>                 open a log in the inspector
               rewind diff A.json B.json [--format tree|patch|unified]
        """
}

/// Where commands write; tests substitute an in-memory implementation.
protocol TextStreams {
    mutating func output(_ text: String)
    mutating func error(_ text: String)
}

struct StandardStreams: TextStreams {
    func output(_ text: String) {
        FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }
    func error(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }
}
