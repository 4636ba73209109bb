import Foundation

/// The project's hide-list (action types like `heartbeat` that the timeline
/// leaves out, Tab in the `f` picker): one type per line in
/// `.rewind/hidden-actions` under the directory `rewind` runs in, so it can be
/// committed with the project or ignored.
enum HiddenActionTypes {
    static func file(in directory: String) -> String {
        ((directory as NSString).appendingPathComponent(".rewind") as NSString).appendingPathComponent("hidden-actions")
    }

    static func load(directory: String = FileManager.default.currentDirectoryPath) -> [String] {
        guard let text = try? String(contentsOfFile: file(in: directory), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    static func save(_ types: [String], directory: String = FileManager.default.currentDirectoryPath) throws(ExportWriteError) {
        let path = file(in: directory)
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data((types.map { $0 + "\n" }.joined()).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ExportWriteError(description: "cannot save the hide-list to \(path): \((error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription)")
        }
    }
}
