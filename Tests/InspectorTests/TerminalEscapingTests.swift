import Foundation
import Testing
import Recorder
import RewindTestSupport
@testable import Inspector

/// Text from a recording never reaches a terminal raw: no escape sequence, bell,
/// C1 control or bidi override from an action type, a trace, a file name, a process
/// name or a value gets through any command, nor through an error (issue 37).
@Suite struct TerminalEscapingTests {
    /// ESC (an OSC title), BEL, C1 CSI (U+009B), a right-to-left override, a line separator,
    /// a carriage return and a newline (which would forge a line of a listing).
    static let hostile = "a\u{1b}]0;owned\u{07}b\u{9b}31mc\u{202e}d\u{2028}e\rf\ng"
    /// `hostile` as every command shows it: JSON's escapes, which in a JSON string are the same value.
    static let shown = #"a\u001b]0;owned\u0007b\u009b31mc\u202ed\u2028e\u000df\u000ag"#
    /// The same inside JSON, where the writer escapes C0 in its own way first.
    static let shownInJSON = #"a\u001b]0;owned\u0007b\u009b31mc\u202ed\u2028e\rf\ng"#

    private func run(_ arguments: [String], terminal: Bool = false) -> (status: Int32, output: String, error: String) {
        RewindCommandLine.captured(arguments, terminal: terminal)
    }

    /// No C0 but newline and tab, no DEL, no C1, no bidi control, no line separator.
    private func isClean(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0.needsEscapingForTerminal && $0 != "\n" && $0 != "\t" }
    }

    /// A log of today's format whose every text holds `hostile`: the process name, the test
    /// name, an action type, a payload, a state key and value, a trace's file and stack.
    private func hostileLog(name: String = "app.jsonl") throws -> String {
        let text = JSONWriter.compactString(.string(Self.hostile))
        let trace = #","trace":{"file":\#(text),"line":7,"stack":[\#(text)]}"#
        return try HandMadeLog.write([
            HandMadeLog.header(extra: #","metadata":{"test":\#(text)},"process":\#(text)"#),
            HandMadeLog.keyframe(seq: "0", type: String(text.dropFirst().dropLast()), payload: text,
                                 state: #"{"note":\#(text),\#(text):1}"#, extra: trace),
            HandMadeLog.patch(seq: "1", patch: #"[{"op":"replace","path":"/note","value":"fine"}]"#),
        ], name: name)
    }

    static func everyCommand(on log: String) -> [[String]] {
        let directory = (log as NSString).deletingLastPathComponent
        return [
            ["open", log], ["log", log], ["log", log, "--full"], ["log", log, "--trace"], ["tail", log], ["tail", log, "--format", "json"],
            ["stats", log], ["stats", log, "--format", "json"], ["blame", log, "/note"], ["show", log], ["show", log, "--at", "1"],
            ["find", log, "exists /note"], ["find", directory, "exists /note"], ["bisect", log, "/note == \"fine\""],
            ["export", log], ["export", log, "--format", "patch"], ["export", log, "--format", "unified"],
            ["export", log, "--format", "redux-devtools"], ["ls", directory], ["ls", directory, "--format", "json"], ["ls", directory, "--verify"],
        ]
    }

    @Test func everyCommandEscapesWhatTheRecordingHolds() throws {
        let log = try hostileLog()
        for arguments in Self.everyCommand(on: log) {
            let result = run(arguments)
            #expect(result.status <= 1, "\(arguments): \(result.error)")
            #expect(isClean(result.output), "\(arguments) printed a raw control character: \(result.output)")
            #expect(isClean(result.error), "\(arguments) printed a raw control character on stderr: \(result.error)")
            #expect(!(result.output + result.error).contains("f\ng"), "\(arguments) let a recording start a line of its own: \(result.output)")
        }
        // Escaped, not dropped: one line stays one line, and the text can be read back.
        let listing = run(["log", log, "--full"]).output
        #expect(listing.hasPrefix("  1   +0.000s  " + Self.shown), "\(listing)")
        #expect(listing.split(separator: "\n").count == 2, "a newline or carriage return in a recording cannot make a line of its own")
        #expect(run(["log", log, "--trace"]).output.contains("at \(Self.shown):7\n"))
        #expect(run(["show", log, "--at", "1"]).output.contains(#""note": "\#(Self.shownInJSON)""#))
        #expect(run(["ls", (log as NSString).deletingLastPathComponent]).output.contains("  " + Self.shown + "  app.jsonl"))
        #expect(run(["export", log]).output.contains("# Rewind report: app.jsonl"))
    }

    @Test func printedJSONKeepsItsValues() throws {
        let log = try hostileLog()
        for arguments in [["show", log, "--at", "1"], ["export", log, "--format", "redux-devtools"], ["stats", log, "--format", "json"]] {
            let printed = run(arguments).output
            #expect(isClean(printed))
            #expect(try JSONParser.parse(printed) == JSONParser.parse(JSONWriter.prettyString(JSONParser.parse(printed))))
        }
        let state = try JSONParser.parse(run(["show", log, "--at", "1"]).output)
        #expect(state["note"] == .string(Self.hostile), "the escapes are JSON's: the same string")
        let lines = run(["tail", log, "--format", "json"]).output.split(separator: "\n")
        #expect(try JSONParser.parse(String(lines[0]))["action"]?["type"] == .string(Self.hostile))
    }

    @Test func aLogSliceIsExactInAFileAndAPipeAndEscapedOnATerminal() throws {
        let log = try hostileLog()
        let piped = run(["export", log, "--format", "jsonl"])
        let slice = (log as NSString).deletingLastPathComponent + "/slice.jsonl"
        #expect(run(["export", log, "--format", "jsonl", "-o", slice]).status == 0)
        // (The captured stream adds a newline to whatever it is given; standard output adds one only when missing.)
        #expect(piped.output == String(decoding: fileBytes(slice), as: UTF8.self) + "\n", "byte for byte: its checksums cover the bytes")
        #expect(try LogReader(path: slice).entry(at: 0).action.name == Self.hostile)
        let onTerminal = run(["export", log, "--format", "jsonl"], terminal: true)
        #expect(isClean(onTerminal.output))
    }

    @Test func aFileNameWithControlsIsEscapedInErrorsAndListings() throws {
        let log = try hostileLog(name: "x\u{1b}[2Jy\u{9b}z.jsonl")
        let listing = run(["ls", (log as NSString).deletingLastPathComponent])
        #expect(isClean(listing.output))
        #expect(listing.output.contains(#"x\u001b[2Jy\u009bz.jsonl"#))
        let missing = run(["show", log + "\u{1b}[31m-missing"])
        #expect(missing.status == 2)
        #expect(isClean(missing.error))
        #expect(missing.error.contains(#".jsonl\u001b[31m-missing"#), "\(missing.error)")
        let badQuery = run(["find", log, "/a == \u{9b}"])
        #expect(badQuery.status == 2 && isClean(badQuery.error), "\(badQuery.error)")
    }

    @Test func theStandardStreamsEscapeWhatTheyWrite() throws {
        var primary: Int32 = -1, secondary: Int32 = -1
        try #require(openpty(&primary, &secondary, nil, nil, nil) == 0)
        defer { close(primary) }
        var streams = StandardStreams(outputDescriptor: secondary, errorDescriptor: secondary)
        #expect(streams.outputIsTerminal)
        // JSON as `show` prints it: C1 and bidi are legal raw in a JSON string, and `\u` keeps the value.
        streams.output(#"{"note":"a"# + "\u{9b}" + "b\u{202e}c" + #""}"#)
        streams.error("rewind: bad\u{1b}[31m name")
        close(secondary)
        // Each write may come out of the terminal on its own: read to the end (EIO once the other side is closed).
        var written = ""
        var bytes = [UInt8](repeating: 0, count: 4096)
        while case let count = read(primary, &bytes, bytes.count), count > 0 { written += String(decoding: bytes.prefix(count), as: UTF8.self) }
        #expect(written.contains(#"{"note":"a\u009bb\u202ec"}"#), "\(written)")
        #expect(written.contains(#"rewind: bad\u001b[31m name"#))
    }

    @Test func tailsOwnColoursStayAndTheRecordingsAreEscaped() throws {
        let log = try hostileLog()
        var streams = CapturedStreams()
        let status = TailCommand.run([log], streams: &streams, environment: [:], stdoutIsTerminal: true, waitForMore: { false })
        #expect(status == 0)
        #expect(streams.standardOutput.hasPrefix("\u{1b}[1mreceived action:\u{1b}[0m\n  " + Self.shown))
        let withoutColours = streams.standardOutput.replacingOccurrences(of: #"\u{1b}\[[0-9]+m"#, with: "", options: .regularExpression)
        #expect(isClean(withoutColours))
    }

    @Test func aFileForAnotherToolKeepsItsExactBytes() throws {
        let path = TemporaryDirectory.forThisProcess.subdirectory("exact-\(UUID().uuidString)") + "/out.txt"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        var streams = StandardStreams(outputDescriptor: descriptor)
        streams.outputData("a\u{9b}b")
        close(descriptor)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "a\u{9b}b\n")
    }

    @Test func oneFunctionEscapesEveryControlAndReorderingCharacter() {
        #expect("plain text, café, 日本語, emoji 👍".escapingControlCharacters == "plain text, café, 日本語, emoji 👍")
        #expect("a\nb\tc\u{7f}d\u{85}e\u{61c}f\u{200e}g\u{2066}h\u{2069}".escapingControlCharacters
                == #"a\u000ab\u0009c\u007fd\u0085e\u061cf\u200eg\u2066h\u2069"#)
        #expect("a\nb\tc\u{0}".escapingControlCharactersKeepingLines == "a\nb\tc\\u0000")
    }
}
