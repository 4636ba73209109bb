import Foundation
import Testing

/// The names issue 33 replaced still compile for one release, each with a deprecation
/// warning that names its replacement. The code that uses them
/// (Tests/RenamedDeclarations/OldNames.swift) is in no target, so its warnings never reach
/// `swift build -Xswiftc -warnings-as-errors`: this test type-checks it with `swiftc`
/// against the modules `swift build` wrote, and reads the warnings back.
@Suite struct RenamedDeclarationTests {
    /// Old name → new name, as the compiler words them.
    static let renamed: [String: String] = {
        var renamed = [
            "RecordedAction": "LogEntry.Action",
            "LogRefresh": "LogFileChange",
            "CompatibilityReport": "ReplayCompatibilityReport",
            "WorkRecording": "AsyncWorkRecording",
            "bytes(of:)": "compact(_:)",
            "Invariant": "StateInvariant",
            "RecordedSteps": "FixtureReplay",
            "RecordedStepsError": "FixtureReplayError",
        ]
        #if compiler(>=6.1)
        renamed["RecordedTrait"] = "TestRecordingTrait"
        #endif
        return renamed
    }()

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let oldNames = packageRoot.appendingPathComponent("Tests/RenamedDeclarations/OldNames.swift").path

    /// The folder `swift build` writes products and modules to: the test bundle's own.
    static let buildFolder: URL? = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundle, Bundle.main.bundleURL.deletingLastPathComponent(), bundle.deletingLastPathComponent()]
        where FileManager.default.fileExists(atPath: candidate.appendingPathComponent("Modules/Recorder.swiftmodule").path) {
            return candidate
        }
        return nil
    }()

    /// `swiftc` on the `PATH`: the toolchain `swift test` runs from.
    static let compiler: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .map { String($0) + "/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: buildFolder != nil && compiler != nil, "needs swiftc on the PATH and the modules of `swift build`"))
    func codeWrittenAgainstTheOldNamesCompilesWithAWarningNamingEachNewName() throws {
        let (status, output) = try Self.typeCheck(Self.oldNames)
        #expect(status == 0, "\(output)")
        let pattern = try Regex(#"OldNames\.swift:\d+:\d+: warning: '([^']+)' is deprecated: renamed to '([^']+)'"#)
        var warned: [String: String] = [:]
        for line in output.split(separator: "\n") {
            if let match = try pattern.firstMatch(in: String(line)), let old = match[1].substring, let new = match[2].substring {
                warned[String(old)] = String(new)
            }
        }
        #expect(warned == Self.renamed, "\(output)")
    }

    /// Type-checks `file` against the built modules (and the C modules they import); the
    /// compiler's exit status and everything it printed.
    static func typeCheck(_ file: String) throws -> (Int32, String) {
        guard let buildFolder, let compiler else { return (-1, "") }
        var arguments = ["-typecheck", "-swift-version", "6", "-I", buildFolder.appendingPathComponent("Modules").path]
        let manager = FileManager.default
        let builtModuleMaps = (try manager.contentsOfDirectory(atPath: buildFolder.path)).filter { $0.hasSuffix(".build") }
            .map { buildFolder.appendingPathComponent($0 + "/module.modulemap").path }
        let sources = packageRoot.appendingPathComponent("Sources")
        let sourceModuleMaps = try manager.contentsOfDirectory(atPath: sources.path)
            .map { sources.appendingPathComponent($0 + "/module.modulemap").path }
        for map in (builtModuleMaps + sourceModuleMaps).sorted() where manager.fileExists(atPath: map) {
            arguments += ["-Xcc", "-fmodule-map-file=" + map]
        }
        for target in try manager.contentsOfDirectory(atPath: sources.path).sorted() {
            let include = sources.appendingPathComponent(target + "/include").path
            if manager.fileExists(atPath: include) { arguments += ["-Xcc", "-I", "-Xcc", include] }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: compiler)
        process.arguments = arguments + [file]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
