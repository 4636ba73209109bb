import Foundation
import Testing
@testable import Inspector
@testable import Recorder
import SampleDomains

/// `rewind listen` as a user runs it, on an ephemeral loopback port; the app
/// records from another thread while the command runs.
@Suite(.serialized) struct ListenCommandTests {
    @Test func listenPrintsWhatAnAppNeedsThenEachRecordingAndKeepsItsToken() throws {
        let directory = TemporaryDirectory()
        var streams = CapturedStreams()
        let status = ListenCommand.run(["--no-ui", "--port", "0", "-o", directory.path], streams: &streams) { listener in
            guard let recorder = try? ActionRecorder(streamingTo: listener.address.description, token: listener.configuration.token, options: LiveRecordingTests.options) else { return }
            var state = TodoState()
            LiveRecordingTests.record(4, with: recorder, from: &state)
            try? recorder.close()
            listener.waitUntil(timeout: LiveRecordingTests.patience, LiveRecordingTests.finished)
        }
        #expect(status == 0)
        #expect(streams.standardError == "")
        let token = try String(contentsOfFile: directory.path + "/.rewind-listen-token", encoding: .utf8).trimmingCharacters(in: .newlines)
        #expect(token.count == 32)
        let permissions = try FileManager.default.attributesOfItem(atPath: directory.path + "/.rewind-listen-token")[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let log = try #require(directory.logs.first)
        let lines = streams.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(lines[0].hasPrefix("rewind listen: waiting on 127.0.0.1:") && lines[0].hasSuffix(", writing logs to \(directory.path)/"))
        let port = lines[0].dropFirst("rewind listen: waiting on 127.0.0.1:".count).prefix { $0.isNumber }
        #expect(Array(lines[1...3]) == [
            "In the app:",
            "    let recorder = try ActionRecorder(streamingTo: \"127.0.0.1:\(port)\", token: \"\(token)\")",
            "    let reducer = recorder.recording(appReducer)",
        ])
        #expect(lines[4].hasPrefix("recording 127.0.0.1:") && lines[4].hasSuffix(" → \(log)"))
        #expect(lines[5].hasPrefix("finished \(log) (127.0.0.1:"))
        #expect(try LogReader(path: log).entryCount == 4)

        // A restart in the same directory keeps the token, so running apps reconnect.
        var again = CapturedStreams()
        #expect(ListenCommand.run(["--no-ui", "--port", "0", "-o", directory.path], streams: &again) { _ in } == 0)
        #expect(again.standardOutput.contains("token: \"\(token)\""))
    }

    @Test(arguments: [
        (["--port", "seven"], "rewind listen: --port wants a number from 0 to 65535, not 'seven'"),
        (["--port", "70000"], "rewind listen: --port wants a number from 0 to 65535, not '70000'"),
        (["--bind", "no such host.invalid", "--port", "0"], "rewind listen: cannot listen on no such host.invalid:0: "),
        (["-o", "/proc/rewind-cannot-be-here"], "rewind listen: cannot create the directory /proc/rewind-cannot-be-here: "),  // portability: a directory nobody can create, on Darwin too
        (["--token", "", "--port", "0"], "rewind listen: --token wants 16 to 256 printable ASCII characters (no space, quote or backslash), at least 8 of them different"),
    ])
    func badArgumentsGiveOneLineAndStatus2(arguments: [String], message: String) {
        let directory = TemporaryDirectory()
        var streams = CapturedStreams()
        let withDirectory = arguments.contains("-o") ? arguments : ["-o", directory.path] + arguments
        let status = RewindCommandLine.run(["listen", "--no-ui"] + withDirectory, streams: &streams)
        #expect(status == 2)
        #expect(streams.standardOutput == "")
        #expect(streams.standardError.hasPrefix(message))
        #expect(streams.standardError.split(separator: "\n").count == 1)
    }

    @Test func aBadTokenCreatesNoDirectory() {
        let parent = TemporaryDirectory()
        let directory = parent.file("live")
        var streams = CapturedStreams()
        #expect(RewindCommandLine.run(["listen", "--no-ui", "--token", "", "-o", directory], streams: &streams) == 2)
        #expect(streams.standardError == "rewind listen: --token wants 16 to 256 printable ASCII characters (no space, quote or backslash), at least 8 of them different\n")
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    @Test(arguments: [
        (["--port"], "rewind listen: option '--port' needs a value"),
        (["extra"], "rewind listen: unexpected argument 'extra'"),
    ])
    func callingItWrongGivesTheUsageErrorAndStatus2(arguments: [String], message: String) {
        var streams = CapturedStreams()
        #expect(RewindCommandLine.run(["listen", "--no-ui"] + arguments, streams: &streams) == 2)
        #expect(streams.standardOutput == "")
        #expect(streams.standardError == message + """

            usage: rewind listen [--port N] [--bind ADDR] [-o DIR] [--token T] [--no-ui]
            See 'rewind listen --help'.

            """)
    }
}
