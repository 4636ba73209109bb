import Testing
@testable import Inspector

struct CapturedStreams: TextStreams {
    var standardOutput = ""
    var standardError = ""
    mutating func output(_ text: String) { standardOutput += text + "\n" }
    mutating func error(_ text: String) { standardError += text + "\n" }
}

@Suite struct CommandLineTests {
    @Test func unknownCommandIsAOneLineErrorWithStatus2() {
        var streams = CapturedStreams()
        let status = RewindCommandLine.run(["frobnicate"], streams: &streams)
        #expect(status == 2)
        #expect(streams.standardError == "rewind: unknown command 'frobnicate'. Run 'rewind --help' for usage.\n")
    }
}
