import Foundation
import Testing
@testable import Recorder
import RewindJSON

/// Values that replay exactly (issue 37): `Int128` and `UInt128` are numbers with every digit,
/// not a reflection dump that makes the whole recording unreplayable; an `Int??` holding
/// `.some(nil)` comes back as `.some(nil)`, so a deterministic reducer verifies; and a
/// `Float` is written as the `Double` with its shortest text is, by either encoder.
@Suite struct WideAndNestedValuesTests {
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    struct Ledger: Codable, Equatable {
        var balance: Int128 = .min
        var supply: UInt128 = .max
        var small: Int128 = -42
        var history: [UInt128] = [0, 1 << 100]
        var maybe: Int128? = 7
    }

    enum Step: Codable { case add }

    @Test func wideIntegersAreNumbersWithEveryDigitAndReplay() throws {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        let ledger = Ledger()
        let text = #"{"balance":-170141183460469231731687303715884105728,"supply":340282366920938463463374607431768211455,"small":-42,"history":[0,1267650600228229401496703205376],"maybe":7}"#
        #expect(String(decoding: try JSONEncoding.compact(ledger), as: UTF8.self) == text)
        #expect(JSONWriter.compactString(try JSONEncoding.value(of: ledger)) == text)
        #expect(try JSONValueDecoder().decode(Ledger.self, from: JSONParser.parse(text)) == ledger)

        func reduce(_ state: inout Ledger, _ action: Step) {
            state.balance += 1
            state.history.append(state.supply - UInt128(state.history.count))
        }
        let directory = TemporaryDirectory()
        let path = directory.file("ledger.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let reducer = recorder.recording(reduce)
        var state = Ledger()
        for _ in 0..<5 { reducer(&state, .add) }
        try recorder.close()
        let reader = try LogReader(path: path)
        #expect(reader.header.isStateReplayable, "encoded with Codable, not dumped through reflection")
        #expect(try reader.state(at: 4)["balance"] == .number(JSONNumber("-170141183460469231731687303715884105723")!))
        try Replay(log: path).verify(reducer: reduce)
    }

    struct Settings: Codable, Equatable {
        var limit: Int?? = .some(nil)   // set to "no limit"
        var fallback: Int?? = nil       // never set
        var chosen: Int?? = .some(3)
        var ticks = 0
    }

    @Test func aDoubleOptionalHoldingNilComesBackAsItWas() throws {
        let settings = Settings()
        let value = try JSONEncoding.value(of: settings)
        #expect(JSONWriter.compactString(value) == #"{"limit":null,"chosen":3,"ticks":0}"#)
        let decoded = try JSONValueDecoder().decode(Settings.self, from: value)
        #expect(decoded == settings)
        #expect(decoded.limit == .some(nil) && decoded.fallback == nil)

        func reduce(_ state: inout Settings, _ action: Step) {
            state.ticks += 1
            state.limit = state.ticks.isMultiple(of: 2) ? .some(nil) : .some(state.ticks)
        }
        let directory = TemporaryDirectory()
        let path = directory.file("settings.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions(keyframeInterval: 2))
        let reducer = recorder.recording(reduce)
        var state = Settings()
        for _ in 0..<6 { reducer(&state, .add) }
        try recorder.close()
        try Replay(log: path).verify(reducer: reduce)
    }

    struct Reading: Codable { var single: Float; var double: Double }

    @Test(arguments: [Float(3), 1e7, 1.5e7, 16_777_216, 1e15, 1e16, 0.1, 123_456_792, 3.4e38, -0.0, 1e-7, 2.5, .nan, -.infinity])
    func aFloatIsWrittenAsTheDoubleWithItsShortestTextIs(_ single: Float) throws {
        let double = single.isFinite ? Double(single.description)! : Double(single)
        let reading = Reading(single: single, double: double)
        let bytes = String(decoding: try JSONEncoding.compact(reading), as: UTF8.self)
        let tree = JSONWriter.compactString(try JSONEncoding.value(of: reading))
        #expect(bytes == tree, "both encoders write a float alike")
        let parsed = try JSONParser.parse(bytes)
        #expect(JSONWriter.compactString(parsed["single"]!) == JSONWriter.compactString(parsed["double"]!), "\(bytes)")
        let back = try JSONValueDecoder().decode(Reading.self, from: parsed)
        #expect(back.single == single || single.isNaN && back.single.isNaN)
    }
}
