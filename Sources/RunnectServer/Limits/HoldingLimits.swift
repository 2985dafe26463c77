import Foundation
import RunnectStore

/// What one runner may keep on the server: at most `courses` courses and `imageBytes` bytes of
/// map images (0: no limit). Each runner's holdings are counted from the store and the images
/// folder when first needed, kept for a minute, and counted up by this server's own uploads in
/// between, so a burst of drawings cannot slip past the limit. Over a limit, a new course is
/// refused with 429 (with `Retry-After`: deleting courses makes room).
final class HoldingLimits: @unchecked Sendable {
    let courses: Int
    let imageBytes: Int64

    private struct Held {
        var courses: Int
        var imageBytes: Int64
        var counted: ContinuousClock.Instant
    }

    private let lock = NSLock()
    private var held: [Int64: Held] = [:]
    /// How long a count is trusted before it is read again (another process may have deleted or
    /// drawn courses).
    static let freshness: Duration = .seconds(60)

    init(courses: Int, imageBytes: Int64) {
        self.courses = max(0, courses)
        self.imageBytes = max(0, imageBytes)
    }

    /// Refuses (429) a new course of `bytes` image bytes that would take runner `id` past a
    /// limit; otherwise counts it as held (``release(runner:)`` when it was not stored after all).
    func reserve(runner id: Int64, bytes: Int64, store: CourseStore, images: ImageFolder) async throws {
        guard courses > 0 || imageBytes > 0 else { return }
        let now = ContinuousClock.now
        if lock.withLock({ held[id].map { now - $0.counted > Self.freshness } ?? true }) {
            let (count, names) = try await store.holdings()
            let bytes = names.reduce(Int64(0)) { $0 + images.size(of: $1) }
            lock.withLock { held[id] = Held(courses: count, imageBytes: bytes, counted: now) }
        }
        let refusal: String? = lock.withLock {
            guard var mine = held[id] else { return nil }
            if courses > 0, mine.courses + 1 > courses {
                return "you keep \(mine.courses) courses, the most a runner may (\(courses)); delete some first"
            }
            if imageBytes > 0, mine.imageBytes + bytes > imageBytes {
                return "your map images take \(mine.imageBytes / 1_048_576) MiB of the \(imageBytes / 1_048_576) MiB "
                    + "a runner may keep; delete some courses first"
            }
            mine.courses += 1
            mine.imageBytes += bytes
            held[id] = mine
            return nil
        }
        if let refusal { throw APIError.tooManyRequests(refusal, retryAfter: .seconds(60)) }
    }

    /// Forgets runner `id`'s count (after a refused or failed drawing, or deletions): the next
    /// drawing counts again.
    func release(runner id: Int64) {
        _ = lock.withLock { held.removeValue(forKey: id) }
    }
}
