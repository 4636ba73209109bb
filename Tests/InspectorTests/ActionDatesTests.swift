import Foundation
import Testing
import Recorder
@testable import Inspector

/// A clock whose actions carry `Date`s, recorded by today's recorder.
private struct Clock: Codable {
    enum Phase: Codable { case idle, started(at: Date) }
    var now = Date(timeIntervalSinceReferenceDate: 0)
    var ticks = 0
    var phase = Phase.started(at: Date(timeIntervalSinceReferenceDate: 0))
}
private struct Meeting: Codable { var title: String; var starts: Date }
private enum ClockAction: Codable {
    case tick(Date)
    case schedule(Meeting)
    case reset
}

/// Dates in actions read as dates everywhere an action is summarised (the recorder
/// notes where a payload holds them, `payloadDates`), as the state pane shows the state's.
@Suite struct ActionDatesTests {
    static func clockLog() throws -> String {
        let path = TemporaryDirectory.forThisProcess.subdirectory("dates-\(UUID().uuidString)") + "/clock.jsonl"
        let recorder = try ActionRecorder(file: path)
        let reducer = recorder.recording { (state: inout Clock, action: ClockAction) in
            switch action {
            case .tick(let date): state.now = date; state.ticks += 1
            case .schedule(let meeting): state.now = meeting.starts
            case .reset: state = Clock()
            }
        }
        var state = Clock()
        reducer(&state, .tick(Date(timeIntervalSinceReferenceDate: 788_950_801)))
        reducer(&state, .schedule(Meeting(title: "standup", starts: Date(timeIntervalSinceReferenceDate: 788_954_400.5))))
        reducer(&state, .reset)
        try recorder.close()
        return path
    }

    private func run(_ arguments: String...) -> String {
        var streams = CapturedStreams()
        _ = RewindCommandLine.run(arguments, streams: &streams)
        return streams.standardOutput
    }

    @Test func theRecorderNotesWhereEachPayloadHoldsDates() throws {
        let reader = try LogReader(path: try Self.clockLog())
        #expect(try reader.entry(at: 0).action.datePaths == ["/tick/_0"])
        #expect(try reader.entry(at: 1).action.datePaths == ["/schedule/_0/starts"])
        #expect(try reader.entry(at: 2).action.datePaths == [])
        // The state's dates inside an enum case's values are found too.
        #expect(reader.header.datePaths == ["/now", "/phase/started/at"])
    }

    @Test func logFindAndTailShowThemAsDates() throws {
        let log = try Self.clockLog()
        let lines = run("log", log).split(separator: "\n").map(String.init)
        #expect(lines[0].hasSuffix("tick 2026-01-01T09:00:01Z  changed /now /ticks"), "\(lines[0])")
        #expect(lines[1].contains(#"schedule {"title":"standup","starts":"2026-01-01T10:00:00.500Z"}"#), "\(lines[1])")
        #expect(run("find", log, "/ticks == 1").contains("tick 2026-01-01T09:00:01Z"))
        #expect(run("tail", log, "-n", "all").contains("tick 2026-01-01T09:00:01Z"))
    }

    @Test func theTimelineShowsThemAsDates() throws {
        let model = InspectorFixtures.model(try LogTimeline(path: try Self.clockLog(), keepsDamagedRows: true), columns: 120, rows: 12)
        #expect(model.screenText.contains("tick 2026-01-01T09:00:01Z"))
    }
}
