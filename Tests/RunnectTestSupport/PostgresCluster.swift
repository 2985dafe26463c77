import Foundation
import Testing

/// The throwaway PostgreSQL cluster of the tests (`scripts/pg-cluster.sh`): a superuser over a
/// Unix socket in the cluster's temporary folder, password logins over TCP on 127.0.0.1.
///
/// Under `scripts/pg-cluster.sh run …` (as `scripts/test.sh` runs the tests) the cluster is the
/// one that script started and stops; otherwise the first test that needs it starts one, which
/// the script's watchdog stops and removes once the test process has exited, however it exits.
/// Tests that need it carry the ``Requirement`` `.postgres`: skipped with the reason where it
/// cannot start, failed under CI.
///
/// Each test makes its own database (``makeDatabase()``) and roles with unique names, so tests
/// can run in parallel on the one cluster.
public struct PostgresCluster: Sendable {
    /// The cluster's folder, which also holds its Unix socket.
    public let directory: String
    public let port: Int
    /// The superuser's name and password.
    public let admin: String
    public let adminPassword: String
    /// Where `psql` and `pg_ctl` are.
    public let binDirectory: String

    /// The cluster, or why there is none.
    public static let shared: Result<PostgresCluster, ClusterError> = {
        let environment = ProcessInfo.processInfo.environment
        if let settings = Settings(environment: environment) { return settings.cluster }
        return start()
    }()

    /// Why the cluster could not start.
    public struct ClusterError: Error, CustomStringConvertible {
        public let description: String
    }

    public static var isAvailable: Bool { (try? shared.get()) != nil }

    public static var missing: String {
        if case .failure(let error) = shared { return "no PostgreSQL cluster for the tests: \(error)" }
        return ""
    }

    /// The cluster; call only from a test carrying `.postgres`.
    public static func get() throws -> PostgresCluster { try shared.get() }

    // MARK: - URLs

    /// A URL for `user` on `database`: the superuser over the Unix socket (trusted), another role
    /// over TCP with its password.
    public func url(database: String, user: String? = nil, password: String? = nil) -> String {
        guard let user else {
            return "postgresql://\(admin)@/\(database)?host=\(directory)&port=\(port)"
        }
        let encodedUser = user.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? user
        let secret = password.map { ":" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0) }
        return "postgresql://\(encodedUser)\(secret ?? "")@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// A new, empty database with a unique name.
    public func makeDatabase(prefix: String = "t") throws -> String {
        let name = "\(prefix)_\(UInt64.random(in: 0...UInt64.max) % 1_000_000_000_000)"
        let result = try psql(["-d", "postgres", "-c", "CREATE DATABASE \(name)"])
        guard result.status == 0 else { throw ClusterError(description: "CREATE DATABASE failed: \(result.stderr)") }
        return name
    }

    /// A role name no other test uses: roles are the cluster's, not a database's, and with six
    /// digits two of a run's hundreds of roles met now and then (`role … exists already`).
    public static func uniqueRoleName(_ base: String) -> String {
        "\(base)_\(UInt64.random(in: 0...UInt64.max) % 1_000_000_000_000)"
    }

    // MARK: - psql

    /// What `psql` printed and its exit status.
    public struct PsqlResult: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `psql` with `arguments` (no `.psqlrc`, unaligned tuples only, command tags such as
    /// `UPDATE 0` printed, stop at the first error), as the superuser over
    /// the socket unless the arguments connect otherwise.
    public func psql(_ arguments: [String], environment: [String: String] = [:]) throws -> PsqlResult {
        var env = ProcessInfo.processInfo.environment
        env["PGHOST"] = directory
        env["PGPORT"] = String(port)
        env["PGUSER"] = admin
        env.merge(environment) { $1 }
        return try Self.run(
            "\(binDirectory)/psql", ["-X", "-v", "ON_ERROR_STOP=1", "-At"] + arguments, environment: env)
    }

    /// Runs `sql` through `psql` as `role` (over TCP with `password`) on `database`.
    public func psql(_ sql: String, database: String, role: String, password: String) throws -> PsqlResult {
        try psql(["-d", url(database: database, user: role, password: password), "-c", sql])
    }

    // MARK: - Starting

    struct Settings {
        var values: [String: String]

        init?(environment: [String: String]) {
            let keys = [
                "RUNNECT_PG_DIR", "RUNNECT_PG_PORT", "RUNNECT_PG_ADMIN", "RUNNECT_PG_PASSWORD", "RUNNECT_PG_BIN",
            ]
            guard keys.allSatisfy({ environment[$0]?.isEmpty == false }) else { return nil }
            values = environment
        }

        init(lines: String) {
            var values: [String: String] = [:]
            for line in lines.split(separator: "\n") {
                guard let equals = line.firstIndex(of: "=") else { continue }
                var value = line[line.index(after: equals)...]
                if value.hasPrefix("'") && value.hasSuffix("'") && value.count >= 2 {
                    value = value.dropFirst().dropLast()
                }
                values[String(line[..<equals])] = String(value)
            }
            self.values = values
        }

        var cluster: Result<PostgresCluster, ClusterError> {
            guard let directory = values["RUNNECT_PG_DIR"], let port = values["RUNNECT_PG_PORT"].flatMap(Int.init),
                let admin = values["RUNNECT_PG_ADMIN"], let password = values["RUNNECT_PG_PASSWORD"],
                let bin = values["RUNNECT_PG_BIN"]
            else { return .failure(ClusterError(description: "pg-cluster.sh printed no settings")) }
            return .success(
                PostgresCluster(
                    directory: directory, port: port, admin: admin, adminPassword: password, binDirectory: bin))
        }
    }

    /// A cluster of the caller's own, not the shared one: for a test that crashes its server.
    /// Stop it with ``stop()``; the script's watchdog stops it anyway once the test process ends.
    public static func startPrivate() throws -> PostgresCluster {
        try start().get()
    }

    /// Restarts the server the hard way (`pg_ctl restart -m immediate`: a crash, then recovery),
    /// returning once it accepts connections again.
    public func crashRestart() throws {
        let result = try Self.run(Self.script, ["crash-restart", directory])
        guard result.status == 0 else { throw ClusterError(description: result.stderr) }
    }

    /// Stops the cluster and removes its folder.
    public func stop() throws {
        let result = try Self.run(Self.script, ["stop", directory])
        guard result.status == 0 else { throw ClusterError(description: result.stderr) }
    }

    private static var script: String {
        PackageFolder.root.appendingPathComponent("scripts/pg-cluster.sh").path
    }

    /// Starts a cluster through the script, watched by this process's id.
    private static func start() -> Result<PostgresCluster, ClusterError> {
        do {
            let result = try run(script, ["start", "--watch", String(getpid())])
            guard result.status == 0 else {
                let reason = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
                return .failure(ClusterError(description: reason.isEmpty ? "pg-cluster.sh failed" : reason))
            }
            return Settings(lines: result.stdout).cluster
        } catch {
            return .failure(ClusterError(description: "cannot run \(script): \(error)"))
        }
    }

    /// Runs a program to its end; standard error through a file, so that neither pipe fills.
    ///
    /// Waits through a termination handler, not `waitUntilExit()`: that one waits on a run loop,
    /// and called from a test's thread it can miss the child's exit and hang (seen here, with a
    /// script that leaves a daemon behind; swift-corelibs-foundation's known trap).
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws
        -> PsqlResult
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("runnect-pg-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errURL) }
        let errHandle = try FileHandle(forWritingTo: errURL)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = errHandle
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        try? out.fileHandleForReading.close()
        exited.wait()
        try errHandle.close()
        return PsqlResult(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}

extension Trait where Self == Requirement {
    /// The throwaway PostgreSQL cluster: skipped where it cannot start, failed under CI.
    /// Checked (and the cluster started) only when a test that carries it runs.
    public static var postgres: Self {
        Requirement { (PostgresCluster.isAvailable, PostgresCluster.missing) }
    }
}
