import Foundation

/// How many wrong tokens `rewind listen` takes from one address: a few at once, then one
/// per `interval` seconds (a token bucket). An address out of tries is refused before its
/// token is looked at, so guessing costs time instead of running at network speed.
///
/// At most `maximumAddresses` addresses are remembered (those that earned all their tries
/// back are forgotten first); beyond that, the rest share one bucket, so a flood from many
/// addresses can neither grow the listener's memory nor guess faster.
struct AuthenticationLimiter {
    /// Wrong tokens an address may send at once.
    let burst: Int
    /// Seconds an address waits for each further try.
    let interval: Double
    let maximumAddresses: Int
    private var buckets: [String: Bucket] = [:]
    private var shared: Bucket

    private struct Bucket {
        var tries: Double
        var updated: Double
    }

    init(burst: Int, interval: Double, maximumAddresses: Int = 1024) {
        self.burst = max(1, burst)
        self.interval = max(0, interval)
        self.maximumAddresses = max(1, maximumAddresses)
        shared = Bucket(tries: Double(self.burst), updated: 0)
    }

    /// Nil when `address` may try a token at `now` (seconds on a monotonic clock); else how
    /// many seconds until it may.
    mutating func wait(for address: String, at now: Double) -> Double? {
        let bucket = refilled(buckets[address] ?? (buckets.count < maximumAddresses ? nil : shared), at: now)
        guard bucket.tries < 1 else { return nil }
        return interval * (1 - bucket.tries)
    }

    /// Counts a wrong token from `address` at `now`.
    mutating func noteWrongToken(from address: String, at now: Double) {
        if buckets[address] == nil && buckets.count >= maximumAddresses { forgetRecovered(at: now) }
        if buckets[address] == nil && buckets.count >= maximumAddresses {
            shared = refilled(shared, at: now)
            shared.tries = max(0, shared.tries - 1)
            return
        }
        var bucket = refilled(buckets[address], at: now)
        bucket.tries = max(0, bucket.tries - 1)
        buckets[address] = bucket
    }

    /// Addresses remembered (for tests of the bound).
    var rememberedAddresses: Int { buckets.count }

    private func refilled(_ bucket: Bucket?, at now: Double) -> Bucket {
        guard var bucket else { return Bucket(tries: Double(burst), updated: now) }
        let earned = interval > 0 ? max(0, now - bucket.updated) / interval : Double(burst)
        bucket.tries = min(Double(burst), bucket.tries + earned)
        bucket.updated = now
        return bucket
    }

    private mutating func forgetRecovered(at now: Double) {
        buckets = buckets.filter { refilled($0.value, at: now).tries < Double(burst) }
    }
}
