import Foundation

/// States and actions that reach class instances are encoded on the caller's
/// thread, not the writer's.
///
/// Why: the writer thread encodes a state after the reducer returned, while
/// the app runs on. A value type copied into the queue cannot change, but a
/// class instance inside it is shared: if the app mutates it while the writer
/// reads it, the writer reads torn memory (a crash, or a state that never
/// existed). Encoding such values before `recording(_:)` returns costs the
/// caller the encode (about what `JSONEncoding.compact(_:)` takes for the
/// state) but reads the instance on the thread that owns it. Pure value types
/// keep the cheap hand-off. docs/PERFORMANCE.md gives the cost.
///
/// The decision is made once per type, from the first value seen; a type
/// whose first value reaches no class instance (an empty array of objects)
/// is treated as a value type.
final class CallerThreadEncoding: Sendable {
    private let decisions = Locked<[ObjectIdentifier: Bool]>([:])

    /// Whether values of `value`'s static type `T` must be encoded on the caller's thread.
    func mustEncodeOnCaller<T>(_ value: T) -> Bool {
        let type = ObjectIdentifier(T.self)
        if let known = decisions.withLock({ $0[type] }) { return known }
        let decision = ReferenceScan.reachesClassInstance(value)
        decisions.withLock { $0[type] = decision }
        return decision
    }
}

/// A value encoded on the caller's thread: its bytes, structural index and
/// how it was encoded, handed to the writer instead of the value.
struct EncodedDocument: @unchecked Sendable {
    var bytes: [UInt8]
    var nodes: [_IndexNode]
    var deepestNesting: Int
    var replayable: Bool
    var problem: String?

    /// Encodes a state (with its structural index) through the shared encoder pool.
    static func encode(_ value: Any) -> EncodedDocument {
        var document = EncodedDocument(bytes: [], nodes: [], deepestNesting: 0, replayable: false, problem: nil)
        _ = try? _StreamingEncoderPool.shared.withEncoder { encoder in
            let (replayable, problem) = RecordedValue.encodeIndexed(value, into: encoder)
            document = EncodedDocument(
                bytes: encoder.bytes, nodes: Array(encoder.nodes.unsafeElements),
                deepestNesting: encoder.deepestNesting, replayable: replayable, problem: problem)
            encoder.indexing = false
            encoder.nodes.removeAll()
        }
        return document
    }
}

/// Finds class instances inside a value through `Mirror`, looking at a few
/// elements of each collection (elements of one array share a type).
enum ReferenceScan {
    static func reachesClassInstance(_ value: Any) -> Bool {
        reaches(value, depth: 0)
    }

    private static let elementsLooked = 8
    private static let deepestLook = 64

    private static func reaches(_ value: Any, depth: Int) -> Bool {
        guard depth < deepestLook, !isValueLeaf(value) else { return false }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .class: return true
        case .collection, .set, .dictionary:
            return mirror.children.prefix(elementsLooked).contains { reaches($0.value, depth: depth + 1) }
        default:
            return mirror.children.contains { reaches($0.value, depth: depth + 1) }
        }
    }

    /// Value types whose insides are class-backed storage with value semantics (`Data`'s buffers).
    private static func isValueLeaf(_ value: Any) -> Bool {
        switch value {
        case is String, is Substring, is Character, is Bool, is Int, is Int8, is Int16, is Int32, is Int64,
             is UInt, is UInt8, is UInt16, is UInt32, is UInt64, is Double, is Float,
             is Date, is Data, is URL, is UUID, is Decimal:
            true
        default:
            false
        }
    }
}
