import Foundation
import Recorder

/// `verify <log>` in a debug executable: prints the compatibility report,
/// replays every entry through the linked reducer and exits 0 when every
/// recomputed state equals the recorded one, 1 with the first divergence
/// otherwise, 2 for a missing or unreadable log.
enum VerifyCommand: CommandRunner {
    /// Only in a debug executable's table, whose program links the reducer.
    static func run(_ invocation: Invocation, streams: inout some TextStreams) -> Int32 {
        guard let link = invocation.program.replay else { return invocation.fail("no reducer is linked", streams: &streams) }
        let path = invocation.positional[0]
        let reader: LogReader
        do {
            reader = try LogReader(path: path)
        } catch {
            return invocation.fail(error.description, streams: &streams)
        }
        let engine = link(reader)
        streams.output("\(reader.path): \(reader.entryCount) entries\n" + engine.compatibility.description)
        let run = engine.replay(from: 0)
        var problems: [String] = []
        var failedEntries: [Int] = []
        for (offset, check) in run.checks.enumerated() {
            switch check {
            case .diverges(let divergence):
                if problems.isEmpty { problems.append(divergence.description) }
                failedEntries.append(run.start + offset)
            case .cannotReplay(let error):
                if problems.isEmpty { problems.append(error.description) }
                failedEntries.append(run.start + offset)
            case .matches, .restarted, .restored:
                break
            }
        }
        guard let first = problems.first else {
            streams.output("verify: ok, " + replayedText(run, number: reader.entryNumber(at:)))
            return 0
        }
        // Entries by the numbers `rewind log` gives them.
        var text = "verify: FAILED at entry \(reader.entryNumber(at: failedEntries[0]))\n" + first
        if failedEntries.count > 1 {
            let listed = failedEntries.prefix(20).map { String(reader.entryNumber(at: $0)) }.joined(separator: ", ")
            text += "\n\(failedEntries.count) entries fail in all: \(listed)\(failedEntries.count > 20 ? ", …" : "")"
        }
        streams.output(text)
        return 1
    }

    /// `all 51 entries replay to the recorded states`, or, when some states were taken
    /// from the log instead, `50 replayed to the recorded states, 1 restored from the log`
    /// and which ones (the first few) and why.
    static func replayedText(_ run: ReplayRun, number: (Int) -> Int) -> String {
        let restored = run.restoredFromLog
        guard !restored.isEmpty else { return "all \(run.checks.count) entries replay to the recorded states" }
        var text = "\(run.replayedCount) replayed to the recorded states, \(restored.count) restored from the log"
        for (entry, reason) in restored.prefix(3) { text += "\n  entry \(number(entry)): \(reason)" }
        if restored.count > 3 { text += "\n  … and \(restored.count - 3) more" }
        return text
    }
}
