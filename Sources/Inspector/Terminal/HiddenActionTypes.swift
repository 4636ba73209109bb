import Foundation

/// The hide-lists (action types like `heartbeat` that the timeline leaves out):
/// the project's (Tab in the `f` picker), one type per line in
/// `.rewind/hidden-actions` under the directory `rewind` runs in, so it can be
/// committed with the project or ignored; and one per log file (Shift-Tab), in
/// `.rewind/hidden-actions-by-log` next to it, a `<log's absolute path> TAB <type>`
/// line per type, so one noisy recording can be quietened without hiding the
/// type in every other.
enum HiddenActionTypes {
    static func file(in directory: String) -> String {
        ((directory as NSString).appendingPathComponent(".rewind") as NSString).appendingPathComponent("hidden-actions")
    }

    static func load(directory: String = FileManager.default.currentDirectoryPath) -> [String] {
        guard let text = try? String(contentsOfFile: file(in: directory), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    static func save(_ types: [String], directory: String = FileManager.default.currentDirectoryPath) throws(ExportWriteError) {
        try write(types.map { $0 + "\n" }.joined(), to: file(in: directory), what: "the hide-list")
    }

    static func perLogFile(in directory: String) -> String {
        ((directory as NSString).appendingPathComponent(".rewind") as NSString).appendingPathComponent("hidden-actions-by-log")
    }

    /// What the per-log store is keyed by: the log's absolute path, `.` and `..` resolved.
    static func key(forLogAt path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }

    /// The types hidden in the log keyed `log` (see ``key(forLogAt:)``).
    static func load(forLog log: String, directory: String = FileManager.default.currentDirectoryPath) -> [String] {
        perLogLines(directory: directory).filter { $0.log == log }.map(\.type)
    }

    /// Replaces the log's list, keeping every other log's lines as they were.
    static func save(_ types: [String], forLog log: String, directory: String = FileManager.default.currentDirectoryPath) throws(ExportWriteError) {
        let kept = perLogLines(directory: directory).filter { $0.log != log }
        let lines = kept + types.map { (log: log, type: $0) }
        try write(lines.map { $0.log + "\t" + $0.type + "\n" }.joined(), to: perLogFile(in: directory), what: "the log's hide-list")
    }

    private static func perLogLines(directory: String) -> [(log: String, type: String)] {
        guard let text = try? String(contentsOfFile: perLogFile(in: directory), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let tab = line.lastIndex(of: "\t") else { return nil }
            let type = line[line.index(after: tab)...].trimmingCharacters(in: .whitespaces)
            return type.isEmpty ? nil : (log: String(line[..<tab]), type: type)
        }
    }

    private static func write(_ text: String, to path: String, what: String) throws(ExportWriteError) {
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ExportWriteError(description: "cannot save \(what) to \(path): \((error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription)")
        }
    }
}
