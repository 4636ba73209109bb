import Foundation
import Recorder

/// The `jsonl` format: a self-contained log of the slice. Its header carries
/// the state before the slice as the initial state and its first entry is a
/// keyframe, so `rewind` and `LogReader` open it with the same states as the original.
enum LogSliceExport {
    static func bytes(for slice: ExportSlice) throws(ExportError) -> [UInt8] {
        let original = slice.header
        var metadata = original?.metadata ?? [:]
        metadata[LogSliceMetadata.sourceKey] = "\(slice.logName), \(slice.rangeDescription)"
        if let first = slice.entries.first { metadata[LogSliceMetadata.firstEntryKey] = String(first.number) }
        var options = original?.options.objectValue ?? JSONObject()
        if !slice.redactionRules.isEmpty {
            options["redactionRules"] = .array(slice.redactionRules.map(JSONValue.string))
        }
        let created = original?.created ?? Date(timeIntervalSince1970: 0)
        let header = LogHeader(
            created: created, processName: original?.processName ?? "rewind export",
            stateTypeName: original?.stateTypeName, actionTypeName: original?.actionTypeName,
            keyframeInterval: original?.keyframeInterval ?? 32, options: .object(options), metadata: metadata,
            initialState: slice.startState, isStateReplayable: original?.isStateReplayable ?? false)
        var builder = LogBuilder(header: header)
        // An entry the log file does not hold (a replay branch's, after the recorded ones) is
        // numbered and timed after those before it, so the slice keeps their order.
        var previousSequence: Int64?
        for entry in slice.entries {
            let sequence = entry.sequence ?? previousSequence.map { $0.addingSaturating(1) } ?? Int64(entry.number - 1)
            previousSequence = sequence
            builder.append(LogBuilder.Entry(
                sequence: sequence,
                time: entry.time ?? (slice.firstEntryTime ?? created).addingTimeInterval(entry.timeOffset),
                durationNanoseconds: Int64(saturating: (entry.duration ?? 0) * 1e9),
                action: entry.action, effectOf: entry.effectOf ?? (entry.fromEffect ? Int64(entry.number - 2) : nil),
                state: entry.state, values: entry.values))
        }
        return builder.bytes
    }
}
