import Foundation
import RunnectKit
import RunnectTestSupport
import Testing

/// The page `runnect serve` answers at `/`, in headless Chromium against a real server over a
/// store of twelve shared courses (`PageScratch`): `scripts/page_check.py` drives it as a runner
/// would (typing, clicking, a location given to the browser, a pasted token, a file chosen) and
/// reports what the page showed; each figure is checked here against the API's own answer.
/// axe-core checks WCAG 2.0/2.1 A and AA at desktop and phone widths, signed out and in.
/// Screenshots are kept under `.build/artifacts/discovery-page/`.
@Suite(
    "runnect serve: the discovery page in headless Chromium",
    .requires(
        HeadlessChromium.installed != nil,
        "chromium is not installed (scripts/setup.sh --test installs it); the page is not tested in a browser"),
    .requires(ExternalTool.path("python3") != nil, "python3 is missing: scripts/page_check.py drives the browser"),
    .requires(AxeCore.script != nil, AxeCore.missing))
struct DiscoveryPageBrowserTests {
    static let artifacts = PackageFolder.root.appendingPathComponent(".build/artifacts/discovery-page")
    static let secret = ["RUNNECT_TOKEN_SECRET": String(repeating: "p", count: 40)]
    /// The first load's budget: HTML, CSS, script, the feed's first page and its previews.
    static let firstLoadBudgetBytes = 300_000

    /// Where the runner stands for near-me (by 석촌호수), and the location typed (남산).
    static let location = (37.5113, 127.0985)
    static let typedLocation = (37.5510, 126.9880)

    @Test(.timeLimit(.minutes(10)))
    func aClubSearchesPagesFindsNearScrapsDownloadsAndUploads() async throws {
        let chromium = try #require(HeadlessChromium.installed)
        let axe = try #require(AxeCore.script)
        let scratch = try PageScratch()
        let minji = try Self.tokenLine("minji", db: scratch.db)
        let jisoo = try Self.tokenLine("jisoo", db: scratch.db)
        let server = try ServeProcess(["--db", scratch.db, "--port", "0"], environment: Self.secret)
        let api = PageAPI(server: server)
        let seokchon = try #require(scratch.ids["seokchon"])

        // Two runners' times on 석촌호수, for its ranking.
        for (pair, time) in [(minji, "0:08:00"), (jisoo, "0:07:30")] {
            let posted = try await api.send(
                "POST", "/api/record", tokens: pair,
                json: ["courseId": seokchon, "title": "석촌 기록", "time": time, "pace": "0:06:20"])
            #expect(posted.status == 201, "\(String(decoding: posted.body, as: UTF8.self))")
        }

        // The scrap order before the page's scrap changes it.
        let scrapOrder = try await api.ids("/api/public-course?pageNo=1&sort=scrap")

        let folder = scratch.folder.appendingPathComponent("browser")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: Self.artifacts)
        try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
        let run = try scratch.timedRun("olympic", start: Date(timeIntervalSince1970: 1_790_000_000), name: "올림픽공원 한 바퀴")
        let config: [String: Any] = [
            "url": server.baseURL.absoluteString, "artifacts": Self.artifacts.path,
            "downloads": folder.appendingPathComponent("downloads").path, "axe": axe,
            "korean": "한강", "initials": "ㅈㅅ", "english": "namsan",
            "location": [Self.location.0, Self.location.1],
            "typed_location": [Self.typedLocation.0, Self.typedLocation.1], "departure_name": "잠실종합운동장",
            "scrap_course": seokchon, "token_line": minji.line, "download": true,
            // The same run twice: a record, then the server's refusal of a duplicate.
            "upload": [run.path, run.path], "time_limit_seconds": 300,
        ]
        let configFile = folder.appendingPathComponent("config.json")
        try JSONSerialization.data(withJSONObject: config).write(to: configFile)

        let started = Date()
        let driven = try ToolRun.run(
            [
                "python3", PackageFolder.root.appendingPathComponent("scripts/page_check.py").path, chromium.executable,
                configFile.path,
            ], timeoutSeconds: 330)
        let seconds = Date().timeIntervalSince(started)
        try #require(driven.status == 0, "page_check.py: \(driven.stderr.suffix(4000))")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(driven.stdout.utf8)) as? [String: Any], "\(driven.stdout)")
        try Data(driven.stdout.utf8).write(to: Self.artifacts.appendingPathComponent("report.json"))

        // The feed: its first page as the API orders it, then the second after 더 보기.
        let page1 = try await api.ids("/api/public-course?pageNo=1&sort=date")
        let page2 = try await api.ids("/api/public-course?pageNo=2&sort=date")
        #expect(page1.count == 10 && page2.count == 2)
        #expect(Self.ids(report, "feed") == page1)
        #expect(Self.value(report, "feed", "more") as? Bool == true)
        #expect(Self.ids(report, "paging") == page1 + page2)
        #expect(Self.value(report, "paging", "more") as? Bool == false, "the last page has no 더 보기")
        #expect(Self.ids(report, "scrap_order") == scrapOrder)
        #expect(Self.ids(report, "scrap_order") != page1, "the scrap order differs from the date order")

        // Searches typed a syllable or a letter at a time, as the server finds them.
        for (key, keyword) in [("korean", "한강"), ("initials", "ㅈㅅ"), ("english", "namsan")] {
            let found = try await api.ids("/api/public-course/search?keyword=\(Self.percent(keyword))")
            #expect(!found.isEmpty, "the search \(keyword) finds something")
            #expect(Self.ids(report, key) == Array(found.prefix(10)), "the cards for \(keyword)")
            #expect((Self.value(report, key, "status") as? String)?.contains("검색 결과 \(found.count)개") == true)
        }
        #expect(Self.value(report, "korean", "typed") as? [String] == ["한", "강"])
        // The answer to "한" came after the one to "한강", and changed nothing.
        #expect((Self.value(report, "korean", "held_url") as? String)?.hasSuffix("keyword=%ED%95%9C") == true)
        #expect(Self.ids(report, "korean", "ids_after_late_answer") == Self.ids(report, "korean"))
        #expect((Self.value(report, "korean", "status_after_late_answer") as? String)?.contains("“한강”") == true)

        // Near me (the browser's location), a typed lat,lon, a departure's name.
        let nearMe = try await api.ids(Self.nearPath(Self.location.0, Self.location.1))
        #expect(nearMe.first == seokchon, "석촌호수 is the nearest to where the runner stands")
        #expect(Self.ids(report, "near_me") == nearMe)
        let distances = Self.value(report, "near_me", "distances") as? [String] ?? []
        #expect(distances.count == nearMe.count && distances.first?.hasPrefix("여기서 ") == true)
        let typed = try await api.ids(Self.nearPath(Self.typedLocation.0, Self.typedLocation.1))
        #expect(typed.first == scratch.ids["namsan"])
        #expect(Self.ids(report, "near_typed") == typed)
        let start = try await api.departureStart("잠실종합운동장")
        #expect(start.id == scratch.ids["jamsil"])
        let byName = try await api.ids(Self.nearPath(start.latitude, start.longitude))
        #expect(byName.first == scratch.ids["jamsil"])
        #expect(Self.ids(report, "near_departure") == byName)

        // A visitor: downloads linked on every card, the ranking for runners only.
        let links = report["links"] as? [String] ?? []
        #expect(links.contains("api/course/\(seokchon)/file?format=gpx"))
        #expect(links.contains("api/course/\(seokchon)/file?format=fit"))
        #expect((report["visitor_ranking"] as? String)?.contains("로그인한 러너만") == true)
        // The GPX link clicked: a file that reads back as the course's taps.
        let download = try #require(report["download"] as? [String: Any], "no download in the report")
        #expect(download["state"] as? String == "completed")
        let file = try #require(download["file"] as? String)
        let course = try ActivityReader.read(path: file)
        let loop = try #require(scratch.taps["seokchon"])
        let points = course.courseSegments.joined().map(\.coordinate)
        #expect(points.count == loop.count, "the downloaded GPX is the course's taps")
        for (point, tap) in zip(points, loop) {
            #expect(abs(point.latitude - tap[0]) < 1e-6 && abs(point.longitude - tap[1]) < 1e-6)
        }
        #expect(course.metadata.name == "석촌호수 둘레길")
        print("discovery page: downloaded \(download["suggested"] ?? "") (\(Self.size(file)) bytes)")

        // Signed in with the pasted line: the token in this tab's session storage only.
        #expect(Self.value(report, "signed_in", "session_keys") as? [String] == ["runnect.tokens"])
        #expect(Self.value(report, "signed_in", "local_keys") as? [String] == [])
        #expect(Self.value(report, "signed_in", "cookie") as? String == "")
        #expect(Self.value(report, "signed_in", "token_fields") as? [String] == ["", ""])
        #expect((Self.value(report, "signed_in", "who") as? String)?.contains("로그인됨") == true)

        // The scrap: the card's count up by one, and the server has it.
        let before = try #require(Self.value(report, "scrap", "before") as? String)
        let after = try #require(Self.value(report, "scrap", "after") as? String)
        let count = Int(before.dropFirst(2)) ?? -1
        #expect(before.hasPrefix("★ ") && after == "★ \(count + 1)")
        #expect(Self.value(report, "scrap", "pressed") as? String == "true")
        let detail = try await api.data("/api/public-course/detail/\(seokchon)", tokens: minji)
        let shown = detail["publicCourse"] as? [String: Any]
        #expect(shown?["scrapCount"] as? Int == count + 1)
        #expect(shown?["scrap"] as? Bool == true)
        let scraps = try await api.data("/api/scrap/user", tokens: minji)["scraps"] as? [[String: Any]] ?? []
        #expect(scraps.compactMap { ($0["publicCourseId"] as? NSNumber)?.int64Value } == [seokchon])

        // The ranking, signed in: jisoo's 7:30 before minji's 8:00, minji's own place.
        let ranking = report["ranking_items"] as? [String] ?? []
        #expect(ranking.count == 2)
        #expect(ranking.first?.contains("0:07:30") == true && ranking.last?.contains("0:08:00") == true)
        #expect((report["ranking"] as? String)?.contains("내 순위: 2위") == true)

        // The watch file uploaded: a record of the course it followed; the same file again refused.
        let answers = report["upload"] as? [String] ?? []
        #expect(answers.count == 2)
        #expect(answers.first?.contains("저장했습니다") == true, "\(answers)")
        #expect(answers.first?.contains("올림픽공원 평화의 문 5K") == true, "the run was matched to its course: \(answers)")
        #expect(answers.last?.contains("올리지 못했습니다") == true, "the same file twice is refused: \(answers)")
        let records = try await api.data("/api/record/user", tokens: minji)["records"] as? [[String: Any]] ?? []
        let olympic = try #require(scratch.ids["olympic"])
        #expect(records.filter { ($0["courseId"] as? NSNumber)?.int64Value == olympic }.count == 1)

        // Signed out: the tab's storage is empty again.
        #expect(Self.value(report, "signed_out", "session_keys") as? [String] == [])
        #expect(Self.value(report, "signed_out", "scrap_buttons") as? Int == 0)

        // A phone's width: one column, nothing wider than the screen.
        let phone = try #require(report["phone"] as? [String: Any])
        #expect(phone["columns"] as? Int == 1)
        let width = phone["innerWidth"] as? Int ?? 0
        #expect(
            width == 390 && (phone["scrollWidth"] as? Int ?? .max) <= width
                && (phone["widest"] as? Int ?? .max) <= width)

        // The keyboard: the skip link, then the search box; each shows its focus.
        let tabbed = Self.value(report, "keyboard", "tabbed") as? [[String: Any]] ?? []
        #expect(tabbed.first?["cls"] as? String == "skip")
        #expect(tabbed.dropFirst().first?["id"] as? String == "q")
        for focused in tabbed.prefix(2) {
            #expect((focused["outline"] as? String)?.hasPrefix("solid 3px") == true, "focus not visible: \(focused)")
        }

        // No policy violation, no error, and axe finds nothing at WCAG 2 A or AA.
        let watched = report["page_check"] as? [String: Any]
        #expect(watched?["violations"] as? [String] == [], "Content-Security-Policy violations")
        #expect(watched?["errors"] as? [String] == [], "script errors")
        #expect(report["exceptions"] as? [String] == [], "uncaught exceptions")
        let checks = report["axe"] as? [[String: Any]] ?? []
        #expect(checks.count == 5)
        for check in checks {
            let violations = check["violations"] as? [[String: Any]] ?? [["unreadable": true]]
            #expect(violations.isEmpty, "axe, \(check["state"] ?? ""): \(violations)")
            #expect(check["passes"] as? Int ?? 0 >= 10, "axe checked something: \(check)")
        }
        let axeVersion = checks.first?["version"] as? String ?? "?"
        let rulesPassed = checks.map { "\($0["passes"] ?? 0)" }.joined(separator: "/")

        // The first load's weight on the wire.
        let load = try #require(report["first_load"] as? [String: Any])
        let bytes = load["bytes"] as? Int ?? .max
        let requests = load["requests"] as? [[String: Any]] ?? []
        #expect(bytes < Self.firstLoadBudgetBytes, "the first load is \(bytes) bytes: \(requests)")
        #expect(load["images"] as? Int == 10, "the first page's ten previews are counted")
        #expect(requests.allSatisfy { ($0["status"] as? Int) == 200 }, "\(requests)")

        let screenshots = report["screenshots"] as? [String] ?? []
        for path in screenshots {
            let png = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 5_000, "\(path)")
        }
        let stopped = server.stop()
        #expect(stopped.status == 0)
        #expect(!server.stderr.contains(" 500 "), "a 5xx in the server's log")

        let timings = (report["timings"] as? [String: Any] ?? [:]).sorted { $0.key < $1.key }
            .map { "\($0.key) \($0.value) s" }.joined(separator: ", ")
        print(
            "discovery page: first load \(bytes) bytes in \(requests.count) requests (budget \(Self.firstLoadBudgetBytes))"
        )
        print(
            "discovery page: axe-core \(axeVersion), WCAG 2.0/2.1 A and AA, \(checks.count) states: "
                + "no violations (\(rulesPassed) rules passed)")
        print("discovery page: \(String(format: "%.1f", seconds)) s in Chromium: \(timings)")
        print("discovery page: screenshots and report.json in \(Self.artifacts.path)")
    }

    // MARK: - Helpers

    /// A runner's tokens from `runnect serve token NAME`, and the line it printed.
    struct Tokens {
        var line: String
        var access: String
        var refresh: String
    }

    static func tokenLine(_ name: String, db: String) throws -> Tokens {
        let issued = try RunnectProcess.run(["serve", "token", name, "--db", db], environment: secret)
        try #require(issued.status == 0, "\(issued.stderr)")
        let line = issued.stdout.trimmingCharacters(in: .newlines)
        let pair = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        return Tokens(
            line: line, access: try #require(pair["accessToken"]), refresh: try #require(pair["refreshToken"]))
    }

    static func value(_ report: [String: Any], _ step: String, _ key: String) -> Any? {
        (report[step] as? [String: Any])?[key]
    }

    static func ids(_ report: [String: Any], _ step: String, _ key: String = "ids") -> [Int64] {
        (value(report, step, key) as? [NSNumber] ?? []).map(\.int64Value)
    }

    static func nearPath(_ latitude: Double, _ longitude: Double) -> String {
        String(format: "/api/public-course/near?lat=%.6f&lon=%.6f&within=5&pageNo=1", latitude, longitude)
    }

    static func percent(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// The API of the test's server, as a visitor or a runner.
    struct PageAPI {
        let server: ServeProcess

        func send(
            _ method: String, _ path: String, tokens: Tokens? = nil, json: [String: Any]? = nil
        ) async throws -> (status: Int, body: Data) {
            var headers = [
                "accessToken": tokens?.access ?? "visitor", "refreshToken": tokens?.refresh ?? "visitor",
            ]
            var body: Data?
            if let json {
                body = try JSONSerialization.data(withJSONObject: json)
                headers["Content-Type"] = "application/json"
            }
            let answer = try await server.request(method, path, headers: headers, body: body)
            return (answer.status, answer.body)
        }

        func data(_ path: String, tokens: Tokens? = nil) async throws -> [String: Any] {
            let answer = try await send("GET", path, tokens: tokens)
            try #require(answer.status == 200, "\(path): \(String(decoding: answer.body, as: UTF8.self))")
            let envelope = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
            return try #require(envelope?["data"] as? [String: Any])
        }

        /// The ids of a list's `publicCourses`, in order.
        func ids(_ path: String) async throws -> [Int64] {
            let courses = try await data(path)["publicCourses"] as? [[String: Any]] ?? []
            return courses.compactMap { ($0["id"] as? NSNumber)?.int64Value }
        }

        /// What the page does with a departure's name: the first course the search finds, and
        /// its path's first point.
        func departureStart(_ name: String) async throws -> (id: Int64, latitude: Double, longitude: Double) {
            let id = try #require(try await ids("/api/public-course/search?keyword=\(percent(name))").first)
            let course = try await data("/api/public-course/detail/\(id)")["publicCourse"] as? [String: Any]
            let first = try #require((course?["path"] as? [[Double]])?.first)
            return (id, first[0], first[1])
        }
    }
}
