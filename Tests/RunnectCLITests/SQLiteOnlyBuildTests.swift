import Foundation
import RunnectTestSupport
import Testing

/// The SQLite-only `runnect` (`--disable-default-traits`, what `scripts/demo.sh` builds and
/// `scripts/test.sh` builds into `.build/sqlite-only`): the same answers on SQLite, one clear
/// line for a PostgreSQL store, and none of the PostgreSQL client or the TLS stack compiled.
@Suite(
    "the SQLite-only build",
    .requires(SQLiteOnlyBuildTests.isBuilt, "no \(SQLiteOnlyBuildTests.binary.path): scripts/test.sh builds it"))
struct SQLiteOnlyBuildTests {
    static let folder = PackageFolder.url(".build/sqlite-only/debug")
    static let binary = folder.appendingPathComponent("runnect")
    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }

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
        let modules = ["PostgresNIO", "NIOSSL", "CNIOBoringSSL", "CCryptoBoringSSL", "RunnectPostgres"]
        let built = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
        for module in modules {
            #expect(!built.contains("\(module).build"), "\(module) was compiled")
        }
        // The same check sees them in the full build beside the tests.
        let full = try FileManager.default.contentsOfDirectory(
            atPath: RunnectProcess.executable.deletingLastPathComponent().path)
        #expect(modules.allSatisfy { full.contains("\($0).build") }, "\(full.filter { $0.hasSuffix(".build") })")
    }
}
