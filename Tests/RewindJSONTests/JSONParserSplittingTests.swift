import Foundation
import Testing
@_spi(Testing) @testable import RewindJSON

/// Large arrays are parsed in concurrent runs (JSONParser+LargeArrays.swift).
/// Splitting every array, however small, must give exactly what a sequential
/// parse gives: the same values, and for broken input the same error.
@Suite struct JSONParserSplittingTests {
    /// Every array at the top levels split into three runs.
    private let everyArray = ArraySplitting(minimumBytes: 1, runs: 3)

    private func outcome(_ bytes: [UInt8], splitting: ArraySplitting?,
                         duplicateKeys: JSONParser.DuplicateKeys = .lastValueWins) -> Result<JSONValue, JSONParseError> {
        bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) -> JSONValue in
                try JSONParser.parse(buffer: buffer, duplicateKeys: duplicateKeys, splitting: splitting)
            }
        }
    }

    @Test func splitArraysParseToTheSameValues() {
        var generator = SplitMix64(seed: 41)
        for _ in 0..<300 {
            let value = JSONValue.array((0..<Int(generator.next() % 12)).map { _ in RandomJSON.document(using: &generator) })
            for text in [JSONWriter.compact(value), Array(JSONWriter.prettyString(value).utf8)] {
                #expect(outcome(text, splitting: everyArray) == .success(value))
            }
        }
    }

    @Test func brokenInputFailsWithTheSameErrorSplitOrNot() {
        var generator = SplitMix64(seed: 42)
        let value = JSONValue.array((0..<40).map { _ in RandomJSON.document(using: &generator) })
        let text = JSONWriter.compact(value)
        let noise = Array("[]{},:\"\\ 0-e.a".utf8) + [0x00, 0xFF]
        var failures = 0
        for _ in 0..<2_000 {
            var broken = text
            for _ in 0..<Int(1 + generator.next() % 2) {
                let offset = Int(generator.next() % UInt64(broken.count))
                switch generator.next() % 3 {
                case 0: broken[offset] = noise[Int(generator.next() % UInt64(noise.count))]
                case 1: broken.remove(at: offset)
                default: broken.insert(noise[Int(generator.next() % UInt64(noise.count))], at: offset)
                }
            }
            let sequential = outcome(broken, splitting: nil)
            #expect(outcome(broken, splitting: everyArray) == sequential, "\(String(decoding: broken, as: UTF8.self))")
            if case .failure = sequential { failures += 1 }
        }
        #expect(failures > 1_000, "most edits should break the document")
    }

    @Test func aGuessedBoundaryInsideAStringOrANestedArrayIsNotTrusted() {
        let cases = [
            // Element-like text inside strings and nested arrays, where a run may guess its start.
            #"[{"a":"x,{\"a\":1}"},{"a":",{\"a\":"},{"a":[{"a":1},{"a":2}]},{"a":",{"},{"a":4}]"#,
            #"[{"a":1}, {"a":[{"a":2}, {"a":3}]}, {"a":"]"}, {"a":5}]"#,
            #"[{"a":1},{"a":2},]"#, #"[{"a":1} {"a":2},{"a":3}]"#, #"[{"a":1},{"a":2}"#, #"[{"a":1},,{"a":2}]"#,
            #"{"rows": [{"id": 1, "id": 2}, {"id": 3}, {"id": 4}]}"#,
            #"[{"a":1},{"a":2}] [{"a":3},{"a":4}]"#,
            // A small array whose runs guess starts inside the large one after it.
            #"{"recent":[{"id":1},{"id":2}],"todos":[{"id":3},{"id":4},{"id":5},{"id":6},{"id":7},{"id":8}]}"#,
        ]
        for text in cases {
            let bytes = Array(text.utf8)
            #expect(outcome(bytes, splitting: everyArray) == outcome(bytes, splitting: nil), "\(text)")
            #expect(outcome(bytes, splitting: everyArray, duplicateKeys: .reject) == outcome(bytes, splitting: nil, duplicateKeys: .reject), "\(text)")
        }
    }

    @Test func aLargeArrayIsSplitAndComesBackWhole() {
        let rows = JSONValue.array((0..<200_000).map { .object(JSONObject([("id", .integer(Int64($0))), ("name", .string("row \($0)"))])) })
        let text = JSONWriter.compact(["rows": rows, "count": 200_000])
        #expect(text.count > 5_000_000)
        #expect(outcome(text, splitting: ArraySplitting(minimumBytes: 1 << 20, runs: 4)) == .success(["rows": rows, "count": 200_000]))
    }
}
