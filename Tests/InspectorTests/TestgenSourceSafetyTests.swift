import Foundation
import Testing
import Recorder
@testable import Inspector

/// A recording is data from elsewhere: nothing in it may change what the Swift source
/// `rewind testgen` writes means. Each generated file is compiled (type-checked against
/// the RewindTesting and SampleDomains this build made) and its declarations read back
/// from the compiler's parse: only the imports and the one test type with its one test.
@Suite struct TestgenSourceSafetyTests {
    /// Every scalar that must not reach the source raw, with quotes, backslashes and `#`s
    /// that a raw literal has to outnumber, and the replacement character a lone surrogate
    /// in a JSON log reads as.
    static let hostileText = "q\"#\\#\"##|nul\u{0}|tab\t|nl\n|cr\r|esc\u{1B}|del\u{7F}|c1\u{85}\u{9B}\u{9F}|ls\u{2028}ps\u{2029}"
        + "|bidi\u{202E}\u{2066}\u{2069}\u{200F}\u{061C}|bom\u{FEFF}|lone\u{FFFD}|é日本"

    /// A log whose action types, payloads, state keys and values, header type names and
    /// file name all try to end a comment or a literal and run code.
    static func hostileLog(in directory: TemporaryDirectory) throws -> String {
        let header = LogHeader(created: Date(timeIntervalSince1970: 1_764_000_000), processName: "app\nprint(\"INJECTED\")",
                               stateTypeName: "S#> ; print(\"INJECTED\") <#", actionTypeName: "A\nfunc INJECTED() {}",
                               initialState: ["count": 0, "note": ""])
        var builder = LogBuilder(header: header)
        let types = ["ADD\rprint(\"INJECTED\"); //", "nl\nfunc INJECTED() {}", "ls\u{2028}INJECTED", "del\u{7F}", "bidi\u{202E}INJECTED"]
        for (index, type) in types.enumerated() {
            let state: JSONValue = ["count": .integer(Int64(index + 1)), "note": .string(hostileText + String(index)),
                                    .init(stringLiteral: "key " + hostileText): .string(hostileText)]
            builder.append(.init(sequence: Int64(index), time: Date(timeIntervalSince1970: 1_764_000_000 + Double(index)),
                                 action: LogEntry.Action(type: type, payload: ["text": .string(hostileText)], replayable: true),
                                 state: state))
        }
        let path = directory.file("hostile\nprint(\"INJECTED\")\n.jsonl")
        try Data(builder.bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testgen(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        var streams = CapturedStreams()
        let status = RewindCommandLine.run(["testgen"] + arguments, streams: &streams)
        return (status, streams.standardOutput, streams.standardError)
    }

    @Test(arguments: [
        // -o name, extra arguments, the test type it must declare, XCTest or not.
        ("Hostile.swift", [String](), "Hostile", false),
        ("Self.swift", [], "SelfTests", false),
        ("Any.swift", [], "AnyTests", false),
        ("Void.swift", [], "VoidTests", false),
        ("TodoDomain.swift", [], "TodoDomainTests", false),
        ("XCTestCase.swift", ["--xctest"], "XCTestCaseTests", true),
        ("Überprüfung-日本.swift", [], "Überprüfung日本", false),
    ])
    func generatedSourceCompilesAndDeclaresOnlyTheTest(fileName: String, extra: [String], typeName: String, xctest: Bool) throws {
        let directory = TemporaryDirectory()
        let log = try Self.hostileLog(in: directory)
        let testPath = directory.file(fileName)
        let result = testgen([log, "-o", testPath, "--module", "SampleDomains", "--reducer", "TodoDomain.reduce"] + extra)
        #expect(result.status == 0, "\(result.error)")
        let source = try String(contentsOfFile: testPath, encoding: .utf8)
        #expect(!source.unicodeScalars.contains { SwiftSource.isEscaped($0) && $0 != "\n" }, "no raw control, separator or bidi scalar")

        let compiler = try #require(GeneratedSourceCompiler.forThisBuild, "swiftc and this build's modules are needed to compile generated tests")
        let typecheck = compiler.typecheck(testPath)
        #expect(typecheck.status == 0, "the generated test compiles:\n\(typecheck.output)")
        let parsed = compiler.declarations(testPath)
        #expect(parsed.topLevel == ["import Foundation", "import RewindTesting", xctest ? "import XCTest" : "import Testing", "import SampleDomains",
                                    (xctest ? "class " : "struct ") + typeName])
        #expect(parsed.members == (xctest ? ["func testReplaysTheRecording()"] : ["func replaysTheRecording()"]))
        #expect(!parsed.dump.contains("INJECTED"), "nothing from the recording became code")
    }

    @Test func thePlaceholderForTheReducerNamesOnlyPlausibleTypes() throws {
        let directory = TemporaryDirectory()
        let log = try Self.hostileLog(in: directory)
        let testPath = directory.file("Placeholder.swift")
        #expect(testgen([log, "-o", testPath]).status == 0)
        let source = try String(contentsOfFile: testPath, encoding: .utf8)
        #expect(source.contains("reducer: <#reducer: (inout State, Action) -> Void#>)"), "the header's type names are not types: generic names instead")
        #expect(source.contains("// Replays entries 1–5 of hostile\\u{a}print(\"INJECTED\")\\u{a}.jsonl through the reducer"))
        #expect(source.contains("        // 1. ADD\\u{d}print(\"INJECTED\"); // text: "))
    }

    @Test func moduleAndReducerArgumentsMustBeOneLineOfCode() throws {
        let directory = TemporaryDirectory()
        let log = try Self.hostileLog(in: directory)
        let module = testgen([log, "--module", "App\nfunc x() {}"])
        #expect(module.status == 2)
        #expect(module.error == "rewind testgen: --module takes a module name, not 'App\\u000afunc x() {}'\n")
        let reducer = testgen([log, "--reducer", "reduce\n}\nfunc x() {"])
        #expect(reducer.status == 2)
        #expect(reducer.error == "rewind testgen: --reducer takes one line of Swift naming the reducer, not 'reduce\\u000a}\\u000afunc x() {'\n")
    }

    /// The literals say exactly what the recording holds: Swift's own reading of them (a script
    /// run by the interpreter prints each literal's scalars) gives back every scalar.
    @Test func literalsHoldExactlyTheRecordedText() throws {
        let compiler = try #require(GeneratedSourceCompiler.forThisBuild, "swift is needed to read the literals back")
        let texts = [Self.hostileText, "plain", "{\"a\":\"b\\\\\"}", "\"#", "\\#", "\"##\\##x", String(Self.hostileText.reversed())]
        var script = "let texts: [String] = [\n"
        for text in texts { script += "    " + SwiftSource.rawStringLiteral(text) + ",\n    " + SwiftSource.stringLiteral(text) + ",\n" }
        script += "]\nfor text in texts { print(text.unicodeScalars.map { String($0.value) }.joined(separator: \" \")) }\n"
        let directory = TemporaryDirectory()
        let path = directory.file("literals.swift")
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        let run = compiler.interpret(path)
        #expect(run.status == 0, "\(run.output)")
        let expected = texts.flatMap { [$0, $0] }.map { $0.unicodeScalars.map { String($0.value) }.joined(separator: " ") }
        #expect(run.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) == expected)
    }
}

/// `swiftc` and `swift` from the `PATH`, with this build's modules (`.build/<config>/Modules`
/// beside the test binary) and the C module maps they import: enough to compile a generated
/// test against RewindTesting and SampleDomains in a fraction of a second, without a package.
struct GeneratedSourceCompiler {
    let buildDirectory: String
    let repository: String

    static var forThisBuild: GeneratedSourceCompiler? {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Modules/RewindTesting.swiftmodule").path) {
                return GeneratedSourceCompiler(buildDirectory: directory.path, repository: repository)
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }

    private var moduleArguments: [String] {
        let generated = ((try? FileManager.default.contentsOfDirectory(atPath: buildDirectory)) ?? [])
            .filter { $0.hasSuffix(".build") }.map { "\(buildDirectory)/\($0)/module.modulemap" }
        let declared = ((try? FileManager.default.contentsOfDirectory(atPath: repository + "/Sources")) ?? []).map { "\(repository)/Sources/\($0)/module.modulemap" }
        let maps = (generated + declared).filter { FileManager.default.fileExists(atPath: $0) }
        return ["-I", buildDirectory + "/Modules"] + maps.flatMap { ["-Xcc", "-fmodule-map-file=" + $0] }
    }

    func typecheck(_ path: String) -> (status: Int32, output: String) {
        run(["swiftc", "-typecheck"] + moduleArguments + [path])
    }

    func interpret(_ path: String) -> (status: Int32, output: String) { run(["swift", path]) }

    /// The file's top-level declarations (`import Foundation`, `struct Name`) and the members of
    /// its type, as the compiler parses them (`-dump-parse`), and the whole dump.
    func declarations(_ path: String) -> (topLevel: [String], members: [String], dump: String) {
        let dump = run(["swiftc", "-dump-parse", path]).output
        var topLevel: [String] = [], members: [String] = []
        for line in dump.split(separator: "\n") {
            let text = String(line)
            if text.hasPrefix("  ("), !text.hasPrefix("   ") {
                let kind = text.dropFirst(3).prefix { $0 != " " }
                if kind == "import_decl", let module = text.range(of: "module=\"").map({ text[$0.upperBound...].prefix { $0 != "\"" } }) {
                    topLevel.append("import " + module)
                } else {
                    topLevel.append(kind.replacingOccurrences(of: "_decl", with: "") + (Self.quotedName(text).map { " " + $0 } ?? ""))
                }
            } else if text.hasPrefix("    ("), !text.hasPrefix("     ") {
                let kind = text.dropFirst(5).prefix { $0 != " " }
                guard kind.hasSuffix("_decl") else { continue }   // attributes, inheritance
                members.append(kind.replacingOccurrences(of: "_decl", with: "") + (Self.quotedName(text).map { " " + $0 } ?? ""))
            }
        }
        return (topLevel, members, dump)
    }

    /// The `"…"` right after a dump line's source range: the declaration's name.
    private static func quotedName(_ line: String) -> String? {
        guard let start = line.range(of: "] \"") else { return nil }
        return String(line[start.upperBound...].prefix { $0 != "\"" })
    }

    private func run(_ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return (-1, "\(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
