import Foundation
import Hummingbird
import Logging
import RunnectStore
import RunnectTestSupport

@testable import RunnectServer

/// A `RunnectServer` of the test's own, in this process, on a free loopback port, over `store`:
/// runs while `body` does, then stops.
enum TestServer {
    static let secret = try! TokenSecret(
        bytes: Array("a test secret of at least 32 bytes, not for use".utf8), source: "test")

    static func with<T: Sendable>(
        store: CourseStore, configuration: ServerConfiguration, _ body: @Sendable (URL) async throws -> T
    ) async throws -> T {
        var configuration = configuration
        configuration.host = "127.0.0.1"
        configuration.port = 0
        var logger = Logger(label: "runnect-test-server")
        logger.logLevel = .error
        let server = RunnectServer(store: store, configuration: configuration, logger: logger)
        let (port, continuation) = AsyncStream.makeStream(of: Int.self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await server.run { listening in
                    continuation.yield(listening.port)
                    continuation.finish()
                }
            }
            var iterator = port.makeAsyncIterator()
            guard let bound = await iterator.next() else { throw CancellationError() }
            defer { group.cancelAll() }
            return try await body(URL(string: "http://127.0.0.1:\(bound)")!)
        }
    }
}
