import Foundation
import Testing
@testable import RunnectStore

/// Runs ``SearchBenchmark`` and prints its report; asserts nothing about time. Off unless
/// `RUNNECT_SEARCH_BENCH` is set (to a course count, or anything for 100,000). Use a release
/// build:
///
///     RUNNECT_SEARCH_BENCH=100000 swift test -c release -Xswiftc -enable-testing \
///         --disable-xctest --filter SearchBenchmarkTests
///
/// `RUNNECT_SEARCH_BENCH_COMMIT=N` sets the courses per write transaction (default 10,000),
/// `RUNNECT_SEARCH_BENCH_OPTIMIZE=1` merges the token index before the queries.
@Suite("Search: benchmark (on demand)")
struct SearchBenchmarkTests {
    static let environment = ProcessInfo.processInfo.environment

    @Test(.enabled(if: environment["RUNNECT_SEARCH_BENCH"] != nil))
    func run() throws {
        let count = Int(Self.environment["RUNNECT_SEARCH_BENCH"] ?? "") ?? 100_000
        let commitEvery = Int(Self.environment["RUNNECT_SEARCH_BENCH_COMMIT"] ?? "") ?? 10_000
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("runnect-search-bench-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let report = try SearchBenchmark.run(
            courseCount: count, path: path, commitEvery: commitEvery,
            optimize: Self.environment["RUNNECT_SEARCH_BENCH_OPTIMIZE"] != nil)
        print(report.text)
        #expect(report.queries.count == SearchBenchmark.queries.count)
    }

    @Test("the benchmark runs end to end on a small corpus")
    func smoke() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("runnect-search-bench-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let report = try SearchBenchmark.run(courseCount: 600, path: path, repeats: 1, commitEvery: 250, optimize: true)
        #expect(report.courseCount == 600)
        #expect(report.queries.count == SearchBenchmark.queries.count)
        #expect(report.tokenIndexSegments == 1)
        // The corpus is made so that the common keywords fill a page.
        for query in report.queries where ["강", "한강", "ㅎㄱ"].contains(query.keywords) {
            #expect(query.hits == 20, "\(query.keywords)")
        }
        #expect(report.text.contains("per class"))
        let lines = report.jsonLines
        #expect(lines.count == 1 + SearchBenchmark.queries.count)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["kind"] != nil, "\(line)")
        }
        #expect(lines.contains { $0.contains(#""keywords":"'; DROP TABLE course; --""#) })
    }
}
