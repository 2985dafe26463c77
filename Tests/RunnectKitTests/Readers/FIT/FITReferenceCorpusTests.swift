import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

/// Every FIT file of `../shared/tracks` against the figures fitparse/fitdecode and GeographicLib
/// give (`reference.json`, made by `make_reference.py`).
///
/// make_reference.py measures a FIT file as one sequence of all its records, skipping those
/// without a position; so does Runnect (timer pauses are kept apart, as time that is never
/// moving, not as breaks in the track), and the device's GPX export of the same run agrees.
@Suite("Reference corpus: FIT", .sharedCorpus)
struct FITReferenceCorpusTests {
    static var fitFiles: [String] { SharedCorpus.files(format: "fit") }

    static func decode(_ file: String) throws -> FITReader.Result {
        try FITReader().decode(from: FileByteStream(path: SharedCorpus.url(file).path))
    }

    @Test(
        "record counts, distance, bounds, times, sessions, laps and timer events match reference.json",
        arguments: fitFiles)
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
        let stats = activity.stats()
        let expected = try #require(SharedCorpus.double(reference["length_2d_geodesic_m"]))
        #expect(abs(stats.distanceMeters - expected) <= 0.001, "\(file): \(stats.distanceMeters) vs \(expected)")
        #expect(stats.segmentCount == 1)

        try SharedCorpus.expectBounds(stats.bounds, reference["bounds"])
        // FIT times are whole seconds: exactly.
        try SharedCorpus.expectTime(stats.startTime, reference["start_time"], toleranceSeconds: 0.001)
        try SharedCorpus.expectTime(stats.endTime, reference["end_time"], toleranceSeconds: 0.001)
        if let low = SharedCorpus.double(reference["elevation_min_m"]),
            let high = SharedCorpus.double(reference["elevation_max_m"])
        {
            // The file's range is what the reader gives. The stats leave spikes out (the fenix 2's
            // first three seconds read 142.4 m, 87 m above the rest), so theirs lies within it.
            let elevations = points.compactMap(\.elevationMeters)
            #expect(abs((elevations.min() ?? .nan) - low) <= 0.0005)
            #expect(abs((elevations.max() ?? .nan) - high) <= 0.0005)
            #expect((stats.minElevationMeters ?? .nan) >= low - 0.0005)
            #expect((stats.maxElevationMeters ?? .nan) <= high + 0.0005)
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
        // Moving time never exceeds the time the device's timer ran (1 s for whole-second stamps).
        if let moving = stats.movingTimeSeconds, let timer = activity.deviceTotals?.timerTimeSeconds {
            #expect(moving <= timer + 1, "\(file): moving \(moving) s, timer \(timer) s")
        }
    }

    @Test("the same Forerunner 945 run as GPX and as FIT: same geodesic distance and bounds")
    func sameRunAsGPXAndFIT() throws {
        let fit = try Self.decode("fit/garmin_fr945_run_sloatsburg.fit").activity.stats()
        let gpx = try ActivityReader.read(path: SharedCorpus.url("gpx/garmin_fr945_run_sloatsburg.gpx").path).stats()
        #expect(abs(fit.distanceMeters - gpx.distanceMeters) <= 0.001)
        #expect(fit.bounds == gpx.bounds)
        #expect(fit.startTime == gpx.startTime)
    }

    @Test("Suunto writes records while the timer is stopped: they stay in the track, never moving")
    func suuntoPauses() throws {
        let file = "fit/suunto9baro_run_with_pauses.fit"
        let activity = try Self.decode(file).activity
        // start · 843 records · stop · 31 records · start · 8 · stop · 3 · start · 1312 · stop
        #expect(activity.tracks[0].segments.map(\.points.count) == [Int(try SharedCorpus.figure(file, "record_count"))])
        #expect(activity.timerPauses.count == 2)
        let points = activity.tracks[0].segments[0].points
        for pause in activity.timerPauses {
            // Every leg between records written inside a pause is not moving.
            let inside = points.indices.dropLast().filter {
                guard let t0 = points[$0].time, let t1 = points[$0 + 1].time else { return false }
                return t0 >= pause.start && t1 <= pause.end && t1 > t0
            }
            #expect(!inside.isEmpty)
            for i in inside {
                #expect(
                    SegmentMeasurement.reachesIntoPause(
                        from: points[i].time!, to: points[i + 1].time!, activity.timerPauses))
            }
        }
        let stats = activity.stats()
        // Moving time stays within the device's timer time.
        #expect(stats.movingTimeSeconds! <= (try SharedCorpus.sessionFigure(file, "total_timer_time_s")))
        #expect(stats.elapsedTimeSeconds == (try SharedCorpus.figure(file, "duration_s")))
    }

    @Test("truncated file: the reference's records before the end and a warning naming the byte where the file ends")
    func truncated() throws {
        let file = "edge/truncated_unexpected_eof.fit"
        let reference = try #require(SharedCorpus.reference[file])
        let result = try Self.decode(file)
        #expect(result.summary.recordCount == reference["record_count"] as? Int)
        let distance = result.activity.stats().distanceMeters
        #expect(abs(distance - SharedCorpus.double(reference["length_2d_geodesic_m"])!) <= 0.001)
        #expect(
            result.activity.deviceTotals?.distanceMeters == SharedCorpus.double(reference["session_total_distance_m"]))
        // The file ends inside a record: the damage is at its length.
        let size = try #require(reference["bytes"] as? Int)
        #expect(result.summary.damageByteOffset == size)
        #expect(
            result.activity.warnings.contains { $0.hasPrefix("byte \(size): the file ends before the end of the data") }
        )
    }

    @Test(
        "Strava file with an undefined local message: the reference's records before it and a warning naming the byte fitdecode stopped at"
    )
    func stravaUndefinedLocalMessage() throws {
        let file = "edge/strava_android_app_bad_local_msg.fit"
        let reference = try #require(SharedCorpus.reference[file])
        let result = try Self.decode(file)
        let stats = result.activity.stats()
        #expect(result.summary.recordCount == reference["record_count"] as? Int)
        #expect(result.summary.recordsWithPosition == reference["points_with_position"] as? Int)
        #expect(abs(stats.distanceMeters - SharedCorpus.double(reference["length_2d_geodesic_m"])!) <= 0.001)
        // Its session comes first.
        #expect(
            result.activity.deviceTotals?.distanceMeters == (try SharedCorpus.figure(file, "session_total_distance_m")))
        // fitdecode: "FIT parsing error @ 7471: local message 11 not defined".
        let stopped = try #require(reference["fallback_stopped"] as? String)
        let byte = try #require(
            stopped.split(separator: "@").last?.split(separator: ":").first.flatMap {
                Int($0.trimmingCharacters(in: .whitespaces))
            })
        #expect(stopped.contains("local message 11 not defined"))
        #expect(result.summary.damageByteOffset == byte)
        #expect(
            result.activity.warnings.contains {
                $0.hasPrefix("byte \(byte): data message of local type 11, which no definition message declared")
            })
    }

    @Test(
        "treadmill run: time, heart rate and the device's distance and timer time, no geodesic distance, said in a warning"
    )
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
        #expect(activity.deviceTotals?.distanceMeters == (try SharedCorpus.figure(file, "session_total_distance_m")))
        #expect(activity.deviceTotals?.timerTimeSeconds == (try SharedCorpus.sessionFigure(file, "total_timer_time_s")))
        #expect(activity.warnings.contains { $0.contains("no geodesic distance") && $0.contains("treadmill") })
        // Four stops, three of them followed by a start: three pauses, one track.
        #expect(stats.segmentCount == 1)
        #expect(activity.timerPauses.count == 3)
    }
}
