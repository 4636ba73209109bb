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
            throw ExportError(error)
        }
        return try export(from: timeline, request)
    }

    static func export(from source: any TimelineSource, _ request: ExportRequest) throws(ExportError) -> [UInt8] {
        if request.format == .states {
            // Rows come from the log file itself (`rewind export --format states` streams them).
            guard let log = source.recordedLog else { throw ExportError(.needsLogFile, "the states format reads a log file") }
            var export = StateRowsExport(paths: request.path.map { [$0] } ?? [], redaction: request.redaction)
            export.firstEntry = request.firstEntry
            export.lastEntry = request.lastEntry
            var bytes: [UInt8] = []
            try export.write(recordingAt: log.path, shownAs: source.name) { (chunk) throws(OutputFile.Failure) in bytes += chunk }
            return bytes
        }
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
        case .states:
            preconditionFailure("handled above")
        }
    }

    /// The Markdown report of `request`'s entries, written to `output` section by section (the
    /// inspector's `e`: a 30 MB diff's report is 76 MB, written to its file a piece at a time).
    /// Throws ``ExportError`` before anything is written, ``ExportWriteError`` from `output`.
    static func writeMarkdownReport(from source: any TimelineSource, _ request: ExportRequest, to output: ExportOutput) throws {
        // Esc is looked at while the states are read too: a huge one takes a while before the first byte is written.
        guard let slice = try ExportSlice(source: source, range: try range(of: request, in: source), redaction: request.redaction,
                                          isCancelled: { output.isCancelled }) else { throw ExportWriteError.cancelled }
        try MarkdownReport(slice: slice, path: request.path).write(to: output)
    }

    /// The positions of the entries `request` asks for, by the numbers entries were
    /// recorded with (`rewind log` shows them), checked against the log. A range that
    /// starts or ends in a gap starts after it or ends before it (the report says so).
    static func range(of request: ExportRequest, in source: any TimelineSource) throws(ExportError) -> ClosedRange<Int> {
        let count = source.count
        guard count > 0 else { throw ExportError(.entryOutOfRange, "\(source.name) has no entries to export") }
        let lastNumber = source.entryNumber(at: count - 1)
        let first = request.firstEntry ?? 1
        let last = request.lastEntry ?? lastNumber
        for number in [first, last] where number < 1 || number > lastNumber {
            throw ExportError(.entryOutOfRange, "there is no entry \(number) in \(source.name) (it has entries 1–\(lastNumber))")
        }
        guard first <= last else { throw ExportError(.invalidRange, "the first entry (\(first)) is after the last (\(last))") }
        let from = try position(of: first, in: source, goingForward: true)
        let to = try position(of: last, in: source, goingForward: false)
        guard from <= to else { throw ExportError(.entriesNotRecorded, "entries \(first)–\(last) of \(source.name) were not recorded") }
        return from...to
    }

    private static func position(of number: Int, in source: any TimelineSource, goingForward: Bool) throws(ExportError) -> Int {
        switch source.lookUp(entryNumber: number) {
        case .row(let row): return row
        case .notRecorded(let gap, let row):
            // The first recorded entry after the gap, or the last one before it.
            let after = row.map { $0 + 1 } ?? source.entryIndex(ofRecordedLogIndex: gap.beforeEntry)
            return goingForward ? after : after - 1
        case .damaged(let record):
            throw ExportError(.damagedEntry, "entry \(number) of \(source.name) is a damaged record (line \(record.line): \(record.reason))")
        case .pastTheEnd:
            throw ExportError(.entryOutOfRange, "there is no entry \(number) in \(source.name)")
        }
    }
}
