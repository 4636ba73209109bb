/// Streaming encoders kept between documents.
///
/// Why: an encoder that has written a state once holds a container for each
/// of the state's types (see ``_KeyedContainerCache``) and a buffer of the
/// right size. Making those again for every document was a quarter of the
/// time to encode a small state, and the recorder encodes the same types
/// over and over.
///
/// An encoder is used by one caller at a time: taking one removes it from
/// the pool, and a document that encodes inside another's `encode(to:)`
/// gets its own.
package final class _StreamingEncoderPool: Sendable {
    /// The pool ``JSONEncoding/compact(_:)`` uses.
    package static let shared = _StreamingEncoderPool()

    /// Encoders kept idle at most: enough for every core to encode at once.
    let maximumIdle: Int
    /// A buffer is kept at up to twice the size of the document just written,
    /// so the next state of about the same size is written without growing
    /// (and page-faulting) it again, but never above `largestKeptBuffer`, and
    /// always up to `smallBuffer`.
    let smallBuffer: Int
    let largestKeptBuffer: Int

    private let idle = Locked<[_StreamingEncoder]>([])

    package init(maximumIdle: Int = 4, smallBuffer: Int = 1 << 20, largestKeptBuffer: Int = 64 << 20) {
        self.maximumIdle = maximumIdle
        self.smallBuffer = min(smallBuffer, largestKeptBuffer)
        self.largestKeptBuffer = largestKeptBuffer
    }

    /// Runs `body` with an idle encoder (or a new one), which goes back to the
    /// pool if `body` succeeds. One that failed part-way is retired instead.
    package func withEncoder<Result>(_ body: (_StreamingEncoder) throws -> Result) throws -> Result {
        let encoder = idle.withLock { $0.popLast() } ?? _StreamingEncoder()
        let result: Result
        do {
            result = try body(encoder)
        } catch {
            encoder.retire()
            throw error
        }
        encoder.prepareForNextDocument(keepingCapacityUpTo: min(largestKeptBuffer, max(smallBuffer, 2 * encoder.count)))
        let kept = idle.withLock { encoders in
            guard encoders.count < maximumIdle else { return false }
            encoders.append(encoder)
            return true
        }
        if !kept { encoder.retire() }
        return result
    }
}
