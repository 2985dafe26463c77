import Foundation
import RunnectStore

/// The feed's length (the shared courses), which every feed page and the page count tell: read
/// from the store at most once a second, and again at once after this server shares, un-shares
/// or deletes a course (another process's changes show within the second).
final class FeedLength: @unchecked Sendable {
    private let lock = NSLock()
    private var cached: (count: Int, at: ContinuousClock.Instant)?
    private var generation: UInt64 = 0
    /// How long a count is told before it is read again.
    static let freshness: Duration = .seconds(1)

    /// The number of shared courses.
    func count(store: CourseStore) async throws -> Int {
        let now = ContinuousClock.now
        let (hit, asked): (Int?, UInt64) = lock.withLock {
            if let cached, now - cached.at < Self.freshness { return (cached.count, generation) }
            return (nil, generation)
        }
        if let hit { return hit }
        let count = try await store.sharedCourseCount()
        // Kept only if nothing changed the feed while it was read.
        lock.withLock { if generation == asked { cached = (count, now) } }
        return count
    }

    /// Forgets the count: the feed changed.
    func invalidate() {
        lock.withLock {
            generation &+= 1
            cached = nil
        }
    }
}
