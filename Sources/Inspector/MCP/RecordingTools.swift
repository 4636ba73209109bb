import Foundation
import Recorder

/// The tools of `rewind mcp`, one row each: what `tools/list` shows and what `tools/call` runs.
/// Each runs the `rewind` command that answers the same question (as a child process, see
/// ``ChildCommand``), so an agent gets what a person at the command line gets; only `diff`
/// (two entries' states, compared by the JSON engine behind `rewind diff`) and `testgen`
/// (made without writing its files) are put together here.
enum RecordingTools {
    static var all: [MCPTool] {
        [listRecordings, stats, log, showState, diff, find, bisect, blame, testgen]
    }

    static func tool(named name: String) -> MCPTool? { all.first { $0.name == name } }

    // MARK: Arguments every tool shares

    static let defaultMaxBytes = 20_000
    /// What one call's output may hold at most, whatever it asks for.
    static let largestMaxBytes = 1 << 20
    /// Room for a command whose output is read whole (JSON to page by items, a state to diff).
    static let wholeOutputLimit = 256 << 20

    static let maxBytes = MCPTool.Parameter.optional(
        "max_bytes", .integer(minimum: 1024, maximum: largestMaxBytes),
        "the most bytes of output this result holds (default \(defaultMaxBytes)); the rest comes with offset")
    static let offset = MCPTool.Parameter.optional(
        "offset", .integer(minimum: 0),
        "where to continue: the nextOffset a cut result gave (default 0, the start)")
    static let recording = MCPTool.Parameter.required(
        "recording", .string, "the recording's path, as list_recordings gives it (absolute, or relative to the server's directory)")

    // MARK: The tools

    static var listRecordings: MCPTool {
        MCPTool(
            name: "list_recordings", title: "List recordings",
            description: """
                The Rewind recordings (action logs of an app's reducer) under the directories this server reads, \
                failed tests first, then newest first: path, test name, process, creation time, entry count, size, \
                whether the test failed and any damage. Start here; the other tools take a recording's path.
                """,
            parameters: [
                .optional("directory", .string, "only the recordings under this directory (one of the server's, or inside one)"),
                .optional("verify", .boolean, "read every recording through, counting entries and damaged records (slower)"),
                maxBytes, offset,
            ],
            run: { arguments, context in
                var directories = context.directories.shown.map { (shown: $0, path: $0) }
                if let directory = arguments.string("directory") {
                    switch context.directories.check(directory, what: "directory") {
                    case .success(let real): directories = [(directory, real)]
                    case .failure(let failure): return .failure(failure.message)
                    }
                }
                var recordings: [JSONValue] = []
                for directory in directories {
                    var command = ["ls", "--format", "json"]
                    if arguments.flag("verify") { command.append("--verify") }
                    let outcome = context.run(command + ["--", directory.path], keeping: wholeOutputLimit)
                    guard outcome.status == 0, let listed = try? JSONParser.parse(outcome.output) else {
                        return failure(outcome, context)
                    }
                    recordings += listed["recordings"]?.arrayValue ?? []
                }
                // Paged by recording: `offset` counts recordings, and each page holds whole ones.
                let start = min(arguments.integer("offset") ?? 0, recordings.count)
                let limit = arguments.integer("max_bytes") ?? defaultMaxBytes
                var page: [JSONValue] = [], used = 0
                for recording in recordings[start...] {
                    let size = JSONWriter.compact(recording).count + 1
                    if !page.isEmpty, used + size > limit { break }
                    page.append(recording)
                    used += size
                }
                let next = start + page.count < recordings.count ? start + page.count : nil
                return .json(JSONObject([
                    ("directories", .array(directories.map { .string($0.shown) })),
                    ("total", .integer(Int64(recordings.count))),
                    ("recordings", .array(page)),
                    ("offset", .integer(Int64(start))),
                    ("nextOffset", next.map { .integer(Int64($0)) } ?? .null),
                ]))
            })
    }

    static var stats: MCPTool {
        MCPTool(
            name: "stats", title: "Recording statistics",
            description: """
                What rewind stats --format json says of a recording: entries, keyframes, size, time span, entries \
                sent by effects, damaged records and a torn last line, sessions, gaps (entries that were not \
                recorded, with why) and how often each action type occurs.
                """,
            parameters: [recording, maxBytes],
            run: { arguments, context in
                inRecording(arguments, context) { path in
                    let outcome = context.run(["stats", "--format", "json", "--", path], keeping: wholeOutputLimit)
                    guard outcome.status == 0, case .object(var object)? = try? JSONParser.parse(outcome.output) else {
                        return failure(outcome, context)
                    }
                    object["file"] = .string(arguments.string("recording") ?? path)
                    return .json(fitted(object, within: arguments.integer("max_bytes") ?? defaultMaxBytes))
                }
            })
    }

    static var log: MCPTool {
        MCPTool(
            name: "log", title: "List entries",
            description: """
                One line per entry, as rewind log prints it: entry number, time since the first entry, action and \
                its payload summarised, [effect] for actions an effect sent, and the paths it changed. Lines say \
                where entries were not recorded (a gap) and where the log was opened again (a new session). \
                Entries keep the numbers they were recorded with.
                """,
            parameters: [
                recording,
                .optional("from", .integer(minimum: 1), "the first entry (default 1)"),
                .optional("to", .integer(minimum: 1), "the last entry (default the last)"),
                .optional("width", .integer(minimum: 0, maximum: 100_000),
                          "cut each line to this many columns (default 120; at least 40; 0 keeps whole summaries)"),
                maxBytes, offset,
            ],
            run: { arguments, context in
                inRecording(arguments, context) { path in
                    var command = ["log"]
                    if let from = arguments.integer("from") { command += ["--from", String(from)] }
                    if let to = arguments.integer("to") { command += ["--to", String(to)] }
                    let width = arguments.integer("width") ?? 120
                    command += width == 0 ? ["--full"] : ["--width", String(max(40, width))]
                    return paged(context, arguments, command + ["--", path]) { page, _ in
                        [("recording", .string(arguments.string("recording") ?? path)),
                         ("entries", .array(page.lines.compactMap(leadingNumber).map { .integer(Int64($0)) }))]
                    }
                }
            })
    }

    static var showState: MCPTool {
        MCPTool(
            name: "show_state", title: "Show a state",
            description: """
                The app's state after an entry, as JSON (rewind show): the whole state or the part at a JSON \
                Pointer. Entry 0 is the state before the first entry; the default is the state after the last. \
                structuredContent.value holds the state when it fits in one result.
                """,
            parameters: [
                recording,
                .optional("entry", .integer(minimum: 0), "the entry (from 1; 0 is the state before the first; default the last)"),
                .optional("path", .string, "a JSON Pointer to show only part of the state, e.g. /cart/items/0"),
                maxBytes, offset,
            ],
            run: { arguments, context in
                inRecording(arguments, context) { path in
                    var command = ["show"]
                    if let entry = arguments.integer("entry") { command += ["--at", String(entry)] }
                    if let pointer = arguments.string("path") { command += ["--path", pointer] }
                    return paged(context, arguments, command + ["--", path]) { page, _ in
                        var fields: [(String, JSONValue)] = [
                            ("recording", .string(arguments.string("recording") ?? path)),
                            ("entry", arguments.integer("entry").map { .integer(Int64($0)) } ?? .null),
                            ("path", .string(arguments.string("path") ?? "")),
                        ]
                        if page.offset == 0, page.nextOffset == nil, let value = try? JSONParser.parse(Array(page.text.utf8)) {
                            fields.append(("value", value))
                        }
                        return fields
                    }
                }
            })
    }

    static var diff: MCPTool {
        MCPTool(
            name: "diff", title: "Diff two entries",
            description: """
                What changed in the state between two entries: the state after `from` against the state after \
                `to` (0 is the state before the first entry), as the tree diff of rewind diff (-/+ lines, \
                unchanged members collapsed) or as an RFC 6902 JSON Patch. To see one entry's own change, \
                give from = N-1 and to = N.
                """,
            parameters: [
                recording,
                .required("from", .integer(minimum: 0), "the entry whose state is the old side (0: before the first entry)"),
                .required("to", .integer(minimum: 0), "the entry whose state is the new side"),
                .optional("format", .choice(["tree", "patch"]), "tree (the default) or patch (RFC 6902 operations)"),
                .optional("path", .string, "compare only the part of the states at this JSON Pointer"),
                maxBytes, offset,
            ],
            run: { arguments, context in
                inRecording(arguments, context) { path in
                    let pointerText = arguments.string("path")
                    var states: [JSONValue] = []
                    for side in ["from", "to"] {
                        var command = ["show", "--at", String(arguments.integer(side) ?? 0)]
                        if let pointerText { command += ["--path", pointerText] }
                        let outcome = context.run(command + ["--", path], keeping: wholeOutputLimit)
                        guard outcome.status == 0, let state = try? JSONParser.parse(outcome.output) else { return failure(outcome, context) }
                        states.append(state)
                    }
                    let format = arguments.string("format") ?? "tree"
                    let scope = (try? JSONPointer(parsing: pointerText ?? "")) ?? JSONPointer()
                    let patch = JSONPatch(JSONDiff.patch(from: states[0], to: states[1]).operations.map { $0.rooted(at: scope) })
                    let text: String = if patch.operations.isEmpty { "no differences" }
                        else if format == "patch" { JSONWriter.prettyString(patch.jsonValue) }
                        else { JSONDiff.treeText(from: states[0], to: states[1]) ?? "no differences" }
                    let page = page(of: Array(text.utf8), arguments)
                    var structured = JSONObject([
                        ("recording", .string(arguments.string("recording") ?? path)),
                        ("from", .integer(Int64(arguments.integer("from") ?? 0))),
                        ("to", .integer(Int64(arguments.integer("to") ?? 0))),
                        ("format", .string(format)),
                        ("identical", .bool(patch.operations.isEmpty)),
                        ("operations", .integer(Int64(patch.operations.count))),
                    ])
                    if format == "patch", page.offset == 0, page.nextOffset == nil { structured["patch"] = patch.jsonValue }
                    for (key, value) in page.fields { structured[key] = value }
                    return ToolResult(text: page.shownText, structured: structured)
                }
            })
    }

    static var find: MCPTool {
        MCPTool(
            name: "find", title: "Find entries",
            description: """
                The entries whose state satisfies a query (rewind find; the language is in docs/QUERIES.md): \
                '/cart/total < 0', '/user/name == "Ann"', 'exists /session', '/items length > 3', \
                '/tags contains "work"', 'changed /cart', 'action == checkout.submit', 'action == cart.*', \
                combined with not, and, or and parentheses. In one recording, or in every recording under a \
                directory. Lines are as rewind log prints them.
                """,
            parameters: [
                .required("target", .string, "a recording, or a directory whose recordings are all searched"),
                .required("query", .string, "the query, e.g. /cart/total < 0"),
                .optional("first", .boolean, "only the first matching entry (of each recording)"),
                .optional("changes", .boolean, "only the entries where the query's truth flips (→ true / → false); not with first"),
                .optional("count", .boolean, "only how many entries match (per recording for a directory)"),
                maxBytes, offset,
            ],
            run: { arguments, context in
                let target: String
                switch context.directories.check(arguments.string("target") ?? "", what: "target") {
                case .success(let real): target = real
                case .failure(let failure): return .failure(failure.message)
                }
                var command = ["find"]
                for flag in ["first", "changes", "count"] where arguments.flag(flag) { command.append("--" + flag) }
                let shown = arguments.string("target") ?? target
                return paged(context, arguments, command + ["--", target, arguments.string("query") ?? ""],
                             succeedsWith: [0, 1]) { page, status in
                    var fields: [(String, JSONValue)] = [
                        ("target", .string(shown)),
                        ("query", .string(arguments.string("query") ?? "")),
                        ("matched", .bool(status == 0 || status == nil)),
                    ]
                    if arguments.flag("count") {
                        // `N` for a recording; `path: N` a line for each recording of a directory that has a match.
                        let counts = page.lines.compactMap { line -> (String?, Int)? in
                            guard let colon = line.lastIndex(of: ":") else { return Int(line.trimmingCharacters(in: .whitespaces)).map { (nil, $0) } }
                            guard let count = Int(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)) else { return nil }
                            let path = String(line[..<colon])
                            return (path.hasPrefix(target) ? shown + path.dropFirst(target.count) : path, count)
                        }
                        fields.append(("count", .integer(Int64(counts.reduce(0) { $0 + $1.1 }))))
                        if counts.contains(where: { $0.0 != nil }) {
                            fields.append(("counts", .array(counts.map { .object(JSONObject([("recording", .string($0.0 ?? shown)), ("count", .integer(Int64($0.1)))])) })))
                        }
                    } else {
                        fields.append(("matches", .array(page.lines.compactMap { match(in: $0, searching: target, shownAs: shown) })))
                    }
                    return fields
                }
            })
    }

    static var bisect: MCPTool {
        MCPTool(
            name: "bisect", title: "First entry breaking an invariant",
            description: """
                The first entry at which an invariant (a query that should hold at every entry, as for find) \
                stops holding, with its action and the diff of that step (rewind bisect). Entries whose state \
                cannot be rebuilt (damage) are named, not counted as holding.
                """,
            parameters: [
                recording,
                .required("invariant", .string, "a query that should hold at every entry, e.g. /cart/total >= 0"),
                maxBytes, offset,
            ],
            run: { arguments, context in
                inRecording(arguments, context) { path in
                    return paged(context, arguments, ["bisect", "--", path, arguments.string("invariant") ?? ""],
                                 succeedsWith: [0, 1, BisectCommand.exitHoldsWhereChecked]) { page, status in
                        let first = page.offset == 0 ? page.lines.first.map(String.init) ?? "" : ""
                        let broken = first.range(of: " stops holding at entry ").flatMap { leadingNumber(first[$0.upperBound...]) }
                        return [
                            ("recording", .string(arguments.string("recording") ?? path)),
                            ("invariant", .string(arguments.string("invariant") ?? "")),
                            ("holds", .bool(status == 0)),
                            ("holdsWhereChecked", .bool(status == BisectCommand.exitHoldsWhereChecked)),
                            ("brokenAt", broken.map { .integer(Int64($0)) } ?? .null),
                        ]
                    }
                }
            })
    }

    static var blame: MCPTool {
        MCPTool(
            name: "blame", title: "History of a value",
            description: """
                Every entry that changed a part of the state, with the value before and after (old → new), as \
                rewind blame prints them; a note says when entries that were not recorded could hide a change.
                """,
            parameters: [
                recording,
                .required("path", .string, "a JSON Pointer to the part of the state, e.g. /cart/total"),
                maxBytes, offset,
            ],
            run: { arguments, context in
                inRecording(arguments, context) { path in
                    return paged(context, arguments, ["blame", "--", path, arguments.string("path") ?? ""]) { page, _ in
                        [("recording", .string(arguments.string("recording") ?? path)),
                         ("path", .string(arguments.string("path") ?? "")),
                         ("changes", .array(page.lines.compactMap(leadingNumber).map { .integer(Int64($0)) }))]
                    }
                }
            })
    }

    static var testgen: MCPTool {
        MCPTool(
            name: "testgen", title: "Generate a regression test",
            description: """
                A Swift regression test that replays entries from..to of a recording through the app's reducer \
                and checks the values the recording saw (rewind testgen), and its fixture (the log slice it \
                replays). Returns both and writes neither: save the test as testFile and the fixture beside it as \
                fixtureFile, exclude the fixture from the target's sources, and add RewindTesting to the test \
                target. part chooses which file this result holds.
                """,
            parameters: [
                recording,
                .optional("from", .integer(minimum: 1), "the first entry to replay (default 1)"),
                .optional("to", .integer(minimum: 1), "the last entry to replay (default the last)"),
                .optional("xctest", .boolean, "an XCTest case instead of a Swift Testing test"),
                .optional("reducer", .string, "the reducer expression, e.g. TodoDomain.reduce (default: an editor placeholder)"),
                .optional("modules", .strings, "modules the test imports (the app's)"),
                .optional("redact", .strings, "keys (password) or paths (/user/email, /users/*/token) to hide in the fixture"),
                .optional("test_file", .string, "the test's file name, which names the test type and the fixture (default: after the recording)"),
                .optional("part", .choice(["test", "fixture"]), "test (the Swift source, the default) or fixture (its JSON Lines)"),
                maxBytes, offset,
            ],
            run: { arguments, context in
                inRecording(arguments, context) { path in
                    var request = TestgenCommand.Request()
                    request.firstEntry = arguments.integer("from")
                    request.lastEntry = arguments.integer("to")
                    request.xctest = arguments.flag("xctest")
                    request.reducer = arguments.string("reducer")
                    request.modules = arguments.strings("modules")
                    request.redactionRules = arguments.strings("redact")
                    // Only the file's name: nothing is written, so no folder is involved.
                    request.testPath = arguments.string("test_file").map { ($0 as NSString).lastPathComponent }
                    // What `rewind testgen` says, without writing what it would write.
                    let timeline: LogTimeline
                    do throws(LogReadError) { timeline = try LogTimeline(path: path) } catch { return .failure("rewind: \(error.description)") }
                    let files: TestgenCommand.Files
                    do throws(UsageError) { files = try TestgenCommand.make(request, from: timeline) } catch {
                        return .failure("rewind testgen: \(error.description)")
                    }
                    let part = arguments.string("part") ?? "test"
                    let page = page(of: part == "fixture" ? files.fixture : Array(files.test.source.utf8), arguments)
                    var structured = JSONObject([
                        ("recording", .string(arguments.string("recording") ?? path)),
                        ("testFile", .string(files.typeName + ".swift")),
                        ("fixtureFile", .string(files.fixtureName)),
                        ("steps", .integer(Int64(files.test.steps.count))),
                        ("part", .string(part)),
                    ])
                    for (key, value) in page.fields { structured[key] = value }
                    var text = page.shownText
                    if let note = files.startNote {
                        structured["notes"] = [.string(note)]
                        text += "\nnote: " + note
                    }
                    return ToolResult(text: text, structured: structured)
                }
            })
    }
}

// MARK: What the tools share

extension RecordingTools {
    /// Runs `body` with the real path of the `recording` argument, or answers why it cannot be read
    /// (outside the directories, through a link too; no such file).
    static func inRecording(_ arguments: ToolArguments, _ context: ToolContext, _ body: (String) -> ToolResult) -> ToolResult {
        switch context.directories.check(arguments.string("recording") ?? "") {
        case .success(let path): body(path)
        case .failure(let failure): .failure(failure.message)
        }
    }

    /// A command that failed: its one-line error (stderr), as the call's result.
    static func failure(_ outcome: ChildCommand.Outcome, _ context: ToolContext) -> ToolResult {
        let message = outcome.errorText.trimmingCharacters(in: .whitespacesAndNewlines)
        if outcome.cancelled { return .failure("cancelled") }
        return .failure(message.isEmpty ? "the command ended without an answer (status \(outcome.status.map(String.init) ?? "none"))" : message)
    }

    /// The page `arguments` ask for (offset, max_bytes) of output made here.
    static func page(of output: [UInt8], _ arguments: ToolArguments) -> OutputPage {
        let offset = min(arguments.integer("offset") ?? 0, output.count)
        let limit = arguments.integer("max_bytes") ?? defaultMaxBytes
        return OutputPage(Array(output[offset..<min(output.count, offset + limit + 1)]), offset: offset, limit: limit)
    }

    /// Runs a command and answers the page of its output the arguments ask for, with the command's
    /// notes (stderr) after it; `fields` adds what the page says in structured form. A status outside
    /// `succeedsWith` is the command's error (its stderr line); nil status means the output went on past the page.
    static func paged(_ context: ToolContext, _ arguments: ToolArguments, _ command: [String], succeedsWith: Set<Int32> = [0],
                      fields: (OutputPage, Int32?) -> [(String, JSONValue)]) -> ToolResult {
        let offset = arguments.integer("offset") ?? 0
        let limit = arguments.integer("max_bytes") ?? defaultMaxBytes
        let outcome = context.run(command, skipping: offset, keeping: limit)
        if outcome.cancelled { return .failure("cancelled") }
        if let status = outcome.status, !succeedsWith.contains(status) { return failure(outcome, context) }
        if outcome.outputEnded, outcome.output.isEmpty, offset > 0, outcome.skipped < offset {
            return .failure("offset \(offset) is past the end of the output (\(outcome.skipped) bytes)")
        }
        let page = OutputPage(outcome.output, offset: offset, limit: limit)
        var structured = JSONObject()
        for (key, value) in fields(page, outcome.status) { structured[key] = value }
        for (key, value) in page.fields { structured[key] = value }
        let notes = outcome.errorText.split(separator: "\n").map(String.init)
        if !notes.isEmpty { structured["notes"] = .array(notes.map(JSONValue.string)) }
        var text = page.shownText
        if !notes.isEmpty { text += "\n" + notes.joined(separator: "\n") }
        return ToolResult(text: text, structured: structured)
    }

    /// The entry number a listing line starts with (`  41  +2.125s  checkout.submit`); nil for other lines.
    static func leadingNumber(_ line: Substring) -> Int? {
        let trimmed = line.drop { $0 == " " }
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, trimmed.dropFirst(digits.count).first.map({ $0 == " " }) ?? true else { return nil }
        return Int(digits)
    }

    /// `{"entry": 41}` for a line of `find` on a recording; `{"recording": …, "entry": 41}` for a line of
    /// `find` on a directory, which starts with the recording's path (the part before two spaces that names a file).
    static func match(in line: Substring, searching target: String, shownAs shown: String) -> JSONValue? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory), isDirectory.boolValue else {
            return leadingNumber(line).map { .object(JSONObject([("entry", .integer(Int64($0)))])) }
        }
        var searchFrom = line.startIndex
        while let separator = line[searchFrom...].range(of: "  ") {
            let path = String(line[..<separator.lowerBound])
            if FileManager.default.fileExists(atPath: path), let number = leadingNumber(line[separator.upperBound...]) {
                // Shown under the name the agent used for the directory.
                let relative = path.hasPrefix(target) ? shown + path.dropFirst(target.count) : path
                return .object(JSONObject([("recording", .string(relative)), ("entry", .integer(Int64(number)))]))
            }
            searchFrom = separator.upperBound
        }
        return nil
    }

    /// `object` made to fit in `limit` bytes of compact JSON: its longest arrays and objects
    /// (a stats report's gaps, its action types) lose members from the end, and a member
    /// `<name>Omitted` says how many.
    static func fitted(_ object: JSONObject, within limit: Int) -> JSONObject {
        var object = object
        while JSONWriter.compact(.object(object)).count > limit {
            let sizes = object.members.map { ($0.0, JSONWriter.compact($0.1).count) }
            guard let (key, _) = sizes.filter({ object[$0.0]?.arrayValue != nil || object[$0.0]?.objectValue != nil })
                    .max(by: { $0.1 < $1.1 }), let value = object[key] else { break }
            let omittedKey = key + "Omitted"
            let omitted = Int(object[omittedKey]?.int64Value ?? 0)
            switch value {
            case .array(let items) where !items.isEmpty:
                let keep = items.count / 2
                object[key] = .array(Array(items.prefix(keep)))
                object[omittedKey] = .integer(Int64(omitted + items.count - keep))
            case .object(let members) where !members.isEmpty:
                let keep = members.count / 2
                object[key] = .object(JSONObject(Array(members.members.prefix(keep))))
                object[omittedKey] = .integer(Int64(omitted + members.count - keep))
            default:
                return object
            }
        }
        return object
    }
}

extension JSONPatchOperation {
    /// The operation with its paths under `scope`: a diff of parts made to apply to the whole state.
    func rooted(at scope: JSONPointer) -> JSONPatchOperation {
        guard !scope.isRoot else { return self }
        func full(_ path: JSONPointer) -> JSONPointer { JSONPointer(tokens: scope.tokens + path.tokens) }
        switch self {
        case .add(let path, let value): return .add(path: full(path), value: value)
        case .remove(let path): return .remove(path: full(path))
        case .replace(let path, let value): return .replace(path: full(path), value: value)
        case .test(let path, let value): return .test(path: full(path), value: value)
        case .move(let from, let path): return .move(from: full(from), path: full(path))
        case .copy(let from, let path): return .copy(from: full(from), path: full(path))
        }
    }
}
