import Foundation
import Testing
import Recorder
import RewindTestSupport
@testable import Inspector

/// Text from a recording never reaches a terminal raw: no escape sequence, bell,
/// C1 control or bidi override from an action type, a trace, a file name or a
/// value gets through any command (issue 37).
@Suite struct TerminalEscapingTests {
    /// ESC, BEL, C1 CSI (U+009B), a right-to-left override and a line separator.
    static let hostile = "a\u{1b}]0;owned\u{07}b\u{9b}31mc\u{202e}d\u{2028}e"

    private func run(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        var streams = CapturedStreams()
        let status = RewindCommandLine.run(arguments, streams: &streams)
        return (status, streams.standardOutput, streams.standardError)
    }

    /// No C0 but newline and tab, no DEL, no C1, no bidi control, no line separator.
    private func isClean(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0.needsEscapingForTerminal && $0 != "\n" && $0 != "\t" }
    }

    private func hostileLog(name: String = "app.jsonl") throws -> String {
        try LogFixture.write([
            .init(type: Self.hostile, payload: .string(Self.hostile), state: ["note": .string(Self.hostile)]),
            .init(type: "ok", payload: .null, state: ["note": "fine"]),
        ], name: name)
    }

    @Test func everyListingEscapesWhatTheRecordingHolds() throws {
        let log = try hostileLog()
        for arguments in [["log", log], ["log", log, "--full"], ["tail", log], ["stats", log], ["blame", log, "/note"],
                          ["find", log, "exists /note"], ["export", log], ["ls", (log as NSString).deletingLastPathComponent],
                          ["find", (log as NSString).deletingLastPathComponent, "exists /note"]] {
            let result = run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.error)")
            #expect(isClean(result.output), "\(arguments[0]) printed a raw control character")
            #expect(isClean(result.error), "\(arguments[0]) printed a raw control character on stderr")
        }
        #expect(run(["log", log]).output.contains(#"a\u{1b}]0;owned\u{7}b\u{9b}31mc\u{202e}d\u{2028}e"#), "escaped, not dropped")
    }

    @Test func aFileNameWithControlsIsEscapedInErrorsAndListings() throws {
        let log = try hostileLog(name: "x\u{1b}[2Jy.jsonl")
        let listing = run(["ls", (log as NSString).deletingLastPathComponent])
        #expect(isClean(listing.output))
        #expect(listing.output.contains(#"x\u{1b}[2Jy.jsonl"#))
    }

    @Test func theStandardStreamsEscapeC1AndBidiOnTheirWayToATerminal() throws {
        var primary: Int32 = -1, secondary: Int32 = -1
        try #require(openpty(&primary, &secondary, nil, nil, nil) == 0)
        defer { close(primary) }
        var streams = StandardStreams(outputDescriptor: secondary, errorDescriptor: secondary)
        // JSON as `show` prints it: C1 and bidi are legal raw in a JSON string, and `\u` keeps the value.
        streams.output(#"{"note":"a"# + "\u{9b}" + "b\u{202e}c" + #""}"#)
        streams.error("rewind: bad\u{1b}[31m name")
        close(secondary)
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = read(primary, &bytes, bytes.count)
        let written = String(decoding: bytes.prefix(max(0, count)), as: UTF8.self)
        #expect(written.contains(#"{"note":"a\u009bb\u202ec"}"#), "\(written)")
        #expect(written.contains(#"rewind: bad\u001b[31m name"#))
        #expect(try JSONParser.parse(#"{"note":"a\u009bb\u202ec"}"#)["note"] == .string("a\u{9b}b\u{202e}c"), "the same value in JSON")
    }

    @Test func aFileGetsExactBytes() throws {
        let path = TemporaryDirectory.forThisProcess.subdirectory("exact-\(UUID().uuidString)") + "/out.txt"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        var streams = StandardStreams(outputDescriptor: descriptor)
        streams.output("a\u{9b}b")
        close(descriptor)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "a\u{9b}b\n")
    }
}
