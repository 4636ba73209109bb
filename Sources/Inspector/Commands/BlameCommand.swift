import Recorder

/// `rewind blame <log> <pointer>`: every entry that changed a state path,
/// with the value before and after (`old → new`).
enum BlameCommand {
    static let usage = "usage: rewind blame <log> </json/pointer>"

    static func run(_ arguments: [String], streams: inout some TextStreams) -> Int32 {
        guard arguments.count == 2 else {
            streams.error(usage)
            return 2
        }
        let pointer: JSONPointer
        do {
            pointer = try JSONPointer(parsing: arguments[1])
        } catch {
            streams.error("rewind blame: \(error.description)")
            return 2
        }
        guard let timeline = CommandSupport.openLog(arguments[0], streams: &streams) else { return 2 }
        let numberWidth = max(3, String(timeline.count).count)
        var found = 0
        var lines: [String] = []
        for index in 0..<timeline.count {
            guard let entry = timeline.entry(at: index),
                  entry.changedPaths.contains(where: { $0.hasPrefix(pointer) || pointer.hasPrefix($0) || $0.lastToken == "-" && pointer.hasPrefix($0.parent!) })
            else { continue }
            let before = timeline.stateBefore(index)?[pointer: pointer]
            let after = (try? timeline.state(at: index))?[pointer: pointer]
            guard before != after else { continue }
            found += 1
            lines.append(CommandSupport.entryLine(entry, numberWidth: numberWidth) + "  " + describe(before) + " → " + describe(after))
        }
        if found == 0 {
            streams.output("No entry in \(timeline.name) changed \(pointer)")
        } else {
            streams.output(lines.joined(separator: "\n"))
        }
        return 0
    }

    /// Compact JSON, long values shortened; `(absent)` when the path did not exist.
    static func describe(_ value: JSONValue?) -> String {
        guard let value else { return "(absent)" }
        let text = value.description
        return text.count > 80 ? String(text.prefix(79)) + "…" : text
    }
}
