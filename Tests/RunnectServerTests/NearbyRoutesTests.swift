import Foundation
import RunnectStore
import RunnectTestSupport
import Testing

@testable import RunnectServer

/// `GET /api/public-course/near` (issue 38): shared courses near a point, closest first, 10 a page
/// with `isEnd`, each with its distance, which GeographicLib's own `GeodSolve` confirms to 1 m;
/// bad coordinates and distances are 400; visitors may ask.
@Suite(
    "Near-me over HTTP",
    .requires(MapImageSamples.isAvailable, "python3 with pillow (scripts/setup.sh --test)"),
    .requires(ExternalTool.path("GeodSolve") != nil, "GeodSolve (apt-get install geographiclib-tools)"))
struct NearbyRoutesTests {
    @Test(arguments: ServerStoreKind.available)
    func coursesNearAPointClosestFirstWithGeographicLibsDistance(kind: ServerStoreKind) async throws {
        let png = try Data(contentsOf: MapImageSamples.folder.appendingPathComponent("plain.png"))
        try await kind.withServer(runners: ["minji"]) { base, runners, _ in
            do {
                let a = runners[0]
                // Eleven northward legs side by side, 100 m of longitude apart, ending at 37.51°;
                // and one in Busan.
                func share(_ path: [[String: Double]], _ title: String) async throws -> Int64 {
                    let drawing: [String: Any] = [
                        "path": path, "title": title, "departureAddress": "서울 송파구 잠실동 1",
                    ]
                    let drawn = try await a.drawCourse(data: drawing, image: png, imageName: "map.png")
                    drawn.expect(http: 201)
                    let id = try #require(drawn.data["id"] as? Int)
                    try await a.request(
                        "POST", "/api/public-course", json: ["courseId": id, "title": title, "description": "가까운 코스"]
                    ).expect(http: 201)
                    return Int64(id)
                }
                var legs: [Int64: [Double]] = [:]
                for index in 0..<11 {
                    let lon = 127.0 + Double(index) * 0.00113
                    let id = try await share(
                        [["latitude": 37.50, "longitude": lon], ["latitude": 37.51, "longitude": lon]], "북쪽 \(index)")
                    legs[id] = [37.51, lon]
                }
                _ = try await share(
                    [["latitude": 35.15, "longitude": 129.16], ["latitude": 35.16, "longitude": 129.16]], "부산")

                // North of every leg's end: each course's closest point is its end.
                let (lat, lon) = (37.515, 127.0)
                let visitor = AppClient(base: base)
                let first = try await visitor.request("GET", "/api/public-course/near?lat=\(lat)&lon=\(lon)&within=5")
                first.expect(http: 200)
                let firstItems = try #require(first.data["publicCourses"] as? [[String: Any]])
                #expect(firstItems.count == 10)
                #expect(first.data["isEnd"] as? Bool == false)
                let second = try await visitor.request(
                    "GET", "/api/public-course/near?lat=\(lat)&lon=\(lon)&within=5&pageNo=2")
                second.expect(http: 200)
                let secondItems = try #require(second.data["publicCourses"] as? [[String: Any]])
                #expect(secondItems.count == 1, "Busan is 300 km away, not within 5")
                #expect(second.data["isEnd"] as? Bool == true)

                let items = firstItems + secondItems
                let distances = items.compactMap { $0["distanceMeters"] as? Double }
                #expect(distances == distances.sorted(), "closest first")
                #expect(Set(items.compactMap { ($0["id"] as? Int).map(Int64.init) }) == Set(legs.keys))
                // Against GeographicLib's GeodSolve, from the point to each leg's end.
                let expected = try Self.geodSolve(
                    items.map { item in
                        let end = legs[Int64(item["id"] as! Int)]!
                        return "\(lat) \(lon) \(end[0]) \(end[1])"
                    })
                for (item, reference) in zip(items, expected) {
                    let found = try #require(item["distanceMeters"] as? Double)
                    #expect(
                        abs(found - reference) < 1, "course \(item["id"] ?? "?"): \(found) m, GeodSolve \(reference) m")
                    // The feed's shape besides.
                    #expect(item["courseId"] as? Int == item["id"] as? Int)
                    #expect((item["image"] as? String)?.contains("/images/") == true)
                }

                // 300 km reaches Busan.
                let far = try await visitor.request(
                    "GET", "/api/public-course/near?lat=\(lat)&lon=\(lon)&within=400&pageNo=2")
                #expect((far.data["publicCourses"] as? [[String: Any]])?.count == 2)

                for bad in [
                    "lat=91&lon=127", "lat=37.5&lon=-180.5", "lat=abc&lon=127", "lon=127", "lat=37.5",
                    "lat=37.5&lon=127&within=0", "lat=37.5&lon=127&within=1001", "lat=nan&lon=127",
                    "lat=37.5&lon=127&pageNo=0",
                ] {
                    let answer = try await visitor.request("GET", "/api/public-course/near?\(bad)")
                    answer.expect(http: 400)
                }
            }
        }
    }

    /// GeodSolve's inverse distances (metres) for lines `lat1 lon1 lat2 lon2`.
    static func geodSolve(_ lines: [String]) throws -> [Double] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.path("GeodSolve")!)
        process.arguments = ["-i", "-p", "9"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try? output.fileHandleForReading.close()
        process.waitUntilExit()
        return text.split(separator: "\n").map { line in
            Double(line.split(separator: " ").last ?? "") ?? .nan
        }
    }
}
