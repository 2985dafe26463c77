import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

/// Every TCX file of `../shared/tracks` against reference.json (ElementTree + GeographicLib,
/// `make_reference.py`): points, per-`<Track>` and joined geodesic lengths, laps and their
/// `DistanceMeters`, bounds, times.
@Suite("Reference corpus: TCX", .sharedCorpus)
struct ReferenceCorpusTCXTests {
    static var tcxFiles: [String] { SharedCorpus.files(format: "tcx") }

    @Test("figures match reference.json", arguments: tcxFiles)
    func figuresMatchReference(_ file: String) throws {
        let reference = try #require(SharedCorpus.reference[file])
        let activity = try ActivityReader.read(path: SharedCorpus.url(file).path)
        #expect(activity.format == .tcx)
        let isCourse = (reference["courses"] as? Int ?? 0) > 0 && (reference["activities"] as? Int ?? 0) == 0
        #expect(activity.isMeasuredOnRoutes == isCourse)
        // Segments: one per <Track>, empty ones included (Suunto writes 20 empty ones).
        let segments = activity.courseSegments
        #expect(segments.map(\.count) == reference["points_per_segment"] as? [Int])
        #expect(segments.reduce(0) { $0 + $1.count } == reference["points"] as? Int)
        let positioned = segments.joined().filter(\.coordinate.isValid).count
        #expect(positioned == reference["points_with_position"] as? Int)

        let stats = activity.stats()
        #expect(stats.points == reference["points"] as? Int)
        let perTrack = try #require(SharedCorpus.double(reference["length_2d_geodesic_m"]))
        #expect(
            abs(stats.distanceMeters - perTrack) <= 0.001, "per-<Track> length \(stats.distanceMeters) vs \(perTrack)")
        let joined = try #require(SharedCorpus.double(reference["length_2d_geodesic_joined_m"]))
        #expect(
            abs(activity.joinedDistanceMeters() - joined) <= 0.001,
            "joined length \(activity.joinedDistanceMeters()) vs \(joined)")

        #expect(activity.laps.count == reference["laps"] as? Int)
        // The device's own odometer per trackpoint (Suunto writes none).
        let deviceDistances = segments.joined().compactMap(\.deviceDistanceMeters)
        #expect(
            deviceDistances.max() == SharedCorpus.double(reference["trackpoint_distance_max_m"])
                || abs(
                    (deviceDistances.max() ?? .nan)
                        - (SharedCorpus.double(reference["trackpoint_distance_max_m"]) ?? .nan)) < 0.0005
        )
        if let lapDistance = SharedCorpus.double(reference["lap_distance_sum_m"]) {
            let device = try #require(activity.deviceTotals?.distanceMeters)
            #expect(abs(device - lapDistance) <= 0.001, "lap distances \(device) vs \(lapDistance)")
        }
        if let lapTime = SharedCorpus.double(reference["lap_time_sum_s"]) {
            let device = try #require(activity.deviceTotals?.timerTimeSeconds)
            #expect(abs(device - lapTime) <= 0.001, "lap times \(device) vs \(lapTime)")
        }
        if let sports = reference["sports"] as? [String], let sport = sports.first {
            #expect(activity.deviceTotals?.sport == sport)
            #expect(activity.tracks.first?.type == sport)
        }
        if let creators = reference["creator_names"] as? [String], let creator = creators.first {
            #expect(activity.metadata.creator == creator)
        }

        #expect(reference["bounds"] is [String: Any])
        try SharedCorpus.expectBounds(stats.bounds, reference["bounds"])
        try SharedCorpus.expectTime(stats.startTime, reference["start_time"], toleranceSeconds: 0.001)
        try SharedCorpus.expectTime(stats.endTime, reference["end_time"], toleranceSeconds: 0.001)
        if let low = SharedCorpus.double(reference["elevation_min_m"]),
            let high = SharedCorpus.double(reference["elevation_max_m"])
        {
            #expect(abs((stats.minElevationMeters ?? .nan) - low) <= 0.0005)
            #expect(abs((stats.maxElevationMeters ?? .nan) - high) <= 0.0005)
        }
    }

    @Test("the course file reads as a course: the reference's points on one route and its length")
    func courseFile() throws {
        let file = "edge/tcx_course_no_activities.tcx"
        let activity = try ActivityReader.read(path: SharedCorpus.url(file).path)
        #expect(activity.tracks.isEmpty)
        #expect(
            activity.routes.count == 1
                && activity.routes[0].points.count == SharedCorpus.reference[file]?["points"] as? Int)
        #expect(activity.routes[0].name == "Test TCX Route" && activity.displayName == "Test TCX Route")
        #expect(activity.isMeasuredOnRoutes)
        #expect(abs(activity.stats().distanceMeters - (try SharedCorpus.figure(file, "length_2d_geodesic_m"))) < 0.001)
    }

    @Test(
        "the Forerunner 945 run: the device distance beside ours, the same as its GPX export; first trackpoint and lap calories are a snapshot"
    )
    func deviceDistanceAndCrossFormat() throws {
        let file = "tcx/garmin_fr945_run_sloatsburg.tcx"
        let reference = try #require(SharedCorpus.reference[file])
        let tcx = try ActivityReader.read(path: SharedCorpus.url(file).path)
        let gpx = try ActivityReader.read(path: SharedCorpus.url("gpx/garmin_fr945_run_sloatsburg.gpx").path)
        // The sum of its two laps' <DistanceMeters>.
        #expect(
            abs((tcx.deviceTotals?.distanceMeters ?? 0) - (try SharedCorpus.figure(file, "lap_distance_sum_m"))) < 1e-6)
        #expect(abs(tcx.stats().distanceMeters - gpx.stats().distanceMeters) < 0.001)
        // Trackpoints without <Position> are kept for their time and heart rate.
        let points = tcx.tracks[0].segments.flatMap(\.points)
        let unpositioned = points.filter { !$0.coordinate.isValid }
        let positioned = try #require(reference["points_with_position"] as? Int)
        #expect(unpositioned.count == (reference["points"] as? Int ?? 0) - positioned)
        #expect(unpositioned.allSatisfy { $0.time != nil && $0.latitude.isNaN })
        // ns3:TPX RunCadence fills the cadence when no <Cadence> is written (snapshot of the first trackpoint).
        #expect(points[0].cadence == 49 && points[0].heartRateBPM == 71)
        // The file writes 1.4459999799728394 and 1.190000057220459 (32-bit floats): kept to the millimetre.
        #expect(points[0].deviceSpeedMetersPerSecond == 1.446 && points[0].deviceDistanceMeters == 1.19)
        #expect(tcx.laps.map(\.totals.calories) == [665, 317])
        try SharedCorpus.expectTime(tcx.laps[0].startTime, reference["start_time"], toleranceSeconds: 0.001)
    }

    @Test(
        "every .tcx in edge/ gives figures or a one-line error, never a crash",
        arguments: SharedCorpus.edgeFiles.filter { $0.hasSuffix(".tcx") })
    func edgeFiles(_ file: String) throws {
        do {
            for activity in try ActivityReader.readAll(path: SharedCorpus.url(file).path) {
                let stats = activity.stats(options: StatsOptions(includeSplits: true, includeSegments: true))
                #expect(stats.distanceMeters.isFinite && stats.distanceMeters > 0)
            }
        } catch let error as ReadError {
            #expect(!error.description.contains("\n"), "\(file): \(error)")
        }
    }
}

/// The TCX reader on documents written here: what the corpus does not exercise.
@Suite("TCX reader")
struct TCXReaderTests {
    @Test("times going back: a warning per activity naming the point, elapsed time never negative")
    func timesGoingBack() throws {
        let forward = ["2024-04-07T06:00:00Z", "2024-04-07T06:00:05Z", "2024-04-07T06:00:10Z", "2024-04-07T06:00:15Z"]
        let xml = Self.tcx(
            Self.activity(start: forward[0], latitude: 37.5, times: forward)
                + Self.activity(start: forward[3], latitude: 37.5, times: forward.reversed()))
        let activities = try TCXReader().readAll(from: MemoryByteStream(xml))
        #expect(activities[0].warnings.isEmpty)
        #expect(activities[1].warnings.count == 3)
        #expect(
            activities[1].warnings.first == "segment 1, point 2: the time goes back 0:00:05, from 2024-04-07T06:00:15Z "
                + "(segment 1, point 1) to 2024-04-07T06:00:10Z; that leg counts as no time")
        #expect(activities[0].stats().elapsedTimeSeconds == 15)
        #expect(activities[1].stats().elapsedTimeSeconds == 0)
        #expect(activities[1].stats().movingTimeSeconds == 0)
    }

    static func tcx(_ activities: String, root: String = "TrainingCenterDatabase") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <\(root) xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"
          xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2"><Activities>\(activities)</Activities></\(root)>
        """
    }

    /// An activity of `laps` laps of 3 trackpoints stamped `start`, or of one trackpoint per
    /// entry of `times`.
    static func activity(
        sport: String = "Running", start: String, latitude: Double, laps: Int = 1,
        distance: Double = 100, times: [String]? = nil
    ) -> String {
        var text = "<Activity Sport=\"\(sport)\"><Id>\(start)</Id>"
        for lap in 0..<laps {
            text +=
                "<Lap StartTime=\"\(start)\"><TotalTimeSeconds>60</TotalTimeSeconds><DistanceMeters>\(distance)</DistanceMeters>"
                + "<Calories>5</Calories><Track>"
            let pointTimes = times ?? [String](repeating: start, count: 3)
            for (i, time) in pointTimes.enumerated() {
                let lat = latitude + Double(lap * pointTimes.count + i) * 0.0001
                text +=
                    "<Trackpoint><Time>\(time)</Time><Position><LatitudeDegrees>\(lat)</LatitudeDegrees>"
                    + "<LongitudeDegrees>127.0</LongitudeDegrees></Position><HeartRateBpm><Value>150</Value></HeartRateBpm>"
                    + "<Extensions><ns3:TPX><ns3:Speed>3.1</ns3:Speed><ns3:RunCadence>88</ns3:RunCadence></ns3:TPX></Extensions>"
                    + "</Trackpoint>"
            }
            text += "</Track></Lap>"
        }
        return text + "<Creator><Name>Forerunner 265</Name></Creator></Activity>"
    }

    @Test("several activities give several activities; read merges them, keeping each as a track")
    func severalActivities() throws {
        let text = Self.tcx(
            Self.activity(start: "2026-05-01T06:00:00Z", latitude: 37.5, laps: 2)
                + Self.activity(sport: "Biking", start: "2026-05-02T06:00:00Z", latitude: 37.6, distance: 250))
        let all = try ActivityReader.readAll(from: MemoryByteStream(text))
        #expect(all.count == 2)
        #expect(all.map(\.laps.count) == [2, 1])
        #expect(all.map { $0.deviceTotals?.distanceMeters } == [200, 250])
        #expect(all.map { $0.deviceTotals?.sport } == ["Running", "Biking"])
        #expect(all[0].metadata.creator == "Forerunner 265")
        #expect(
            all[0].metadata.time
                == ISO8601Parser.parse("2026-05-01T06:00:00Z").map { Date(timeIntervalSince1970: $0.secondsSince1970) })
        #expect(all[0].tracks[0].segments.map(\.points.count) == [3, 3])
        #expect(all[0].tracks[0].segments[0].points[0].cadence == 88)

        let merged = try ActivityReader.read(from: MemoryByteStream(text))
        #expect(merged.tracks.count == 2 && merged.laps.count == 3)
        #expect(merged.deviceTotals?.distanceMeters == 450 && merged.deviceTotals?.timerTimeSeconds == 180)
        #expect(merged.deviceTotals?.calories == 15 && merged.deviceTotals?.sport == nil)
        // Tracks are never joined: the merged distance is the sum of the two.
        #expect(abs(merged.stats().distanceMeters - all.reduce(0) { $0 + $1.stats().distanceMeters }) < 1e-9)
    }

    @Test("a multisport session's activities are read")
    func multiSport() throws {
        let text = Self.tcx(
            "<MultiSportSession><Id>2026-05-01T06:00:00Z</Id><FirstSport>"
                + Self.activity(start: "2026-05-01T06:00:00Z", latitude: 37.5)
                + "</FirstSport><NextSport>"
                + Self.activity(sport: "Biking", start: "2026-05-01T07:00:00Z", latitude: 37.6)
                + "</NextSport></MultiSportSession>")
        #expect(try ActivityReader.readAll(from: MemoryByteStream(text)).count == 2)
    }

    @Test("a file without activities gives one empty activity; no laps means no device totals")
    func empty() throws {
        let all = try ActivityReader.readAll(from: MemoryByteStream(Self.tcx("")))
        #expect(all.count == 1 && all[0].format == .tcx && all[0].tracks.isEmpty && all[0].deviceTotals == nil)
        #expect(all[0].stats().points == 0)
    }

    @Test("bad values and broken files are one-line errors with the place")
    func errors() throws {
        let badLatitude = Self.tcx(
            "<Activity Sport=\"Running\"><Lap><Track><Trackpoint><Position>\n"
                + "<LatitudeDegrees>91.5</LatitudeDegrees><LongitudeDegrees>1</LongitudeDegrees>"
                + "</Position></Trackpoint></Track></Lap></Activity>")
        let error = try #require(throws: ReadError.self) {
            try ActivityReader.read(from: MemoryByteStream(badLatitude))
        }
        #expect(error.description.contains("latitude 91.5 is outside") && error.line == 4, "\(error)")

        let badTime = Self.tcx(
            "<Activity><Lap><Track><Trackpoint><Time>yesterday</Time></Trackpoint></Track></Lap></Activity>")
        let timeError = try #require(throws: ReadError.self) {
            try ActivityReader.read(from: MemoryByteStream(badTime))
        }
        #expect(timeError.description.contains("invalid time \"yesterday\""), "\(timeError)")

        let truncated = String(Self.tcx(Self.activity(start: "2026-05-01T06:00:00Z", latitude: 37.5)).prefix(700))
        let cut = try #require(throws: ReadError.self) { try ActivityReader.read(from: MemoryByteStream(truncated)) }
        #expect(cut.description.contains("unexpected end of file"), "\(cut)")
    }

    @Test("an unreadable extension value is left out with a warning; zone-less times are UTC with a warning")
    func tolerated() throws {
        let text = Self.tcx(
            "<Activity Sport=\"Running\"><Lap StartTime=\"2026-05-01T06:00:00\"><Track><Trackpoint>"
                + "<Time>2026-05-01T06:00:00</Time><Extensions><TPX><RunCadence>--</RunCadence></TPX></Extensions>"
                + "</Trackpoint></Track></Lap></Activity>")
        let activity = try ActivityReader.read(from: MemoryByteStream(text))
        let point = try #require(activity.tracks.first?.segments.first?.points.first)
        #expect(point.cadence == nil && point.latitude.isNaN)
        #expect(point.time == Date(timeIntervalSince1970: 1_777_615_200))
        #expect(activity.warnings.count == 2, "\(activity.warnings)")
    }
}

/// Damaged TCX and gzip files: figures or a one-line error, never a crash.
@Suite("TCX and gzip: damaged input")
struct DamagedWatchFileTests {
    static let sample = TCXReaderTests.tcx(
        TCXReaderTests.activity(start: "2026-05-01T06:00:00Z", latitude: 37.5, laps: 2)
            + TCXReaderTests.activity(start: "2026-05-02T06:00:00Z", latitude: 37.6))

    static func check(_ bytes: [UInt8], _ what: String) {
        do {
            for activity in try ActivityReader.readAll(from: MemoryByteStream(bytes)) {
                #expect(
                    activity.stats(options: StatsOptions(includeSplits: true, includeSegments: true)).distanceMeters
                        .isFinite)
            }
        } catch let error as ReadError {
            #expect(!error.description.isEmpty && !error.description.contains("\n"), "\(what): \(error)")
        } catch {
            Issue.record("\(what): unexpected error \(error)")
        }
    }

    @Test("every truncation of a two-activity TCX")
    func truncations() {
        let bytes = Array(Self.sample.utf8)
        for length in 0..<bytes.count { Self.check(Array(bytes.prefix(length)), "first \(length) bytes") }
    }

    @Test("2,000 seeded byte damages of a TCX and of its gzip form")
    func byteDamage() throws {
        let plain = Array(Self.sample.utf8)
        let gzipped = try gzip(plain)
        var random = SplitMix64(seed: 0x7C5_2026)
        for round in 0..<1000 {
            for original in [plain, gzipped] {
                var bytes = original
                for _ in 0..<random.int(in: 1...4) {
                    bytes[random.below(bytes.count)] = UInt8(truncatingIfNeeded: random.next())
                }
                Self.check(bytes, "round \(round)")
            }
        }
    }

    /// `bytes` gzipped by the system's `gzip`.
    private func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-c"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(bytes))
        try input.fileHandleForWriting.close()
        let result = output.fileHandleForReading.readDataToEndOfFile()
        try? output.fileHandleForReading.close()
        process.waitUntilExit()
        return Array(result)
    }
}
