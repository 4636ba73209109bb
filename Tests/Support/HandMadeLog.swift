import Foundation
import Recorder

/// A log written record by record from JSON text, sealed in one chain as the
/// recorder seals them (format 2): for tests that need what no recorder writes,
/// such as a sequence number of 2⁶³−1, a time of 1e300 or a patch that copies a
/// value into itself. Each record is an object's text without its closing brace.
///
///     let path = try HandMadeLog.write([HandMadeLog.header(), HandMadeLog.keyframe(seq: "0", state: #"{"a":1}"#)])
public enum HandMadeLog {
    /// `{"kind":"header",…` of format 2; `created` and `keyframeInterval` are JSON number texts.
    public static func header(created: String = "1764400000.5", keyframeInterval: String = "32", version: String = "2",
                              process: String = "app", extra: String = "") -> String {
        #"{"kind":"header","format":"rewind","version":\#(version),"created":\#(created),"process":"\#(process)","stateType":"S","actionType":"A","keyframeInterval":\#(keyframeInterval),"options":{},"metadata":{},"stateReplayable":true,"session":"0123456789abcdef"\#(extra)"#
    }

    /// An entry holding its whole state; every argument is JSON text.
    public static func keyframe(seq: String, time: String = "1764400001", durationNs: String = "1000", type: String = "add",
                                payload: String = "{}", state: String, extra: String = "") -> String {
        #"{"kind":"entry","keyframe":true,"seq":\#(seq),"time":\#(time),"durationNs":\#(durationNs),"action":{"type":"\#(type)","payload":\#(payload),"replayable":true}\#(extra),"changed":[],"state":\#(state)"#
    }

    /// An entry holding a patch from the state before it; every argument is JSON text.
    public static func patch(seq: String, time: String = "1764400002", durationNs: String = "1000", type: String = "set",
                             payload: String = "{}", patch: String, extra: String = "") -> String {
        #"{"kind":"entry","seq":\#(seq),"time":\#(time),"durationNs":\#(durationNs),"action":{"type":"\#(type)","payload":\#(payload),"replayable":true}\#(extra),"patch":\#(patch)"#
    }

    /// A gap record; the numbers are JSON text.
    public static func gap(firstSeq: String, dropped: String, reason: String = "live stream queue full") -> String {
        #"{"kind":"gap","firstSeq":\#(firstSeq),"dropped":\#(dropped),"reason":"\#(reason)""#
    }

    /// The records sealed one after another, a fresh chain at each header, each with its newline.
    public static func bytes(_ records: [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        var chain = LogChain()
        for record in records {
            if record.hasPrefix(#"{"kind":"header""#) { chain = LogChain() }
            let start = bytes.count
            bytes += Array(record.utf8)
            LogLine.seal(&bytes, recordStart: start, chain: &chain)
        }
        return bytes
    }

    /// Writes the records as `name` in a fresh directory and returns the path.
    public static func write(_ records: [String], name: String = "app.jsonl") throws -> String {
        let directory = TemporaryDirectory.forThisProcess.subdirectory("hand-made-\(UUID().uuidString)")
        let path = directory + "/" + name
        try Data(bytes(records)).write(to: URL(fileURLWithPath: path))
        return path
    }
}
