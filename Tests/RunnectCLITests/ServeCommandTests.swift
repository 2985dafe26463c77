import Foundation
import RunnectStore
import RunnectTestSupport
import Testing

/// `runnect serve` as a process: its one line, its envelope, its log and how it stops.
@Suite("runnect serve: the process")
struct ServeCommandTests {
    static let secret = ["RUNNECT_TOKEN_SECRET": String(repeating: "s", count: 32)]

    @Test func itPrintsOneLineListensAndStopsOnSIGTERM() async throws {
        try await withTemporaryDirectory { folder in
            let server = try ServeProcess(
                ["--db", folder.appendingPathComponent("courses.sqlite").path, "--port", "0"], environment: Self.secret)
            #expect(server.firstLine.hasPrefix("listening on http://127.0.0.1:"))
            #expect(server.baseURL.port.map { $0 > 0 } == true)

            let health = try await server.request("GET", "/health")
            #expect(health.status == 200)
            let envelope = try #require(try JSONSerialization.jsonObject(with: health.body) as? [String: Any])
            #expect(envelope["status"] as? Int == 200)
            #expect(envelope["success"] as? Bool == true)
            #expect(envelope["message"] is String)
            #expect(
                (envelope["data"] as? [String: Any])?["schemaVersion"] as? Int == CourseStore.supportedSchemaVersion)

            let stopped = server.stop()
            #expect(stopped.status == 0)
            #expect(stopped.stdout.isEmpty, "standard output carries the one line only")
            #expect(stopped.seconds < 10)
            // One log line for the request, with its status and time, on standard error.
            let lines = server.stderr.split(separator: "\n").filter { $0.contains("GET /health 200") }
            #expect(lines.count == 1)
            #expect(lines.first?.contains(" ms runner=-") == true)
        }
    }

    @Test func anUnknownRouteIsA404InTheEnvelope() async throws {
        try await withTemporaryDirectory { folder in
            let server = try ServeProcess(
                ["--db", folder.appendingPathComponent("courses.sqlite").path, "--port", "0"], environment: Self.secret)
            let answer = try await server.request("GET", "/api/nothing-here")
            #expect(answer.status == 404)
            #expect(answer.headers["content-type"]?.hasPrefix("application/json") == true)
            let envelope = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
            #expect(envelope["status"] as? Int == 404)
            #expect(envelope["success"] as? Bool == false)
            #expect(envelope["data"] is NSNull)
            #expect((envelope["message"] as? String)?.contains("/api/nothing-here") == true)
            #expect(server.stop(signal: SIGINT).status == 0)
        }
    }

    @Test func theEnvironmentSetsWhatNoOptionSays() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("env.sqlite").path
            var environment = Self.secret
            environment["RUNNECT_DB"] = path
            environment["RUNNECT_PORT"] = "0"
            environment["RUNNECT_HOST"] = "127.0.0.1"
            let server = try ServeProcess([], environment: environment)
            #expect(FileManager.default.fileExists(atPath: path))
            #expect(server.stop().status == 0)
        }
    }

    @Test(.enabled(if: IPv6Loopback.isAvailable, "no IPv6 loopback (::1) on this machine"))
    func anIPv6HostIsPrintedInBrackets() async throws {
        try await withTemporaryDirectory { folder in
            let server = try ServeProcess(
                ["--db", folder.appendingPathComponent("courses.sqlite").path, "--host", "::1", "--port", "0"],
                environment: Self.secret)
            #expect(server.firstLine.hasPrefix("listening on http://[::1]:"))
            // URLSession cannot name an IPv6 literal here: a plain socket asks.
            #expect(try server.rawGet("/health").status == 200)
            #expect(server.stop().status == 0)
        }
    }

    @Test func aMissingOrShortSecretStopsItBeforeListening() async throws {
        try await withTemporaryDirectory { folder in
            let db = folder.appendingPathComponent("courses.sqlite").path
            let missing = try RunnectProcess.run(
                ["serve", "--db", db, "--port", "0"], environment: ["RUNNECT_TOKEN_SECRET": ""])
            #expect(missing.status == 64)
            #expect(missing.stdout.isEmpty)
            #expect(missing.stderrLines.count == 1)
            #expect(missing.stderr.contains("RUNNECT_TOKEN_SECRET"))

            let short = try RunnectProcess.run(
                ["serve", "--db", db, "--port", "0"], environment: ["RUNNECT_TOKEN_SECRET": "too short"])
            #expect(short.status == 64)
            #expect(short.stderrLines.count == 1)
            #expect(short.stderr.contains("9 bytes"))
            #expect(!FileManager.default.fileExists(atPath: db), "nothing is made before the secret is known")
        }
    }

    @Test func aBadPortIsAUsageError() throws {
        let answer = try RunnectProcess.run(["serve", "--port", "70000"], environment: Self.secret)
        #expect(answer.status == 64)
        #expect(answer.stderrLines.count == 1)
        #expect(answer.stderr.contains("--port"))
    }
}

/// Whether this machine has an IPv6 loopback (a test attribute cannot read its suite's statics).
enum IPv6Loopback {
    /// Whether `::1` can be bound here (containers without IPv6 cannot).
    static let isAvailable: Bool = {
        let socket = Glibc.socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
            }
        }
    }()
}
