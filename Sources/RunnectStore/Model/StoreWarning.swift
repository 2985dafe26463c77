import Foundation

/// What a store noticed and went on past, told to ``CourseStore/warnings``.
public enum StoreWarning: Error, Equatable, Sendable, CustomStringConvertible {
    /// A course whose stored row cannot be read (its figures do not decode, or hold values no
    /// store writes): left out of a list, a search or the index, which serve the rest.
    case unreadableCourse(id: Int64, reason: String)

    public var description: String {
        switch self {
        case .unreadableCourse(let id, let reason):
            return "course #\(id) cannot be read (\(reason)) and was left out; its owner can delete it"
        }
    }
}

/// Where a store's warnings go: a handler set once by the caller (the CLI prints them), and the
/// warnings of a transaction gathered while it reads.
public final class StoreWarnings: @unchecked Sendable {
    private let lock = NSLock()
    private var handler: (@Sendable (StoreWarning) -> Void)?

    init() {}

    /// Sends every warning from now on to `handler` (the last one set); without one they are dropped.
    public func onWarning(_ handler: @escaping @Sendable (StoreWarning) -> Void) {
        lock.withLock { self.handler = handler }
    }

    /// Tells `warnings` to the handler, in order.
    package func report(_ warnings: [StoreWarning]) {
        guard !warnings.isEmpty, let handler = lock.withLock({ self.handler }) else { return }
        for warning in warnings { handler(warning) }
    }
}

/// The rows a transaction left out as unreadable, in the order met.
package final class UnreadableRows: @unchecked Sendable {
    private let lock = NSLock()
    private var warnings: [StoreWarning] = []

    package init() {}

    /// Notes course `id` as unreadable for `error`.
    package func skip(course id: Int64, _ error: any Error) {
        let reason = (error as? StoreError).map { "\($0)" } ?? "\(error)"
        lock.withLock { warnings.append(.unreadableCourse(id: id, reason: reason)) }
    }

    /// The warnings so far, emptied.
    package func take() -> [StoreWarning] {
        lock.withLock {
            defer { warnings = [] }
            return warnings
        }
    }
}
