import Foundation
import PostgresNIO
import RunnectTestSupport
import Testing

@testable import RunnectPostgres

/// How a transaction's statements end when the connection under them is gone.
@Suite(.postgres) struct PostgresTransactionTests {
    struct TimedOut: Error {}

    /// The future's outcome, or ``TimedOut`` after `seconds`.
    static func outcome(
        of future: EventLoopFuture<PostgresQueryResult>, within seconds: Int64
    ) async -> Result<PostgresQueryResult, any Error> {
        let watched = future.eventLoop.makePromise(of: PostgresQueryResult.self)
        future.cascade(to: watched)
        let timer = future.eventLoop.scheduleTask(in: .seconds(seconds)) { watched.fail(TimedOut()) }
        defer { timer.cancel() }
        do {
            return .success(try await watched.futureResult.get())
        } catch {
            return .failure(error)
        }
    }

    /// postgres-nio (1.33.2) writes a statement to its channel without a promise, so one written
    /// after the channel closed and its handlers left is dropped, neither answered nor failed
    /// (postgres-nio alone: no outcome in 2 s here, and none ever): a request of `runnect serve`
    /// waited for one forever after `pg_ctl restart -m immediate`. A transaction's statement
    /// ends then, as a lost connection, which the backend tries again on another.
    @Test func aStatementWrittenAfterTheConnectionClosedFailsAsALostConnection() async throws {
        let store = try await PostgresStoreDatabase()
        let (_, url) = try await store.addRunner("closed")
        let connection = try await PostgresSession.open(url).connection
        let open = await Self.outcome(
            of: PostgresTransaction.answered(
                connection.query("SELECT 1", logger: PostgresSession.silentLogger), on: connection),
            within: 10)
        #expect(try open.get().rows.first?.decode(Int.self) == 1)

        try await connection.close()
        // The pipeline's handlers are removed on the event loop's next turns.
        for _ in 0..<3 { try await connection.eventLoop.submit {}.get() }
        let sent = await Self.outcome(
            of: PostgresTransaction.answered(
                connection.query("SELECT 1", logger: PostgresSession.silentLogger), on: connection),
            within: 10)
        guard case .failure(let error) = sent else {
            Issue.record("a statement on a closed connection was answered: \(sent)")
            return
        }
        #expect(!(error is TimedOut), "a statement on a closed connection was never answered")
        #expect(PostgresFailure(error).isConnectionLost, "\(error)")
    }
}
