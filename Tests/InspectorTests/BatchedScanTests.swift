import Foundation
import Testing
@testable import Recorder
import RewindJSON
@testable import Inspector

/// The `f` picker, the filter, `w` path history and timeline `/` read a log
/// file in batches with a light parse (LogReader.scanEntries). They must find
/// exactly what reading entry by entry finds: the same model, the same screens.
@Suite struct BatchedScanTests {
    /// A log file read entry by entry, as the scans did before: LogTimeline
    /// without its batched `scanEntries` (the protocol's default one).
    final class PerEntryTimeline: TimelineSource {
        let file: LogTimeline
        init(_ file: LogTimeline) { self.file = file }
        var name: String { file.name }
        var count: Int { file.count }
        var indexing: IndexingProgress { file.indexing }
        var damage: [DamagedRecord] { file.damage }
        var tornTail: DamagedRecord? { file.tornTail }
        var initialState: JSONValue? { file.initialState }
        func entry(at index: Int) -> TimelineEntry? { file.entry(at: index) }
        func state(at index: Int) throws -> JSONValue { try file.state(at: index) }
        func refresh() -> FollowNotice? { file.refresh() }
        func entryNumber(at index: Int) -> Int { file.entryNumber(at: index) }
        func lookUp(entryNumber number: Int) -> PlaceholderRows.Lookup { file.lookUp(entryNumber: number) }
    }

    /// 60 entries of four action types; keyframes every 4; line 12 damaged.
    static func logPath() throws -> String {
        var todos: [JSONValue] = []
        var steps: [LogFixture.Step] = []
        for index in 0..<60 {
            let step: LogFixture.Step
            switch index % 4 {
            case 0:
                todos.append(["title": .string("Item \(index)"), "done": false])
                step = .init(type: "todo/add", payload: ["title": .string("Item \(index)")], state: ["todos": .array(todos), "note": ""])
            case 1:
                todos[todos.count - 1] = ["title": todos.last!["title"]!, "done": true]
                step = .init(type: "todo/toggle", payload: ["index": .integer(Int64(todos.count - 1))], state: ["todos": .array(todos), "note": ""])
            case 2:
                step = .init(type: "note/edit", payload: ["text": .string("Café \"\(index)\" at 1.5×")], state: ["todos": .array(todos), "note": .string("n\(index)")])
            default:
                step = .init(type: index % 8 == 3 ? "todo/clear" : "sync/loaded", payload: .null, state: ["todos": .array(todos), "note": .string("n\(index - 1)")])
            }
            steps.append(step)
        }
        return try LogFixture.write(steps, keyframeInterval: 4, damageLine: 12)
    }

    static func models() throws -> (batched: InspectorModel, perEntry: InspectorModel) {
        let path = try logPath()
        var batched = InspectorFixtures.model(try LogTimeline(path: path), columns: 100, rows: 30)
        var perEntry = InspectorFixtures.model(PerEntryTimeline(try LogTimeline(path: path)), columns: 100, rows: 30)
        // Small slices: several events per scan, batches cut short by the budget.
        batched.scans.scanBudget = ScanBudget(entriesPerEvent: 7, timePerEvent: nil)
        perEntry.scans.scanBudget = batched.scans.scanBudget
        return (batched, perEntry)
    }

    static func finish(_ model: inout InspectorModel) {
        while model.hasPendingScan { reduce(&model, .tick) }
    }

    /// Types `keys` into both models, running scans to the end, and checks they agree.
    static func typeIntoBoth(_ keys: String, _ models: inout (batched: InspectorModel, perEntry: InspectorModel)) {
        models.batched.type(keys)
        models.perEntry.type(keys)
        #expect(models.batched.screenText == models.perEntry.screenText, "after \(keys)")
        finish(&models.batched)
        finish(&models.perEntry)
        #expect(models.batched.screenText == models.perEntry.screenText, "after \(keys) and its scan")
        #expect(models.batched.timeline.selection == models.perEntry.timeline.selection)
        #expect(models.batched.timeline.filter == models.perEntry.timeline.filter)
        #expect(models.batched.overlays.overlay == models.perEntry.overlays.overlay)
    }

    @Test func pickerFilterHistoryAndSearchFindWhatReadingEachEntryFinds() throws {
        var models = try Self.models()
        #expect(models.batched.timeline.count == 59)   // one line damaged
        #expect(models.batched.source.entry(at: 39)?.changedPaths.map(\.description) == ["/todos/-", "/note"])

        Self.typeIntoBoth("f", &models)
        guard case .filterPicker(let picker) = models.batched.overlays.overlay else { Issue.record("no picker"); return }
        #expect(picker.choices.map(\.actionType) == ["note/edit", "sync/loaded", "todo/add", "todo/clear", "todo/toggle"])
        #expect(picker.choices.map(\.count).reduce(0, +) == 59)

        for key in [Key.down, .down] { _ = models.batched.send(key); _ = models.perEntry.send(key) }
        Self.typeIntoBoth("\n", &models)                      // filter: todo/add
        #expect(models.batched.timeline.filter?.entries.count == 15)
        Self.typeIntoBoth("/item 4\n", &models)               // searched in the filtered rows, in payloads
        Self.typeIntoBoth("n", &models)
        Self.typeIntoBoth("N", &models)
        Self.typeIntoBoth("f", &models)                       // clears the filter

        Self.typeIntoBoth("/café \\\"30\\\"\n", &models)      // escapes and wide characters in the payload
        #expect(models.batched.timeline.selection == 29)
        Self.typeIntoBoth("/\"text\":\"caf\n", &models)
        Self.typeIntoBoth("/no such thing\n", &models)
        #expect(models.batched.screenText.hasSuffix("No action matches \"no such thing\" (states: :find, or Tab then /)"))

        Self.typeIntoBoth(":42\n\t", &models)                  // the state pane (entry 42: entry 11's record is damaged, the numbers after it are the file's)
        #expect(models.batched.cursorRow?.path.description == "/todos/10/done")
        Self.typeIntoBoth("w", &models)
        guard case .pathHistory(let history) = models.batched.overlays.overlay else { Issue.record("no history"); return }
        #expect(history.entries == [39, 40])                  // entry 40 appended the item at /todos/-, 41 toggled it
        Self.typeIntoBoth("\u{1b}gw", &models)                // the first node: /note, changed by every note/edit
        guard case .pathHistory(let noteHistory) = models.batched.overlays.overlay else { Issue.record("no history"); return }
        #expect(noteHistory.entries.count > 10)
    }

    /// Search skips eight bytes at a time to the first letter's candidates: it
    /// must find what a plain case-insensitive search finds, at any offset.
    @Test func payloadMatchingFindsEveryOffset() {
        var generator = SplitMix64(seed: 9)
        let letters = Array("abAB{}\":, 1".utf8)
        for _ in 0..<3_000 {
            let haystack = (0..<Int(generator.next() % 40)).map { _ in letters[Int(generator.next() % UInt64(letters.count))] }
            let needle = (0..<Int(1 + generator.next() % 3)).map { _ in letters[Int(generator.next() % UInt64(letters.count))] }
            let lowerNeedle = Array(String(decoding: needle, as: UTF8.self).lowercased().utf8)
            let expected = String(decoding: haystack, as: UTF8.self).lowercased().contains(String(decoding: lowerNeedle, as: UTF8.self))
            #expect(InspectorModel.containsIgnoringASCIICase(haystack, lowerNeedle) == expected,
                    "\(String(decoding: haystack, as: UTF8.self)) / \(String(decoding: lowerNeedle, as: UTF8.self))")
        }
    }
}
