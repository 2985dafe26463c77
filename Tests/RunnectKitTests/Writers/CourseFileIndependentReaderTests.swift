import Foundation
import RunnectKit
import RunnectTestSupport
import Testing

/// Every corpus course and run written as GPX, TCX and FIT, read by tools that share no code
/// with Runnect: xmllint against the official schemas, python-fitparse (CRCs checked) and
/// GPSBabel. Each test writes into a temporary folder of its own.
@Suite("Course files: xmllint, fitparse and GPSBabel read what was written", .sharedCorpus)
struct CourseFileIndependentReaderTests {
    /// One file written: where, from what, as what.
    struct Written {
        var path: String
        var kind: ExportKind
        var routes = false
    }

    /// `source` written in `format` as a course and, when it is a run, as a run (GPX courses also
    /// as routes), into `folder`. A run FIT cannot date (1901 times) is left out.
    static func write(_ source: CourseFileSource, _ format: CourseFileFormat, into folder: TemporaryFolder) throws
        -> [Written]
    {
        var written: [Written] = []
        for kind in source.isRun ? [ExportKind.course, .run] : [.course] {
            let path = folder.path("\(kind).\(format.rawValue)")
            do {
                try format.data(source.activity, ExportOptions(kind: kind)).write(to: URL(fileURLWithPath: path))
                written.append(Written(path: path, kind: kind))
            } catch WriteError.timeOutOfRange {
                #expect(format == .fit && kind == .run)
            }
        }
        if format == .gpx {
            let path = folder.path("routes.gpx")
            try GPXWriter(writesRoutes: true).data(for: source.activity).write(to: URL(fileURLWithPath: path))
            written.append(Written(path: path, kind: .course, routes: true))
        }
        return written
    }

    @Test(
        "GPX validates against GPX 1.1 + TrackPointExtension v1, TCX against TCX v2 + ActivityExtension v2",
        .requires(XMLSchemaCheck.present, XMLSchemaCheck.missing),
        .requires(SharedCorpus.schemasAreAvailable, SharedCorpus.schemasMissing),
        arguments: CourseFileSource.all)
    func schemas(_ source: CourseFileSource) throws {
        let folder = try TemporaryFolder("runnect-schemas")
        for (format, schema) in [(CourseFileFormat.gpx, XMLSchemaCheck.Schema.gpx), (.tcx, .tcx)] {
            let files = try Self.write(source, format, into: folder).map(\.path)
            let invalid = try XMLSchemaCheck.invalidFiles(files, schema: schema, folder: folder)
            #expect(invalid.isEmpty, "\(source.label): \(invalid)")
        }
    }

    @Test(
        "xmllint refuses what the schemas forbid (the check can fail)",
        .requires(XMLSchemaCheck.present, XMLSchemaCheck.missing),
        .requires(SharedCorpus.schemasAreAvailable, SharedCorpus.schemasMissing))
    func schemasRefuse() throws {
        let folder = try TemporaryFolder("runnect-schemas")
        let run = try #require(CourseFileSource.all.first { $0.label == "SampleTracks/banpo_hangang_night_run.gpx" })
        let gpx = String(
            decoding: try GPXWriter(options: ExportOptions(kind: .run)).data(for: run.activity), as: UTF8.self)
        let tcx = String(decoding: try TCXWriter().data(for: run.activity), as: UTF8.self)
        let broken = [
            (
                "hr0.gpx", XMLSchemaCheck.Schema.gpx,
                gpx.replacingOccurrences(of: "<gpxtpx:hr>113<", with: "<gpxtpx:hr>0<")
            ),
            ("lon180.gpx", .gpx, gpx.replacingOccurrences(of: "lon=\"126.9967588\"", with: "lon=\"180.0\"")),
            ("exponent.gpx", .gpx, gpx.replacingOccurrences(of: "lat=\"37.5101019\"", with: "lat=\"3.75101019e1\"")),
            ("name16.tcx", .tcx, tcx.replacingOccurrences(of: "<Name>반포", with: "<Name>0123456789abcdef")),
        ]
        var paths: [String] = []
        for (name, schema, text) in broken {
            let path = folder.path(name)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let invalid = try XMLSchemaCheck.invalidFiles([path], schema: schema, folder: folder)
            #expect(invalid[path] != nil, "\(name) was accepted")
            paths.append(path)
        }
        #expect(paths.count == 4)
    }

    @Test(
        "fitparse decodes every FIT file, CRCs checked: the message types and counts written",
        .requires(FitParse.present, FitParse.missing), arguments: CourseFileSource.all)
    func fitparse(_ source: CourseFileSource) throws {
        let folder = try TemporaryFolder("runnect-fitparse")
        let written = try Self.write(source, .fit, into: folder)
        let summaries = try FitParse.summaries(written.map(\.path))
        for file in written {
            let summary = try #require(summaries[file.path], "\(source.label): no summary")
            let counts = try #require(summary["counts"] as? [String: Int])
            let points = source.expectedPoints(file.kind, keepsUnpositioned: true).joined()
            let positioned = points.filter(CourseFileSource.hasPosition)
            let what = "\(source.label) as a \(file.kind)"
            #expect(summary["records"] as? Int == points.count, "\(what)")
            #expect(summary["records_with_position"] as? Int == positioned.count, "\(what)")
            let first = try #require(summary["first"] as? [Int])
            let last = try #require(summary["last"] as? [Int])
            #expect(first == Self.semicircles(positioned.first!), "\(what): first position")
            #expect(last == Self.semicircles(positioned.last!), "\(what): last position")

            // Runnect's reader of the same bytes counts what fitparse counts.
            let decoded = try FITReader().decode(from: FileByteStream(path: file.path))
            #expect(counts["event"] == decoded.summary.timerStartEvents + decoded.summary.timerStopEvents)
            if file.kind == .course {
                #expect(summary["file_type"] as? String == "course")
                #expect(
                    counts == [
                        "file_id": 1, "course": 1, "lap": 1, "event": 2, "course_point": 2, "record": points.count,
                    ], "\(what): \(counts)")
                #expect(summary["course_points"] as? [String] == ["Start", "Finish"])
                #expect(summary["event_types"] as? [String] == ["start", "stop_disable_all"])
                let path = Geodesic.length(of: positioned.map(\.coordinate))
                let lap = try #require((summary["lap_distances_m"] as? [Double])?.first)
                #expect(abs(lap - path) <= 0.0051, "\(what): lap \(lap) m vs path \(path) m")
            } else {
                let segments = source.expectedPoints(.run, keepsUnpositioned: true).count
                #expect(summary["file_type"] as? String == "activity")
                #expect(counts["file_id"] == 1 && counts["session"] == 1 && counts["activity"] == 1)
                #expect(counts["lap"] == segments, "\(what): a lap per segment")
                #expect(counts["record"] == points.count)
                let events = try #require(summary["event_types"] as? [String])
                #expect(events.count >= 2 && events.count % 2 == 0, "\(what): \(events)")
                #expect(events.enumerated().allSatisfy { $1 == ($0 % 2 == 0 ? "start" : "stop_all") }, "\(events)")
                let laps = try #require(summary["lap_distances_m"] as? [Double])
                let session = try #require(summary["session_distance_m"] as? Double)
                #expect(abs(laps.reduce(0, +) - session) <= 0.01 * Double(laps.count))
                #expect(abs(session - source.activity.stats().distanceMeters) <= 0.0051, "\(what): session \(session)")
            }
        }
    }

    @Test(
        "GPSBabel reads as many points from each GPX, TCX and FIT file as have a position",
        .requires(GPSBabel.present, GPSBabel.missing), arguments: CourseFileSource.all)
    func gpsbabel(_ source: CourseFileSource) throws {
        let folder = try TemporaryFolder("runnect-gpsbabel")
        let positioned = CourseFileSource.positioned(source.activity).count
        for format in CourseFileFormat.allCases {
            for file in try Self.write(source, format, into: folder) {
                let counts = try GPSBabel.counts(file.path, format: format.gpsbabelFormat)
                let expected =
                    file.routes
                    ? GPSBabel.Counts(trackPoints: 0, routePoints: positioned)
                    : GPSBabel.Counts(trackPoints: positioned, routePoints: 0)
                #expect(counts == expected, "\(source.label) as a \(file.kind) in \(format): \(counts)")
            }
        }
    }

    /// A position as FIT semicircles, computed here: round(degrees × 2³¹ / 180), 180° as −180°.
    static func semicircles(_ point: TrackPoint) -> [Int] {
        [point.latitude, point.longitude == 180 ? -180 : point.longitude].map {
            Int(($0 * 2_147_483_648 / 180).rounded())
        }
    }
}
