import Foundation
import RunnectTestSupport
import Testing

/// A club's store for the discovery page's browser test, made through the CLI: twelve shared
/// courses drawn by `haneul` as small loops around places in Seoul and Busan, with Korean and
/// English titles and departures (more than a feed page, so the page pages), scrapped by
/// others so that the scrap order differs from the date order.
final class PageScratch {
    let folder: URL
    var db: String { folder.appendingPathComponent("courses.sqlite").path }
    /// Course ids by short name.
    private(set) var ids: [String: Int64] = [:]
    /// The loops' taps by short name, `[latitude, longitude]`.
    private(set) var taps: [String: [[Double]]] = [:]

    struct Spec {
        var key: String
        var title: String
        var departure: String
        var departureName: String
        var center: (latitude: Double, longitude: Double)
        var scrappers: [String] = []
    }

    static let specs: [Spec] = [
        Spec(
            key: "banpo", title: "반포 한강공원 달빛 러닝", departure: "서울 서초구 반포동 신반포로11길 40",
            departureName: "반포한강공원", center: (37.5100, 126.9960), scrappers: ["jisoo", "sam"]),
        Spec(
            key: "yeouido", title: "여의도 한강 한 바퀴", departure: "서울 영등포구 여의도동 여의동로 330",
            departureName: "여의도한강공원", center: (37.5280, 126.9330)),
        Spec(
            key: "seokchon", title: "석촌호수 둘레길", departure: "서울 송파구 잠실동 잠실로 180", departureName: "석촌호수",
            center: (37.5090, 127.1030), scrappers: ["jisoo"]),
        Spec(
            key: "jamsil", title: "잠실 트랙 인터벌", departure: "서울 송파구 잠실동 올림픽로 25",
            departureName: "잠실종합운동장", center: (37.5150, 127.0730)),
        Spec(
            key: "namsan", title: "Namsan Tower Loop", departure: "서울 중구 예장동 소월로 100", departureName: "N서울타워",
            center: (37.5510, 126.9880), scrappers: ["jisoo", "sam", "dana"]),
        Spec(
            key: "forest", title: "Seoul Forest Morning Run", departure: "서울 성동구 성수동1가 뚝섬로 273",
            departureName: "서울숲", center: (37.5440, 127.0370)),
        Spec(
            key: "cheonggye", title: "청계천 따라 달리기", departure: "서울 종로구 서린동 청계천로 1", departureName: "청계광장",
            center: (37.5690, 126.9780)),
        Spec(
            key: "olympic", title: "올림픽공원 평화의 문 5K", departure: "서울 송파구 방이동 올림픽로 424",
            departureName: "평화의문", center: (37.5200, 127.1210)),
        Spec(
            key: "bukhansan", title: "북한산 둘레길 트레일", departure: "서울 강북구 우이동 삼양로 181", departureName: "우이령",
            center: (37.6620, 127.0120)),
        Spec(
            key: "ichon", title: "Hangang Bridge Sprint", departure: "서울 용산구 이촌동 이촌로 72",
            departureName: "이촌한강공원", center: (37.5170, 126.9590), scrappers: ["sam"]),
        Spec(
            key: "gyeongui", title: "경의선 숲길 산책 런", departure: "서울 마포구 연남동 성미산로 1",
            departureName: "연트럴파크", center: (37.5620, 126.9250)),
        Spec(
            key: "haeundae", title: "Haeundae Beach Run", departure: "부산 해운대구 우동 해운대해변로 264",
            departureName: "해운대해수욕장", center: (35.1590, 129.1600)),
    ]

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("runnect-page-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for spec in Self.specs {
            // A loop of 12 taps, about 400 m across, starting due north of the centre.
            let loop = (0...12).map { i -> [Double] in
                let angle = Double(i % 12) * .pi / 6
                return [spec.center.latitude + 0.0018 * cos(angle), spec.center.longitude + 0.0023 * sin(angle)]
            }
            taps[spec.key] = loop
            let points = loop.map { String(format: "%.6f,%.6f", $0[0], $0[1]) }.joined(separator: " ")
            let drawn = try run(
                [
                    "draw", "--points", points, "--title", spec.title, "--departure", spec.departure,
                    "--departure-name", spec.departureName, "--json",
                ], user: "haneul")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(drawn.stdout.utf8)) as? [String: Any])
            let id = try #require((object["id"] as? NSNumber)?.int64Value)
            ids[spec.key] = id
            _ = try run(["upload", "\(id)", "--title", spec.title, "--description", "\(spec.departureName)에서 출발"])
            for user in spec.scrappers { _ = try run(["scrap", "\(id)"], user: user) }
        }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// `runnect ARGUMENTS --db … --user USER`, which must succeed.
    @discardableResult
    func run(_ arguments: [String], user: String = "haneul") throws -> RunnectProcess.Result {
        let result = try RunnectProcess.run(arguments + ["--db", db, "--user", user])
        try #require(result.status == 0, "runnect \(arguments.joined(separator: " ")): \(result.stderr)")
        return result
    }

    /// A GPX run of the loop `key`, once round at 5'30"/km from `start`, a point every ~10 m:
    /// what a watch records, for the page's upload.
    func timedRun(_ key: String, start: Date, name: String) throws -> URL {
        let loop = try #require(taps[key])
        var points: [(Double, Double, Date)] = []
        var time = start
        for (a, b) in zip(loop, loop.dropFirst()) {
            let meters = Self.roughMeters(a, b)
            let steps = max(1, Int(meters / 10))
            for step in 0..<steps {
                let f = Double(step) / Double(steps)
                points.append((a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, time))
                time += meters / Double(steps) * 0.33
            }
        }
        points.append((loop[loop.count - 1][0], loop[loop.count - 1][1], time))
        let format = ISO8601DateFormatter()
        var gpx = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        gpx += #"<gpx version="1.1" creator="runnect tests" xmlns="http://www.topografix.com/GPX/1/1">"# + "\n"
        gpx += "<trk><name>\(name)</name><trkseg>\n"
        for (latitude, longitude, date) in points {
            gpx += String(format: #"<trkpt lat="%.7f" lon="%.7f">"#, latitude, longitude)
            gpx += "<time>\(format.string(from: date))</time></trkpt>\n"
        }
        gpx += "</trkseg></trk></gpx>\n"
        let file = folder.appendingPathComponent("\(key)-run.gpx")
        try Data(gpx.utf8).write(to: file)
        return file
    }

    /// An equirectangular distance, enough to space a test track's points.
    static func roughMeters(_ a: [Double], _ b: [Double]) -> Double {
        let dLat = (b[0] - a[0]) * 111_320
        let dLon = (b[1] - a[1]) * 111_320 * cos(a[0] * .pi / 180)
        return (dLat * dLat + dLon * dLon).squareRoot()
    }
}
