import Foundation
import Recorder

/// `rewind diff A.json B.json [--format tree|patch|unified]`: like diff(1),
/// exit 0 when the documents are equal, 1 with the differences, 2 when an
/// input is missing or not valid JSON (one line naming file, line and column).
enum DiffCommand: CommandRunner {
    enum Format: String, CaseIterable {
        /// `-`/`+` lines with unchanged members collapsed (the default).
        case tree
        /// An RFC 6902 JSON Patch from A to B.
        case patch
        /// `diff -u` of the pretty-printed documents.
        case unified
    }

    static func run(_ invocation: Invocation, streams: inout some TextStreams) -> Int32 {
        // The parser accepts only the table's choices, which are the cases.
        let format = invocation["--format"].flatMap(Format.init(rawValue:)) ?? .tree
        let (oldPath, newPath) = (invocation.positional[0], invocation.positional[1])
        guard let old = read(oldPath, invocation, streams: &streams), let new = read(newPath, invocation, streams: &streams) else { return 2 }
        if old == new {
            streams.output("no differences")
            return 0
        }
        switch format {
        case .tree: streams.output(JSONDiff.treeText(from: old, to: new) ?? "")
        case .patch: streams.output(JSONWriter.prettyString(JSONDiff.patch(from: old, to: new).jsonValue))
        case .unified: streams.output(JSONDiff.unifiedText(from: old, to: new, fromLabel: oldPath, toLabel: newPath) ?? "")
        }
        return 1
    }

    /// The parsed document, or nil after writing `rewind diff: FILE:LINE:COLUMN: reason`.
    private static func read(_ path: String, _ invocation: Invocation, streams: inout some TextStreams) -> JSONValue? {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let exists = FileManager.default.fileExists(atPath: path)
            streams.error("\(invocation.displayName): \(path): \(exists ? "cannot read the file" : "no such file")")
            return nil
        }
        do {
            return try JSONParser.parse(data)
        } catch {
            streams.error("\(invocation.displayName): \(path):\(error.line):\(error.column): \(error.reason)")
            return nil
        }
    }
}
