import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

/// Every GPX file of `../shared/tracks` against the figures computed independently with
/// GeographicLib and gpxpy (`reference.json`, made by `make_reference.py`).
@Suite("Reference corpus: GPX", .sharedCorpus)
struct ReferenceCorpusGPXTests {
    /// Files the reader must reject, with the place it must name.
    static let expectedErrors: [String: (fragment: String, line: Int?)] = [
        "edge/truncated_garmin_run.gpx": ("unexpected end of file", 2700),
        // A waypoint at latitude 91.38°: not a place on Earth.
        "edge/out_of_range_coords.gpx": ("lat=\"91.38", nil),
    ]

    static var gpxFiles: [String] { SharedCorpus.files(format: "gpx") }

    @Test("figures match reference.json", arguments: gpxFiles)
    func figuresMatchReference(_ file: String) throws {
        let reference = try #require(SharedCorpus.reference[file])
        let path = SharedCorpus.url(file).path
        if let expected = Self.expectedErrors[file] {
            let error = try #require(throws: ReadError.self) { try ActivityReader.read(path: path) }
            #expect(error.description.contains(expected.fragment), "\(error)")
            if let line = expected.line { #expect(error.line == line, "\(error)") }
            return
        }
        let activity = try ActivityReader.read(path: path)
        let trackPoints = activity.tracks.flatMap(\.segments).reduce(0) { $0 + $1.points.count }
        #expect(trackPoints == reference["points"] as? Int)
        if let segments = reference["segments"] as? Int {
            #expect(activity.tracks.flatMap(\.segments).count == segments)
        }
        if let perSegment = reference["points_per_segment"] as? [Int] {
            #expect(activity.tracks.flatMap(\.segments).map(\.points.count) == perSegment)
        }
        if let routes = reference["routes"] as? Int { #expect(activity.routes.count == routes) }
        if let waypoints = reference["waypoints"] as? Int { #expect(activity.waypoints.count == waypoints) }

        let stats = activity.stats()
        if activity.isMeasuredOnRoutes {
            let expected = try #require(SharedCorpus.double(reference["route_length_2d_geodesic_m"]))
            #expect(
                abs(stats.distanceMeters - expected) <= 0.001, "route length \(stats.distanceMeters) vs \(expected)")
        } else {
            let expected = try #require(SharedCorpus.double(reference["length_2d_geodesic_m"]))
            #expect(abs(stats.distanceMeters - expected) <= 0.001, "length \(stats.distanceMeters) vs \(expected)")
            try SharedCorpus.expectBounds(stats.bounds, reference["bounds"])
            try SharedCorpus.expectTime(stats.startTime, reference["start_time"], toleranceSeconds: 1)
            try SharedCorpus.expectTime(stats.endTime, reference["end_time"], toleranceSeconds: 1)
        }
        if reference["points_with_elevation"] as? Int == 0 || reference["points_with_elevation"] == nil {
            #expect(stats.elevationGainMeters == nil || trackPoints == 0 || activity.isMeasuredOnRoutes)
        } else if let low = SharedCorpus.double(reference["elevation_min_m"]),
            let high = SharedCorpus.double(reference["elevation_max_m"])
        {
            #expect(abs((stats.minElevationMeters ?? .nan) - low) <= 0.0005)
            #expect(abs((stats.maxElevationMeters ?? .nan) - high) <= 0.0005)
        }
    }

    @Test("the file written without a namespace but with a BOM and unbound prefixes is read")
    func bomAndUnboundPrefixes() throws {
        let file = "edge/strava_bom_unbound_prefix.gpx"
        let reference = try #require(SharedCorpus.reference[file])
        let activity = try ActivityReader.read(path: SharedCorpus.url(file).path)
        let stats = activity.stats()
        #expect(stats.points == reference["points"] as? Int)
        #expect(abs(stats.distanceMeters - SharedCorpus.double(reference["length_2d_geodesic_m"])!) <= 0.001)
        // gpxdata:cadence and a plain <cadence> both carry the cadence.
        #expect(activity.tracks[0].segments[0].points[0].cadence == 43)
    }

    @Test("every file in edge/ gives figures or a one-line error, never a crash", arguments: SharedCorpus.edgeFiles)
    func edgeFilesNeverCrash(_ file: String) {
        do {
            let activity = try ActivityReader.read(path: SharedCorpus.url(file).path)
            let stats = activity.stats(options: StatsOptions(includeSplits: true, includeSegments: true))
            #expect(stats.distanceMeters.isFinite)
        } catch let error as ReadError {
            let message = error.description
            #expect(!message.isEmpty && !message.contains("\n"), "\(file): \(message)")
        } catch {
            Issue.record("\(file): unexpected error type \(error)")
        }
    }

    @Test("Garmin heart rate under ns3:, gpxtpx: and a bare <heartrate> is read")
    func heartRateUnderAnyPrefix() throws {
        for file in [
            "gpx/garmin_fr945_run_sloatsburg.gpx", "gpx/strava_run_pyrenees.gpx", "gpx/amazfit_run_helsinki.gpx",
        ] {
            let activity = try ActivityReader.read(path: SharedCorpus.url(file).path)
            let stats = activity.stats()
            let average = try #require(stats.averageHeartRateBPM, "\(file)")
            #expect((60...200).contains(average), "\(file): \(average)")
        }
    }
}
