import Foundation
import RunnectBenchmarkSupport
import RunnectPostgres
import RunnectServer
import RunnectStore

/// `runnect-bench serve-store OUT [--courses N] [--runners R] [--scraps S] [--records K]
/// [--jobs J] [--tokens T] [--url ADMIN_URL [--database NAME]]`: the store `scripts/bench-serve.sh`
/// serves (``ServerStoreBenchmark``), in the new folder OUT: `courses.sqlite` (or, with `--url`,
/// a new database NAME of that PostgreSQL server with a server role `bench_server`), `secret`
/// (the tokens' secret), `tokens.txt` (the access and refresh tokens of the first T
/// runners, a pair a line, separated by a space),
/// `search.txt` (the 27 search queries, URL-encoded) and `store.json` (what was made).
func serveStoreBench(_ arguments: [String]) async throws {
    guard let out = arguments.first, !out.hasPrefix("--") else {
        throw BenchError.failed("serve-store needs a new folder to write to")
    }
    let courses = option("--courses", in: arguments).flatMap(Int.init) ?? 100_000
    let runnerCount = option("--runners", in: arguments).flatMap(Int.init) ?? 1_000
    let scraps = option("--scraps", in: arguments).flatMap(Int.init) ?? 30
    let records = option("--records", in: arguments).flatMap(Int.init) ?? 20
    let jobs = option("--jobs", in: arguments).flatMap(Int.init) ?? 2
    let tokenCount = option("--tokens", in: arguments).flatMap(Int.init) ?? 64
    let folder = URL(fileURLWithPath: out)
    // A new folder only: nothing of anyone's is replaced.
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)

    var secretBytes = [UInt8](repeating: 0, count: 48)
    for index in secretBytes.indices { secretBytes[index] = UInt8.random(in: 0...255) }
    let secretText = Data(secretBytes).base64EncodedString()
    try Data((secretText + "\n").utf8).write(to: folder.appendingPathComponent("secret"))
    let secret = try TokenSecret(bytes: Array(secretText.utf8), source: "bench")

    let server: CourseStore
    let builder: CourseStore
    let db: String
    if let adminText = option("--url", in: arguments) {
        var url = try PostgresURL(adminText)
        let database = option("--database", in: arguments) ?? "runnect_serve_bench"
        try await PostgresSession.with(url) { try await $0.execute(["CREATE DATABASE \(database)"]) }
        url.database = database
        _ = try await PostgresAdministration.initialize(url)
        _ = try await PostgresAdministration.addRunner(
            try RoleName("bench_server"), password: nil, existing: false, server: true, at: url)
        builder = try await CourseStore(postgres: url)
        var serverURL = url
        serverURL.user = "bench_server"
        serverURL.password = nil
        server = try await CourseStore(postgres: serverURL)
        db = serverURL.description
    } else {
        db = folder.appendingPathComponent("courses.sqlite").path
        server = try await CourseStore(path: db, user: "runnect")
        builder = server
    }

    let started = now()
    let filled = try await ServerStoreBenchmark.fill(
        server: server, builder: builder, courses: courses, runners: runnerCount, scrapsPerRunner: scraps,
        recordsPerRunner: records, jobs: jobs
    ) { line in
        FileHandle.standardError.write(Data("serve-store: \(line)\n".utf8))
    }
    let seconds = now() - started

    var tokens: [String] = []
    for name in filled.runners.prefix(tokenCount) {
        let pair = try await TokenPair.issue(forRunnerNamed: name, secret: secret, store: server)
        tokens.append(pair.accessToken + " " + pair.refreshToken)
    }
    try Data((tokens.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("tokens.txt"))
    let queryCharacters = CharacterSet.alphanumerics.subtracting(CharacterSet(charactersIn: "&=+#?%"))
    let search = ServerStoreBenchmark.searchKeywords.map {
        $0.addingPercentEncoding(withAllowedCharacters: queryCharacters) ?? ""
    }
    try Data((search.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("search.txt"))
    let summary: [String: Any] = [
        "db": db, "courses": courses, "firstCourse": filled.courseIDs.lowerBound,
        "lastCourse": filled.courseIDs.upperBound, "runners": filled.runners.count, "scraps": filled.scraps,
        "records": filled.records, "seconds": (seconds * 10).rounded() / 10,
    ]
    try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys])
        .write(to: folder.appendingPathComponent("store.json"))
    emit([
        ("bench", "serve-store"), ("courses", courses), ("runners", filled.runners.count),
        ("scraps", filled.scraps), ("records", filled.records), ("seconds", seconds),
    ])
}
