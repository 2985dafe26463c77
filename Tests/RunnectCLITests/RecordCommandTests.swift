import Foundation
import RunnectKit
import RunnectTestSupport
import Testing

/// Runs kept as records of courses, end to end: one runner shares a course drawn from a real run,
/// another imports that run from three watch formats.
@Suite("runnect records (end to end)")
struct RecordCommandTests {
    static let fr945 = [
        "gpx/garmin_fr945_run_sloatsburg.gpx", "tcx/garmin_fr945_run_sloatsburg.tcx",
        "fit/garmin_fr945_run_sloatsburg.fit",
    ]

    /// The GPX run's points with position, and the geodesic distance to each from the start.
    static func run() throws -> (points: [TrackPoint], meters: [Double]) {
        let activity = try ActivityReader.read(path: SharedCorpus.url(fr945[0]).path)
        let points = activity.courseSegments.flatMap { $0 }
        var meters = [0.0]
        for (a, b) in zip(points, points.dropFirst()) {
            meters.append(meters.last! + Geodesic.distance(from: a.coordinate, to: b.coordinate)!)
        }
        return (points, meters)
    }

    /// Taps where a person drawing the run on a map puts them: at its turns (points Douglas–Peucker
    /// keeps at 10 m) and every ~300 m of run between them. (Taps every 300 m alone cut the trail's
    /// corners: only 85 % of such a course lies within 30 m of the run.)
    static func taps(_ points: [TrackPoint], _ meters: [Double], from start: Double = 0) -> String {
        var taps: [Coordinate] = []
        var previous: Int?
        for index in Simplifier.keptIndices(of: points, toleranceMeters: 10) where meters[index] >= start {
            if let previous {
                var mark = meters[previous] + 300
                for between in (previous + 1)..<index where meters[between] >= mark {
                    taps.append(points[between].coordinate)
                    mark = meters[between] + 300
                }
            }
            taps.append(points[index].coordinate)
            previous = index
        }
        return taps.map { "\($0.latitude),\($0.longitude)" }.joined(separator: " ")
    }

    /// The run's time at `target` metres, interpolated by distance (as splits are).
    static func time(at target: Double, _ points: [TrackPoint], _ meters: [Double]) -> Date {
        let leg = meters.lastIndex { $0 <= target }!
        let fraction = (target - meters[leg]) / (meters[leg + 1] - meters[leg])
        let t0 = points[leg].time!.timeIntervalSince1970
        let t1 = points[leg + 1].time!.timeIntervalSince1970
        return Date(timeIntervalSince1970: t0 + fraction * (t1 - t0))
    }

    @Test(
        "the Forerunner 945 run as GPX, TCX and FIT links to another runner's shared course drawn from it, course times within 1 s",
        .sharedCorpus)
    func threeFormatsOneCourse() throws {
        let scratch = try StoreCommandTests.Scratch()
        let (points, meters) = try Self.run()
        let drawn = try scratch.objects(
            ["draw", "--points", Self.taps(points, meters), "--title", "Sloatsburg loop"], user: "jisoo")[0]
        let course = try #require(drawn["id"] as? Int)
        _ = try scratch.objects(
            ["upload", "\(course)", "--title", "Sloatsburg loop", "--description", "trail"], user: "jisoo")

        var times: [Double] = []
        for file in Self.fr945 {
            let imported = try scratch.objects(["import", SharedCorpus.url(file).path], user: "minji")
            let record = try #require(imported.first)
            #expect(record["course_id"] as? Int == course, "\(file): \(record)")
            #expect(record["is_new_course"] as? Bool == false)
            #expect((record["match_coverage"] as? Double ?? 0) >= 0.9, "\(file): \(record)")
            times.append(try #require(record["course_time_s"] as? Double))
        }
        print("FR945 course times on the drawn course (GPX, TCX, FIT): \(times)")
        #expect(times.max()! - times.min()! <= 1, "\(times)")
        // The course starts and ends on the run's first and last points: the whole run is timed.
        let elapsed = points.last!.time!.timeIntervalSince(points.first!.time!)
        #expect(abs(times[0] - elapsed) <= 1, "\(times[0]) vs \(elapsed)")

        let board = try scratch.run(["records", "--course", "\(course)"], user: "minji")
        #expect(board.status == 0 && board.stdout.contains("3 attempt(s)"), "\(board.stdout)")
        #expect(try scratch.objects(["records"], user: "jisoo").isEmpty, "records are their owner's alone")
        #expect(try scratch.run(["record", "show", "1"], user: "jisoo").status == 1)
        let shown = try scratch.objects(["show", "\(course)"], user: "minji")[0]
        #expect(shown["record_count"] as? Int == 3)
        #expect(abs((shown["best_course_time_s"] as? Double ?? 0) - times.min()!) < 0.001)
        // Its owner may delete it all the same: minji's records stay, and say so.
        let deleted = try scratch.run(["delete", "\(course)"], user: "jisoo")
        #expect(deleted.status == 0, "\(deleted.stderr)")
        let kept = try scratch.objects(["records"], user: "minji")
        #expect(kept.count == 3)
        #expect(kept.allSatisfy { $0["course_deleted"] as? Bool == true && $0["course_title"] is NSNull })
        let lines = try scratch.run(["records"], user: "minji").stdout
        #expect(lines.contains("on course #\(course) (deleted by its owner)"), "\(lines)")
    }

    @Test(
        "a course starting 2 km into the run: its course time leaves the first 2 km out; the same course backwards is refused with the reason",
        .sharedCorpus)
    func warmUpAndBackwards() throws {
        let scratch = try StoreCommandTests.Scratch()
        let (points, meters) = try Self.run()
        let taps = Self.taps(points, meters, from: 2000)
        let later = try scratch.objects(["draw", "--points", taps, "--title", "after the warm-up"])[0]["id"] as! Int
        let reversed = taps.split(separator: " ").reversed().joined(separator: " ")
        let backwards = try scratch.objects(["draw", "--points", reversed, "--title", "backwards"])[0]["id"] as! Int

        let gpx = SharedCorpus.url(Self.fr945[0]).path
        let refused = try scratch.run(["import", gpx, "--course", "\(backwards)"])
        #expect(
            refused.status == 65 && refused.stderr.contains("does not follow course #\(backwards)"), "\(refused.stderr)"
        )
        #expect(try scratch.objects(["records"]).isEmpty, "nothing stored")

        let record = try scratch.objects(["import", gpx, "--course", "\(later)"])[0]
        let firstTap = taps.split(separator: " ")[0].split(separator: ",").map { Double($0)! }
        let startIndex = points.firstIndex { $0.latitude == firstTap[0] && $0.longitude == firstTap[1] }!
        let expected = points.last!.time!.timeIntervalSince(Self.time(at: meters[startIndex], points, meters))
        let courseTime = try #require(record["course_time_s"] as? Double)
        #expect(abs(courseTime - expected) <= 1, "course time \(courseTime), the run from the first tap on \(expected)")
        #expect(courseTime < (record["elapsed_time_s"] as! Double) - 600, "the warm-up is not timed")

        // `record:R` exports the run's own track (every point, warm-up included); the course id
        // exports the taps.
        let recordID = try #require(record["id"] as? Int)
        let run = try Self.feature(scratch.run(["export", "geojson", "record:\(recordID)"]))
        #expect(run.positions.count == points.count)
        // (Foundation's JSONSerialization on Linux reads doubles a few ulps off: compared to 1e-12°.)
        let first = try #require(run.positions.first)
        #expect(abs(first[0] - points[0].longitude) < 1e-12 && abs(first[1] - points[0].latitude) < 1e-12)
        #expect(run.properties["course_id"] as? Int == later && run.properties["id"] as? Int == recordID)
        let course = try Self.feature(scratch.run(["export", "geojson", "\(later)"]))
        #expect(course.positions.count == taps.split(separator: " ").count)
        let svg = scratch.folder.appendingPathComponent("run.svg").path
        #expect(try scratch.run(["export", "svg", "record:\(recordID)", "-o", svg]).status == 0)
        #expect(try String(contentsOfFile: svg, encoding: .utf8).contains("<svg"))
        let stranger = try scratch.run(["export", "geojson", "record:\(recordID)"], user: "jisoo")
        #expect(
            stranger.status == 1 && stranger.stderr.contains("record:\(recordID): record:\(recordID) not found"),
            "another runner's record is not theirs to export: \(stranger.stderr)")
    }

    /// The positions ([lon, lat], elevation dropped) and properties of an exported GeoJSON Feature.
    static func feature(_ result: RunnectProcess.Result) throws -> (positions: [[Double]], properties: [String: Any]) {
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let geometry = try #require(object["geometry"] as? [String: Any])
        let lines: [[[Double]]]
        if geometry["type"] as? String == "LineString" {
            lines = [try #require(geometry["coordinates"] as? [[Double]])]
        } else {
            lines = try #require(geometry["coordinates"] as? [[[Double]]])
        }
        return (lines.joined().map { Array($0.prefix(2)) }, try #require(object["properties"] as? [String: Any]))
    }
}
