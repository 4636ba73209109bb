import Foundation
import Testing
import Recorder
import RewindTestSupport
@testable import Inspector

/// `rewind find DIR` over recordings that are not in the page cache reads them
/// past it (what a cold disk is searched with), and prints exactly what it
/// prints for the same recordings read through the cache.
@Suite struct ColdSearchTests {
    /// A recording of a few megabytes whose lines cross the read-ahead's blocks
    /// every way: short entries of random lengths, keyframes over the 64 KB first
    /// window a crossing line is read in, and one line over a whole block.
    static func recording(seed: UInt64, damageLine: Int?, tornTail: Bool) throws -> String {
        var generator = SplitMix64(seed: seed)
        var blob = ""
        let steps = (0..<3_000).map { index in
            if index == 1_200 { blob = String(repeating: "b", count: 90_000) }
            if index == 2_000 { blob = String(repeating: "c", count: 1_200_000) }
            if index == 2_010 { blob = "" }
            let note = String(repeating: "n", count: Int.random(in: 20...2_500, using: &generator))
            return LogFixture.Step(type: index % 7 == 0 ? "tick/big" : "tick", payload: ["note": .string(note)],
                                   state: ["counter": .integer(Int64(index % 50)), "blob": .string(blob), "last": .integer(Int64(index))])
        }
        return try LogFixture.write(steps, keyframeInterval: 40, initialState: ["counter": 0, "blob": "", "last": -1],
                                    damageLine: damageLine, tornTail: tornTail, name: "run-\(seed).jsonl")
    }

    @Test func aColdDirectoryIsReadPastThePageCacheAndSearchedAsAWarmOne() throws {
        let directory = TemporaryDirectory()
        for (seed, damage, torn) in [(UInt64(1), nil, false), (2, 1_500, false), (3, nil, true), (4, 2_005, false)] as [(UInt64, Int?, Bool)] {
            let made = try Self.recording(seed: seed, damageLine: damage, tornTail: torn)
            try FileManager.default.moveItem(atPath: made, toPath: directory.file((made as NSString).lastPathComponent))
        }
        let paths = try FileManager.default.contentsOfDirectory(atPath: directory.path).map(directory.file)
        #expect(paths.count == 4)
        for query in ["/counter == 7", "changed /blob", "/last > 2990 or action == tick/big and /counter < 3"] {
            var warm = CapturedStreams(), cold = CapturedStreams()
            let warmStatus = RewindCommandLine.run(["find", directory.path, query], streams: &warm)
            for path in paths {
                PageCache.evict(path)
                #if os(Linux)
                #expect(try #require(PageCache.share(of: path)) < 0.5, "\(path) is out of the cache before the cold search")
                #endif
            }
            let coldStatus = RewindCommandLine.run(["find", directory.path, query], streams: &cold)
            #expect(cold.standardOutput == warm.standardOutput, "\(query)")
            #expect(cold.standardError == warm.standardError, "\(query)")
            #expect(coldStatus == warmStatus)
            #expect(!warm.standardOutput.isEmpty, "\(query) finds something")
            #if os(Linux)
            // Read past the cache: the recordings are still out of it (read through it, they would be in it).
            for path in paths { #expect(try #require(PageCache.share(of: path)) < 0.5, "\(path) was read past the cache") }
            #endif
        }
    }
}
