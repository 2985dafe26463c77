import Foundation
import RunnectStore

/// The feed's order, kept: the ids of every shared course by date and by scraps, read from the
/// store's index (`CourseStore.sharedCourseIDs(sort:)`) and cut into pages here, so that page
/// 9,000 costs what page 1 does (no OFFSET walked on each request) and the feed's length is
/// known without counting.
///
/// An order is read again when it is a second old (a change by another process shows within
/// the second; while one request reads it, the others page the one before), and at once after
/// this server shares, un-shares or deletes a course (``invalidate()``), so a runner sees their
/// own change on the next page they ask for. One read at a time: requests that find no order
/// wait for the read under way rather than start their own. Pages cut from one order never
/// repeat or skip a course.
final class FeedPages: @unchecked Sendable {
    /// How long an order is paged before it is read again.
    static let freshness: Duration = .seconds(1)

    private struct Order {
        var ids: [Int64]
        var read: ContinuousClock.Instant
    }

    private let lock = NSLock()
    private var orders: [CourseSort: Order] = [:]
    private var reading: [CourseSort: (task: Task<[Int64], any Error>, generation: UInt64)] = [:]
    private var generation: UInt64 = 0

    /// The ids of the shared courses in the order of `sort`.
    func ids(_ sort: CourseSort, store: CourseStore) async throws -> [Int64] {
        let now = ContinuousClock.now
        enum Next {
            case use([Int64])
            case wait(Task<[Int64], any Error>)
        }
        let next: Next = lock.withLock {
            let current = reading[sort].flatMap { $0.generation == generation ? $0.task : nil }
            if let order = orders[sort] {
                // Fresh, or stale while a read of the next one is under way.
                if now - order.read < Self.freshness || current != nil { return .use(order.ids) }
            }
            if let current { return .wait(current) }
            let asked = generation
            let task = Task { () async throws -> [Int64] in
                defer { self.finish(sort, generation: asked, read: nil) }
                let ids = try await store.sharedCourseIDs(sort: sort)
                self.finish(sort, generation: asked, read: Order(ids: ids, read: now))
                return ids
            }
            reading[sort] = (task, asked)
            return .wait(task)
        }
        switch next {
        case .use(let ids): return ids
        case .wait(let task): return try await task.value
        }
    }

    /// Ends the read of `sort` begun at `generation`, keeping its order when the feed did not
    /// change meanwhile.
    private func finish(_ sort: CourseSort, generation asked: UInt64, read order: Order?) {
        lock.withLock {
            if reading[sort]?.generation == asked { reading[sort] = nil }
            if let order, generation == asked { orders[sort] = order }
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
