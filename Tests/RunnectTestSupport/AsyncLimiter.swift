/// Runs at most `width` bodies at a time; the others wait their turn, first come first served.
public actor AsyncLimiter {
    private let width: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init(width: Int) {
        precondition(width > 0)
        self.width = width
    }

    public func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if running < width {
            running += 1
        } else {
            // The body that ends hands its place over: `running` stays as it is.
            await withCheckedContinuation { waiting.append($0) }
        }
        defer {
            if waiting.isEmpty { running -= 1 } else { waiting.removeFirst().resume() }
        }
        return try await body()
    }
}
