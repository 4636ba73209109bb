import Foundation
import Recorder

/// `rewind export <log> [--from A] [--to B] --format F [-o FILE] [--per-entry] [--path /p] [--redact RULE]...`:
/// a bug report, patch, diff, log slice or Redux DevTools file for entries A…B.
enum ExportCommand {
    static let usage = """
        usage: rewind export <log> [--from A] [--to B] [--format markdown|patch|unified|jsonl|redux-devtools]
                                   [-o FILE] [--per-entry] [--path /json/pointer] [--redact RULE]...
        """

    static func run(_ arguments: [String], streams: inout some TextStreams) -> Int32 {
        func fail(_ message: String) -> Int32 {
            streams.error("rewind export: \(message)")
            return 2
        }
        var rest = arguments
        let perEntry = CommandSupport.takeFlag("--per-entry", from: &rest)
        let repeated: [(name: String, value: String)]
        switch CommandSupport.takeRepeated(["--redact", "-o", "--output"], from: &rest) {
        case .success(let values): repeated = values
        case .failure(let error): return fail("\(error.description)\n\(usage)")
        }
        let parsed: (positional: [String], options: [String: String])
        switch CommandSupport.parse(rest, options: ["--from", "--to", "--format", "--path"]) {
        case .success(let value): parsed = value
        case .failure(let error): return fail("\(error.description)\n\(usage)")
        }
        guard parsed.positional.count == 1 else { return fail("expected one log file\n\(usage)") }

        let formatName = parsed.options["--format"] ?? ExportFormat.markdown.rawValue
        guard let format = ExportFormat(rawValue: formatName) else {
            let names = ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")
            return fail("unknown format '\(formatName)' (expected one of: \(names))")
        }
        var request = ExportRequest(format: format)
        request.perEntry = perEntry
        if perEntry, format != .patch, format != .unified { return fail("--per-entry applies to the patch and unified formats") }
        if let text = parsed.options["--path"] {
            guard format == .markdown || format == .patch || format == .unified else {
                return fail("--path applies to the markdown, patch and unified formats")
            }
            do { request.path = try JSONPointer(parsing: text) } catch { return fail(error.description) }
        }
        let rules = repeated.filter { $0.name == "--redact" }.map(\.value)
        if !rules.isEmpty {
            do { request.redaction = try Redaction(rules: rules) } catch { return fail(error.description) }
        }
        for name in ["--from", "--to"] {
            guard let text = parsed.options[name] else { continue }
            guard let number = Int(text), number >= 1 else { return fail("\(name) '\(text)' is not an entry number (entries are numbered from 1)") }
            if name == "--from" { request.firstEntry = number } else { request.lastEntry = number }
        }
        if let first = request.firstEntry, let last = request.lastEntry, first > last {
            return fail("--from \(first) is after --to \(last)")
        }

        let bytes: [UInt8]
        do {
            bytes = try LogExporter.export(logAt: parsed.positional[0], request)
        } catch {
            return fail(error.description)
        }
        let outputs = repeated.filter { $0.name != "--redact" }
        if let output = outputs.last?.value {
            return CommandSupport.write(bytes, to: output, inputs: [parsed.positional[0]], command: "export", streams: &streams)
        }
        streams.output(String(decoding: bytes, as: UTF8.self))
        return 0
    }
}

extension CommandSupport {
    /// Removes a flag without a value from `arguments`; true when it was there.
    static func takeFlag(_ name: String, from arguments: inout [String]) -> Bool {
        let before = arguments.count
        arguments.removeAll { $0 == name }
        return arguments.count != before
    }

    /// Removes every `name value` / `name=value` for the given options (which may repeat)
    /// from `arguments`, in order.
    static func takeRepeated(_ names: Set<String>, from arguments: inout [String]) -> Result<[(name: String, value: String)], UsageError> {
        var taken: [(name: String, value: String)] = []
        var remaining: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if let equals = argument.firstIndex(of: "="), names.contains(String(argument[..<equals])) {
                taken.append((String(argument[..<equals]), String(argument[argument.index(after: equals)...])))
            } else if names.contains(argument) {
                index += 1
                guard index < arguments.count else { return .failure(UsageError("option '\(argument)' needs a value")) }
                taken.append((argument, arguments[index]))
            } else {
                remaining.append(argument)
            }
            index += 1
        }
        arguments = remaining
        return .success(taken)
    }

    /// Writes a command's output file (see ``OutputFile``: never over one of
    /// `inputs`, never through a link to a file); one line and status 2 when it cannot.
    static func write(_ bytes: [UInt8], to path: String, inputs: [String], command: String, streams: inout some TextStreams) -> Int32 {
        do {
            try OutputFile.write(bytes, to: path, inputs: inputs)
            return 0
        } catch {
            streams.error("rewind \(command): \(error.description)")
            return 2
        }
    }
}
