import Foundation
import Recorder

/// `rewind export <log> [--from A] [--to B] --format F [-o FILE] [--per-entry] [--path /p] [--redact RULE]...`:
/// a bug report, patch, diff, log slice or Redux DevTools file for entries A…B.
enum ExportCommand: CommandRunner {
    static func run(_ invocation: Invocation, streams: inout some TextStreams) -> Int32 {
        func fail(_ message: String) -> Int32 { invocation.fail(message, streams: &streams) }
        let logPath = invocation.positional[0]
        // The parser accepts only the table's choices, which are the cases.
        let format = invocation["--format"].flatMap(ExportFormat.init(rawValue:)) ?? .markdown
        let perEntry = invocation.isSet("--per-entry")
        var request = ExportRequest(format: format)
        request.perEntry = perEntry
        if perEntry, format != .patch, format != .unified { return fail("--per-entry applies to the patch and unified formats") }
        let paths = invocation.values(of: "--path")
        if format != .states {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: logPath, isDirectory: &isDirectory), isDirectory.boolValue {
                return fail("\(logPath) is a directory; --format states exports every recording under one, the other formats one log")
            }
            if paths.count > 1 { return fail("--path is given once for the \(format.rawValue) format (states takes several)") }
            if let text = paths.last {
                guard format == .markdown || format == .patch || format == .unified else {
                    return fail("--path applies to the markdown, patch and unified formats")
                }
                do { request.path = try JSONPointer(parsing: text) } catch { return fail(error.description) }
            }
        }
        let rules = invocation.values(of: "--redact")
        if !rules.isEmpty {
            do { request.redaction = try Redaction(rules: rules) } catch { return fail(error.description) }
        }
        for name in ["--from", "--to"] {
            guard let text = invocation[name] else { continue }
            guard let number = Int(text), number >= 1 else { return fail("\(name) '\(text)' is not an entry number (entries are numbered from 1)") }
            if name == "--from" { request.firstEntry = number } else { request.lastEntry = number }
        }
        if let first = request.firstEntry, let last = request.lastEntry, first > last {
            return fail("--from \(first) is after --to \(last)")
        }
        if format == .states { return exportStates(invocation, request, paths: paths, streams: &streams) }

        let bytes: [UInt8]
        do {
            bytes = try LogExporter.export(logAt: logPath, request)
        } catch {
            return fail(error.description)
        }
        if let output = invocation["-o"] {
            return CommandSupport.write(bytes, to: output, inputs: [logPath], invocation: invocation, streams: &streams)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        // A log slice is checksummed byte for byte: exact, unless a person is reading it.
        if format == .jsonl { streams.outputData(text) } else { streams.output(text) }
        return 0
    }
}

extension ExportCommand {
    /// `--format states`: rows streamed to standard output or `-o FILE` (replaced atomically
    /// once complete), from one log or every recording under a directory (in path order).
    static func exportStates(_ invocation: Invocation, _ request: ExportRequest, paths: [String], streams: inout some TextStreams) -> Int32 {
        func fail(_ message: String) -> Int32 { invocation.fail(message, streams: &streams) }
        var export = StateRowsExport(redaction: request.redaction, firstEntry: request.firstEntry, lastEntry: request.lastEntry)
        for text in paths {
            do {
                let pointer = try JSONPointer(parsing: text)
                if !export.paths.contains(pointer) { export.paths.append(pointer) }
            } catch {
                return fail(error.description)
            }
        }

        let target = invocation.positional[0]
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory) else { return fail("\(target): no such file or directory") }
        // A directory: the recordings `rewind ls` lists under it, each under the name it has there.
        let recordings: [(path: String, shown: String)] = isDirectory.boolValue
            ? RecordingCatalog.logFiles(under: target).sorted { $0.relative < $1.relative }
                .map { ($0.path, (target as NSString).appendingPathComponent($0.relative)) }
            : [(target, target)]
        if isDirectory.boolValue, recordings.isEmpty { return fail("\(target): no recordings (.jsonl files) under it") }

        var file: OutputFile.Stream?
        if let output = invocation["-o"] {
            do { file = try OutputFile.open(output, inputs: recordings.map(\.path)) } catch { return fail(error.description) }
        }

        func emit(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputFile.Failure) {
            if let file { try file.write(bytes) } else { streams.output(bytes: bytes) }
        }
        for recording in recordings {
            do {
                try export.write(recordingAt: recording.path, shownAs: recording.shown) { (bytes) throws(OutputFile.Failure) in
                    try emit(bytes)
                }
            } catch {
                // Under a directory, a file that is not a log is skipped, as `rewind find DIR` skips it; a
                // recording that cannot be read is a row (and a line here). Alone, either is the error.
                if isDirectory.boolValue, error.isNotARecording { continue }
                guard isDirectory.boolValue, !error.description.hasPrefix("cannot write") else {
                    file?.abandon()
                    return fail(error.description)
                }
                streams.error("\(invocation.displayName): \(error.description)")
                do { try StateRowsExport.unreadableRow(recording: recording.shown, reason: error.description).withUnsafeBufferPointer(emit) } catch {
                    file?.abandon()
                    return fail(error.description)
                }
            }
        }

        do { try file?.finish() } catch { return fail(error.description) }
        return 0
    }
}

extension CommandSupport {
    /// Writes a command's output file (see ``OutputFile``: never over one of
    /// `inputs`, never through a link to a file); one line and status 2 when it cannot.
    static func write(_ bytes: [UInt8], to path: String, inputs: [String], invocation: Invocation, streams: inout some TextStreams) -> Int32 {
        do {
            try OutputFile.write(bytes, to: path, inputs: inputs)
            return 0
        } catch {
            return invocation.fail(error.description, streams: &streams)
        }
    }
}
