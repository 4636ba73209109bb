import Foundation
import Testing
@testable import Recorder
@testable import Inspector

@Suite struct ExportCommandTests {
    private func run(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        var streams = CapturedStreams()
        let status = RewindCommandLine.run(arguments, streams: &streams)
        return (status, streams.standardOutput, streams.standardError)
    }

    // MARK: Round trips

    @Test func aJSONLinesSliceOpensWithTheSameStatesAsTheOriginalRange() throws {
        let directory = TemporaryDirectory()
        let original = try LogReader(path: try ExportFixtures.log(.search, in: directory.path))
        let slicePath = directory.file("slice.jsonl")
        #expect(run(["export", original.path, "--from", "3", "--to", "11", "--format", "jsonl", "-o", slicePath]).status == 0)

        let slice = try LogReader(path: slicePath)
        #expect(slice.entryCount == 9)
        #expect(slice.damage.isEmpty && slice.tornTail == nil)
        #expect(slice.header.initialState == (try original.state(at: 1)))
        #expect(try slice.entry(at: 0).isKeyframe)
        for index in 0..<9 {
            #expect(try slice.state(at: index) == original.state(at: index + 2))
            let (copied, source) = (try slice.entry(at: index), try original.entry(at: index + 2))
            #expect(copied.action == source.action)
            #expect(copied.time == source.time)
            #expect(copied.effectOf == source.effectOf)
        }
        // The inspector opens it too, with the same states.
        let timeline = try LogTimeline(path: slicePath)
        #expect(timeline.count == 9)
        #expect(try timeline.state(at: 8) == original.state(at: 10))
        #expect(timeline.entry(at: 0)?.actionType == (try original.entry(at: 2)).action.name)
    }

    @Test func aReduxDevToolsExportImportsBackToTheSameActionsAndStates() throws {
        let directory = TemporaryDirectory()
        let log = try ExportFixtures.log(.garage, in: directory.path)
        let original = try LogReader(path: log)
        let export = directory.file("garage.redux.json")
        let imported = directory.file("garage-imported.jsonl")
        #expect(run(["export", log, "--format", "redux-devtools", "-o", export]).status == 0)
        let result = run(["import", export, "-o", imported])
        #expect(result.status == 0 && result.error.isEmpty)

        let reader = try LogReader(path: imported)
        #expect(reader.entryCount == original.entryCount)
        #expect(reader.header.initialState == original.header.initialState)
        for index in 0..<original.entryCount {
            #expect(try reader.entry(at: index).action.name == original.entry(at: index).action.name)
            #expect(try reader.entry(at: index).action.payload == original.entry(at: index).action.payload)
            #expect(try reader.state(at: index) == original.state(at: index))
        }
    }

    @Test func theReduxDevToolsFileHoldsJSONTextOfTypedActionsAndThePreloadedState() throws {
        let directory = TemporaryDirectory()
        let log = try ExportFixtures.log(.todo, in: directory.path)
        let text = exportText([log, "--from", "2", "--to", "3", "--format", "redux-devtools"], in: directory)
        let file = try JSONParser.parse(text)
        let actions = try JSONParser.parse(try #require(file["payload"]?.stringValue))
        #expect(actions == [
            ["type": "add", "payload": ["add": ["title": "Write replay docs"]]],
            ["type": "add", "payload": ["add": ["title": "Call the bank"]]],
        ])
        let preloaded = try JSONParser.parse(try #require(file["preloadedState"]?.stringValue))
        #expect(preloaded == (try LogReader(path: log).state(at: 0)))
    }

    // MARK: Formats

    @Test func markdownHasHeaderNumberedActionsDiffBlocksAndTheFinalState() throws {
        let directory = TemporaryDirectory()
        let log = try ExportFixtures.log(.todo, in: directory.path)
        let text = exportText([log, "--from", "5", "--to", "6"], in: directory)
        #expect(text.hasPrefix("# Rewind report: todo.jsonl\n"))
        #expect(text.contains("- **App:** rewind-demo — `SampleDomains.TodoState`, `SampleDomains.TodoAction`"))
        #expect(text.contains("- **Log:** `todo.jsonl`, entries 5–6 of 12"))
        #expect(text.contains("- **Time:** 2025-11-29T07:06:41.250Z → 2025-11-29T07:06:41.500Z (0.250 s)"))
        #expect(text.contains("- **Entries:** 2"))
        #expect(text.contains("1. `toggle` `{\"toggle\":{\"id\":1}}` — entry 5"))
        #expect(text.contains("2. `setFilter` `{\"setFilter\":{\"_0\":\"active\"}}` — entry 6"))
        #expect(text.contains("```diff\n"))
        #expect(text.contains("+       \"isDone\": true"))
        let finalState = try #require(text.components(separatedBy: "## Final state after entry 6\n\n```json\n").last)
        #expect(try JSONParser.parse(finalState.replacingOccurrences(of: "```", with: "")) == LogReader(path: log).state(at: 5))
    }

    @Test func longPayloadsAreFoldedIntoDetails() throws {
        let directory = TemporaryDirectory()
        let log = try ExportFixtures.log(.search, in: directory.path)
        let text = exportText([log, "--from", "2", "--to", "2"], in: directory)
        #expect(try LogReader(path: log).entry(at: 1).action.name == "resultsLoaded")
        #expect(text.contains("<details><summary>Payload ("))
        #expect(text.contains("</details>"))
        // The action list shows a truncated summary.
        #expect(text.contains("1. `resultsLoaded` `{\"resultsLoaded\":"))
        #expect(text.contains("…` — entry 2, +0.250 s, from an effect"))
    }

    @Test func aCombinedPatchTurnsTheFirstStateIntoTheLast() throws {
        let directory = TemporaryDirectory()
        let log = try ExportFixtures.log(.todo, in: directory.path)
        let reader = try LogReader(path: log)
        let patch = try JSONPatch(jsonValue: JSONParser.parse(exportText([log, "--from", "3", "--to", "10", "--format", "patch"], in: directory)))
        #expect(try patch.applied(to: reader.state(at: 1)) == reader.state(at: 9))
        let perEntry = try JSONParser.parse(exportText([log, "--from", "3", "--to", "10", "--format", "patch", "--per-entry"], in: directory))
        var state = try reader.state(at: 1)
        for part in perEntry.arrayValue ?? [] {
            state = try JSONPatch(jsonValue: part["patch"] ?? .null).applied(to: state)
        }
        #expect(perEntry.arrayValue?.count == 8)
        #expect(state == (try reader.state(at: 9)))
        // With --path the operations stay rooted at the document, limited to that part.
        let scoped = try JSONPatch(jsonValue: JSONParser.parse(exportText([log, "--format", "patch", "--path", "/stats"], in: directory)))
        #expect(!scoped.isEmpty && scoped.operations.allSatisfy { $0.path.description.hasPrefix("/stats") })
    }

    @Test func theUnifiedDiffLabelsBothSidesAndIsEmptyWithoutChanges() throws {
        let directory = TemporaryDirectory()
        let log = try ExportFixtures.log(.todo, in: directory.path)
        let text = exportText([log, "--from", "5", "--to", "5", "--format", "unified"], in: directory)
        #expect(text.hasPrefix("--- todo.jsonl before entry 5\n+++ todo.jsonl after entry 5\n"))
        #expect(text.contains("+      \"isDone\": true,"))
        // Entry 5 (toggle) leaves /filter alone: nothing to show.
        #expect(exportText([log, "--from", "5", "--to", "5", "--format", "unified", "--path", "/filter"], in: directory) == "")
    }

    // MARK: The inspector's `e` key

    @Test func theEKeyWritesTheExportersMarkdownReportOfTheDiffOnScreen() throws {
        let directory = TemporaryDirectory()
        let timeline = try LogTimeline(path: try ExportFixtures.log(.todo, in: directory.path))
        var model = InspectorModel(source: timeline, size: ScreenSize(columns: 100, rows: 30))
        model.type("jjjj")
        var request = ExportRequest(format: .markdown)
        request.firstEntry = 5
        request.lastEntry = 5
        let expected = String(decoding: try LogExporter.export(logAt: timeline.path, request), as: UTF8.self)
        #expect(model.send(.character("e")) == [.exportDiff(.entry(4), suggestedName: "todo-diff-4-5.md")])
        #expect(try DiffExport.entry(4).markdown(from: timeline) == expected)   // what the effect runner writes
        #expect(expected.contains("1. `toggle`"))

        // Mark entry 2, select entry 5, compare: the diff on screen, not a report of every entry between.
        reduce(&model, .exportFinished(path: "/tmp/x.md"))
        model.type("gjmjjjd")
        guard case .exportDiff(let export, let name)? = model.send(.character("e")).first else {
            Issue.record("no export")
            return
        }
        let markdown = try export.markdown(from: timeline)
        #expect(name == "todo-diff-2-5.md")
        let onScreen = model.view.diffLines.map { DiffFormatting.plainText($0) }
        #expect(!onScreen.isEmpty)
        #expect(markdown == "# Diff: todo.jsonl, entry 2 → entry 5\n\n"
            + "The state after entry 2 (`-`) against the state after entry 5 (`+`), as the inspector's diff pane shows it.\n\n"
            + "```diff\n" + onScreen.map { $0 + "\n" }.joined() + "```\n")
        #expect(!markdown.contains("## Actions"))
    }

    // MARK: Bad input

    @Test(arguments: [
        (["export"], "rewind export: missing <log>\nusage: rewind export <log>"),
        (["export", "/nonexistent/app.jsonl"], "rewind export: "),
        (["export", "LOG", "--format", "pdf"], "rewind export: unknown format 'pdf' (expected one of: markdown, patch, unified, jsonl, redux-devtools, states)"),
        (["export", "LOG", "--from", "0"], "rewind export: --from '0' is not an entry number (entries are numbered from 1)"),
        (["export", "LOG", "--to", "x"], "rewind export: --to 'x' is not an entry number (entries are numbered from 1)"),
        (["export", "LOG", "--from", "6", "--to", "2"], "rewind export: --from 6 is after --to 2"),
        (["export", "LOG", "--to", "99"], "rewind export: there is no entry 99 in todo.jsonl (it has entries 1–12)"),
        (["export", "LOG", "--from", "13"], "rewind export: there is no entry 13 in todo.jsonl (it has entries 1–12)"),
        (["export", "LOG", "--per-entry"], "rewind export: --per-entry applies to the patch and unified formats"),
        (["export", "LOG", "--format", "jsonl", "--path", "/todos"], "rewind export: --path applies to the markdown, patch and unified formats"),
        (["export", "LOG", "--path", "todos"], "rewind export: invalid JSON Pointer"),
        (["export", "LOG", "--path", "/nope"], "rewind export: /nope does not exist in the state after entry 12"),
        (["export", "LOG", "--redact", ""], "rewind export: invalid redaction rule \"\""),
        (["export", "LOG", "--color"], "rewind export: unknown option '--color'\nusage: rewind export <log>"),
    ])
    func badInputIsOneLineOrTheUsageErrorAndStatus2(arguments: [String], message: String) throws {
        let directory = TemporaryDirectory()
        let log = try ExportFixtures.log(.todo, in: directory.path)
        let result = run(arguments.map { $0 == "LOG" ? log : $0 })
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(result.error.hasPrefix(message), "\(result.error)")
        #expect(!result.error.contains("Fatal") && !result.error.contains("Stack"))
    }

    @Test func aMissingLogAndANonLogAreOneLine() throws {
        let directory = TemporaryDirectory()
        let missing = run(["export", directory.file("missing.jsonl")])
        #expect(missing.status == 2)
        #expect(missing.error.split(separator: "\n").count == 1)
        #expect(missing.error.contains("missing.jsonl"))
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: directory.file("notes.txt")))
        let notALog = run(["export", directory.file("notes.txt")])
        #expect(notALog.status == 2)
        #expect(notALog.error.split(separator: "\n").count == 1)
    }

    @Test func aStateLostToDamageIsOneLineAndTheIntactRangeStillExports() throws {
        // Line 3 (the second entry) is damaged: the states after it are unavailable until the next keyframe.
        let log = try LogFixture.todoLog(keyframeInterval: 3, damageLine: 3)
        let damaged = run(["export", log, "--format", "patch"])
        #expect(damaged.status == 2)
        #expect(damaged.error == "rewind export: the state after entry 3 cannot be rebuilt: "
            + "it depends on line 3, which is damaged; states are available again from the next keyframe\n")
        // Entries keep their recorded numbers: 2 is the damaged record, 4 the keyframe, so 5 on diffs from a state that is there.
        let intact = run(["export", log, "--from", "5", "--format", "patch"])
        #expect(intact.status == 0, "\(intact.error)")
    }

    @Test func helpListsExportAndImport() {
        let help = run(["--help"]).output
        #expect(help.contains("\n  export   a bug report, patch, diff, log slice or Redux DevTools file"))
        #expect(help.contains("\n  import   a Redux DevTools export as a Rewind log"))
        #expect(run(["help", "export"]).output.hasPrefix("usage: rewind export <log> [--format FORMAT] [--from A] [--to B]"))
        #expect(run(["help", "import"]).output.hasPrefix("usage: rewind import <export.json> -o <out.jsonl>"))
    }
}
