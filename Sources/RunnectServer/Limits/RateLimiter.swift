import Foundation
import NIOConcurrencyHelpers

/// A token bucket per key (a runner, a client address): `perMinute` actions a minute, as a burst
/// of at most that many, refilled evenly. What one runner does cannot use up what the server
/// can do for everyone.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    /// The actions a key may take in a minute; 0 means no limit.
    let perMinute: Int
    /// The most keys remembered; the stalest are forgotten beyond it (so that counting costs no
    /// more memory than this, however many clients come).
    static let maximumKeys = 100_000
    private let buckets = NIOLockedValueBox<[String: Bucket]>([:])

    init(perMinute: Int) {
        self.perMinute = perMinute
    }

    /// Takes one action for `key`: `nil` when it may go ahead, else how long until it may.
    func take(_ key: String, now: ContinuousClock.Instant = .now) -> Duration? {
        guard perMinute > 0 else { return nil }
        let capacity = Double(perMinute)
        let perSecond = capacity / 60
        return buckets.withLockedValue { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: capacity, updated: now)
            let elapsed = bucket.updated.duration(to: now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(capacity, bucket.tokens + max(0, seconds) * perSecond)
            bucket.updated = now
            guard bucket.tokens >= 1 else {
                buckets[key] = bucket
                return .seconds((1 - bucket.tokens) / perSecond)
            }
            bucket.tokens -= 1
            if buckets[key] == nil, buckets.count >= Self.maximumKeys {
                // Forget the keys whose buckets are full again: they would start full anyway.
                buckets = buckets.filter {
                    $0.value.tokens + Self.seconds($0.value.updated.duration(to: now)) * perSecond < capacity
                }
                if buckets.count >= Self.maximumKeys { buckets.removeAll(keepingCapacity: true) }
            }
            buckets[key] = bucket
            return nil
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

extension APIError {
    /// 429 in the envelope, with `Retry-After` in whole seconds (at least 1).
    static func tooManyRequests(_ what: String, retryAfter: Duration) -> APIError {
        let seconds = max(
            1, Int(Double(retryAfter.components.seconds) + Double(retryAfter.components.attoseconds) / 1e18 + 0.999))
        return APIError(.tooManyRequests, "\(what); try again in \(seconds) s", headers: [.retryAfter: String(seconds)])
    }
}
