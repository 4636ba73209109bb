import Foundation
import Testing
@testable import Recorder
import RewindJSON
import RewindTestSupport

/// A reader that holds every keyframe's state lazily (``LazyStates`` forced to nothing)
/// rebuilds the same states, and fails with the same errors, as the default reader, which
/// parses small keyframes into trees: on the sample logs (formats 1 to 3) and on logs today's
/// recorder writes, whole and damaged, stepping forwards and back through its cache.
@Suite struct LazyStateReadingTests {
    let directory = TemporaryDirectory()

    static let everythingLazy = LazyStates(keyframeBytes: 0, containerBytes: 0)
    static let bigContainersLazy = LazyStates(keyframeBytes: 0, containerBytes: 256)

    /// Every entry's state, read forwards then backwards (from the cache and past it), as the
    /// lazy reader and the default reader give it: the same JSON or the same error.
    func expectSameStates(_ path: String, lazyStates: LazyStates, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reference = try LogReader(path: path)
        let lazy = try LogReader(path: path, indexing: .all, opened: nil, readAhead: nil, lazyStates: lazyStates)
        #expect(lazy.entryCount == reference.entryCount, sourceLocation: sourceLocation)
        let order = Array(0..<reference.entryCount) + Array((0..<reference.entryCount).reversed())
        for index in order {
            let expected = Self.outcome { () throws(LogReadError) in try reference.state(at: index) }
            let state = Self.outcome { () throws(LogReadError) in try lazy.state(at: index) }
            let node = Self.outcome { () throws(LogReadError) in try lazy.stateNode(at: index).value }
            #expect(state == expected, "\(path) entry \(index)", sourceLocation: sourceLocation)
            #expect(node == expected, "\(path) entry \(index), as a node", sourceLocation: sourceLocation)
        }
    }

    /// A state as its compact JSON, or the error's text.
    static func outcome(_ read: () throws(LogReadError) -> JSONValue) -> String {
        do {
            return String(decoding: JSONWriter.compact(try read()), as: UTF8.self)
        } catch {
            return "error: \(error)"
        }
    }

    @Test(arguments: ["todos.jsonl", "garage.jsonl", "player.jsonl", "search.jsonl", "todos-format2.jsonl", "todos-format1.jsonl"])
    func sampleLogsRebuildTheSameStatesHeldLazily(name: String) throws {
        try expectSameStates(SampleLogsTests.directory + "/" + name, lazyStates: Self.everythingLazy)
        try expectSameStates(SampleLogsTests.directory + "/" + name, lazyStates: Self.bigContainersLazy)
    }

    @Test func recordedLogsRebuildTheSameStatesHeldLazily() throws {
        for (seed, interval) in [(1, 10), (2, 50), (3, 1_000)] as [(UInt64, Int)] {
            let path = directory.file("todos-\(seed).jsonl")
            try RecordedTodoLog.write(count: 160, seed: seed, keyframeInterval: interval, to: path)
            try expectSameStates(path, lazyStates: Self.everythingLazy)
            try expectSameStates(path, lazyStates: Self.bigContainersLazy)
        }
    }

    @Test func damagedLogsFailTheSameWayHeldLazily() throws {
        let path = directory.file("todos.jsonl")
        try RecordedTodoLog.write(count: 60, seed: 9, keyframeInterval: 20, to: path)
        let original = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        let lineStarts = [0] + original.indices.filter { original[$0] == 0x0A }.map { $0 + 1 }.dropLast()
        // A byte changed in the middle of a few lines: keyframes and patches, so their records do not verify.
        for line in [1, 2, 5, 21, 22, 40] where line < lineStarts.count - 1 {
            var damaged = original
            let middle = (lineStarts[line] + lineStarts[line + 1]) / 2
            damaged[middle] = damaged[middle] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
            let damagedPath = directory.file("damaged-\(line).jsonl")
            try Data(damaged).write(to: URL(fileURLWithPath: damagedPath))
            try expectSameStates(damagedPath, lazyStates: Self.everythingLazy)
        }
    }

    @Test func aKeyframeOverTheThresholdIsHeldAsBytesAndASmallerOneAsATree() throws {
        let path = directory.file("todos.jsonl")
        try RecordedTodoLog.write(count: 30, seed: 4, keyframeInterval: 10, to: path)
        let lazy = try LogReader(path: path, indexing: .all, opened: nil, readAhead: nil, lazyStates: Self.bigContainersLazy)
        #expect(try lazy.stateNode(at: 0).unparsedBytes > 0)
        #expect(try lazy.stateNode(at: 15).unparsedBytes > 0, "patched, the rest of its keyframe's bytes stay unparsed")
        let standard = try LogReader(path: path)
        #expect(try standard.stateNode(at: 0).unparsedBytes == 0)
        #expect(try standard.stateNode(at: 15).unparsedBytes == 0)
    }
}
