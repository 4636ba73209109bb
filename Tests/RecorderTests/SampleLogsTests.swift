import Foundation
import SampleDomains
import Testing
@testable import Recorder

/// The committed sample logs open cleanly and match the sample domains
/// (regenerate them with `swift run rewind-demo` when a domain changes).
@Suite struct SampleLogsTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("sample-logs").path

    func open(_ name: String) throws -> LogReader {
        let reader = try LogReader(path: SampleLogsTests.directory + "/" + name)
        #expect(reader.damage.isEmpty)
        #expect(reader.tornTail == nil)
        #expect(reader.header.metadata["generatedBy"] == "rewind-demo")
        return reader
    }

    /// Replays `script` through `reduce` and compares every recorded state.
    func expectStates<State: Encodable, Action>(
        _ reader: LogReader, initial: State, script: [Action], reduce: (inout State, Action) -> Void
    ) throws {
        #expect(reader.entryCount == script.count)
        var state = initial
        for (index, action) in script.enumerated() {
            reduce(&state, action)
            #expect(try reader.state(at: index) == (try JSONEncoding.value(of: state)), "entry \(index)")
        }
    }

    @Test func todos() throws {
        let reader = try open("todos.jsonl")
        try expectStates(reader, initial: SampleDomains.TodoState(), script: TodoDomain.script, reduce: TodoDomain.reduce)
        #expect(reader.header.isStateReplayable)
    }

    // The sample logs are written by today's recorder; one log of each older format
    // stays, so that what users recorded before goes on opening with the same entries and states.
    @Test func theSampleLogsAreTheCurrentFormatAndOlderFormatsStillReadTheSame() throws {
        for name in ["todos", "garage", "search", "player"] {
            #expect(try open(name + ".jsonl").header.version == 3, "\(name)")
        }
        let current = try open("todos.jsonl")
        for (name, version) in [("todos-format1.jsonl", 1), ("todos-format2.jsonl", 2)] {
            let old = try open(name)
            #expect(old.header.version == version)
            #expect(old.entryCount == current.entryCount)
            for index in 0..<current.entryCount {
                #expect(try old.state(at: index) == (try current.state(at: index)), "\(name) entry \(index + 1)")
                // Each entry keeps its number, time and duration, whichever format holds it.
                let (before, now) = (try old.entry(at: index), try current.entry(at: index))
                #expect(before.time == now.time && before.sequence == now.sequence && before.duration == now.duration, "\(name) entry \(index + 1)")
            }
        }
    }

    @Test func garage() throws {
        let reader = try open("garage.jsonl")
        try expectStates(reader, initial: GarageState(), script: GarageDomain.script, reduce: GarageDomain.reduce)
        #expect(try reader.entry(at: 5).action.name == "primary.brakeTapped")
        #expect(try reader.entry(at: 3).action.name == "car.accelerate")
    }

    @Test func searchEffectsAnswerTheActionThatStartedThem() throws {
        let reader = try open("search.jsonl")
        let entries = try (0..<reader.entryCount).map { try reader.entry(at: $0) }
        let loaded = entries.filter { $0.action.name == "resultsLoaded" }
        #expect(!loaded.isEmpty)
        for entry in loaded {
            let origin = try #require(entry.effectOf)
            #expect(entries[Int(origin)].action.name == "queryChanged")
        }
        #expect(entries.filter { $0.effectOf == nil }.count == SearchDomain.script.count)
        #expect(try reader.state(at: 0)["isLoading"] == true)
        #expect(try reader.state(at: 1)["isLoading"] == false)
    }

    @Test func playerIsRecordedByReflection() throws {
        let reader = try open("player.jsonl")
        #expect(reader.entryCount == PlayerDomain.script.count)
        #expect(!reader.header.isStateReplayable)
        #expect(try reader.entry(at: 0).action.isReplayable == false)
        #expect(try reader.state(at: 0)["track"]?["title"] == "Blue in Green")
    }

    @Test func stayUnderOneMegabyte() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: SampleLogsTests.directory)
        let total = try names.reduce(0) { sum, name in
            sum + ((try FileManager.default.attributesOfItem(atPath: SampleLogsTests.directory + "/" + name)[.size] as? Int) ?? 0)
        }
        #expect(total < 1 << 20)
    }
}
