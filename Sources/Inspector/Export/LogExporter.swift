import Foundation
import Recorder

/// Turns a range of a log into a bug report, a patch, a diff, a log slice or a
/// Redux DevTools file. `rewind export` and the inspector's `e` key both use it.
///
/// ```swift
/// var request = ExportRequest(format: .markdown)
/// request.redaction = try Redaction(rules: ["password"])
/// let report = try LogExporter.export(logAt: "checkout.jsonl", request)
/// ```
public enum LogExporter {
    /// Exports from the log file at `path`.
    ///
    /// - Throws: ``ExportError`` for a file that is not a readable log, entries
    ///   outside the log, a `path` missing from the state, or damage that makes a state unavailable.
    public static func export(logAt path: String, _ request: ExportRequest) throws(ExportError) -> [UInt8] {
        let timeline: LogTimeline
        do {
            timeline = try LogTimeline(path: path)
        } catch {
            throw ExportError(error.description)
        }
        return try export(from: timeline, request)
    }

    static func export(from source: any TimelineSource, _ request: ExportRequest) throws(ExportError) -> [UInt8] {
        let slice = try ExportSlice(source: source, range: try range(of: request, in: source), redaction: request.redaction)
        switch request.format {
        case .markdown:
            return Array(try MarkdownReport.text(for: slice, path: request.path).utf8)
        case .patch:
            return Array(try StateChangeExport.patchText(for: slice, perEntry: request.perEntry, path: request.path).utf8)
        case .unified:
            return Array(try StateChangeExport.unifiedText(for: slice, perEntry: request.perEntry, path: request.path).utf8)
        case .jsonl:
            return try LogSliceExport.bytes(for: slice)
        case .reduxDevTools:
            return Array(ReduxDevToolsExport.text(for: slice).utf8)
        }
    }

    /// The 0-based entries `request` asks for, checked against the log.
    static func range(of request: ExportRequest, in source: any TimelineSource) throws(ExportError) -> ClosedRange<Int> {
        let count = source.count
        guard count > 0 else { throw ExportError("\(source.name) has no entries to export") }
        let first = request.firstEntry ?? 1
        let last = request.lastEntry ?? count
        for number in [first, last] where number < 1 || number > count {
            throw ExportError("there is no entry \(number) in \(source.name) (it has entries 1–\(count))")
        }
        guard first <= last else { throw ExportError("the first entry (\(first)) is after the last (\(last))") }
        return (first - 1)...(last - 1)
    }
}
