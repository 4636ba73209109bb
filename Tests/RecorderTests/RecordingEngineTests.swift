import Foundation
import SampleDomains
import Testing
@testable import Recorder
@testable import RewindJSON

/// A state with every shape the byte diff must handle: arrays of objects with
/// ids, arrays of primitives, nested objects, optionals, dictionaries and sets.
private struct Board: Codable, Equatable {
    var cards: [Card] = []
    var labels: [String] = []
    var scores: [Int] = []
    var owners: [String: Int] = [:]
    var byNumber: [Int: String] = [:]
    var flags: Set<String> = []
    var title = "board"
    var note: String?
    var settings = Settings()

    struct Card: Codable, Equatable {
        var id: Int
        var text: String
        var done = false
        var weights: [Double] = []
    }

    struct Settings: Codable, Equatable {
        var theme = "dark"
        var columns = 3
        var nested: [String: [Int]] = [:]
    }
}

private func indexed<T: Encodable>(_ value: T) throws -> (bytes: [UInt8], nodes: [_IndexNode]) {
    let encoder = _StreamingEncoder()
    encoder.indexing = true
    try encoder.encodeTopLevel(value)
    return (encoder.bytes, Array(encoder.nodes.unsafeElements))
}

private func scanned(_ bytes: [UInt8]) -> [_IndexNode] {
    var nodes = _UnsafeStack<_IndexNode>()
    _ = bytes.withUnsafeBufferPointer { _StructuralScanner.index($0, into: &nodes) }
    return Array(nodes.unsafeElements)
}

/// The byte patch from `old` to `new`, as text.
private func bytePatch<T: Encodable>(from old: T, to new: T) throws -> [UInt8] {
    let a = try indexed(old), b = try indexed(new)
    return a.bytes.withUnsafeBufferPointer { oldBytes in
        a.nodes.withUnsafeBufferPointer { oldNodes in
            b.bytes.withUnsafeBufferPointer { newBytes in
                b.nodes.withUnsafeBufferPointer { newNodes in
                    _ByteDiff.patch(
                        from: _IndexedDocument(bytes: oldBytes, nodes: oldNodes),
                        to: _IndexedDocument(bytes: newBytes, nodes: newNodes)).patch
                }
            }
        }
    }
}

/// The states a sample domain's script goes through, the script run `rounds` times.
private func sampleStates<State, Action>(_ initial: State, _ script: [Action], _ reduce: (inout State, Action) -> Void, rounds: Int = 3) -> [State] {
    var state = initial
    var states = [state]
    for _ in 0..<rounds {
        for action in script {
            reduce(&state, action)
            states.append(state)
        }
    }
    return states
}

private func randomBoard(_ generator: inout SplitMix64) -> Board {
    var board = Board()
    for id in 0..<Int.random(in: 0..<12, using: &generator) {
        board.cards.append(Board.Card(id: id, text: "card \(id)", done: Bool.random(using: &generator),
                                      weights: (0..<Int.random(in: 0..<3, using: &generator)).map { Double($0) / 4 }))
    }
    board.labels = (0..<Int.random(in: 0..<5, using: &generator)).map { "l\($0)" }
    board.scores = (0..<Int.random(in: 0..<6, using: &generator)).map { $0 * 3 }
    for index in 0..<Int.random(in: 0..<4, using: &generator) { board.owners["o\(index)"] = index }
    for index in 0..<Int.random(in: 0..<3, using: &generator) { board.byNumber[index * 7] = "n\(index)" }
    board.flags = Set((0..<Int.random(in: 0..<4, using: &generator)).map { "f\($0)" })
    return board
}

private func mutate(_ board: inout Board, _ generator: inout SplitMix64) {
    for _ in 0..<Int.random(in: 1...4, using: &generator) {
        switch Int.random(in: 0..<14, using: &generator) {
        case 0 where !board.cards.isEmpty: board.cards[Int.random(in: 0..<board.cards.count, using: &generator)].done.toggle()
        case 1 where !board.cards.isEmpty: board.cards.remove(at: Int.random(in: 0..<board.cards.count, using: &generator))
        case 2:
            let id = (board.cards.map(\.id).max() ?? 0) + 1
            board.cards.insert(Board.Card(id: id, text: "new \(id)"), at: Int.random(in: 0...board.cards.count, using: &generator))
        case 3 where board.cards.count > 1: board.cards.swapAt(0, board.cards.count - 1)
        case 4 where !board.cards.isEmpty: board.cards[0].text += "é"
        case 5: board.labels.insert("x\(Int.random(in: 0..<100, using: &generator))", at: Int.random(in: 0...board.labels.count, using: &generator))
        case 6 where !board.labels.isEmpty: board.labels.removeFirst()
        case 7: board.scores.append(Int.random(in: -5...5, using: &generator))
        case 8: board.owners["o\(Int.random(in: 0..<6, using: &generator))"] = Int.random(in: 0..<9, using: &generator)
        case 9 where !board.owners.isEmpty: board.owners.removeValue(forKey: board.owners.keys.sorted()[0])
        case 10: board.flags.formSymmetricDifference(["f\(Int.random(in: 0..<5, using: &generator))"])
        case 11: board.note = board.note == nil ? "a/b~c\"d" : nil
        case 12: board.settings.nested["k\(Int.random(in: 0..<3, using: &generator))", default: []].append(1)
        default: board.title = "board \(Int.random(in: 0..<3, using: &generator))"
        }
    }
}

@Suite struct RecordingEngineTests {
    // MARK: Structural index

    @Test func theEncoderIndexesWhatItWritesExactlyAsAScanOfTheBytesWould() throws {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<200 {
            var board = randomBoard(&generator)
            mutate(&board, &generator)
            let (bytes, nodes) = try indexed(board)
            #expect(nodes == scanned(bytes))
        }
        // Sample-domain states, and a root that is not an object.
        let todos = try indexed(sampleStates(SampleDomains.TodoState(), TodoDomain.script, TodoDomain.reduce).last!)
        #expect(todos.nodes == scanned(todos.bytes))
        let array = try indexed([["a": [1, 2]], [:]])
        #expect(array.nodes == scanned(array.bytes))
        #expect(try indexed(42).nodes == [_IndexNode(keyStart: -1, start: 0, end: 2, next: 1)])
    }

    // MARK: Byte diff

    @Test func applyingTheWrittenPatchToThePreviousStateGivesTheNewOne() throws {
        var generator = SplitMix64(seed: 42)
        for round in 0..<400 {
            let old = randomBoard(&generator)
            var new = old
            mutate(&new, &generator)
            let patch = try JSONPatch(jsonValue: JSONParser.parse(bytePatch(from: old, to: new)))
            let rebuilt = try patch.applied(to: JSONParser.parse(JSONEncoding.compact(old)))
            #expect(rebuilt == (try JSONParser.parse(JSONEncoding.compact(new))), "round \(round)")
        }
    }

    @Test func unchangedStatesGiveAnEmptyPatchEvenWithNaNAndSets() throws {
        struct Reading: Codable { var value = Double.nan; var peak = Double.infinity; var seen: Set<Int> = Set(0..<50) }
        var reordered = Reading()
        reordered.seen = Set(minimumCapacity: 4096)
        for number in (0..<50).reversed() { reordered.seen.insert(number) }
        #expect(try bytePatch(from: Reading(), to: reordered) == Array("[]".utf8))
    }

    @Test func oneChangedElementOfALongArrayIsOneOperationAtItsPath() throws {
        var old = Board()
        old.cards = (0..<5_000).map { Board.Card(id: $0, text: "card \($0)") }
        var new = old
        new.cards[4_321].done = true
        new.cards.remove(at: 10)
        #expect(String(decoding: try bytePatch(from: old, to: new), as: UTF8.self)
            == #"[{"op":"remove","path":"/cards/10"},{"op":"replace","path":"/cards/4320/done","value":true}]"#)
    }

    @Test func keysThatNeedEscapingBecomeValidPointerTokens() throws {
        let old: [String: Int] = ["a/b": 1, "c~d": 2, "quote\"": 3]
        let new: [String: Int] = ["a/b": 4, "c~d": 5, "quote\"": 6]
        let text = String(decoding: try bytePatch(from: old, to: new), as: UTF8.self)
        #expect(text.contains(#""path":"/a~1b""#) && text.contains(#""path":"/c~0d""#) && text.contains(#""path":"/quote\"""#))
        let patch = try JSONPatch(json: text)
        #expect(try patch.applied(to: JSONParser.parse(JSONEncoding.compact(old))) == (try JSONParser.parse(JSONEncoding.compact(new))))
    }

    @Test func onTheSampleDomainsBytePatchesAreNoLargerThanTreePatches() throws {
        func compare<State: Encodable>(_ states: [State]) throws {
            for (old, new) in zip(states, states.dropFirst()) {
                let tree = JSONWriter.compact(JSONDiff.patch(from: try JSONEncoding.value(of: old), to: try JSONEncoding.value(of: new)).jsonValue)
                #expect(try bytePatch(from: old, to: new).count <= tree.count)
            }
        }
        try compare(sampleStates(SampleDomains.TodoState(), TodoDomain.script, TodoDomain.reduce))
        try compare(sampleStates(GarageState(), GarageDomain.script, GarageDomain.reduce))
    }

    // MARK: Canonical encoding

    @Test func equalSetsAndDictionariesEncodeToTheSameBytesWhateverTheirHistory() throws {
        var small = Board(), large = Board()
        large.flags = Set(minimumCapacity: 10_000)
        large.owners = Dictionary(minimumCapacity: 10_000)
        large.byNumber = Dictionary(minimumCapacity: 10_000)
        for index in 0..<300 {
            small.flags.insert("flag \(index)")
            small.owners["owner \(index)"] = index
            small.byNumber[index] = "n"
        }
        for index in (0..<300).reversed() {
            large.flags.insert("flag \(index)")
            large.owners["owner \(index)"] = index
            large.byNumber[index] = "n"
        }
        #expect(try JSONEncoding.compact(small) == (try JSONEncoding.compact(large)))
        #expect(try JSONEncoding.value(of: small) == (try JSONEncoding.value(of: large)))
        // Sorted, and still what JSONDecoder reads back as the same value.
        let text = String(decoding: try JSONEncoding.compact(["b": 1, "a": 2, "c": 3]), as: UTF8.self)
        #expect(text == #"{"a":2,"b":1,"c":3}"#)
        #expect(try JSONDecoder().decode(Board.self, from: Data(JSONEncoding.compact(large))) == large)
    }

    @Test func setsOfStructsAndDictionariesWithStructKeysAreOrderedToo() throws {
        struct Point: Codable, Hashable { var x: Int; var y: Int }
        let points = (0..<200).map { Point(x: $0 % 17, y: $0) }
        var forward = Set<Point>(), backward = Set<Point>(minimumCapacity: 5_000)
        var keyedForward: [Point: Int] = [:], keyedBackward = [Point: Int](minimumCapacity: 5_000)
        for point in points { forward.insert(point); keyedForward[point] = point.y }
        for point in points.reversed() { backward.insert(point); keyedBackward[point] = point.y }
        #expect(try JSONEncoding.compact(forward) == (try JSONEncoding.compact(backward)))
        #expect(try JSONEncoding.compact(keyedForward) == (try JSONEncoding.compact(keyedBackward)))
        #expect(try JSONDecoder().decode([Point: Int].self, from: Data(JSONEncoding.compact(keyedBackward))) == keyedForward)
    }

    // MARK: Recording

    /// Records `actions` one-card toggles on a board of `cards` cards; returns the log's reader,
    /// its keyframes and the state after each action.
    private func recordToggles(cards: Int, actions: Int) throws -> (reader: LogReader, keyframes: [Int], states: [Board]) {
        let directory = TemporaryDirectory()
        let path = directory.file("toggles.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions(keyframeInterval: 1024))
        let reducer = recorder.recording { (state: inout Board, index: Int) in state.cards[index % state.cards.count].done.toggle() }
        var state = Board()
        state.cards = (0..<cards).map { Board.Card(id: $0, text: "card number \($0)") }
        var states: [Board] = []
        for index in 0..<actions {
            reducer(&state, index * 7)
            states.append(state)
        }
        try recorder.close()
        let reader = try LogReader(path: path)
        return (reader, (0..<reader.entryCount).filter { reader.isKeyframe(at: $0) }, states)
    }

    @Test func aLargeStateWithSmallChangesIsMostlyPatchesAndEveryEntryRebuilds() throws {
        let (reader, keyframes, states) = try recordToggles(cards: 2_000, actions: 300)
        // A one-member patch costs about KeyframePolicy.perPatchCost to read back; the patches may cost three
        // quarters of the 120 kB state: ~125 of them per keyframe.
        #expect(keyframes.count <= 3 && zip(keyframes, keyframes.dropFirst()).allSatisfy { $1 - $0 >= 110 }, "\(keyframes)")
        for index in [0, 1, 150, 299] {
            #expect(try reader.state(at: index) == (try JSONParser.parse(JSONEncoding.compact(states[index]))))
        }
    }

    @Test func patchesThatAddUpToMostOfALargeStateStartAKeyframe() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("churn.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions(keyframeInterval: 1024))
        // Each action rewrites a quarter of a 165 kB state: two parses of it are well over 0.25 ms, so the
        // patches since a keyframe may add up to about three quarters of it.
        let reducer = recorder.recording { (state: inout Board, round: Int) in
            for index in stride(from: round % 4, to: state.cards.count, by: 4) { state.cards[index].text = "r\(round) \(index)" }
        }
        var state = Board()
        state.cards = (0..<3_200).map { Board.Card(id: $0, text: "card \($0)") }
        for round in 0..<24 { reducer(&state, round) }
        try recorder.close()
        let reader = try LogReader(path: path)
        let keyframes = (0..<reader.entryCount).filter { reader.isKeyframe(at: $0) }
        #expect(keyframes.count >= 5 && keyframes.count <= 12, "a keyframe every few entries, not every entry: \(keyframes)")
        #expect(try reader.state(at: 23) == (try JSONParser.parse(JSONEncoding.compact(state))))
    }

    @Test func aSmallStateGetsAKeyframeOnlyEveryHundredOrSoEntriesAndEveryEntryRebuilds() throws {
        let (reader, keyframes, states) = try recordToggles(cards: 50, actions: 400)
        // A 3 kB state parses in microseconds: rebuilds may take up to 0.25 ms, about 200 one-member patches
        // (KeyframePolicy.quarterMillisecond); under the rule of two parses it was one every 2 or 3 entries.
        #expect(keyframes.first == 0 && keyframes.count <= 3, "\(keyframes)")
        #expect(zip(keyframes, keyframes.dropFirst()).allSatisfy { $1 - $0 >= 180 && $1 - $0 <= 220 }, "\(keyframes)")
        for index in [0, 1, 99, 200, 398, 399] {
            #expect(try reader.state(at: index) == (try JSONParser.parse(JSONEncoding.compact(states[index]))))
        }
    }

    @Test func theKeyframeRuleBoundsARebuildByTwoParsesOrAQuarterMillisecondWhicheverIsMore() {
        let policy = KeyframePolicy(maximumInterval: 100_000)
        func patchesBeforeAKeyframe(stateBytes: Int, patchBytes: Int) -> Int {
            var cost = KeyframePolicy.Cost()
            while !policy.wantsKeyframe(after: cost, patchBytes: patchBytes, stateBytes: stateBytes) { cost.add(patchBytes: patchBytes) }
            return cost.patches
        }
        // Rebuild work: 2 kB of overhead + the keyframe's parse + each patch's bytes and 640 bytes;
        // a keyframe once that reaches seven eighths of max(2 × state, 160 kB).
        let small = patchesBeforeAKeyframe(stateBytes: 1_000, patchBytes: 100)
        #expect(small == (143_360 - 2_048 - 1_000) / 740)
        // At 80 kB two parses are the 160 kB; past it they are the bound.
        #expect(patchesBeforeAKeyframe(stateBytes: 80 << 10, patchBytes: 100) == (143_360 - 2_048 - 81_920) / 740)
        let large = patchesBeforeAKeyframe(stateBytes: 400_000, patchBytes: 100)
        #expect(large == (700_000 - 2_048 - 400_000) / 740)
        // A patch as large as the state is a keyframe whatever the budget; so is the K-th entry.
        #expect(policy.wantsKeyframe(after: KeyframePolicy.Cost(), patchBytes: 1_000, stateBytes: 1_000))
        #expect(KeyframePolicy(maximumInterval: 2).wantsKeyframe(after: { var cost = KeyframePolicy.Cost(); cost.add(patchBytes: 1); return cost }(), patchBytes: 1, stateBytes: 1_000))
    }

    @Test func aClassInsideTheStateMutatedByTheAppRightAfterDispatchIsRecordedAsItWas() throws {
        final class Cart: Codable { var items: [String] = [] }
        struct Shop: Codable { var cart = Cart(); var visits = 0 }
        let directory = TemporaryDirectory()
        let path = directory.file("classes.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let reducer = recorder.recording { (state: inout Shop, item: String) in
            state.visits += 1
            state.cart.items.append(item)
        }
        var state = Shop()
        for round in 0..<2_000 {
            reducer(&state, "item \(round)")
            // The app goes on changing the shared instance at once, as apps do.
            state.cart.items.append("scribble")
            state.cart.items.removeLast()
            state.cart.items.reserveCapacity(round * 3 + 64)
        }
        try recorder.close()
        let reader = try LogReader(path: path)
        #expect(reader.entryCount == 2_000)
        let last = try reader.state(at: 1_999)
        #expect(last["cart"]?["items"]?.arrayValue?.count == 2_000)
        #expect(last["cart"]?["items"]?[1_999] == "item 1999")
        #expect(try reader.state(at: 10)["cart"]?["items"]?.arrayValue?.count == 11, "each entry has the state as it was when the reducer returned")
    }

    @Test func aStateTooDeepToReadBackIsRecordedAsAGapThatSaysWhyAndTheNextEntryIsAKeyframe() throws {
        indirect enum Chain: Codable { case end, link(Chain) }
        struct Deep: Codable { var chain = Chain.end; var count = 0 }
        func chain(_ depth: Int) -> Chain { (0..<depth).reduce(Chain.end) { chain, _ in .link(chain) } }
        let directory = TemporaryDirectory()
        let path = directory.file("deep.jsonl")
        var options = testOptions()
        let reports = Locked<[String]>([])
        options.onError = { error in reports.withLock { $0.append("\(error.kind) \(error.description)") } }
        let recorder = try ActionRecorder(file: path, options: options)
        let reducer = recorder.recording { (state: inout Deep, depth: Int) in
            state.chain = chain(depth)
            state.count += 1
        }
        var state = Deep()
        for depth in [3, 300, 4, 400, 5] { reducer(&state, depth) }
        try recorder.close()
        #expect(recorder.error == nil, "recording went on")
        let reader = try LogReader(path: path)
        #expect(reader.damage.isEmpty)
        #expect(reader.entryCount == 3)
        #expect(reader.gaps.count == 2)
        #expect(try reader.state(at: 2)["count"] == 5)
        #expect(reader.isKeyframe(at: 1) && reader.isKeyframe(at: 2))
        let lines = readLines(path)
        // The gap record holds the entry's number; its reason says what was over which limit, once.
        #expect(lines[2].contains(#""firstSeq":1,"dropped":1,"reason":"the state after Int is nested 603 levels deep; a log record holds at most 509""#), "\(lines[2])")
        #expect(reports.withLock { $0 } == [
            "entryNotRecorded \(path): entry 2 was not recorded: the state after Int is nested 603 levels deep; a log record holds at most 509 (recording goes on)",
        ], "reported once, numbered from 1 as rewind log numbers it")
    }

    @Test func anActionTooDeepToReadBackIsAGapThatNamesTheAction() throws {
        indirect enum Chain: Codable { case end, link(Chain) }
        enum Load: Codable { case tree(Chain), done }
        let directory = TemporaryDirectory()
        let path = directory.file("deep-action.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let reducer = recorder.recording { (count: inout Int, _: Load) in count += 1 }
        var count = 0
        reducer(&count, .done)
        reducer(&count, .tree((0..<300).reduce(Chain.end) { chain, _ in .link(chain) }))
        reducer(&count, .done)
        try recorder.close()
        let reader = try LogReader(path: path)
        #expect(reader.entryCount == 2)
        #expect(reader.gaps.map(\.reason) == ["the action tree is nested 604 levels deep; a log record holds at most 509"])
    }

    @Test func aNonCodableInitialStateTooDeepToReadBackLeavesTheHeaderReadable() throws {
        indirect enum Tree { case leaf, node(Tree, Int) }
        struct Forest { var tree: Tree; var count = 0 }
        let directory = TemporaryDirectory()
        let path = directory.file("forest.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let reducer = recorder.recording { (state: inout Forest, _: Int) in state.count += 1; state.tree = .leaf }
        var state = Forest(tree: (0..<300).reduce(Tree.leaf) { tree, level in .node(tree, level) })
        reducer(&state, 1)
        try recorder.close()
        let reader = try LogReader(path: path)
        #expect(reader.header.initialState == nil)
        #expect(readLines(path)[0].contains(#""initialStateOmitted":"the initial state is nested 513 levels deep; a log record holds at most 509""#))
        #expect(try reader.state(at: 0)["count"] == 1)
    }

    @Test func theHeaderSaysWhereTheStateHoldsDatesSoTheInspectorCanShowThem() throws {
        struct Task: Codable { var title: String; var created: Date; var due: Date? }
        struct Planner: Codable { var tasks: [Task] = []; var deadlines: [String: Date] = [:]; var opened = Date(timeIntervalSinceReferenceDate: 0); var count = 0 }
        let directory = TemporaryDirectory()
        let path = directory.file("dates.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let reducer = recorder.recording { (state: inout Planner, _: Int) in state.count += 1 }
        var state = Planner()
        state.tasks = [Task(title: "a", created: Date(timeIntervalSinceReferenceDate: 10), due: nil),
                       Task(title: "b", created: Date(timeIntervalSinceReferenceDate: 20), due: Date(timeIntervalSinceReferenceDate: 30))]
        state.deadlines = ["launch": Date(timeIntervalSinceReferenceDate: 40)]
        reducer(&state, 1)
        try recorder.close()
        #expect(try LogReader(path: path).header.datePaths == ["/deadlines/*", "/opened", "/tasks/*/created", "/tasks/*/due"])
    }

    @Test func aStateOverTheRecordSizeLimitIsAGapAndTheLogStaysReadable() throws {
        struct Blob: Codable { var text = ""; var count = 0 }
        let directory = TemporaryDirectory()
        let path = directory.file("blob.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let reducer = recorder.recording { (state: inout Blob, size: Int) in
            state.text = String(repeating: "x", count: size)
            state.count += 1
        }
        var state = Blob()
        for size in [10, LogReader.maximumLineBytes + 10, 20] { reducer(&state, size) }
        try recorder.close()
        let reader = try LogReader(path: path)
        #expect(reader.damage.isEmpty && reader.entryCount == 2 && reader.gaps.count == 1)
        #expect(try reader.state(at: 1)["count"] == 3)
        #expect(readLines(path)[2].contains("MB encoded; a log record holds at most 64 MB"))
    }
}
