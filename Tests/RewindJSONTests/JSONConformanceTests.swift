import Foundation
import Testing
@testable import RewindJSON

/// JSONTestSuite (github.com/nst/JSONTestSuite) from `shared/conformance/JSONTestSuite`
/// next to the checkout (`../shared/...`, or further up for git worktrees).
/// The files are not copied into the project; without them the suite is skipped.
@Suite struct JSONConformanceTests {
    static let folder: URL? = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()  // Tests/RewindJSONTests
            .deletingLastPathComponent().deletingLastPathComponent()  // package root
        for _ in 0..<3 {
            directory = directory.deletingLastPathComponent()
            let candidate = directory.appendingPathComponent("shared/conformance/JSONTestSuite")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        print("JSONConformanceTests: shared/conformance/JSONTestSuite not found next to the package; skipped")
        return nil
    }()

    static func files(prefix: String) -> [URL] {
        guard let folder else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test(.enabled(if: folder != nil)) func acceptsEveryYFile() throws {
        let files = Self.files(prefix: "y_")
        #expect(files.count == 95)
        for file in files {
            let bytes = try Data(contentsOf: file)
            #expect(throws: Never.self, "\(file.lastPathComponent)") { try JSONParser.parse(bytes) }
        }
    }

    @Test(.enabled(if: folder != nil)) func rejectsEveryNFile() throws {
        let files = Self.files(prefix: "n_")
        #expect(files.count == 188)
        for file in files {
            let bytes = try Data(contentsOf: file)
            #expect(throws: JSONParseError.self, "\(file.lastPathComponent)") { try JSONParser.parse(bytes) }
        }
    }

    /// Implementation-defined inputs: either answer is fine, as long as the
    /// parser returns (no crash, no hang) and a rejection is a positioned error.
    @Test(.enabled(if: folder != nil)) func decidesEveryIFileWithoutCrashing() throws {
        let files = Self.files(prefix: "i_")
        #expect(files.count == 35)
        for file in files {
            let bytes = try Data(contentsOf: file)
            do {
                _ = try JSONParser.parse(bytes)
            } catch {
                #expect(error.offset <= bytes.count && error.line >= 1 && error.column >= 1)
            }
        }
    }
}
