import Foundation
import Testing
@testable import Recorder
import RewindJSON

/// Which rebuilt states ``LogReader`` keeps: a big keyframe's (the tree its neighbours share) always,
/// and neighbours by count on small states, by what they hold beyond the keyframe on huge ones.
@Suite struct StateCacheTests {
    let directory = TemporaryDirectory()

    struct Numbers: Codable { var items: [Int] }

    /// A log whose entry 0 is a keyframe of `items` numbers and whose other entries each change one.
    func recordNumbers(items: Int, entries: Int, keyframeInterval: Int) throws -> String {
        let path = directory.file("numbers-\(items).jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions(keyframeInterval: keyframeInterval))
        var state = Numbers(items: [])
        for step in 0..<entries {
            let before = state
            if step == 0 { state.items = Array(0..<items) } else { state.items[step * 7 % items] = -step }
            recorder.record("edit \(step)", state: state, before: before)
        }
        try recorder.close()
        return path
    }

    func cachedEntries(_ reader: LogReader) -> [Int] {
        (0..<reader.entryCount).filter { reader.stateRebuildBytes(at: $0) == 0 }
    }

    @Test func steppingThroughAHugeStateKeepsItsKeyframeAndAFewNeighbours() throws {
        // 100,000 numbers: each neighbour copies the list (~2 MB), the keyframe's tree is the state.
        let path = try recordNumbers(items: 100_000, entries: 30, keyframeInterval: 1_000)
        let reader = try LogReader(path: path)
        #expect(reader.isKeyframe(at: 0) && (1..<30).allSatisfy { !reader.isKeyframe(at: $0) })
        for entry in 0..<30 { _ = try reader.state(at: entry) }

        let cached = cachedEntries(reader)
        #expect(cached.first == 0, "the keyframe's state stays: \(cached)")
        #expect(cached.last == 29)
        #expect(cached.count < 10, "neighbours are bounded by what they copy: \(cached)")
        #expect(Array(cached.dropFirst()) == Array((30 - (cached.count - 1))..<30), "the newest stay: \(cached)")
        // Going back rebuilds from the cached keyframe: patches only, not its 0.6 MB line again.
        #expect(reader.stateRebuildBytes(at: 5) < 5_000)
        #expect(try reader.state(at: 5)["items"]?[35] == -5)
    }

    @Test func steppingThroughAStateHeldLazilyKeepsItsKeyframeAndAFewNeighbours() throws {
        let path = try recordNumbers(items: 100_000, entries: 30, keyframeInterval: 1_000)
        let reader = try LogReader(path: path, indexing: .all, opened: nil, readAhead: nil,
                                   lazyStates: LazyStates(keyframeBytes: 0, containerBytes: JSONNode.lazyContainerBytes))
        for entry in 0..<30 { _ = try reader.stateNode(at: entry) }
        #expect(try reader.stateNode(at: 0).unparsedBytes > 0, "the keyframe is held as its line's bytes")

        let cached = cachedEntries(reader)
        #expect(cached.first == 0, "the keyframe's node stays: \(cached)")
        #expect(cached.last == 29)
        #expect(cached.count < 10, "neighbours are bounded by the lists they copy: \(cached)")
        #expect(reader.stateRebuildBytes(at: 5) < 5_000, "rebuilt from the cached keyframe's node: patches only")
        #expect(try reader.stateNode(at: 5).child("items")?.child(at: 35)?.value == -5)
        #expect(try reader.stateNode(at: 5).child("items")?.child(at: 36)?.unparsedBytes ?? 0 > 0)
    }

    @Test func steppingThroughSmallStatesKeepsSixteenNeighbours() throws {
        let path = try recordNumbers(items: 50, entries: 30, keyframeInterval: 1_000)
        let reader = try LogReader(path: path)
        for entry in 0..<30 { _ = try reader.state(at: entry) }
        // A small keyframe is parsed again in a moment: it is not kept apart from the sixteen.
        #expect(cachedEntries(reader) == Array(14..<30))
    }

    @Test func anOlderKeyframeStaysWhileAStateRebuiltFromItIsCached() {
        let list = JSONValue.array(Array(repeating: .integer(1), count: 1_000))
        let listBytes = 1_000 * MemoryLayout<JSONValue>.stride
        // Room for three states that hold a list each; a keyframe's tree here is as big as a list.
        var cache = StateCache(capacity: 16, heldBytesBudget: listBytes * 7 / 2)
        cache.storeKeyframe(JSONNode(["items": list]), at: 0, heldBytes: listBytes)
        let fromZero = StateCache.Derivation(keyframe: 0, keyframeBytes: listBytes, writtenPaths: [["items", "3"]])
        cache.store(JSONNode(["items": list]), at: 1, derivation: fromZero)
        cache.storeKeyframe(JSONNode(["items": list]), at: 10, heldBytes: listBytes)
        let fromTen = StateCache.Derivation(keyframe: 10, keyframeBytes: listBytes, writtenPaths: [["items", "3"]])
        cache.store(JSONNode(["items": list]), at: 11, derivation: fromTen)
        #expect(cache.indices == [0, 1, 10, 11])
        // Over budget: entry 1 goes, not keyframe 0 before it, which entry 1 was rebuilt from.
        cache.store(JSONNode(["items": list]), at: 12, derivation: fromTen)
        #expect(cache.indices == [0, 10, 11, 12])
        // Then keyframe 0, which nothing cached needs now.
        cache.store(JSONNode(["items": list]), at: 13, derivation: fromTen)
        #expect(cache.indices == [10, 11, 12, 13])
        // The last keyframe's state stays, the oldest neighbour goes.
        cache.store(JSONNode(["items": list]), at: 14, derivation: fromTen)
        #expect(cache.indices == [10, 12, 13, 14])
    }

    @Test func aStateHoldsTheContainersOnThePathsItsPatchesWrote() {
        let slot = MemoryLayout<JSONValue>.stride
        let state: JSONValue = ["items": .array([["title": "a", "done": false], ["title": "b", "done": true]]), "count": 2]
        #expect(StateCache.containerBytes(along: [["items", "1", "done"]], in: JSONNode(state)) == (2 + 2 + 2) * slot)
        // Each container once; a path past the state's end counts the containers that are there.
        #expect(StateCache.containerBytes(along: [["items", "1", "done"], ["items", "1", "title"], ["count"], ["items", "9", "x"]], in: JSONNode(state))
                == (2 + 2 + 2) * slot)
    }
}
