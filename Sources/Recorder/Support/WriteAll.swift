import Foundation

/// `write(2)` until every byte is written, retrying short writes and EINTR: the
/// one loop every writer of files and standard output uses.
package enum WriteAll {
    /// How many bytes were written, and the errno that stopped it (nil: all of them).
    /// A write that makes no progress without an error counts as a full device (ENOSPC).
    @discardableResult
    package static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> (written: Int, failure: Int32?) {
        var written = 0
        while written < bytes.count {
            let result = Foundation.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if result > 0 {
                written += result
            } else if result < 0 && errno == EINTR {
                continue
            } else {
                return (written, result < 0 ? errno : ENOSPC)
            }
        }
        return (written, nil)
    }
}
