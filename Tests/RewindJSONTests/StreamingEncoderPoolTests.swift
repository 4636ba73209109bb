import Foundation
import Testing
@testable import RewindJSON

/// Encoders are kept between documents with their cached containers; these
/// check that reuse never leaks state from one document into the next, and
/// that encoders the pool does not keep are freed.
@Suite struct StreamingEncoderPoolTests {
    private struct Todo: Codable, Equatable {
        var id: Int
        var title: String
        var tags: [String]
        var owner: Owner?
    }

    private struct Owner: Codable, Equatable {
        var name: String
    }

    private struct Settings: Codable, Equatable {
        var theme: String
        var sizes: [Double]
    }

    private final class Watch: @unchecked Sendable {
        weak var encoder: _StreamingEncoder?
        var identities: [ObjectIdentifier] = []
    }

    /// Encodes `value` through `pool`, noting which encoder did it.
    private func encode<T: Encodable>(_ value: T, in pool: _StreamingEncoderPool, watch: Watch? = nil) throws -> [UInt8] {
        try pool.withEncoder { encoder in
            watch?.encoder = encoder
            watch?.identities.append(ObjectIdentifier(encoder))
            try encoder.encodeTopLevel(value)
            return encoder.bytes
        }
    }

    private func expectSameJSONAsFoundation<T: Encodable>(_ bytes: [UInt8], _ value: T) throws {
        #expect(try JSONParser.parse(bytes) == (try JSONParser.parse(try JSONEncoder().encode(value))))
    }

    @Test func documentsInTurnShareOneEncoderAndEachComesOutWhole() throws {
        let pool = _StreamingEncoderPool()
        let watch = Watch()
        let todos = (0..<5).map { Todo(id: $0, title: "todo \($0)", tags: ["a", "b"].suffix($0 % 3), owner: $0 % 2 == 0 ? Owner(name: "n\($0)") : nil) }
        let settings = Settings(theme: "dark", sizes: [1, 2.5])
        for document in 0..<6 {
            if document % 2 == 0 {
                try expectSameJSONAsFoundation(try encode(todos, in: pool, watch: watch), todos)
            } else {
                try expectSameJSONAsFoundation(try encode(settings, in: pool, watch: watch), settings)
            }
        }
        #expect(Set(watch.identities).count == 1)
    }

    @Test func anEncoderThatFailsPartWayIsFreedAndTheNextDocumentIsUnharmed() throws {
        struct Failing: Encodable {
            struct Boom: Error {}
            enum Keys: CodingKey { case list }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                var list = container.nestedUnkeyedContainer(forKey: .list)
                try list.encode(1)
                throw Boom()
            }
        }
        let pool = _StreamingEncoderPool()
        let failed = Watch()
        #expect(throws: Failing.Boom.self) { try encode([Failing()], in: pool, watch: failed) }
        #expect(failed.encoder == nil)
        let settings = Settings(theme: "light", sizes: [])
        try expectSameJSONAsFoundation(try encode(settings, in: pool), settings)
    }

    @Test func aDocumentEncodedInsideAnotherGetsItsOwnEncoder() throws {
        struct Outer: Encodable {
            enum Keys: CodingKey { case inner, after }
            let pool: _StreamingEncoderPool
            let watch: Watch
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                let inner = try StreamingEncoderPoolTests().encode(Settings(theme: "inner", sizes: [3]), in: pool, watch: watch)
                try container.encode(String(decoding: inner, as: UTF8.self), forKey: .inner)
                try container.encode(true, forKey: .after)
            }
        }
        let pool = _StreamingEncoderPool()
        let watch = Watch()
        let bytes = try encode(Outer(pool: pool, watch: watch), in: pool, watch: watch)
        #expect(Set(watch.identities).count == 2)
        #expect(try JSONParser.parse(bytes) == ["inner": #"{"theme":"inner","sizes":[3]}"#, "after": true])
    }

    @Test func encodersBeyondTheIdleLimitAreFreed() throws {
        // Three documents in progress at once (each inside the other), one kept.
        struct Nested: Encodable {
            let level: Int
            let pool: _StreamingEncoderPool
            let watches: [Watch]
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                if level + 1 < watches.count {
                    let inner = try StreamingEncoderPoolTests().encode(Nested(level: level + 1, pool: pool, watches: watches), in: pool, watch: watches[level + 1])
                    try container.encode(inner.count)
                } else {
                    try container.encode(0)
                }
            }
        }
        let pool = _StreamingEncoderPool(maximumIdle: 1)
        let watches = [Watch(), Watch(), Watch()]
        _ = try encode(Nested(level: 0, pool: pool, watches: watches), in: pool, watch: watches[0])
        #expect(watches.filter { $0.encoder != nil }.count == 1)
    }

    @Test func aBufferIsKeptForDocumentsOfTheSameSizeButNotBeyondTheLimits() throws {
        let pool = _StreamingEncoderPool(smallBuffer: 4096, largestKeptBuffer: 1 << 20)
        func capacityForNextDocument() throws -> Int { try pool.withEncoder { $0.capacity } }
        func todos(_ count: Int) -> [Todo] {
            (0..<count).map { Todo(id: $0, title: "a title long enough to fill the buffer \($0)", tags: ["x"], owner: nil) }
        }
        let large = try encode(todos(2_000), in: pool)
        #expect(large.count > 100_000 && large.count < 1 << 19)
        #expect(try capacityForNextDocument() >= large.count)
        _ = try encode(todos(2), in: pool)
        #expect(try capacityForNextDocument() <= 4096)
        let huge = try encode(todos(20_000), in: pool)
        #expect(huge.count > 1 << 20)
        #expect(try capacityForNextDocument() <= 1 << 20)
    }

    @Test func documentsEncodedOnManyThreadsAtOnceComeOutWhole() throws {
        // Through the shared pool, as the recorder's writers and tests use it.
        let todos = (0..<40).map { Todo(id: $0, title: "todo \($0)", tags: ["t"], owner: Owner(name: "o\($0)")) }
        let settings = Settings(theme: "dark", sizes: [1.5])
        let expectedTodos = try JSONEncoding.compact(todos)
        let expectedSettings = try JSONEncoding.compact(settings)
        let mismatches = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<50 {
                let matches = (thread + round) % 2 == 0
                    ? (try? JSONEncoding.compact(todos)) == expectedTodos
                    : (try? JSONEncoding.compact(settings)) == expectedSettings
                if !matches { mismatches.withLock { $0 += 1 } }
            }
        }
        #expect(mismatches.withLock { $0 } == 0)
    }
}
