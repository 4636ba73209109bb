import Foundation
import Testing
@testable import Recorder

/// Every input kept in Fuzz/Corpus (seeds and anything a fuzz run once
/// crashed on) goes through the same checks as the fuzz targets.
@Suite struct FuzzRegressionTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Corpus")

    static func inputs(_ target: String) -> [URL] {
        let folder = corpus.appendingPathComponent(target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test(arguments: inputs("json-parser"))
    func parserInputsRoundTrip(input: URL) throws {
        let bytes = try Data(contentsOf: input)
        guard let value = try? JSONParser.parse(bytes) else { return }
        #expect(try JSONParser.parse(JSONWriter.compact(value)) == value)
    }

    @Test(arguments: inputs("patch-apply"))
    func patchInputsApplyOrFailCleanly(input: URL) throws {
        guard case .array(let pair) = try JSONParser.parse(try Data(contentsOf: input)), pair.count == 2 else { return }
        if let patch = try? JSONPatch(jsonValue: pair[1]) { _ = try? patch.applied(to: pair[0]) }
        #expect(try JSONDiff.patch(from: pair[0], to: pair[1]).applied(to: pair[0]) == pair[1])
    }

    @Test(arguments: inputs("log-reader"))
    func readingEveryLogInputDoesNotCrash(input: URL) throws {
        guard let reader = try? LogReader(path: input.path) else { return }
        for index in 0..<reader.entryCount {
            _ = try? reader.entry(at: index)
            _ = try? reader.state(at: index)
        }
    }

    @Test func theCorpusIsThere() {
        #expect(!Self.inputs("json-parser").isEmpty)
        #expect(!Self.inputs("patch-apply").isEmpty)
        #expect(!Self.inputs("log-reader").isEmpty)
    }
}
