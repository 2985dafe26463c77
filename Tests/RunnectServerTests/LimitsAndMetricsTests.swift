import Foundation
import RunnectStore
import RunnectTestSupport
import Testing

@testable import RunnectServer

/// One runner cannot use up everyone's capacity (429 with `Retry-After` past a limit), and
/// `GET /metrics` counts what was answered.
@Suite("Limits and metrics over HTTP")
struct LimitsAndMetricsTests {
    @Test func aRunnersWritesAndAnAddressesSignInsAreLimited() async throws {
        try await ServerStoreKind.sqlite.withStore { store, folder in
            let configuration = ServerConfiguration(
                tokenSecret: TestServer.secret, imagesFolder: folder.appendingPathComponent("images").path,
                writesPerMinute: 3, signInsPerMinute: 2)
            let minji = try await TokenPair.issue(forRunnerNamed: "minji", secret: TestServer.secret, store: store)
            let jun = try await TokenPair.issue(forRunnerNamed: "jun", secret: TestServer.secret, store: store)
            try await TestServer.with(store: store, configuration: configuration) { base in
                let a = AppClient(base: base).signedIn(access: minji.accessToken, refresh: minji.refreshToken)
                let b = AppClient(base: base).signedIn(access: jun.accessToken, refresh: jun.refreshToken)
                for index in 0..<3 {
                    try await a.request("PATCH", "/api/user", json: ["nickname": "민지\(index)"]).expect(http: 200)
                }
                let refused = try await a.request("PATCH", "/api/user", json: ["nickname": "민지9"])
                refused.expect(http: 429)
                let wait = try #require(Int(refused.headers["retry-after"] ?? ""))
                #expect((1...20).contains(wait))
                // Reads go on, and another runner's writes are theirs to count.
                try await a.request("GET", "/api/user").expect(http: 200)
                try await b.request("PATCH", "/api/user", json: ["nickname": "준"]).expect(http: 200)
                #expect(try await store.runner(named: "minji").nickname == "민지2")

                for _ in 0..<2 {
                    try await a.request("POST", "/api/auth", json: ["token": "x", "provider": "KAKAO"]).expect(
                        http: 401)
                }
                let signIns = try await a.request("POST", "/api/auth", json: ["token": "x", "provider": "KAKAO"])
                signIns.expect(http: 429)
                #expect(signIns.headers["retry-after"] != nil)
            }
        }
    }

    @Test func metricsCountRequestsByRouteAndStatus() async throws {
        try await ServerStoreKind.sqlite.withStore { store, folder in
            let configuration = ServerConfiguration(
                tokenSecret: TestServer.secret, imagesFolder: folder.appendingPathComponent("images").path)
            try await TestServer.with(store: store, configuration: configuration) { base in
                let visitor = AppClient(base: base)
                for _ in 0..<3 { try await visitor.request("GET", "/api/public-course?pageNo=1").expect(http: 200) }
                try await visitor.request("GET", "/api/course/detail/5").expect(http: 401)
                _ = try await visitor.request("GET", "/no/such/\(UUID())")
                let answer = try await visitor.request("GET", "/metrics", authenticated: false)
                #expect(answer.status == 200)
                #expect(answer.headers["content-type"]?.hasPrefix("text/plain") == true)
                let text = String(decoding: answer.body, as: UTF8.self)
                let lines = text.split(separator: "\n")
                #expect(
                    lines.contains(
                        #"runnect_http_requests_total{method="GET",route="/api/public-course",status="200"} 3"#))
                #expect(
                    lines.contains(
                        #"runnect_http_requests_total{method="GET",route="/api/course/detail/{}",status="401"} 1"#))
                #expect(lines.contains(#"runnect_http_requests_total{method="GET",route="unmatched",status="404"} 1"#))
                #expect(
                    lines.contains {
                        $0.hasPrefix(
                            #"runnect_http_request_duration_seconds_count{method="GET",route="/api/public-course"}"#)
                            && $0.hasSuffix(" 3")
                    })
                #expect(lines.contains { $0.hasPrefix("runnect_http_requests_in_flight ") })
            }
        }
    }
}
