import Foundation
import Recorder

/// `rewind import <export.json> -o out.jsonl`: a Redux DevTools export as a Rewind log.
enum ImportCommand {
    static let usage = "usage: rewind import <redux-devtools-export.json> -o <out.jsonl>"

    static func run(_ arguments: [String], streams: inout some TextStreams) -> Int32 {
        func fail(_ message: String) -> Int32 {
            streams.error("rewind import: \(message)")
            return 2
        }
        var rest = arguments
        let outputs: [(name: String, value: String)]
        switch CommandSupport.takeRepeated(["-o", "--output"], from: &rest) {
        case .success(let values): outputs = values
        case .failure(let error): return fail("\(error.description)\n\(usage)")
        }
        guard rest.count == 1, !rest[0].hasPrefix("-") else { return fail("expected one export file\n\(usage)") }
        guard let output = outputs.last?.value else { return fail("-o <out.jsonl> is required\n\(usage)") }
        let path = rest[0]
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            return fail("cannot read \(path): \(exists ? (isDirectory.boolValue ? "it is a directory" : "permission denied") : "no such file")")
        }
        let log: [UInt8]
        do {
            log = try ReduxDevToolsImport.log(from: Array(data), created: Date())
        } catch {
            return fail("\(path): \(error.description)")
        }
        return CommandSupport.write(log, to: output, command: "import", streams: &streams)
    }
}
