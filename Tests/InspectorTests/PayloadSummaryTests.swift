import Testing
import Recorder
@testable import Inspector

/// Timeline rows and `rewind log` lines show a recorded enum action's values
/// without repeating the cases its name already says.
@Suite struct PayloadSummaryTests {
    /// The first summary of every action type in the sample logs, as the timeline shows it.
    @Test func everyActionShapeInTheSampleLogsReadsLikeACall() throws {
        var summaries: [String: String] = [:]
        for name in SampleLogs.names {
            let timeline = try LogTimeline(path: SampleLogs.path(name))
            for index in 0..<timeline.count {
                let entry = try #require(timeline.entry(at: index))
                if summaries[entry.actionType] == nil {
                    summaries[entry.actionType] = ValueFormatting.payloadSummary(entry.payload, actionType: entry.actionType)
                }
            }
        }
        let resultsLoaded = summaries.removeValue(forKey: "resultsLoaded")
        #expect(resultsLoaded?.hasPrefix(#"request: 1, results: [{"id":1,"title":"Swift Concurrency","score":0.93},"#) == true)
        #expect(summaries == [
            // todos: labelled values, one unlabelled value, no values.
            "add": #"title: "Buy milk""#,
            "tag": #"id: 2, tag: "work""#,
            "toggle": "id: 1",
            "setFilter": #""active""#,
            "delete": "id: 4",
            "clearCompleted": "",
            // garage: nested action enums, and a tuple `.car(.secondary, .accelerate(by: 20))`.
            "primary.engine.start": "",
            "primary.accelerate": "by: 30",
            "car.engine.start": #""secondary""#,
            "car.accelerate": #""secondary", by: 20"#,
            "primary.engine.rev": "rpm: 4200",
            "primary.brakeTapped": "",
            "swapCars": "",
            "car.engine.stop": #""secondary""#,
            // player: reflected (not Codable), cases without values recorded as their names.
            "load": #"{"title":"Blue in Green","seconds":337}"#,
            "play": "",
            "seek": "120",
            "pause": "",
            "onFinish": #"{"name":"advanceQueue","run":"<function @Sendable () -> ()>"}"#,
            "failed": #""networkLost(code: -1009)""#,
            // search
            "queryChanged": #""s""#,
            "resultTapped": "id: 3",
        ])
    }

    @Test func payloadsThatAreNotCaseWrappersStayJSON() {
        // Redux-style actions and struct actions: the payload is not wrapped in the action's name.
        #expect(ValueFormatting.payloadSummary(["by": 1], actionType: "counter/increment") == "by: 1")
        #expect(ValueFormatting.payloadSummary(["a": 1, "b": [1]], actionType: "a") == #"{"a":1,"b":[1]}"#)
        #expect(ValueFormatting.payloadSummary(["add": ["title": "x"]], actionType: "remove") == #"{"add":{"title":"x"}}"#)
        #expect(ValueFormatting.payloadSummary("play", actionType: "pause") == #""play""#)
        #expect(ValueFormatting.payloadSummary(.null, actionType: "reset") == "")
        // A wrapper whose nested case is not the one the name says keeps its values as they are.
        #expect(ValueFormatting.payloadSummary(["car": ["_0": "x"]], actionType: "car.brake") == #"{"car":{"_0":"x"}}"#)
        // `_` alone or `_id` are labels, not positions.
        #expect(ValueFormatting.payloadSummary(["set": ["_id": 4]], actionType: "set") == "_id: 4")
    }

    @Test func theTimelineOfTheTodoSampleShowsTheValuesOnce() throws {
        let model = InspectorFixtures.model(try LogTimeline(path: SampleLogs.path("todos")), columns: 80, rows: 24)
        let timeline = model.screenText.split(separator: "\n", omittingEmptySubsequences: false)
            .prefix(8).map { String($0.prefix(while: { $0 != "│" })) }
        #expect(timeline.joined(separator: "\n") == """
             Timeline  12 entries                   
               1  +0.000s   add title: "Buy mil… ±3 
               2  +0.750s   add title: "Write r… ±3 
               3  +1.500s   add title: "Call th… ±3 
               4  +2.250s   tag id: 2, tag: "wo… ±1 
               5  +3.000s   toggle id: 1         ±2 
               6  +3.750s   setFilter "active"   ±1 
               7  +4.500s   add title: "Fix the… ±3 
            """)
    }

    @Test func rewindLogPrintsTheSameSummaries() {
        var streams = CapturedStreams()
        #expect(RewindCommandLine.run(["log", SampleLogs.path("todos")], streams: &streams) == 0)
        let lines = streams.standardOutput.split(separator: "\n").prefix(6).map(String.init)
        #expect(lines == [
            #"  1   +0.000s  add title: "Buy milk"  changed /todos/- /nextID /stats/total"#,
            #"  2   +0.750s  add title: "Write replay docs"  changed /todos/- /nextID /stats/total"#,
            #"  3   +1.500s  add title: "Call the bank"  changed /todos/- /nextID /stats/total"#,
            #"  4   +2.250s  tag id: 2, tag: "work"  changed /todos/1/tags/-"#,
            #"  5   +3.000s  toggle id: 1  changed /todos/0/isDone /stats/done"#,
            #"  6   +3.750s  setFilter "active"  changed /filter"#,
        ])
    }
}
