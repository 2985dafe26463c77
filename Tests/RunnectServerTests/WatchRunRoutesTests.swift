import Foundation
import RunnectKit
import RunnectStore
import RunnectTestSupport
import Testing

@testable import RunnectServer

/// `POST /api/record/run` and `GET /api/course/{id}/attempts` (issue 38), on both stores: a FIT
/// file and a gzipped GPX of the same run, posted over HTTP, are matched to a course drawn along
/// it with the course time `runnect import` gives for the same files (its engine,
/// `BulkImporter`, on a store of its own); the same file twice is 409 naming the record; bad
/// files are 400 with the reader's message and store nothing; the attempts tell the measured
/// times from the one the app reported.
@Suite(
    "Runs from watch files over HTTP",
    .sharedCorpus,
    .requires(MapImageSamples.isAvailable, "python3 with pillow (scripts/setup.sh --test)"))
struct WatchRunRoutesTests {
    @Test(arguments: ServerStoreKind.available)
    func runsFromWatchFilesMatchTheirCourseAsImportDoes(kind: ServerStoreKind) async throws {
        let scratch = try TemporaryFolder("runnect-watch-runs")
        let gzipped = try RunFiles.gzipped(RunFiles.gpx, in: scratch)
        let taps = try RunFiles.taps(along: RunFiles.fit, every: 5)
        let reference = try await Self.importedCourseTimes(
            taps: taps, files: [RunFiles.fit.path, scratch.path("garmin_vivoactivehr_run_corenc.gpx.gz")])

        let png = try Data(contentsOf: MapImageSamples.folder.appendingPathComponent("plain.png"))
        try await kind.withServer(runners: ["jiwoo"]) { base, runners, images in
            do {
                let a = runners[0]
                let drawn = try await a.drawCourse(
                    data: ["path": taps, "title": "코렌크 러닝 코스", "departureAddress": "서울 송파구 잠실동 1"],
                    image: png, imageName: "map.png")
                drawn.expect(http: 201)
                let courseID = try #require(drawn.data["id"] as? Int)

                // The watch's FIT file: matched to the drawn course, the course time as import's.
                let fit = try Data(contentsOf: RunFiles.fit)
                let first = try await a.postForm("/api/record/run", parts: [("file", "corenc.fit", fit)])
                first.expect(http: 201)
                let record = try #require(first.data["record"] as? [String: Any])
                let match = try #require(first.data["match"] as? [String: Any])
                #expect(match["courseId"] as? Int == courseID)
                #expect(record["courseId"] as? Int == courseID)
                #expect(match["isNewCourse"] as? Bool == false)
                #expect(match["isPersonalBest"] as? Bool == true)
                #expect(match["measured"] as? Bool == true)
                #expect(record["format"] as? String == "fit")
                let coverage = try #require(match["coverage"] as? Double)
                #expect(coverage >= 0.9 && coverage <= 1)
                let fitTime = try #require(match["courseTimeSeconds"] as? Double)
                #expect(abs(fitTime - reference[0]) < 1e-6, "server \(fitTime) s, import \(reference[0]) s")
                #expect(match["courseTime"] as? String == AppTime.text(seconds: reference[0]))
                #expect(record["time"] as? String == AppTime.text(seconds: reference[0]))
                // The course runs from the run's first positioned point to its last (the FIT file's
                // last record has no position): its time is the span of those points, which is the
                // duration gpxpy gives the GPX export of the same run (its 502 positioned points).
                let positionedSpan = try #require(
                    SharedCorpus.double(SharedCorpus.reference["gpx/garmin_vivoactivehr_run_corenc.gpx"]?["duration_s"])
                )
                #expect(
                    abs(fitTime - positionedSpan) <= 2, "course time \(fitTime) s, gpxpy's span \(positionedSpan) s")

                // The GPX the watch's app exported, gzipped, with a title: the same course.
                let second = try await a.postForm(
                    "/api/record/run",
                    parts: [
                        ("file", "corenc.gpx.gz", gzipped), ("title", nil, Data("아침 달리기".utf8)),
                        ("courseId", nil, Data("\(courseID)".utf8)),
                    ])
                second.expect(http: 201)
                let secondMatch = try #require(second.data["match"] as? [String: Any])
                let secondRecord = try #require(second.data["record"] as? [String: Any])
                #expect(secondMatch["courseId"] as? Int == courseID)
                #expect(secondRecord["title"] as? String == "아침 달리기")
                #expect(secondRecord["format"] as? String == "gpx")
                let gpxTime = try #require(secondMatch["courseTimeSeconds"] as? Double)
                #expect(abs(gpxTime - reference[1]) < 1e-6, "server \(gpxTime) s, import \(reference[1]) s")
                #expect(
                    abs(gpxTime - positionedSpan) <= 2, "course time \(gpxTime) s, gpxpy's duration \(positionedSpan) s"
                )

                // The same file again: 409, naming the record it already is.
                let recordID = try #require(record["id"] as? Int)
                let again = try await a.postForm("/api/record/run", parts: [("file", "corenc.fit", fit)])
                again.expect(http: 409)
                #expect((again.json["message"] as? String)?.contains("record:\(recordID)") == true, "\(again.json)")

                // Bad files: 400 with what is wrong, nothing stored.
                let before = try await Self.recordCount(a)
                let route = try Data(contentsOf: PackageFolder.url("SampleTracks/olympic_park_route.gpx"))
                let plainGPX = try Data(contentsOf: RunFiles.gpx)
                let far = try await a.drawCourse(
                    data: [
                        "path": [["latitude": 35.15, "longitude": 129.16], ["latitude": 35.16, "longitude": 129.16]],
                        "title": "부산", "departureAddress": "부산 해운대구 우동 1",
                    ], image: png, imageName: "map.png")
                far.expect(http: 201)
                let farID = try #require(far.data["id"] as? Int)
                let bad: [(parts: [(name: String, fileName: String?, bytes: Data)], says: String)] = [
                    ([("file", "empty.gpx", Data())], "empty"),
                    ([("file", "cut.fit", fit.prefix(200))], "cut.fit: "),
                    ([("file", "route.gpx", route)], "not a run"),
                    ([("file", "noise.gpx", Data("<gpx><trk><trkseg><trkpt lat=\"x\"".utf8))], "noise.gpx: "),
                    ([("title", nil, Data("제목".utf8))], "the part file"),
                    ([("file", "corenc.fit", fit), ("courseId", nil, Data("abc".utf8))], "courseId"),
                    ([("file", "corenc.gpx", plainGPX), ("courseId", nil, Data("\(farID)".utf8))], "does not follow"),
                ]
                for (parts, says) in bad {
                    let answer = try await a.postForm("/api/record/run", parts: parts)
                    answer.expect(http: 400)
                    let message = answer.json["message"] as? String ?? ""
                    #expect(message.contains(says), "\(parts.map(\.name)): \(message)")
                }
                let notMultipart = try await a.request("POST", "/api/record/run", json: ["file": "x"])
                notMultipart.expect(http: 400)
                #expect(try await Self.recordCount(a) == before, "a refused file stores nothing")
                let left = try FileManager.default.contentsOfDirectory(atPath: images.path).filter {
                    $0.hasSuffix(".part")
                }
                #expect(left.isEmpty, "every upload's temporary file is removed: \(left)")
                let visitor = try await AppClient(base: base).postForm(
                    "/api/record/run", parts: [("file", "corenc.fit", fit)])
                visitor.expect(http: 401)

                // A time the app reported beside the measured ones.
                try await a.request(
                    "POST", "/api/record",
                    json: ["courseId": courseID, "title": "앱 기록", "time": "0:59:00", "pace": "0:09:00"]
                ).expect(http: 201)
                let attempts = try await a.request("GET", "/api/course/\(courseID)/attempts")
                attempts.expect(http: 200)
                let data = attempts.data
                #expect(data["attemptCount"] as? Int == 3)
                let listed = try #require(data["attempts"] as? [[String: Any]])
                #expect(listed.map { $0["measured"] as? Bool } == [false, true, true], "newest first")
                let fastest = min(reference[0], reference[1])
                let bestMeasured = try #require(data["bestMeasured"] as? [String: Any])
                #expect(abs((bestMeasured["courseTimeSeconds"] as? Double ?? 0) - fastest) < 1e-6)
                let bestReported = try #require(data["bestReported"] as? [String: Any])
                #expect(bestReported["time"] as? String == "00:59:00")
                #expect(bestReported["measured"] as? Bool == false)
                let trend = try #require(data["trend"] as? [String: Any])
                #expect((trend["recentSeconds"] as? [Double])?.count == 3)
                #expect(trend["secondsPerAttempt"] is Double)
                let personalBest = try #require(data["personalBest"] as? [String: Any])
                #expect(personalBest["isPersonalBest"] as? Bool == true)
                #expect(listed.filter { $0["isPersonalBest"] as? Bool == true }.count == 1)
                try await AppClient(base: base).request("GET", "/api/course/\(courseID)/attempts").expect(http: 401)
            }
        }
    }

    /// The course times `runnect import`'s engine gives `files` on a course drawn along `taps`,
    /// in a SQLite store of its own.
    static func importedCourseTimes(taps: [[String: Double]], files: [String]) async throws -> [Double] {
        try await withTemporaryDirectory { folder in
            let store = try await CourseStore.open(folder.appendingPathComponent("reference.sqlite").path)
            let points = taps.map { Coordinate(latitude: $0["latitude"]!, longitude: $0["longitude"]!) }
            let course = try await store.draw(points: points, title: "코렌크 러닝 코스")
            var importer = BulkImporter(store: store, jobs: 1)
            importer.matching = RunMatching()
            var times: [String: Double] = [:]
            try await importer.run(files.map { ImportItem(path: $0) }) { outcomes in
                for outcome in outcomes {
                    switch outcome {
                    case .recorded(let item, let run) where run.course.id == course.id:
                        times[item.path] = run.record.courseTimeSeconds
                    default:
                        Issue.record("\(outcome)")
                    }
                }
            }
            return try files.map { try #require(times[$0], "\($0) was not recorded on the drawn course") }
        }
    }

    static func recordCount(_ client: AppClient) async throws -> Int {
        let answer = try await client.request("GET", "/api/record/user")
        answer.expect(http: 200)
        return (answer.data["records"] as? [Any])?.count ?? -1
    }
}
