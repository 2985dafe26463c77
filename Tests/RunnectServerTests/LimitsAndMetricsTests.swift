import Foundation
import RunnectStore
import RunnectTestSupport
import Testing

@testable import RunnectServer

#if canImport(Glibc)
    import Glibc
#endif

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

    @Test(.requires(MapImageSamples.isAvailable, "python3 with pillow (scripts/setup.sh --test)"))
    func aRunnersCoursesAndImageBytesHeldAreLimited() async throws {
        try await ServerStoreKind.sqlite.withStore { store, folder in
            let png = try Data(contentsOf: MapImageSamples.folder.appendingPathComponent("plain.png"))
            let configuration = ServerConfiguration(
                tokenSecret: TestServer.secret, imagesFolder: folder.appendingPathComponent("images").path,
                coursesPerRunner: 2, imageBytesPerRunner: Int64(png.count) * 3)
            let minji = try await TokenPair.issue(forRunnerNamed: "minji", secret: TestServer.secret, store: store)
            let jun = try await TokenPair.issue(forRunnerNamed: "jun", secret: TestServer.secret, store: store)
            try await TestServer.with(store: store, configuration: configuration) { base in
                let a = AppClient(base: base).signedIn(access: minji.accessToken, refresh: minji.refreshToken)
                let b = AppClient(base: base).signedIn(access: jun.accessToken, refresh: jun.refreshToken)
                var drawn: [Int64] = []
                for seed in 0..<2 {
                    let answer = try await a.drawCourse(
                        data: AppDay.drawing(title: "loop \(seed)", seed: Double(seed)), image: png,
                        imageName: "map.png")
                    answer.expect(http: 201)
                    drawn.append(try #require(try answer.envelope(IDOnly.self).data?.id))
                }
                // A third course is one too many: 429, and nothing stored or kept.
                let images = folder.appendingPathComponent("images")
                let filesBefore = try FileManager.default.contentsOfDirectory(atPath: images.path).count
                let refused = try await a.drawCourse(
                    data: AppDay.drawing(title: "loop 2", seed: 2), image: png, imageName: "map.png")
                refused.expect(http: 429)
                #expect(refused.headers["retry-after"] != nil)
                #expect(try await store.acting(as: "minji").holdings().courses == 2)
                #expect(try FileManager.default.contentsOfDirectory(atPath: images.path).count == filesBefore)
                // Another runner's allowance is their own.
                try await b.drawCourse(data: AppDay.drawing(title: "준", seed: 3), image: png, imageName: "map.png")
                    .expect(http: 201)
                // Deleting makes room at once.
                try await a.request("PUT", "/api/course", json: ["courseIdList": [drawn[0]]]).expect(http: 200)
                try await a.drawCourse(data: AppDay.drawing(title: "again", seed: 4), image: png, imageName: "map.png")
                    .expect(http: 201)
            }

            // The image bytes: two images fit in three images' worth, a third image after a
            // bigger one does not.
            let bytes = ServerConfiguration(
                tokenSecret: TestServer.secret, imagesFolder: folder.appendingPathComponent("images2").path,
                coursesPerRunner: 0, imageBytesPerRunner: Int64(png.count) * 3 / 2)
            let hana = try await TokenPair.issue(forRunnerNamed: "hana", secret: TestServer.secret, store: store)
            try await TestServer.with(store: store, configuration: bytes) { base in
                let c = AppClient(base: base).signedIn(access: hana.accessToken, refresh: hana.refreshToken)
                try await c.drawCourse(data: AppDay.drawing(title: "one", seed: 5), image: png, imageName: "map.png")
                    .expect(http: 201)
                let over = try await c.drawCourse(
                    data: AppDay.drawing(title: "two", seed: 6), image: png, imageName: "map.png")
                over.expect(http: 429)
                #expect(String(decoding: over.body, as: UTF8.self).contains("MiB"))
            }
        }
    }

    @Test func pastTheQueueARequestIsA503WithRetryAfterAndHealthStaysOpen() async throws {
        let admission = Admission(running: 1, queued: 1, patience: .seconds(5))
        #expect(await admission.enter())  // runs
        let waiting = Task { await admission.enter() }  // waits
        try await Task.sleep(for: .milliseconds(100))
        #expect(admission.counts == (running: 1, waiting: 1))
        #expect(await admission.enter() == false, "a third request past a queue of one")
        admission.leave()  // the waiting one's turn
        #expect(await waiting.value)
        #expect(admission.counts == (running: 1, waiting: 0))
        // A wait runs out.
        let impatient = Admission(running: 1, queued: 4, patience: .milliseconds(100))
        #expect(await impatient.enter())
        let start = ContinuousClock.now
        #expect(await impatient.enter() == false)
        #expect(ContinuousClock.now - start >= .milliseconds(100))
        impatient.leave()
        #expect(impatient.counts == (running: 0, waiting: 0))

        // Over HTTP: with one request at a time and none waiting, a slow upload holds the server,
        // and the next request is 503 in the envelope with Retry-After; /health still answers.
        try await ServerStoreKind.sqlite.withStore { store, folder in
            let configuration = ServerConfiguration(
                tokenSecret: TestServer.secret, imagesFolder: folder.appendingPathComponent("images").path,
                maximumRunning: 1, maximumQueued: 0)
            let minji = try await TokenPair.issue(forRunnerNamed: "minji", secret: TestServer.secret, store: store)
            try await TestServer.with(store: store, configuration: configuration) { base in
                // A request that holds the server's one turn: its head and half its body, the
                // rest once the others have been refused.
                let json = Array(#"{"courseId":1,"title":"x","time":"00:25:00","pace":"0:08:00"}"#.utf8)
                let held = try RawConnection(base)
                try held.send(
                    Array(
                        ("POST /api/record HTTP/1.1\r\nHost: 127.0.0.1\r\naccessToken: \(minji.accessToken)\r\n"
                            + "refreshToken: \(minji.refreshToken)\r\nContent-Type: application/json\r\n"
                            + "Content-Length: \(json.count)\r\n\r\n").utf8) + json[..<(json.count / 2)])
                try await Task.sleep(for: .milliseconds(300))
                let refused = try await AppClient(base: base).request("GET", "/api/public-course?pageNo=1")
                refused.expect(http: 503)
                #expect(refused.headers["retry-after"] == "1")
                try await AppClient(base: base).request("GET", "/health", authenticated: false).expect(http: 200)
                let metrics = try await AppClient(base: base).request("GET", "/metrics", authenticated: false)
                let text = String(decoding: metrics.body, as: UTF8.self)
                #expect(text.contains("runnect_http_requests_overloaded_total 1"), "\(text)")
                #expect(text.contains("runnect_http_queue_running 1"))
                try held.send(json[(json.count / 2)...])
                _ = try await held.answerOffTheTaskThreads()
            }
        }
    }

    @Test func metricsTellTheStoresTransactionsAndConnections() async throws {
        try await ServerStoreKind.sqlite.withStore { store, folder in
            let configuration = ServerConfiguration(
                tokenSecret: TestServer.secret, imagesFolder: folder.appendingPathComponent("images").path)
            try await TestServer.with(store: store, configuration: configuration) { base in
                let visitor = AppClient(base: base)
                for _ in 0..<2 { try await visitor.request("GET", "/api/public-course?pageNo=1").expect(http: 200) }
                let text = String(
                    decoding: try await visitor.request("GET", "/metrics", authenticated: false).body, as: UTF8.self)
                let lines = text.split(separator: "\n")
                let reads = lines.first {
                    $0.hasPrefix(#"runnect_store_transaction_duration_seconds_count{kind="read",outcome="ok"}"#)
                }
                #expect((reads?.split(separator: " ").last.flatMap { Int($0) } ?? 0) >= 2, "\(text)")
                #expect(lines.contains(#"runnect_store_transactions_in_flight{kind="write"} 0.0"#))
                #expect(lines.contains("runnect_store_connections_max \(store.activity.connectionLimit).0"))
                #expect(store.activity.connectionLimit >= 2)
            }
        }
    }
}

/// `data.id` of an answer.
private struct IDOnly: Decodable { var id: Int64 }
