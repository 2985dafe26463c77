import Foundation
import RunnectTestSupport
import Testing

/// The SQLite-only `runnect` with its server (`--disable-default-traits --traits Server`, which
/// `scripts/test.sh` builds into `.build/sqlite-only`; `scripts/demo.sh` builds the same without
/// the server): the same answers on SQLite, one clear line for a PostgreSQL store, a server that
/// serves, and none of the PostgreSQL client or the TLS stack compiled.
@Suite(
    "the SQLite-only build",
    .requires(SQLiteOnlyBuild.isBuilt, "no \(SQLiteOnlyBuild.binary.path): scripts/test.sh builds it"))
struct SQLiteOnlyBuildTests {
    static let folder = SQLiteOnlyBuild.folder
    static let binary = SQLiteOnlyBuild.binary

    @Test("imports and lists a SQLite store byte for byte as the full build does")
    func sameAnswersOnSQLite() async throws {
        try await withTemporaryDirectory { folder in
            var outputs: [[String]] = []
            for (name, binary) in [("full", RunnectProcess.executable), ("sqlite-only", Self.binary)] {
                let db = folder.appendingPathComponent("\(name).sqlite").path
                let env = ["RUNNECT_DB": db, "RUNNECT_USER": "minji"]
                let samples = SampleTracks.gpxFiles.prefix(3).map(SampleTracks.path)
                let imported = try RunnectProcess.run(["import"] + samples, environment: env, binary: binary)
                #expect(imported.status == 0, "\(name): \(imported.stderr)")
                let listed = try RunnectProcess.run(["list", "--json"], environment: env, binary: binary)
                let found = try RunnectProcess.run(["search", "한강", "--json"], environment: env, binary: binary)
                #expect(listed.status == 0 && found.status == 0, "\(name): \(listed.stderr)\(found.stderr)")
                #expect(listed.stdoutLines.count == 3)
                // Dates are the clock's: masked.
                outputs.append(
                    [imported.stdout, listed.stdout, found.stdout].map {
                        $0.replacingOccurrences(
                            of: #""(created_at|uploaded_at)":"[^"]*""#, with: "DATE", options: .regularExpression)
                    })
            }
            #expect(outputs[0] == outputs[1])
        }
    }

    @Test(
        "a postgresql:// store is one line naming the fix, exit 69 (EX_UNAVAILABLE), nothing connected",
        arguments: [
            ["list", "--db", "postgresql://minji@127.0.0.1:1/club"],
            ["db", "init", "--db", "postgres://admin@127.0.0.1:1/club"],
            ["db", "add-user", "minji", "--no-password", "--db", "postgresql://admin@127.0.0.1:1/club"],
        ])
    func postgresIsRefused(arguments: [String]) throws {
        let result = try RunnectProcess.run(arguments, binary: Self.binary)
        #expect(result.status == 69)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(
            result.stderr.hasPrefix("runnect: error: this runnect was built without PostgreSQL"), "\(result.stderr)")
        #expect(result.stderr.contains("--disable-default-traits"))
    }

    @Test("compiles none of postgres-nio, SwiftNIO's TLS or BoringSSL (the full build does)")
    func noPostgresClientOrTLS() throws {
        let swiftModules = ["PostgresNIO", "NIOSSL", "RunnectPostgres"]
        let cModules = ["CNIOBoringSSL", "CCryptoBoringSSL"]
        let full = RunnectProcess.executable.deletingLastPathComponent()
        for module in swiftModules {
            #expect(!Self.compiled(swift: module, in: Self.folder), "\(module) was compiled")
            #expect(Self.compiled(swift: module, in: full), "\(module): the check sees nothing in the full build")
        }
        for module in cModules {
            #expect(!Self.compiled(c: module, in: Self.folder), "\(module) was compiled")
            #expect(Self.compiled(c: module, in: full), "\(module): the check sees nothing in the full build")
        }
    }

    @Test("serves the app's API: runnect serve answers /health and stops on SIGTERM")
    func servesWithoutPostgreSQL() async throws {
        try await withTemporaryDirectory { folder in
            let server = try ServeProcess(
                ["--db", folder.appendingPathComponent("courses.sqlite").path, "--port", "0"],
                environment: ServeCommandTests.secret, binary: Self.binary)
            #expect(try await server.request("GET", "/health").status == 200)
            #expect(server.stop().status == 0)
        }
    }

    /// Whether a Swift module was compiled in a build folder: its module file. (SwiftPM makes
    /// every target's `.build` folder, compiled or not.)
    static func compiled(swift module: String, in folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("Modules/\(module).swiftmodule").path)
    }

    /// Whether a C module was compiled in a build folder: an object file in its `.build` folder.
    static func compiled(c module: String, in folder: URL) -> Bool {
        let objects = FileManager.default.enumerator(atPath: folder.appendingPathComponent("\(module).build").path)
        while let path = objects?.nextObject() as? String {
            if path.hasSuffix(".o") { return true }
        }
        return false
    }
}

/// Where `scripts/test.sh` builds the SQLite-only `runnect`.
enum SQLiteOnlyBuild {
    static let folder = PackageFolder.url(".build/sqlite-only/debug")
    static let binary = folder.appendingPathComponent("runnect")
    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }
}
