import Foundation

/// The server's bounded queue: at most `running` requests are answered at once, at most `queued`
/// more wait their turn (first come, first served) for up to `patience`; a request past both
/// bounds, or one that waited too long, is refused at once (503 with `Retry-After`), so overload
/// costs clients a retry, never the server its memory.
final class Admission: @unchecked Sendable {
    let running: Int
    let queued: Int
    let patience: Duration

    private struct Waiter {
        var id: UInt64
        var continuation: CheckedContinuation<Bool, Never>
        var timer: Task<Void, Never>?
    }

    private let lock = NSLock()
    private var active = 0
    private var waiters: [Waiter] = []
    private var nextID: UInt64 = 0

    /// - Parameters:
    ///   - running: Requests answered at once, at least 1.
    ///   - queued: Requests waiting at most, 0 or more.
    ///   - patience: The longest a request waits.
    init(running: Int, queued: Int, patience: Duration) {
        self.running = max(1, running)
        self.queued = max(0, queued)
        self.patience = patience
    }

    /// Requests being answered, and waiting.
    var counts: (running: Int, waiting: Int) { lock.withLock { (active, waiters.count) } }

    /// Waits for a turn: `true` once the request may run (it must call ``leave()`` when done),
    /// `false` when the queue is full, the wait ran out or the task was cancelled.
    func enter() async -> Bool {
        // The common case, without a continuation.
        let id: UInt64? = lock.withLock {
            if active < running {
                active += 1
                return nil
            }
            nextID &+= 1
            return nextID
        }
        guard let id else { return true }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                enum Decision { case run, refuse, wait }
                let decision: Decision = lock.withLock {
                    if active < running {
                        active += 1
                        return .run
                    }
                    guard waiters.count < queued, !Task.isCancelled else { return .refuse }
                    waiters.append(Waiter(id: id, continuation: continuation, timer: nil))
                    return .wait
                }
                switch decision {
                case .run: continuation.resume(returning: true)
                case .refuse: continuation.resume(returning: false)
                case .wait:
                    let timer = Task { [patience] in
                        try? await Task.sleep(for: patience)
                        if !Task.isCancelled { self.giveUp(id) }
                    }
                    lock.withLock {
                        if let index = waiters.firstIndex(where: { $0.id == id }) {
                            waiters[index].timer = timer
                        } else {
                            timer.cancel()  // already admitted or refused
                        }
                    }
                }
            }
        } onCancel: {
            self.giveUp(id)
        }
    }

    /// Ends a request's turn: the longest waiting one runs next.
    func leave() {
        let next: Waiter? = lock.withLock {
            if waiters.isEmpty {
                active -= 1
                return nil
            }
            return waiters.removeFirst()  // its turn: `active` stays as it is
        }
        next?.timer?.cancel()
        next?.continuation.resume(returning: true)
    }

    /// Removes waiter `id`, if it still waits, refused.
    private func giveUp(_ id: UInt64) {
        let waiter: Waiter? = lock.withLock {
            guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return waiters.remove(at: index)
        }
        waiter?.timer?.cancel()
        waiter?.continuation.resume(returning: false)
    }
}
