import Foundation
import RewindJSON

/// Where a recorded log's bytes go: headers, keyframes and the entries that hold a
/// patch, and, for those entries, each member's share (its key, value and the
/// punctuation around it), so a change to the format shows what it saved.
struct LogComposition {
    var headerBytes = 0
    var keyframes = 0
    var keyframeBytes = 0
    var patchEntries = 0
    var patchEntryBytes = 0
    /// Gaps and anything else.
    var otherBytes = 0
    /// Bytes of each member of the patch entries, summed, in the order first met:
    /// `,"key":value` (the first member's comma stands for the record's `{`; format 3's
    /// patch entries open with `seq`).
    var patchEntryMembers: [(key: String, bytes: Int)] = []
    /// The same for the members of those entries' `action` objects.
    var actionMembers: [(key: String, bytes: Int)] = []

    /// Reads the log at `path` line by line; nil when it cannot be read.
    init?(logAt path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let bytes = [UInt8](data)
        bytes.withUnsafeBufferPointer { buffer in
            var lineStart = 0
            while lineStart < buffer.count {
                let lineEnd = buffer[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? buffer.count
                add(line: UnsafeBufferPointer(rebasing: buffer[lineStart..<lineEnd]))
                lineStart = lineEnd + 1
            }
        }
    }

    private mutating func add(line: UnsafeBufferPointer<UInt8>) {
        let length = line.count + 1
        if line.hasPrefix("{\"kind\":\"header\"", at: 0) {
            headerBytes += length
        } else if line.hasPrefix("{\"kind\":\"entry\",\"keyframe\":true", at: 0) {
            keyframes += 1
            keyframeBytes += length
        } else if line.hasPrefix("{\"kind\":\"entry\"", at: 0) || line.hasPrefix("{\"seq\":", at: 0) {
            patchEntries += 1
            patchEntryBytes += length
            var members: [(String, Int)] = [], action: [(String, Int)] = []
            for (name, value) in Self.members(of: line) {
                members.append((name, name.utf8.count + 4 + value.count))
                if name == "action" {
                    action += Self.members(of: value).map { ($0.key, $0.key.utf8.count + 4 + $0.value.count) }
                }
            }
            // The closing brace and the newline.
            members.append(("}, newline", 2))
            Self.add(members, to: &patchEntryMembers)
            Self.add(action, to: &actionMembers)
        } else {
            otherBytes += length
        }
    }

    /// The members of the object in `bytes`, each key (unescaped keys only: a record's
    /// are plain) with its value's bytes; what is read before anything unexpected.
    private static func members(of bytes: UnsafeBufferPointer<UInt8>) -> [(key: String, value: UnsafeBufferPointer<UInt8>)] {
        var result: [(key: String, value: UnsafeBufferPointer<UInt8>)] = []
        var skimmer = JSONSkimmer(bytes)
        guard bytes.first == UInt8(ascii: "{") else { return result }
        skimmer.position = 1
        while skimmer.position < bytes.count, bytes[skimmer.position] == UInt8(ascii: "\"") {
            let keyStart = skimmer.position
            guard skimmer.skipUnchecked(), skimmer.position < bytes.count, bytes[skimmer.position] == UInt8(ascii: ":") else { break }
            let key = String(decoding: bytes[(keyStart + 1)..<(skimmer.position - 1)], as: UTF8.self)
            skimmer.position += 1
            let valueStart = skimmer.position
            guard skimmer.skipUnchecked() else { break }
            result.append((key, UnsafeBufferPointer(rebasing: bytes[valueStart..<skimmer.position])))
            guard skimmer.position < bytes.count, bytes[skimmer.position] == UInt8(ascii: ",") else { break }
            skimmer.position += 1
        }
        return result
    }

    private static func add(_ members: [(String, Int)], to totals: inout [(key: String, bytes: Int)]) {
        for (key, bytes) in members {
            if let index = totals.firstIndex(where: { $0.key == key }) {
                totals[index].bytes += bytes
            } else {
                totals.append((key, bytes))
            }
        }
    }

    /// Rows for the benchmark's report: each kind's share of `fullStateBytes`, then the
    /// average patch entry's bytes by member.
    func report(fullStateBytes: Int) -> [(String, String)] {
        func share(_ bytes: Int) -> String { String(format: "%.2f %%", Double(bytes) / Double(max(1, fullStateBytes)) * 100) }
        func average(_ bytes: Int, _ count: Int) -> String { String(format: "%.1f", Double(bytes) / Double(max(1, count))) }
        var rows = [
            ("  headers", "\(share(headerBytes))   \(formatBytes(headerBytes))"),
            ("  keyframes", "\(share(keyframeBytes))   \(keyframes) × \(average(keyframeBytes, keyframes)) B"),
            ("  patch entries", "\(share(patchEntryBytes))   \(patchEntries) × \(average(patchEntryBytes, patchEntries)) B"),
        ]
        if otherBytes > 0 { rows.append(("  other records", "\(share(otherBytes))   \(formatBytes(otherBytes))")) }
        rows.append(("  a patch entry's bytes, average", average(patchEntryBytes, patchEntries) + " B"))
        for member in patchEntryMembers {
            rows.append(("    " + member.key, average(member.bytes, patchEntries) + " B"))
            if member.key == "action" {
                rows += actionMembers.map { ("      " + $0.key, average($0.bytes, patchEntries) + " B") }
            }
        }
        return rows
    }
}
