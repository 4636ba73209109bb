import Foundation
import Testing
@testable import Recorder
@testable import RewindQuery

/// `LogReader.scanStates` (states rebuilt one patch at a time, in order) must
/// give every entry the state `state(at:)` rebuilds from its keyframe, and be
/// readable exactly where `entry(at:)` is.
@Suite struct StateScanTests {
    /// Each entry as the scan sees it, and as reading it alone does.
    static func compare(_ reader: LogReader, range: Range<Int>? = nil, keepingPrevious: Bool = true) {
        let range = range ?? 0..<reader.entryCount
        var seen = 0
        reader.scanStates(range, keepingPrevious: keepingPrevious) { step in
            #expect(step.index == range.lowerBound + seen)
            seen += 1
            let entry = try? reader.entry(at: step.index)
            #expect(step.isReadable == (entry != nil), "entry \(step.index)")
            if let entry {
                #expect(step.actionType == entry.action.name)
                #expect(step.changedPaths == entry.changedPaths)
            }
            #expect(step.state == (try? reader.state(at: step.index)), "state \(step.index)")
            if keepingPrevious {
                let before = step.index == 0 ? reader.header.initialState : try? reader.state(at: step.index - 1)
                #expect(step.previousState == before, "previous state \(step.index)")
            } else {
                #expect(step.previousState == nil)
            }
            return true
        }
        #expect(seen == range.clamped(to: 0..<reader.entryCount).count)
    }

    @Test func aRecordedLogScansToTheStatesItRebuilds() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("todos.jsonl")
        try RecordedTodoLog.write(count: 300, seed: 5, keyframeInterval: 7, to: path)
        let reader = try LogReader(path: path)
        Self.compare(reader)
        Self.compare(reader, range: 45..<100, keepingPrevious: false)
        Self.compare(reader, range: 299..<400)
    }

    @Test func damageGapsAndOddRecordsAgreeWithReadingEachEntry() throws {
        let directory = TemporaryDirectory()
        let reader = try LogReader(path: EntryScanReadingTests.writeLog(in: directory))
        #expect(reader.damage.count == 1 && reader.gaps.count == 1)
        Self.compare(reader)
    }

    @Test func stopsWhenTheBodySays() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("todos.jsonl")
        try RecordedTodoLog.write(count: 50, seed: 2, keyframeInterval: 4, to: path)
        var visited: [Int] = []
        try LogReader(path: path).scanStates(10..<50, keepingPrevious: false) { step in
            visited.append(step.index)
            return step.index < 12
        }
        #expect(visited == [10, 11, 12])
    }

    /// A patch's fast path (``SkimmedPatch``: the bytes as a recorder writes them,
    /// built without the parser) against its reference (`JSONPatch(jsonValue:)` on
    /// the parsed bytes): what it reads is what the reference reads; it reads the
    /// recorder's shape and leaves every other to the reference.
    @Test func patchesAsWrittenAreThePatchesTheParserReads() throws {
        let asWritten = [
            #"[{"op":"replace","path":"/counter","value":12},{"op":"add","path":"/items/-","value":"x"}]"#,
            #"[{"op":"add","path":"/t","value":true},{"op":"add","path":"/f","value":false},{"op":"add","path":"/z","value":0}]"#,
            #"[{"op":"remove","path":"/a/0"},{"op":"test","path":"","value":null}]"#,
            #"[{"op":"add","path":"/s","value":"a}b"}]"#, #"[{"op":"add","path":"/a","value":[1,{"b":2}]}]"#,
            #"[{"op":"replace","path":"/n","value":-1.5e3}]"#, #"[{"op":"add","path":"/a~1b/é","value":{"x":"\n"}}]"#,
            #"[]"#,
        ]
        // Not as written (other members, other orders, space): left to the reference, which reads them.
        let other = [
            #"[{"op":"move","from":"/a","path":"/b"},{"op":"copy","from":"/b","path":"/c"}]"#,
            #"[{"path":"/a","op":"remove"}]"#, #"[ {"op":"remove","path":"/a"}]"#, #"[{"op":"add","path":"/a","value":1,"x":2}]"#,
        ]
        for (text, read) in asWritten.map({ ($0, true) }) + other.map({ ($0, false) }) {
            let patch = Array(text.utf8).withUnsafeBufferPointer { SkimmedPatch.read($0) }
            #expect((patch != nil) == read, "\(text)")
            if let patch { #expect(patch == (try JSONPatch(json: text)), "\(text)") }
        }
        // Checked, at the start of a record's rest: the patch and where it ends, only for what the parser accepts.
        for (text, accepted) in [(asWritten[0], true), (#"[{"op":"add","path":"/s","value":"é}b"}]"#, true),
                                 (#"[{"op":"add","path":"/s","value":"a"# + "\t" + #"b"}]"#, false),
                                 (#"[{"op":"add","path":"/a"# + "\u{1}" + #"","value":1}]"#, false)] {
            var bytes = Array((text + #","crc":"00000000"}"#).utf8)
            let read = bytes.withUnsafeMutableBufferPointer { buffer in
                var pointers = PathPointerCache()
                return SkimmedPatch.readCheckedAsWritten(UnsafeBufferPointer(buffer), pointers: &pointers)
            }
            #expect((read != nil) == accepted, "\(text)")
            if let read {
                #expect(read.patch == (try JSONPatch(json: text)) && read.length == text.utf8.count, "\(text)")
            }
        }
        let invalidUTF8 = Array(#"[{"op":"add","path":"/s","value":"a"#.utf8) + [0xC3, 0x28] + Array(#""}]"#.utf8)
        let invalidRead = invalidUTF8.withUnsafeBufferPointer { buffer in
            var pointers = PathPointerCache()
            return SkimmedPatch.readCheckedAsWritten(buffer, pointers: &pointers)
        }
        #expect(invalidRead == nil, "invalid UTF-8 in a value")
        // Strings are read 16 bytes a step: a control byte, a backslash, bad or good
        // UTF-8 at every place of a long path or value reads as the parser reads it.
        let long = Array("abcdefghijklmnopqrstuvwxyz0123".utf8)
        for (inserted, parses) in [([UInt8(0x09)], false), ([UInt8(ascii: "\\"), UInt8(ascii: "n")], true), ([UInt8(0xC3), 0x28], false), ([UInt8(0xC3), 0xA9], true)] {
            for place in 0...long.count {
                let text = Array(long[..<place]) + inserted + Array(long[place...])
                for inPath in [false, true] {
                    let patch = inPath
                        ? Array(#"[{"op":"add","path":"/"#.utf8) + text + Array(#"","value":1}]"#.utf8)
                        : Array(#"[{"op":"add","path":"/s","value":""#.utf8) + text + Array(#""}]"#.utf8)
                    let record = patch + Array(#","crc":"00000000"}"#.utf8)
                    let read = record.withUnsafeBufferPointer { buffer in
                        var pointers = PathPointerCache()
                        return SkimmedPatch.readCheckedAsWritten(buffer, pointers: &pointers)
                    }
                    let parsed = try? JSONPatch(jsonValue: JSONParser.parse(patch))
                    #expect((parsed != nil) == parses, "\(inserted) at \(place)")
                    // Nil is always allowed (the parser then decides); a patch read must be the parser's.
                    if let read { #expect(read.patch == parsed && read.length == patch.count, "\(inserted) at \(place), in the path: \(inPath)") }
                    if !inPath && inserted == [0xC3, 0xA9] { #expect(read != nil, "plain UTF-8 at \(place) is read") }
                }
            }
        }
        // What the reference rejects, it rejects.
        for text in [#"[{"op":"add","path":"/a","value":0123}]"#, #"[{"op":"add","path":"/a","value":tru}]"#,
                     #"[{"op":"add","path":"a","value":1}]"#, #"[{"op":"add","path":"/a~2","value":1}]"#,
                     // Not JSON (a raw tab, in either member order; something after the patch): `state(at:)` reads
                     // unchecked patches with it, and must still reject them as the parser does.
                     #"[{"op":"add","path":"/a","value":"a"# + "\t" + #"b"}]"#, #"[{"path":"/a","value":"a"# + "\t" + #"b","op":"add"}]"#,
                     #"[{"path":"/a","op":"remove"}] x"#] {
            var bytes = Array(text.utf8)
            #expect(bytes.withUnsafeMutableBufferPointer { SkimmedPatch.read(UnsafeBufferPointer($0)) } == nil, "\(text)")
        }
    }
}
