import Foundation

/// `rewind <log>` and `rewind open <log>`: the full-screen inspector when
/// stdin and stdout are a terminal, the entry list otherwise (pipes, CI).
enum OpenCommand: CommandRunner {
    static func run(_ invocation: Invocation, streams: inout some TextStreams) -> Int32 {
        let path = invocation.positional[0]
        let replay = invocation.program.replay
        guard streams.isTerminal else {
            guard let timeline = CommandSupport.openLog(path, program: invocation.program.name, streams: &streams) else { return 2 }
            LogCommand.printEntries(of: timeline, program: invocation.program.name, streams: &streams)
            return 0
        }
        let name = invocation.program.name
        guard let opened = CommandSupport.openForInspector(
            path, command: name, hint: "'\(name) log \(path)' prints the entries as text", streams: &streams)
        else { return 2 }
        let timeline = opened.timeline
        var terminal = opened.terminal
        // Linked with a reducer: the timeline shows skips and branches, and the replay keys work.
        let source: any TimelineSource = replay.map { ReplayTimeline(base: timeline, engine: $0(timeline.reader)) } ?? timeline
        return InspectorSession.run(source: source, terminal: &terminal, hideListLog: HiddenActionTypes.key(forLogAt: path))
    }
}
