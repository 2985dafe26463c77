import Foundation
import Testing

/// A scratch database of courses made through the CLI (`draw`, `upload`, `scrap`), for the
/// `runnect index` tests: Korean and English titles, a title that is markup, shared and private
/// courses, scraps by other users.
final class IndexScratch {
    let folder: URL
    var db: String { folder.appendingPathComponent("courses.sqlite").path }
    /// Course ids by short name.
    private(set) var ids: [String: Int64] = [:]

    static let markupTitle = "<script>document.title='pwned'</script>"

    struct Spec {
        var key: String
        var title: String
        var description: String?
        var departure: String?
        var departureName: String?
        var scrappers: [String] = []
    }

    static let specs: [Spec] = [
        Spec(
            key: "banpo", title: "반포 한강 야간 러닝", description: "반포대교 무지개분수까지 왕복",
            departure: "서울 서초구 반포동 신반포로11길 40", departureName: "반포한강공원",
            scrappers: ["jisoo", "haneul", "sam"]),
        Spec(
            key: "yeouido", title: "Hangang Night Run", description: "Flat and fast along the river (ΟΔΟΣ)",
            departure: "서울 영등포구 여의도동 여의동로 330", departureName: "여의도한강공원", scrappers: ["jisoo"]),
        Spec(key: "markup", title: markupTitle, description: "<img src=x onerror=\"document.title='pwned'\"> & co"),
        Spec(
            key: "seokchon", title: "석촌호수 한 바퀴", description: "호수 둘레 평지 코스",
            departure: "서울 송파구 잠실동 잠실로 180", departureName: "석촌호수", scrappers: ["jisoo", "haneul"]),
        Spec(key: "namsan", title: "남산 순환로 비공개", description: nil, departure: "서울 중구 예장동 소월로 100"),
        Spec(
            key: "olympic", title: "올림픽공원 평화의문 5K", description: "주말 아침 러닝 크루",
            departure: "서울 송파구 방이동 올림픽로 424"),
    ]

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("runnect-index-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (number, spec) in Self.specs.enumerated() {
            // A zigzag of taps near Seoul, a different length for each course.
            let taps = (0..<(4 + number)).map { i in
                String(
                    format: "%.6f,%.6f", 37.50 + Double(number) * 0.01 + Double(i) * 0.002,
                    127.00 + Double(i % 2) * 0.003 + Double(number) * 0.004)
            }.joined(separator: " ")
            var arguments = ["draw", "--points", taps, "--title", spec.title]
            if let departure = spec.departure { arguments += ["--departure", departure] }
            if let name = spec.departureName { arguments += ["--departure-name", name] }
            let drawn = try objects(arguments)
            let id = try #require((drawn.first?["id"] as? NSNumber)?.int64Value)
            ids[spec.key] = id
            if let description = spec.description {
                try expectSuccess(["upload", "\(id)", "--title", spec.title, "--description", description])
            }
            for user in spec.scrappers { try expectSuccess(["scrap", "\(id)"], user: user) }
        }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func run(_ arguments: [String], user: String = "minji") throws -> RunnectProcess.Result {
        try RunnectProcess.run(arguments + ["--db", db, "--user", user])
    }

    func expectSuccess(_ arguments: [String], user: String = "minji") throws {
        let result = try run(arguments, user: user)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
    }

    func objects(_ arguments: [String], user: String = "minji") throws -> [[String: Any]] {
        let result = try run(arguments + ["--json"], user: user)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try result.stdoutLines.map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// The ids `runnect search` (or `list --shared` for a blank query) gives, in order.
    func searchIDs(_ query: String, sort: String) throws -> [Int64] {
        let arguments =
            query.isEmpty
            ? ["list", "--shared", "--sort", sort, "--limit", "100"]
            : ["search", query, "--sort", sort, "--limit", "100"]
        return try objects(arguments).compactMap { ($0["id"] as? NSNumber)?.int64Value }
    }
}
