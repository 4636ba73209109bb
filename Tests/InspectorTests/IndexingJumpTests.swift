import Testing
import Recorder
@testable import Inspector

/// `G` and `:N` on a log still being indexed in the background: entries past those
/// indexed so far exist, so neither stops short nor calls them past the end.
@Suite struct IndexingJumpTests {
    /// A log of `all` entries whose background indexing the test moves on by hand.
    final class IndexingTimeline: TimelineSource {
        let all: InMemoryTimeline
        var indexed: Int
        init(entries: Int, indexed: Int) {
            all = InMemoryTimeline(name: "big.jsonl", steps: (0..<entries).map { .init("tick", ["n": .integer(Int64($0))], state: ["n": .integer(Int64($0))]) })
            self.indexed = indexed
        }
        var name: String { all.name }
        var count: Int { min(indexed, all.count) }
        var indexing: IndexingProgress { count < all.count ? .scanning(fraction: Double(count) / Double(all.count)) : .complete }
        var damage: [DamagedRecord] { [] }
        var tornTail: DamagedRecord? { nil }
        var initialState: JSONValue? { nil }
        func entry(at index: Int) -> TimelineEntry? { index < count ? all.entry(at: index) : nil }
        func state(at index: Int) throws -> JSONValue { try all.state(at: index) }
        func refresh() -> FollowNotice? { nil }
    }

    static func statusLine(_ model: InspectorModel) -> String {
        let lines = model.screenText.split(separator: "\n", omittingEmptySubsequences: false)
        return String(lines[lines.count - 2]).trimmingCharacters(in: .whitespaces)
    }

    static func hintLine(_ model: InspectorModel) -> String { String(model.screenText.split(separator: "\n").last ?? "") }

    @Test func gFollowsTheEndUntilIndexingIsDone() {
        let timeline = IndexingTimeline(entries: 1_000, indexed: 100)
        var model = InspectorFixtures.model(timeline, columns: 120)
        model.type("G")
        #expect(Self.statusLine(model) == "big.jsonl  │  entry 100/100  │  timeline  │  indexing 10%")
        #expect(Self.hintLine(model).hasPrefix(
            "The last entry so far, 100 (indexing 10%): the selection follows the end until indexing is done (Esc stays)"))
        timeline.indexed = 600
        reduce(&model, .tick)
        #expect(Self.statusLine(model) == "big.jsonl  │  entry 600/600  │  timeline  │  indexing 60%")
        timeline.indexed = 1_000
        reduce(&model, .tick)
        #expect(Self.statusLine(model) == "big.jsonl  │  entry 1000/1000  │  timeline")
        #expect(Self.hintLine(model).hasPrefix("Indexing done: entry 1000 is the last"))
        #expect(model.timeline.pendingJump == nil)
    }

    @Test func aKeyThatMovesTheSelectionOrEscLeavesItWhereItIs() {
        let timeline = IndexingTimeline(entries: 1_000, indexed: 100)
        var model = InspectorFixtures.model(timeline, columns: 120)
        model.type("Gk")
        timeline.indexed = 300
        reduce(&model, .tick)
        #expect(model.timeline.selection == 98, "k moved off the end: indexing does not take the selection back")
        model.type("G\u{1b}")
        #expect(Self.hintLine(model).hasPrefix("Staying at entry 300; G goes to the last entry indexed so far"))
        timeline.indexed = 400
        reduce(&model, .tick)
        #expect(model.timeline.selection == 299)
        model.type("G\t")                                   // a key that does not move the selection keeps it going
        timeline.indexed = 500
        reduce(&model, .tick)
        #expect(model.timeline.selection == 499)
    }

    @Test func aJumpPastWhatIsIndexedWaitsForItAndNeverCallsItPastTheEnd() {
        let timeline = IndexingTimeline(entries: 1_000, indexed: 100)
        var model = InspectorFixtures.model(timeline, columns: 120)
        model.type(":900\n")
        #expect(model.timeline.selection == 0)
        #expect(Self.hintLine(model).hasPrefix("Entry 900 is not indexed yet (indexing 10%): it is selected when it is (Esc cancels)"))
        timeline.indexed = 899
        reduce(&model, .tick)
        #expect(model.timeline.selection == 0)
        timeline.indexed = 950
        reduce(&model, .tick)
        #expect(Self.statusLine(model) == "big.jsonl  │  entry 900/950  │  timeline  │  indexing 95%")
        #expect(model.timeline.pendingJump == nil)

        // Past the end once indexing is done: only then is it said to be.
        model.type(":5000\n")
        timeline.indexed = 1_000
        reduce(&model, .tick)
        #expect(model.timeline.selection == 999)
        #expect(Self.hintLine(model).hasPrefix("Entry 5000 is past the end: showing the last, 1000"))

        // Esc cancels a jump that waits.
        var waiting = InspectorFixtures.model(IndexingTimeline(entries: 1_000, indexed: 100), columns: 120)
        waiting.type(":700\n\u{1b}")
        #expect(Self.hintLine(waiting).hasPrefix("Not going to entry 700: staying at entry 1"))
        #expect(waiting.timeline.pendingJump == nil)
    }
}
