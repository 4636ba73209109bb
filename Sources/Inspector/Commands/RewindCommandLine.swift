import Foundation
import Recorder

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

    /// The same, writing to the given streams (tests capture them). The commands,
    /// their options and help are declared in ``CommandTable``.
    static func run(_ arguments: [String], streams: inout some TextStreams) -> Int32 {
        CommandLineProgram.rewind.run(arguments, streams: &streams)
    }
}

/// Where commands write; tests substitute an in-memory implementation.
protocol TextStreams {
    mutating func output(_ text: String)
    /// Bytes already made (an export streamed a megabyte at a time): standard output writes them as they are.
    mutating func output(bytes: UnsafeBufferPointer<UInt8>)
    mutating func error(_ text: String)
    /// True when stdin and stdout are a terminal (the inspector can run full-screen).
    var isTerminal: Bool { get }
    /// The width of the terminal standard output goes to; nil when it is not a terminal.
    var outputColumns: Int? { get }
}

extension TextStreams {
    var isTerminal: Bool { false }
    var outputColumns: Int? { nil }

    /// Output that is bytes already (an export streamed a megabyte at a time), written as it is.
    mutating func output(bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty else { return }
        output(String(decoding: bytes, as: UTF8.self))
    }

    /// How wide a line of listing (`log`, `tail`, `find`, `ls`) may be: the terminal's
    /// width, or 120 columns when the output is a file or a pipe. Action summaries
    /// are cut to it with `…`; `--full` (nil) keeps everything.
    func listingWidth(full: Bool) -> Int? {
        full ? nil : max(40, outputColumns ?? 120)
    }
}

/// Standard output and error through `write(2)`: `FileHandle` traps when a write fails.
struct StandardStreams: TextStreams {
    var outputDescriptor = STDOUT_FILENO
    var errorDescriptor = STDERR_FILENO
    /// The `errno` of the first failed write to the output; nothing more is written after it.
    private(set) var outputFailure: Int32?

    var isTerminal: Bool { isatty(STDIN_FILENO) == 1 && isatty(outputDescriptor) == 1 }

    var outputColumns: Int? {
        guard isatty(outputDescriptor) == 1 else { return nil }
        var size = winsize()
        guard ioctl(outputDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else {
            return ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init)
        }
        return Int(size.ws_col)
    }

    mutating func output(_ text: String) {
        guard outputFailure == nil else { return }
        outputFailure = OutputFile.writeAll(Array((text.hasSuffix("\n") ? text : text + "\n").utf8), to: outputDescriptor)
    }

    mutating func output(bytes: UnsafeBufferPointer<UInt8>) {
        guard outputFailure == nil, !bytes.isEmpty else { return }
        outputFailure = WriteAll.write(UnsafeRawBufferPointer(bytes), to: outputDescriptor).failure
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
