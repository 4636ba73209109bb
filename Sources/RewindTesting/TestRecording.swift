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
    /// numbered and actions summarised as `rewind log` shows them:
    ///
    /// ```text
    ///   last actions (of 11):
    ///     10  addItem sku: "A-12"
    ///     11  setNote id: 3, note: "gift wrap"
    ///   state change of entry 11, setNote:
    /// ```
    func failureReport() -> String {
        var lines = ["Rewind: test failed; recording kept at \(path)", "  browse it: rewind \(path)"]
        do {
            let reader = try LogReader(path: path)
            let count = reader.entryCount
            guard count > 0 else { return (lines + ["  (no actions were recorded)"]).joined(separator: "\n") }
            lines.append("  last actions (of \(count)):")
            let width = String(count).count
            for index in max(0, count - Self.reportedActionCount)..<count {
                let action = try reader.entry(at: index).action
                let number = String(repeating: " ", count: width - String(index + 1).count) + String(index + 1)
                let summary = Self.summary(of: action)
                lines.append("    \(number)  \(action.name)" + (summary.isEmpty ? "" : " " + summary))
            }
            let last = try reader.entry(at: count - 1)
            lines.append("  state change of entry \(count), \(last.action.name):")
            let before = try reader.stateBefore(count - 1) ?? .null
            let after = try reader.state(at: count - 1)
            let diff = StateChange.text(from: before, to: after) ?? "(no change)"
            lines += diff.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
        } catch {
            lines.append("  (could not read the recording back: \(error))")
        }
        return lines.joined(separator: "\n")
    }

    /// The payload as `rewind log` summarises it (`id: 3, note: "gift wrap"`), cut to `limit` characters.
    static func summary(of action: RecordedAction, limit: Int = 80) -> String {
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
