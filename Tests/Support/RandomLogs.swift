import Foundation
import Recorder
import RewindJSON

/// Logs written line by line like a recorder's (keyframes, RFC 6902 patches
/// from `JSONDiff`, a CRC-32 per line), with trouble put in at random.
package enum RandomLog {
    /// `queriesPerLog` random conditions (``RandomQuery``) over each of `logs` random logs of
    /// `entries` entries, all drawn from `seed`: what agreement tests run over.
    package static func queries(seed: UInt64, logs: Int, entries: Int, queriesPerLog: Int) throws -> [(log: String, query: String)] {
        var generator = SplitMix64(seed: seed)
        var cases: [(log: String, query: String)] = []
        for round in 0..<logs {
            let log = try write(&generator, entries: entries, round: round)
            for _ in 0..<queriesPerLog { cases.append((log, RandomQuery.text(&generator, depth: 0))) }
        }
        return cases
    }

    package static func write(_ generator: inout SplitMix64, entries: Int, round: Int) throws -> String {
        func random(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
        let keyframeInterval = 3 + random(8)
        var state: JSONValue = ["n": 0, "items": [], "tags": [], "flag": false]
        var bytes: [UInt8] = []
        func seal(_ record: JSONValue) {
            let start = bytes.count
            bytes += JSONWriter.compact(record).dropLast()
            LogLine.seal(&bytes, recordStart: start)
        }
        func sealText(_ text: String) {
            let start = bytes.count
            bytes += Array(text.utf8)
            LogLine.seal(&bytes, recordStart: start)
        }
        var header = JSONObject()
        let members: [(String, JSONValue)] = [
            ("kind", "header"), ("format", "rewind"), ("version", 1), ("created", 1_764_400_000), ("process", "random"),
            ("stateType", "S"), ("actionType", "A"), ("keyframeInterval", .integer(Int64(keyframeInterval))),
            ("options", [:]), ("metadata", [:]), ("stateReplayable", true),
        ]
        for (key, value) in members { header[key] = value }
        let hasInitialState = round % 3 != 0
        if hasInitialState { header["initialState"] = state }
        seal(.object(header))
        var previous: JSONValue? = hasInitialState ? state : nil
        var sequence: Int64 = 0
        for index in 0..<entries {
            // Trouble before this entry, now and then.
            switch random(40) {
            case 0: RecordEncoder.appendSealedGap(firstSequence: sequence, count: 2, reason: "queue full", to: &bytes); sequence += 2
            case 1:
                // A line that fails its checksum: an entry with one byte changed.
                let start = bytes.count
                sealText(#"{"kind":"entry","seq":"# + "\(sequence)" + #","time":1,"durationNs":1,"action":{"type":"lost"},"patch":[]"#)
                bytes[start + 20] ^= 0x01
            case 2:
                // Sealed, but not an entry the reader can read (the action type is a number).
                sealText(#"{"kind":"entry","seq":"# + "\(sequence)" + #","time":1,"durationNs":1,"action":{"type":5},"patch":[]"#)
                sequence += 1
            case 4:
                // Sealed, but a patch as a recorder writes it except for a raw tab in a string: not JSON, so not an entry.
                sealText(#"{"kind":"entry","seq":"# + "\(sequence)" + #","time":1,"durationNs":1,"action":{"type":"a/x"},"patch":[{"op":"replace","path":"/n","value":"a"# + "\t" + #"b"}]"#)
                sequence += 1
            case 3:
                // A patch that cannot apply: its path is not in the state.
                sealText(#"{"kind":"entry","seq":"# + "\(sequence)" + #","time":1,"durationNs":1,"action":{"type":"a/x"},"patch":[{"op":"replace","path":"/nowhere/x","value":1}]"#)
                sequence += 1
            default: break
            }
            let isKeyframe = previous == nil || index % keyframeInterval == 0
            // Now and then a patch written by hand: inserts, removals, moves and copies
            // under and beside the query paths (JSONDiff writes only some of these).
            var handPatch: JSONPatch?
            if !isKeyframe, random(3) == 0 {
                let operation = handOperation(&generator, in: state)
                var changed = state
                if (try? JSONPatch.apply(operation, to: &changed)) != nil {
                    state = changed
                    handPatch = JSONPatch([operation])
                }
            }
            if handPatch == nil { mutate(&state, &generator) }
            let type = ["a/x", "a/y", "b/z"][random(3)]
            var entry = JSONObject()
            entry["kind"] = "entry"
            if isKeyframe { entry["keyframe"] = true }
            entry["seq"] = .integer(sequence)
            entry["time"] = .double(1_764_400_000 + Double(index))
            entry["durationNs"] = 1000
            entry["action"] = ["type": .string(type), "payload": ["i": .integer(Int64(index)), "note": .string(String(repeating: "é lorem ", count: random(8)))]]
            if let previous, !isKeyframe {
                entry["patch"] = (handPatch ?? JSONDiff.patch(from: previous, to: state)).jsonValue
            } else {
                entry["state"] = state
                entry["changed"] = .array(previous.map { JSONDiff.patch(from: $0, to: state).operations.map { .string($0.path.description) } } ?? [])
            }
            seal(.object(entry))
            previous = state
            sequence += 1
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-query-agreement-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("random-\(round).jsonl").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// One operation of any kind on the paths the queries read and their
    /// neighbours (it may not apply: the caller then makes another change).
    package static func handOperation(_ generator: inout SplitMix64, in state: JSONValue) -> JSONPatchOperation {
        func random(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
        let count = state[pointer: JSONPointer(tokens: ["items"])]?.arrayValue?.count ?? 0
        func item() -> JSONPointer { JSONPointer(tokens: ["items", String(random(count + 1))]) }
        let n = JSONPointer(tokens: ["n"]), name = JSONPointer(tokens: ["user", "name"]), tags = JSONPointer(tokens: ["tags"])
        switch random(9) {
        case 0: return .move(from: item(), path: item())
        case 1: return .copy(from: item(), path: item())
        case 2: return .add(path: item(), value: .integer(Int64(random(6))))
        case 3: return .remove(path: JSONPointer(tokens: ["items", "0"]))
        case 4: return .copy(from: name, path: JSONPointer(tokens: ["tags", "0"]))
        case 5: return .move(from: n, path: JSONPointer(tokens: ["m"]))
        case 6: return .move(from: JSONPointer(tokens: ["m"]), path: n)
        case 7: return .copy(from: tags, path: JSONPointer(tokens: ["items", "0"]))
        default: return .add(path: JSONPointer(tokens: ["items", "-"]), value: .integer(Int64(random(6))))
        }
    }

    /// One random change: a counter, an array that grows and shrinks at any
    /// place (so later elements move), a member that comes and goes.
    package static func mutate(_ state: inout JSONValue, _ generator: inout SplitMix64) {
        func random(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
        guard case .object(var object) = state else { return }
        switch random(7) {
        case 0, 1: object["n"] = .integer(Int64(random(10)))
        case 2:
            var items = object["items"]?.arrayValue ?? []
            items.insert(.integer(Int64(random(6))), at: random(items.count + 1))
            object["items"] = .array(items)
        case 3:
            var items = object["items"]?.arrayValue ?? []
            if !items.isEmpty { items.remove(at: random(items.count)) }
            object["items"] = .array(items)
        case 4:
            if object["user"] == nil || random(3) == 0 {
                object["user"] = ["name": .string(["ann", "bob"][random(2)])]
            } else {
                object["user"] = nil
            }
        case 5:
            var tags = object["tags"]?.arrayValue ?? []
            if tags.count > 3 { tags.removeFirst() } else { tags.append(.string("t\(random(3))")) }
            object["tags"] = .array(tags)
        default: object["flag"] = .bool(random(2) == 0)
        }
        state = .object(object)
    }
}

/// Conditions over the random logs' paths, in every form of the language.
package enum RandomQuery {
    package static func text(_ generator: inout SplitMix64, depth: Int) -> String {
        func random(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
        if depth < 2, random(3) == 0 {
            let a = text(&generator, depth: depth + 1), b = text(&generator, depth: depth + 1)
            switch random(3) {
            case 0: return "(\(a)) and (\(b))"
            case 1: return "(\(a)) or (\(b))"
            default: return "not (\(a))"
            }
        }
        let comparisons = ["==", "!=", "<", "<=", ">", ">="]
        switch random(15) {
        // Paths on both sides, a literal on the left, a length against a path.
        case 12: return "/n \(comparisons[random(6)]) /items/\(random(3))"
        case 13: return "\(random(6)) \(comparisons[random(6)]) /n"
        case 14: return "/items length \(comparisons[random(6)]) /n"
        case 0: return "/n \(comparisons[random(6)]) \(random(10))"
        case 1: return "/items length \(comparisons[random(6)]) \(random(5))"
        case 2: return "/items/\(random(4)) \(comparisons[random(6)]) \(random(6))"
        case 3: return "exists /user"
        case 4: return #"/user/name == ""# + ["ann", "bob"][random(2)] + #"""#
        case 5: return #"/tags contains "t"# + "\(random(3))" + #"""#
        case 6: return "changed " + ["/n", "/items", "/items/1", "/user/name", "/flag", "/tags"][random(6)]
        case 7: return "action == " + ["a/x", "a/*", "b/z"][random(3)]
        case 8: return "action != a/y"
        case 9: return "/flag == true"
        case 10: return "/items contains \(random(6))"
        default: return "exists /items/\(random(5))"
        }
    }
}
