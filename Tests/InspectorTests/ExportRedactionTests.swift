import Foundation
import Testing
@testable import Recorder
@testable import Inspector

/// Secrets never reach the bytes: not in a log the recorder writes with
/// `Options.redaction`, not in any export made with `--redact`. Markers still
/// show whether a hidden value changed.
@Suite struct ExportRedactionTests {
    struct Account: Codable {
        struct Session: Codable { var token: String }
        var user = ""
        var password = ""
        var session = Session(token: "")
        var visits = 0
    }

    enum AccountAction: Codable {
        case login(user: String, password: String)
        case visit
        case changePassword(String)
        case refresh(token: String)
    }

    static let secrets = ["hunter2", "correct horse", "tok-8c1f0e", "tok-77aa91"]

    static func reduce(_ state: inout Account, _ action: AccountAction) {
        switch action {
        case .login(let user, let password):
            state.user = user
            state.password = password
            state.session.token = "tok-8c1f0e"
        case .visit: state.visits += 1
        case .changePassword(let password): state.password = password
        case .refresh(let token): state.session.token = token
        }
    }

    /// Records the account script; with `rules`, through the recorder's redaction.
    static func record(to path: String, rules: [String]?) throws {
        var options = ActionRecorder.Options()
        options.keyframeInterval = 3
        options.redaction = try rules.map { try Redaction(rules: $0) }
        let recorder = try ActionRecorder(file: path, options: options)
        let reducer = recorder.recording(reduce)
        var state = Account()
        for action: AccountAction in [.login(user: "ann", password: "hunter2"), .visit, .changePassword("correct horse"), .visit, .refresh(token: "tok-77aa91"), .visit] {
            reducer(&state, action)
        }
        try recorder.close()
    }

    /// The rules the tests hide secrets with: a key anywhere, a key under any parent,
    /// and an action case whose payload is unlabeled (`{"changePassword":{"_0":…}}`).
    static let rules = ["password", "*/token", "changePassword"]

    /// The secrets found in `bytes` (compared outside `#expect`, so a failure prints names, not bytes).
    static func secretsIn(_ bytes: some Collection<UInt8>) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self)
        return secrets.filter { text.contains($0) }
    }

    @Test func theRecorderNeverWritesARedactedSecretAndMarkersShowChanges() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("account.jsonl")
        try Self.record(to: path, rules: Self.rules)
        let leaked = Self.secretsIn(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(leaked == [])

        let reader = try LogReader(path: path)
        #expect(reader.entryCount == 6)
        let passwords = try (0..<6).map { try reader.state(at: $0)["password"]?.stringValue ?? "" }
        let tokens = try (0..<6).map { try reader.state(at: $0)[pointer: JSONPointer(parsing: "/session/token")]?.stringValue ?? "" }
        #expect(passwords.allSatisfy { $0.hasPrefix("‹redacted ") })
        // Same secret, same marker; a new secret, a new marker.
        #expect(passwords[0] == passwords[1] && passwords[2] == passwords[3])
        #expect(passwords[1] != passwords[2])
        #expect(tokens[3] == tokens[0] && tokens[4] != tokens[3])
        // Patches (computed after redaction) show exactly which entries changed a secret.
        #expect(try reader.entry(at: 1).changedPaths.map(\.description) == ["/visits"])
        #expect(try reader.entry(at: 2).changedPaths.map(\.description) == ["/password"])
        // Action payloads are redacted too.
        #expect(try reader.entry(at: 0).action.payload[pointer: JSONPointer(parsing: "/login/password")]?.stringValue == passwords[0])
        #expect(reader.header.options["redactionRules"] == ["password", "*/token", "changePassword"])
    }

    @Test(arguments: ExportFormat.allCases)
    func exportingWithRedactRulesKeepsSecretsOutOfEveryFormat(format: ExportFormat) throws {
        let directory = TemporaryDirectory()
        let log = directory.file("account.jsonl")
        try Self.record(to: log, rules: nil)
        let unredacted = Self.secretsIn(try Data(contentsOf: URL(fileURLWithPath: log)))
        #expect(unredacted == Self.secrets)   // the log itself has them all

        let text = exportText([log, "--format", format.rawValue] + Self.rules.flatMap { ["--redact", $0] }, in: directory)
        #expect(!text.isEmpty)
        let leaked = Self.secretsIn(Array(text.utf8))
        #expect(leaked == [])
        #expect(text.contains("‹redacted "))
    }

    @Test func theRedactedMarkdownReportStillShowsWhenASecretChanged() throws {
        let directory = TemporaryDirectory()
        let log = directory.file("account.jsonl")
        try Self.record(to: log, rules: nil)
        let report = exportText([log, "--from", "2", "--to", "3"] + Self.rules.flatMap { ["--redact", $0] }, in: directory)
        #expect(report.contains("- **Redacted:** `password`, `*/token`, `changePassword`"))
        #expect(Self.secretsIn(Array(report.utf8)) == [])
        let changePassword = try #require(report.components(separatedBy: "### 2. `changePassword` (entry 3)").last)
        #expect(changePassword.contains("-   \"password\": \"‹redacted "))
        #expect(changePassword.contains("+   \"password\": \"‹redacted "))
        let visit = try #require(report.components(separatedBy: "### 1. `visit` (entry 2)").last?.components(separatedBy: "### 2.").first)
        #expect(!visit.contains("password"))
    }

    @Test func aRedactedJSONLinesSliceUsesOneMarkerPerSecretValue() throws {
        let directory = TemporaryDirectory()
        let log = directory.file("account.jsonl")
        try Self.record(to: log, rules: nil)
        let slice = directory.file("slice.jsonl")
        var streams = CapturedStreams()
        #expect(RewindCommandLine.run(["export", log, "--format", "jsonl", "--redact", "password", "-o", slice], streams: &streams) == 0)
        let reader = try LogReader(path: slice)
        let passwords = try (0..<6).map { try reader.state(at: $0)["password"] }
        #expect(passwords[0] == passwords[1] && passwords[1] != passwords[2])
        #expect(try reader.entry(at: 1).changedPaths.map(\.description) == ["/visits"])
        #expect(reader.header.options["redactionRules"] == ["password"])
    }
}
