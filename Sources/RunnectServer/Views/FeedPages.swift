import Foundation
import RunnectStore

/// The feed's order, kept: the ids of every shared course by date and by scraps, read from the
/// store's index (``CourseStore/sharedCourseIDs(sort:)``) and cut into pages here, so that page
/// 9,000 costs what page 1 does (no OFFSET walked on each request) and the feed's length is
/// known without counting.
///
/// An order is read again when it is a second old (a change by another process shows within
/// the second; while one request reads it, the others page the one before), and at once after
/// this server shares, un-shares or deletes a course (``invalidate()``), so a runner sees their
/// own change on the next page they ask for. Pages of one order never repeat or skip a course.
final class FeedPages: @unchecked Sendable {
    /// How long an order is paged before it is read again.
    static let freshness: Duration = .seconds(1)

    private struct Order {
        var ids: [Int64]
        var read: ContinuousClock.Instant
        var generation: UInt64
    }

    private let lock = NSLock()
    private var orders: [CourseSort: Order] = [:]
    private var reading: Set<CourseSort> = []
    private var generation: UInt64 = 0

    /// The ids of the shared courses in the order of `sort`.
    func ids(_ sort: CourseSort, store: CourseStore) async throws -> [Int64] {
        let now = ContinuousClock.now
        enum Next {
            case use([Int64])
            case read(UInt64)
        }
        let next: Next = lock.withLock {
            if let order = orders[sort], order.generation == generation {
                // Fresh, or stale while another request reads it anew.
                if now - order.read < Self.freshness || reading.contains(sort) { return .use(order.ids) }
            }
            reading.insert(sort)
            return .read(generation)
        }
        switch next {
        case .use(let ids):
            return ids
        case .read(let asked):
            do {
                let ids = try await store.sharedCourseIDs(sort: sort)
                lock.withLock {
                    reading.remove(sort)
                    // Kept only if nothing changed the feed while it was read.
                    if generation == asked { orders[sort] = Order(ids: ids, read: now, generation: asked) }
                }
                return ids
            } catch {
                _ = lock.withLock { reading.remove(sort) }
                throw error
            }
        }
    }

    /// How many courses are shared.
    func count(store: CourseStore) async throws -> Int {
        try await ids(.date, store: store).count
    }

    /// Forgets the orders: the feed changed.
    func invalidate() {
        lock.withLock {
            generation &+= 1
            orders = [:]
        }
    }
}
