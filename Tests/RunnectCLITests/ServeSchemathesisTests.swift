import Foundation
import RunnectTestSupport
import Testing

/// schemathesis (PyPI) against a running `runnect serve` with its own OpenAPI document: requests
/// generated from the document (valid and invalid), bounded in count and time, answered with no
/// 5xx and every answer as the document says (status, content type, headers, body).
@Suite(
    "runnect serve under schemathesis",
    .requires(ExternalTool.path("schemathesis") != nil, "schemathesis (scripts/setup.sh --test installs it)"))
struct ServeSchemathesisTests {
    static let secret = ["RUNNECT_TOKEN_SECRET": String(repeating: "k", count: 40)]

    @Test(.timeLimit(.minutes(10)))
    func everyAnswerConformsAndNoneIsA5xx() async throws {
        try await withTemporaryDirectory { folder in
            let db = folder.appendingPathComponent("courses.sqlite").path
            let samples = try FileManager.default.contentsOfDirectory(atPath: PackageFolder.url("SampleTracks").path)
                .filter { $0.hasSuffix(".gpx") }.sorted().map { PackageFolder.url("SampleTracks/\($0)").path }
            let imported = try RunnectProcess.run(
                ["import", "--db", db] + samples, environment: ["RUNNECT_USER": "minji"])
            try #require(imported.status == 0, "\(imported.stderr)")
            for id in ["1", "2"] {
                let shared = try RunnectProcess.run(
                    ["upload", id, "--title", "공유 코스 \(id)", "--description", "한강", "--db", db],
                    environment: ["RUNNECT_USER": "minji"])
                try #require(shared.status == 0, "\(shared.stderr)")
            }
            let token = try RunnectProcess.run(["serve", "token", "minji", "--db", db], environment: Self.secret)
            try #require(token.status == 0, "\(token.stderr)")
            let pair = try #require(
                try JSONSerialization.jsonObject(with: Data(token.stdout.utf8)) as? [String: String])

            // Without the limits, so that the requests reach the API rather than the limiter.
            let server = try ServeProcess(
                ["--db", db, "--port", "0", "--writes-per-minute", "0", "--sign-ins-per-minute", "0"],
                environment: Self.secret)
            let run = try RunnectProcess.run(
                [
                    "schemathesis", "run", server.baseURL.absoluteString + "/api/openapi.json",
                    "-H", "accessToken: \(pair["accessToken"] ?? "")", "-H",
                    "refreshToken: \(pair["refreshToken"] ?? "")",
                    "--max-examples", "40", "--seed", "20261129", "--request-timeout", "10", "--max-failures", "20",
                    "--checks",
                    "not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance",
                    "--generation-database", "none",
                ], workingDirectory: folder, binary: URL(fileURLWithPath: "/usr/bin/env"))
            let stopped = server.stop()
            #expect(run.status == 0, "\(run.stdout.suffix(6000))")
            #expect(stopped.status == 0)
            #expect(!server.stderr.contains(" 500 "), "a 5xx in the server's log")
        }
    }
}
