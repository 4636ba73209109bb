import Foundation
import Testing
import Recorder
@testable import Inspector

/// `w` and `rewind blame` are one engine (ValueHistory): they agree, see
/// appends, and follow a value when an array shifts under it.
@Suite struct ValueHistoryTests {
    static let sampleTodos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden/todos.jsonl").path

    private func blame(_ path: String, _ pointer: String) -> String {
        var streams = CapturedStreams()
        _ = RewindCommandLine.run(["blame", path, pointer], streams: &streams)
        return streams.standardOutput
    }

    @Test func pathHistorySeesTheAppendThatCreatedATagAndAgreesWithBlame() throws {
        let timeline = try LogTimeline(path: Self.sampleTodos)
        var model = InspectorFixtures.model(timeline, columns: 120, rows: 30)
        model.type(":5\n\t")
        let tag = try JSONPointer(parsing: "/todos/1/tags/0")
        model.reveal(tag)
        #expect(model.cursorRow?.path == tag)
        model.type("w")
        while model.hasPendingScan { reduce(&model, .tick) }
        guard case .pathHistory(let history) = model.overlays.overlay else { Issue.record("no history: \(model.overlays.message ?? "")"); return }
        // Created by entry 4's append to /todos/1/tags/-; entry 11 (clearCompleted) moves the todo to index 0.
        #expect(history.entries == [3, 10])
        let screen = model.screenText
        #expect(screen.contains("History of /todos/1/tags/0 — 2 changes (j/k jump, v view, ←/→, Esc)"))
        #expect(screen.contains("│      4  +2.250s  tag                 (absent) → \"work\"  "))
        #expect(screen.contains("│     11  +7.500s  clearCompleted      \"work\" → \"work\"  (moved /todos/1/tags/0 → /todos/0/tags/0)  "))
        // blame asks about the last state, where the tag is at /todos/0/tags/0: the same two entries.
        #expect(blame(Self.sampleTodos, "/todos/0/tags/0") == """
              4   +2.250s  tag id: 2, tag: "work"  (absent) → "work"
             11   +7.500s  clearCompleted  "work" → "work"  (moved /todos/1/tags/0 → /todos/0/tags/0)

            """)
    }

    @Test func blameShowsAStateLostToDamageAsUnavailableNotAsAbsent() throws {
        // Line 3 (entry 2) is damaged: the states of entries 3–5 cannot be rebuilt, entry 6 is a keyframe.
        // Entries keep the numbers they were recorded with, as in the inspector (the damaged record keeps number 2).
        let log = try LogFixture.todoLog(keyframeInterval: 5, damageLine: 3)
        // Entry 6 (sync, a keyframe) appended to /todos: with no state before it, that is not a creation of /todos/0.
        #expect(blame(log, "/todos/0/done") == """
              3   +1.250s  todo/add title: "Write tests"  (absent) → (state unavailable)
              4   +2.000s  todo/toggle index: 0  (state unavailable) → (state unavailable)
              6   +4.125s  sync/loaded count: 3  (state unavailable) → true

            """)
    }

    /// Five items; item 4 is edited, then `remove /items/1` moves it to index 3.
    static func shiftingTimeline() -> InMemoryTimeline {
        func items(_ values: [String]) -> JSONValue { ["items": .array(values.map { .string($0) })] }
        return InMemoryTimeline(name: "items.jsonl", steps: [
            .init("load", state: items(["a", "b", "c", "d"]), at: 0),
            .init("append", state: items(["a", "b", "c", "d", "e"]), at: 1),
            .init("edit", state: items(["a", "b", "c", "d", "E"]), at: 2),
            .init("removeB", state: items(["a", "c", "d", "E"]), at: 3),
            .init("editOther", state: items(["A", "c", "d", "E"]), at: 4),
            .init("editAgain", state: items(["A", "c", "d", "E!"]), at: 5),
        ])
    }

    @Test func historyFollowsTheValueAcrossAnIndexShift() throws {
        let timeline = Self.shiftingTimeline()
        var model = InspectorFixtures.model(timeline, columns: 120, rows: 30)
        model.type("G\t")
        let moved = try JSONPointer(parsing: "/items/3")
        model.reveal(moved)
        model.type("w")
        while model.hasPendingScan { reduce(&model, .tick) }
        guard case .pathHistory(let history) = model.overlays.overlay else { Issue.record("no history: \(model.overlays.message ?? "")"); return }
        // Created by entry 2, edited at /items/4 by entry 3, moved by entry 4, edited at /items/3 by entry 6.
        #expect(history.entries == [1, 2, 3, 5])
        let screen = model.screenText
        #expect(screen.contains("History of /items/3 — 4 changes"))
        #expect(screen.contains("│      2  +1.000s  append              (absent) → \"e\"  "))
        #expect(screen.contains("│      3  +2.000s  edit                \"e\" → \"E\"  "))
        #expect(screen.contains("│      4  +3.000s  removeB             \"E\" → \"E\"  (moved /items/4 → /items/3)  "))
        #expect(!screen.contains("editOther"))   // another item's change at index 0
    }

    @Test func historyOfAValueGoesForwardUntilItIsRemoved() throws {
        let timeline = Self.shiftingTimeline()
        var history = ValueHistory(path: try JSONPointer(parsing: "/items/1"), origin: 1, source: timeline)   // "b"
        history.runToCompletion(source: timeline)
        #expect(history.changes.map(\.entry) == [3])     // the first entry's state already had it
        #expect(history.changes.map(\.kind) == [.removed])
    }

    @Test func blameOfAMovedValueNamesTheMove() throws {
        let path = try LogFixture.write(Self.shiftingTimeline().steps.map {
            LogFixture.Step(type: $0.actionType, payload: $0.payload, state: $0.state)
        }, name: "items.jsonl")
        #expect(blame(path, "/items/3") == """
              2   +1.000s  append  (absent) → "e"
              3   +2.000s  edit  "e" → "E"
              4   +3.000s  removeB  "E" → "E"  (moved /items/4 → /items/3)
              6   +5.000s  editAgain  "E" → "E!"

            """)
    }
}

/// `rewind blame` on long values: both sides are cut around where they first differ.
@Suite struct BlameLongValueTests {
    @Test func longValuesAreCutAroundTheirFirstDifferenceSoBothSidesShowIt() throws {
        let shared = String(repeating: "lorem ipsum ", count: 12)   // 144 characters both share
        let path = try LogFixture.write([
            .init(type: "write", payload: .null, state: ["note": .string(shared + "draft one, then more text")]),
            .init(type: "edit", payload: .null, state: ["note": .string(shared + "final two, then more text")]),
        ], name: "notes.jsonl")
        var streams = CapturedStreams()
        _ = RewindCommandLine.run(["blame", path, "/note"], streams: &streams)
        let edit = try #require(streams.standardOutput.split(separator: "\n").last.map(String.init))
        let parts = try #require(edit.range(of: "edit  ").map { edit[$0.upperBound...] }?.components(separatedBy: " → "))
        #expect(parts.count == 2)
        #expect(parts.allSatisfy { $0.hasPrefix("…") }, "the shared start is cut: \(edit)")
        #expect(parts[0].contains("draft one") && parts[1].contains("final two"), "both sides show where they differ: \(edit)")
        #expect(parts[0] != parts[1])
    }
}

/// The header's `datePaths` (docs/FORMAT.md), read from a log file.
@Suite struct DatePathsTests {
    @Test func theHeadersDatePathsReachTheStatePane() throws {
        let path = try LogFixture.write([.init(type: "load", payload: .null, state: ["at": 0, "other": 0])],
                                        name: "dates.jsonl", datePaths: ["/at"])
        let timeline = try LogTimeline(path: path)
        #expect(timeline.datePaths == ["/at"])
        let model = InspectorFixtures.model(timeline)
        #expect(model.screenText.contains("│   at: 2001-01-01T00:00:00Z"))
        #expect(model.screenText.contains("│   other: 0"))
    }
}
