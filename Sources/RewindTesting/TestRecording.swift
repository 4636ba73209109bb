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
/// `.build/rewind-recordings/` in the package that holds the test.
public final class TestRecording: Sendable {
    /// The recording of the Swift Testing test that is running, set by `.recorded`.
    @TaskLocal public static var current: TestRecording?

    /// The recorder to attach to the store under test.
    public let recorder: Recorder
    /// Where the log is written.
    public let path: String

    /// How many of the last actions a failure report lists.
    static let reportedActionCount = 5

    /// Starts recording a test named `testName` (a file-name-safe version of it
    /// names the log). `sourceFile` locates the package for the default directory.
    public init(testName: String, sourceFile: String = #filePath, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let directory = Self.recordingsDirectory(sourceFile: sourceFile, environment: environment)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        path = directory + "/" + Self.fileName(for: testName) + ".jsonl"
        // A log left by an earlier run of the same test would be appended to.
        try? FileManager.default.removeItem(atPath: path)
        var options = Recorder.Options()
        options.metadata = ["test": testName]
        recorder = try Recorder(file: path, options: options)
    }

    /// Closes the log; keeps it and returns a report when the test failed (or
    /// `REWIND_KEEP=1`), deletes it otherwise. The report is also printed.
    @discardableResult
    public func finish(failed: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let closeError: Error?
        do { try recorder.close(); closeError = nil } catch { closeError = error }
        guard failed || environment["REWIND_KEEP"] == "1" else {
            try? FileManager.default.removeItem(atPath: path)
            return nil
        }
        var report = failed ? failureReport() : "Rewind: recording kept (REWIND_KEEP=1) at \(path)"
        if let closeError { report += "\n  note: recording stopped early: \(closeError)" }
        FileHandle.standardError.write(Data((report + "\n").utf8))
        return report
    }

    /// Path, last actions and the state change of the last action.
    func failureReport() -> String {
        var lines = ["Rewind: test failed; recording kept at \(path)", "  browse it: rewind \(path)"]
        do {
            let reader = try LogReader(path: path)
            let count = reader.entryCount
            guard count > 0 else { return (lines + ["  (no actions were recorded)"]).joined(separator: "\n") }
            lines.append("  last actions (of \(count)):")
            for index in max(0, count - Self.reportedActionCount)..<count {
                let action = try reader.entry(at: index).action
                lines.append("    #\(index) \(action.name) \(Self.summary(of: action.payload))")
            }
            let last = try reader.entry(at: count - 1)
            lines.append("  state change of #\(count - 1) \(last.action.name):")
            let before = try reader.stateBefore(count - 1) ?? .null
            let after = try reader.state(at: count - 1)
            let diff = StateChange.text(from: before, to: after) ?? "(no change)"
            lines += diff.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
        } catch {
            lines.append("  (could not read the recording back: \(error))")
        }
        return lines.joined(separator: "\n")
    }

    static func summary(of payload: JSONValue, limit: Int = 80) -> String {
        let text = "\(payload)"
        return text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }

    static func recordingsDirectory(sourceFile: String, environment: [String: String]) -> String {
        if let directory = environment["REWIND_RECORDINGS"], !directory.isEmpty { return directory }
        let root = packageRoot(containing: sourceFile) ?? FileManager.default.currentDirectoryPath
        return root + "/.build/rewind-recordings"
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
            case "/", " ", ":": if !name.hasSuffix(".") { name += "." }
            default: break
            }
        }
        while name.hasSuffix(".") { name.removeLast() }
        while name.hasPrefix("-") || name.hasPrefix(".") { name.removeFirst() }
        return name.isEmpty ? "test" : name
    }
}
