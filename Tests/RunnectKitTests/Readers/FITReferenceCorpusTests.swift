import Foundation
import Testing
@testable import RunnectKit

/// Every FIT file of `../shared/tracks` against the figures fitparse/fitdecode and GeographicLib
/// give (`reference.json`, made by `make_reference.py`).
///
/// make_reference.py measures a FIT file as one sequence of all its records, skipping those
/// without a position. Runnect splits the track at timer pauses (the hop across a pause is not
/// distance), so the reference distance is checked on the records joined in one segment, and
/// the split distance is checked to be that minus the hops across the pauses.
@Suite("Reference corpus: FIT", .enabled(if: SharedCorpus.isAvailable, SharedCorpus.skipMessage))
struct FITReferenceCorpusTests {
    static var fitFiles: [String] { SharedCorpus.files(format: "fit") }

    static func decode(_ file: String) throws -> FITReader.Result {
        try FITReader().decode(from: FileByteStream(path: SharedCorpus.url(file).path))
    }

    @Test("record counts, distance, bounds, times, sessions, laps and timer events match reference.json", arguments: fitFiles)
    func figuresMatchReference(_ file: String) throws {
        let reference = try #require(SharedCorpus.reference[file])
        let result = try Self.decode(file)
        let activity = result.activity
        let points = activity.tracks.flatMap(\.segments).flatMap(\.points)

        #expect(points.count == reference["record_count"] as? Int)
        #expect(result.summary.recordCount == reference["record_count"] as? Int)
        #expect(result.summary.recordsWithPosition == reference["points_with_position"] as? Int)
        #expect(points.filter { $0.time != nil }.count == reference["points_with_time"] as? Int)
        #expect(points.filter { $0.elevationMeters != nil }.count == reference["points_with_elevation"] as? Int)

        // Distance: the records in one sequence, as the reference measures them.
        let joined = activity.joinedDistanceMeters()
        let expected = try #require(SharedCorpus.double(reference["length_2d_geodesic_m"]))
        #expect(abs(joined - expected) <= 0.001, "\(file): joined \(joined) vs \(expected)")
        // Split at the timer pauses: the joined length less the hops between segments.
        let stats = activity.stats()
        // A hop joins consecutive positioned records that lie in different segments.
        var hops = 0.0
        var previous: (segment: Int, point: TrackPoint)?
        for (index, segment) in activity.tracks.flatMap(\.segments).enumerated() {
            for point in segment.points where SegmentMeasurement.hasPosition(point) {
                if let previous, previous.segment != index {
                    hops += Geodesic.distance(from: previous.point.coordinate, to: point.coordinate) ?? .nan
                }
                previous = (index, point)
            }
        }
        #expect(abs(stats.distanceMeters + hops - expected) <= 0.001, "\(file): \(stats.distanceMeters) + hops \(hops)")

        try SharedCorpus.expectBounds(stats.bounds, reference["bounds"])
        // FIT times are whole seconds: exactly.
        try SharedCorpus.expectTime(stats.startTime, reference["start_time"], toleranceSeconds: 0.001)
        try SharedCorpus.expectTime(stats.endTime, reference["end_time"], toleranceSeconds: 0.001)
        if let low = SharedCorpus.double(reference["elevation_min_m"]), let high = SharedCorpus.double(reference["elevation_max_m"]) {
            #expect(abs((stats.minElevationMeters ?? .nan) - low) <= 0.0005)
            #expect(abs((stats.maxElevationMeters ?? .nan) - high) <= 0.0005)
        } else {
            #expect(stats.minElevationMeters == nil)
        }

        // The device's own figures.
        let sessionDistance = SharedCorpus.double(reference["session_total_distance_m"])
        #expect(activity.deviceTotals?.distanceMeters == sessionDistance)
        let sessions = try #require(reference["sessions"] as? [[String: Any]])
        #expect(result.summary.sessions.count == sessions.count)
        for (ours, theirs) in zip(result.summary.sessions, sessions) {
            #expect(ours.distanceMeters == SharedCorpus.double(theirs["total_distance_m"]))
            #expect(ours.elapsedTimeSeconds == SharedCorpus.double(theirs["total_elapsed_time_s"]))
            #expect(ours.timerTimeSeconds == SharedCorpus.double(theirs["total_timer_time_s"]))
            #expect(ours.ascentMeters == SharedCorpus.double(theirs["total_ascent_m"]))
            #expect(ours.sport == theirs["sport"] as? String)
        }
        #expect(activity.laps.count == reference["laps"] as? Int)
        #expect(result.summary.timerStopEvents == reference["timer_stop_events"] as? Int)
        #expect(result.summary.timerStartEvents == reference["timer_start_events"] as? Int)
        // A stop followed by a start splits the track; the final stop does not.
        let pauses = result.summary.timerStopEvents > 0 ? result.summary.timerStopEvents - 1 : 0
        #expect(stats.segmentCount >= pauses + 1, "\(file): \(stats.segmentCount) segments for \(pauses) pauses")
    }

    @Test("the same Forerunner 945 run as GPX and as FIT: same geodesic distance and bounds")
    func sameRunAsGPXAndFIT() throws {
        let fit = try Self.decode("fit/garmin_fr945_run_sloatsburg.fit").activity.stats()
        let gpx = try ActivityReader.read(path: SharedCorpus.url("gpx/garmin_fr945_run_sloatsburg.gpx").path).stats()
        #expect(abs(fit.distanceMeters - gpx.distanceMeters) <= 0.001)
        #expect(fit.bounds == gpx.bounds)
        #expect(fit.startTime == gpx.startTime)
    }

    @Test("a pause splits the track: Suunto writes records while the timer is stopped, they form their own segment")
    func suuntoPauses() throws {
        let activity = try Self.decode("fit/suunto9baro_run_with_pauses.fit").activity
        // start · 843 records · stop · 31 records · start · 8 · stop · 3 · start · 1312 · stop
        #expect(activity.tracks[0].segments.map(\.points.count) == [843, 31, 8, 3, 1312])
        let stats = activity.stats()
        // Moving time stays within the device's timer time (2160.68 s).
        #expect(stats.movingTimeSeconds! <= 2160.68)
        #expect(stats.elapsedTimeSeconds == 2196)
    }

    @Test("truncated file: the 14 records before the end and a warning naming the byte")
    func truncated() throws {
        let file = "edge/truncated_unexpected_eof.fit"
        let reference = try #require(SharedCorpus.reference[file])
        let result = try Self.decode(file)
        #expect(result.summary.recordCount == reference["record_count"] as? Int)
        let distance = result.activity.joinedDistanceMeters()
        #expect(abs(distance - SharedCorpus.double(reference["length_2d_geodesic_m"])!) <= 0.001)
        #expect(result.activity.deviceTotals?.distanceMeters == SharedCorpus.double(reference["session_total_distance_m"]))
        #expect(result.summary.damageByteOffset == 768)
        #expect(result.activity.warnings.contains { $0.hasPrefix("byte 768: the file ends before the end of the data") })
    }

    @Test("Strava file with an undefined local message: the 473 records before it and a warning naming byte 7471")
    func stravaUndefinedLocalMessage() throws {
        let file = "edge/strava_android_app_bad_local_msg.fit"
        let reference = try #require(SharedCorpus.reference[file])
        let result = try Self.decode(file)
        let stats = result.activity.stats()
        #expect(result.summary.recordCount == reference["record_count"] as? Int)
        #expect(result.summary.recordsWithPosition == reference["points_with_position"] as? Int)
        #expect(abs(stats.distanceMeters - SharedCorpus.double(reference["length_2d_geodesic_m"])!) <= 0.001)
        #expect(result.activity.deviceTotals?.distanceMeters == 11274.04)  // its session comes first
        #expect(result.summary.damageByteOffset == 7471)
        #expect(result.activity.warnings.contains {
            $0.hasPrefix("byte 7471: data message of local type 11, which no definition message declared")
        })
    }

    @Test("treadmill run: time, heart rate and device distance 10630.37 m, no geodesic distance, said in a warning")
    func treadmill() throws {
        let file = "edge/garmin_fr945_treadmill_no_gps.fit"
        let reference = try #require(SharedCorpus.reference[file])
        let result = try Self.decode(file)
        let activity = result.activity
        let stats = activity.stats()
        #expect(stats.points == reference["record_count"] as? Int)
        #expect(stats.distanceMeters == 0)
        #expect(stats.bounds == nil)
        #expect(stats.elapsedTimeSeconds == SharedCorpus.double(reference["duration_s"]))
        #expect(stats.averageHeartRateBPM != nil)
        #expect(activity.deviceTotals?.distanceMeters == 10630.37)
        #expect(activity.deviceTotals?.timerTimeSeconds == 3097.789)
        #expect(activity.warnings.contains { $0.contains("no geodesic distance") && $0.contains("treadmill") })
        // Four stop/start pairs: four segments.
        #expect(stats.segmentCount == 4)
    }
}
