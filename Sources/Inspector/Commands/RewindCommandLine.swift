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
///
/// This is where text meets the terminal, so what commands print passes one escaping
/// function here (``Swift/String/escapingControlCharactersKeepingLines``): whatever a
/// command put in a line from a recording, a peer or a file name, no control character,
/// C1 or bidi control reaches the terminal raw. Commands still escape each field of a
/// one-line listing themselves (``Swift/String/escapingControlCharacters``), so a
/// newline in a value cannot forge a line.
protocol TextStreams {
    /// Writes `text` and a newline to standard output, exactly (commands call ``output(_:)``).
    mutating func writeOutput(_ text: String)
    /// Writes bytes already made (an export streamed a megabyte at a time) to standard output,
    /// exactly as they are (commands call ``output(bytes:)``).
    mutating func writeOutput(bytes: UnsafeBufferPointer<UInt8>)
    /// Writes `text` and a newline to standard error, exactly (commands call ``error(_:)``).
    mutating func writeError(_ text: String)
    /// True when stdin and stdout are a terminal (the inspector can run full-screen).
    var isTerminal: Bool { get }
    /// True when standard output is a terminal (whatever stdin is).
    var outputIsTerminal: Bool { get }
    /// The width of the terminal standard output goes to; nil when it is not a terminal.
    var outputColumns: Int? { get }
}

extension TextStreams {
    var isTerminal: Bool { false }
    var outputIsTerminal: Bool { false }
    var outputColumns: Int? { nil }

    /// Prints `text` (and a newline) with control characters, C1 and bidi controls
    /// escaped, newlines and tabs kept. In JSON the escapes stand for the same values,
    /// so printed JSON stays exact.
    mutating func output(_ text: String) {
        writeOutput(text.escapingControlCharactersKeepingLines)
    }

    /// Prints a message (and a newline) on standard error, escaped as ``output(_:)`` escapes.
    mutating func error(_ text: String) {
        writeError(text.escapingControlCharactersKeepingLines)
    }

    /// Prints text holding the command's own terminal styles (`tail`'s colours): the
    /// command escaped each piece from outside when it put it in.
    mutating func outputStyled(_ text: String) {
        writeOutput(text)
    }

    /// Prints a file for other tools (a log slice, generated source) exactly, or escaped
    /// as ``output(_:)`` escapes when standard output is a terminal: there it is read.
    mutating func outputData(_ text: String) {
        writeOutput(outputIsTerminal ? text.escapingControlCharactersKeepingLines : text)
    }

    /// Prints rows for other tools already made as bytes (`export --format states`) as they
    /// are, or escaped as ``output(_:)`` escapes when standard output is a terminal.
    mutating func output(bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty else { return }
        guard outputIsTerminal else { return writeOutput(bytes: bytes) }
        let shown = Array(String(decoding: bytes, as: UTF8.self).escapingControlCharactersKeepingLines.utf8)
        shown.withUnsafeBufferPointer { writeOutput(bytes: $0) }
    }

    /// Test doubles take bytes as text (with the newline they add to each write).
    mutating func writeOutput(bytes: UnsafeBufferPointer<UInt8>) {
        writeOutput(String(decoding: bytes, as: UTF8.self))
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

    var outputIsTerminal: Bool { isatty(outputDescriptor) == 1 }

    mutating func writeOutput(_ text: String) {
        guard outputFailure == nil else { return }
        outputFailure = OutputFile.writeAll(Array((text.hasSuffix("\n") ? text : text + "\n").utf8), to: outputDescriptor)
    }

    mutating func writeOutput(bytes: UnsafeBufferPointer<UInt8>) {
        guard outputFailure == nil, !bytes.isEmpty else { return }
        outputFailure = WriteAll.write(UnsafeRawBufferPointer(bytes), to: outputDescriptor).failure
    }

    func writeError(_ text: String) {
        // Nowhere left to report a failing stderr.
        _ = OutputFile.writeAll(Array((text.hasSuffix("\n") ? text : text + "\n").utf8), to: errorDescriptor)
    }

    /// The command's status, or 2 (with one line on stderr) when its output could not be
    /// written; a reader that went away (EPIPE) is not an error worth a line.
    func finish(status: Int32) -> Int32 {
        guard let outputFailure, outputFailure != EPIPE else { return status }
        writeError("rewind: cannot write to standard output: \(String(cString: strerror(outputFailure)))")
        return 2
    }
}
