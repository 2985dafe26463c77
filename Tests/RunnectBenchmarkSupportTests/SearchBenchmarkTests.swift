import Foundation
import Testing

@testable import RunnectBenchmarkSupport

/// ``SearchBenchmark`` itself is run by `runnect-bench search` (`scripts/bench.sh`), in a release
/// build; here only its machinery is checked, on a small corpus, never its timings.
@Suite("Search: benchmark machinery")
struct SearchBenchmarkTests {
    @Test("the benchmark runs end to end on a small corpus")
    func smoke() async throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("runnect-search-bench-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let report = try await SearchBenchmark.run(
            courseCount: 600, path: path, repeats: 1, commitEvery: 250, optimize: true)
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
