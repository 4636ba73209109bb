import Foundation
import Recorder

/// One test's recording: where its log goes, and what happens to it when the
/// test ends. A failed test keeps its log and prints a short report; a passed
/// test deletes it unless `REWIND_KEEP=1` is set.
///
/// You rarely use this type directly: `@Test(.recorded)` (Swift Testing) and
/// `recordTest()` (XCTest) create one per test and finish it for you.
///
/// Logs go to the `REWIND_RECORDINGS` directory when that is set, otherwise to
/// `.build/rewind-recordings/` in the package that holds the test (on a device,
/// where that folder does not exist, to `rewind-recordings` in the app's caches).
public final class TestRecording: Sendable {
    /// The recording of the Swift Testing test that is running, set by `.recorded`.
    @TaskLocal public static var current: TestRecording?

    /// The recorder to attach to the store under test.
    public let recorder: ActionRecorder
    /// Where the log is written.
    public let path: String

    /// How many of the last actions a failure report lists.
    static let reportedActionCount = 5

    /// Starts recording a test named `testName` (a file-name-safe version of it
    /// names the log). `sourceFile` locates the package for the default directory.
    public convenience init(testName: String, sourceFile: String = #filePath, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        try self.init(testName: testName, arguments: nil, sourceFile: sourceFile, environment: environment)
    }

    /// A parameterized case's recording: `arguments` (`count: 3`) is part of its name and header.
    init(testName: String, arguments: String?, sourceFile: String, environment: [String: String]) throws {
        let directory = Self.recordingsDirectory(sourceFile: sourceFile, environment: environment)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let fullName = arguments.map { "\(testName)(\($0))" } ?? testName
        path = Self.claimPath(directory + "/" + Self.fileName(for: fullName))
        // A log left by an earlier run of the same test would be appended to.
        try? FileManager.default.removeItem(atPath: path)
        var options = ActionRecorder.Options()
        options.metadata = ["test": fullName]
        if let arguments { options.metadata["arguments"] = arguments }
        recorder = try ActionRecorder(file: path, options: options)
    }

    private nonisolated(unsafe) static var claimedPaths: Set<String> = []
    private static let claimLock = NSLock()

    /// `base.jsonl`, or `base-2.jsonl`… when another recording of this process has it
    /// (two cases whose arguments read the same run in parallel).
    static func claimPath(_ base: String) -> String {
        claimLock.withLock {
            var path = base + ".jsonl"
            var number = 1
            while claimedPaths.contains(path) {
                number += 1
                path = "\(base)-\(number).jsonl"
            }
            claimedPaths.insert(path)
            return path
        }
    }

    /// Closes the log; keeps it and returns a report when the test failed (or
    /// `REWIND_KEEP=1`), deletes it otherwise. The report is also printed.
    @discardableResult
    public func finish(failed: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        finish(failed: failed, printing: true, environment: environment)
    }

    /// `printing: false` when the report went to the test's failure already.
    @discardableResult
    func finish(failed: Bool, printing: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let closeError: Error?
        do { try recorder.close(); closeError = nil } catch { closeError = error }
        guard failed || environment["REWIND_KEEP"] == "1" else {
            try? FileManager.default.removeItem(atPath: path)
            return nil
        }
        // The header says so, and `rewind ls` lists failed tests' recordings first.
        if failed, closeError == nil { try? LogMetadataRewrite.set("outcome", to: "failed", inLogAt: path) }
        var report = failed ? failureReport() : "Rewind: recording kept (REWIND_KEEP=1) at \(path)"
        if let closeError { report += "\n  note: recording stopped early: \(closeError)" }
        if printing { FileHandle.standardError.write(Data((report + "\n").utf8)) }
        return report
    }

    /// Path, last actions and the state change of the last action, with entries
    /// numbered and actions summarised as `rewind log` shows them, and a line
    /// where entries were not recorded:
    ///
    /// ```text
    ///   last actions (of 11, 1 not recorded):
    ///      9  addItem sku: "A-12"
    ///     10  not recorded: the state after loadCatalog is 70 MB encoded; a log record holds at most 64 MB
    ///     11  setNote id: 3, note: "gift wrap"
    ///   state change of entry 11, setNote (from entry 9, across a gap: entry 10 not recorded):
    /// ```
    func failureReport() -> String {
        var lines = ["Rewind: test failed; recording kept at \(path)", "  browse it: rewind \(path)"]
        do {
            let reader = try LogReader(path: path)
            lines += try Self.lastActions(in: reader)
        } catch {
            lines.append("  (could not read the recording back: \(error))")
        }
        return lines.joined(separator: "\n")
    }

    /// The report's lines about the recorded entries: the last few, where entries were not
    /// recorded among them (and after them) and where a new recording session starts, and
    /// the last entry's state change.
    private static func lastActions(in reader: LogReader) throws -> [String] {
        let count = reader.entryCount
        let first = max(0, count - reportedActionCount)
        let gaps = reader.gaps.filter { $0.beforeEntry >= first }.map { (gap: $0, number: reader.firstEntryNumber(of: $0)) }
        guard count > 0 || !gaps.isEmpty else { return ["  (no actions were recorded)"] }
        let numbers = (first..<count).map(reader.entryNumber(at:))
        let lastNumber = max(numbers.last ?? 0, gaps.last.map { $0.number + max(1, $0.gap.droppedCount) - 1 } ?? 0)
        let notRecorded = reader.gaps.reduce(0) { $0 + max(1, $1.droppedCount) }
        var lines = ["  last actions (of \(lastNumber)" + (notRecorded > 0 ? ", \(notRecorded) not recorded):" : "):")]
        // Rows between the entries, in file order: a gap where its entries would be, a new session where it starts.
        let marks = (gaps.map { (before: $0.gap.beforeEntry, line: $0.gap.lineNumber, label: $0.gap.range(from: $0.number), text: $0.gap.listingText) }
            + reader.laterSessions.filter { $0.beforeEntry > first }.map { (before: $0.beforeEntry, line: $0.lineNumber, label: "", text: "── " + $0.startDescription) })
            .sorted { ($0.before, $0.line) < ($1.before, $1.line) }
        let width = (marks.map(\.label) + numbers.map(String.init)).map(\.count).max() ?? 1
        func row(_ label: String, _ text: String) -> String {
            "    " + String(repeating: " ", count: width - label.count) + label + "  " + text
        }
        for index in first...count {
            for mark in marks where mark.before == index { lines.append(row(mark.label, mark.text)) }
            guard index < count else { break }
            let action = try reader.entry(at: index).action
            let summary = summary(of: action)
            lines.append(row(String(numbers[index - first]), action.name + (summary.isEmpty ? "" : " " + summary)))
        }
        guard count > 0 else { return lines }
        let last = try reader.entry(at: count - 1)
        lines.append("  state change of entry \(numbers[numbers.count - 1]), \(last.action.name)" + startingPoint(ofEntry: count - 1, in: reader) + ":")
        let before = try reader.stateBefore(count - 1) ?? .null
        let after = try reader.state(at: count - 1)
        let diff = StateChange.text(from: before, to: after) ?? "(no change)"
        lines += diff.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
        return lines
    }

    /// What the state change of entry `index` starts from, when it is not the entry before,
    /// as the inspector's diff title says it: ` (from entry 6, across a gap: entry 7 not recorded)`,
    /// ` (from the state a new recording session started with)`.
    private static func startingPoint(ofEntry index: Int, in reader: LogReader) -> String {
        guard index > 0 else { return "" }
        if reader.startsSession(at: index) { return " (from the state a new recording session started with)" }
        let skipped = reader.gaps.filter { $0.beforeEntry == index }
        guard !skipped.isEmpty else { return "" }
        return " (from entry \(reader.entryNumber(at: index - 1)), across a gap: "
            + skipped.map { $0.entries(from: reader.firstEntryNumber(of: $0)) + " not recorded" }.joined(separator: ", ") + ")"
    }

    /// The payload as `rewind log` summarises it (`id: 3, note: "gift wrap"`), cut to `limit` characters.
    static func summary(of action: LogEntry.Action, limit: Int = 80) -> String {
        let text = ActionSummary.payload(of: action)
        return text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }

    /// `$REWIND_RECORDINGS`; else `.build/rewind-recordings` in the package that holds the test
    /// when it can be created there; else (tests on a device, where the package's folder is a
    /// path on the Mac that built them) `rewind-recordings` in ``ActionRecorder/defaultDirectory``,
    /// the app's caches folder.
    static func recordingsDirectory(sourceFile: String, environment: [String: String],
                                    workingDirectory: String = FileManager.default.currentDirectoryPath) -> String {
        if let directory = environment["REWIND_RECORDINGS"], !directory.isEmpty { return directory }
        let root = packageRoot(containing: sourceFile) ?? workingDirectory
        let beside = root + "/.build/rewind-recordings"
        if (try? FileManager.default.createDirectory(atPath: beside, withIntermediateDirectories: true)) != nil { return beside }
        return Platform.recordingsDirectory(environment: environment) + "/rewind-recordings"
    }

    /// The nearest directory above `file` that has a Package.swift.
    static func packageRoot(containing file: String) -> String? {
        var directory = URL(fileURLWithPath: file).deletingLastPathComponent()
        while directory.path != "/" && !directory.path.isEmpty {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory.path
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }

    /// `TodoTests/addingTodos()` → `TodoTests.addingTodos`.
    static func fileName(for testName: String) -> String {
        var name = ""
        for scalar in testName.unicodeScalars {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": name.unicodeScalars.append(scalar)
            case "/", " ", ":", "(", ",", "=": if !name.hasSuffix(".") { name += "." }
            default: break
            }
        }
        while name.hasSuffix(".") { name.removeLast() }
        while name.hasPrefix("-") || name.hasPrefix(".") { name.removeFirst() }
        return name.isEmpty ? "test" : name
    }
}
