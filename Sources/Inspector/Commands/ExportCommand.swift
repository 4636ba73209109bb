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
        if let text = invocation["--path"] {
            guard format == .markdown || format == .patch || format == .unified else {
                return fail("--path applies to the markdown, patch and unified formats")
            }
            do { request.path = try JSONPointer(parsing: text) } catch { return fail(error.description) }
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
